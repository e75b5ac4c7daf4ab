/**
 * The output README's promises: the packages it lists are exactly those the emitted files import
 * (none without an add-on flag), with the versions mcp-gen's own tests pin; the tools output has a
 * README naming its tools and its regenerate command.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderRevision } from "../../../generator/emit/index.js";
import { importedPackages, packageName } from "../../../generator/emit/packages.js";
import { loadModel } from "../../../generator/load/index.js";
import { runCli } from "../../helpers/cli.js";
import { emitFacts, ROOT, schemaFile } from "../../helpers/spec.js";

const REVISION = "2026-07-28";
const model = loadModel(schemaFile(REVISION), { revision: REVISION });
const pinned = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies;

/** The README's "Packages" table rows as [package, version]. */
function listed(readme: string): string[][] {
  return [...readme.matchAll(/^\| `([^`]+)` \| ([^ |]+) \| `/gm)].map((m) => [m[1]!, m[2]!]);
}

async function render(facts: { auth?: boolean; jsonSchema?: "ajv" | "cfworker"; store?: "redis" }) {
  const files = await renderRevision(model, "0.0.0", { ...emitFacts(model), ...facts });
  return { files, readme: files.find((f) => f.path === "README.md")!.content };
}

describe("output README: packages", () => {
  it("lists none and says so when no add-on flag is set", async () => {
    const { files, readme } = await render({});
    expect(importedPackages(files)).toEqual([]);
    expect(listed(readme)).toEqual([]);
    expect(readme).toContain("no dependencies");
    expect(readme).toContain("It needs no package at run time.");
  });

  for (const facts of [
    { auth: true },
    { jsonSchema: "ajv" as const },
    { jsonSchema: "cfworker" as const },
    { store: "redis" as const },
  ]) {
    it(`lists every package ${JSON.stringify(facts)} brings in, at its pinned version, and no other`, async () => {
      const { files, readme } = await render(facts);
      const imported = new Set<string>();
      for (const file of files.filter((f) => f.path.endsWith(".ts")))
        for (const [, spec] of file.content.matchAll(/from\s+"([^"]+)"/g)) {
          const name = packageName(spec!);
          if (name) imported.add(name);
        }
      expect(imported.size).toBeGreaterThan(0);
      expect(listed(readme)).toEqual([...imported].sort().map((name) => [name, pinned[name]]));
      expect(readme).not.toContain("no dependencies");
    });
  }

  it("reads package names off specifiers", () => {
    expect(packageName("ajv/dist/2020.js")).toBe("ajv");
    expect(packageName("@cfworker/json-schema")).toBe("@cfworker/json-schema");
    expect(packageName("node:http")).toBeNull();
    expect(packageName("./runtime/checks.js")).toBeNull();
  });
});

describe("tools output README", () => {
  const work = mkdtempSync(join(tmpdir(), "mcp-gen-tools-readme-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("names each tool with its types and the regenerate and check commands", async () => {
    const out = join(work, "out");
    const run = await runCli(["tools", join(ROOT, "examples", "tools.ts"), "--out", out], {
      env: { MCP_GEN_CACHE_DIR: join(work, "cache") },
      cwd: work,
    });
    expect(run.code).toBe(0);
    const readme = readFileSync(join(out, "README.md"), "utf8");
    const tools = (await import(join(out, "tools.ts"))) as { TOOLS: Record<string, unknown> };
    for (const name of Object.keys(tools.TOOLS)) expect(readme).toContain(`| \`${name}\` |`);
    expect(readme).toMatch(/regenerate with `mcp-gen tools \S+ --out \S+`/);
    expect(readme).toMatch(/`mcp-gen tools \S+ --out \S+ --check` exits 1/);
  });
});
