/** The library API (`exports` of the package): generate, loadModel, diff, deprecations, in-process. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { deprecations, diff, generate, isBreaking, loadModel } from "../../generator/api.js";
import { rawHost, type RawHost } from "../helpers/raw-host.js";
import { SPEC_DIR, schemaFile } from "../helpers/spec.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-api-"));
let host: RawHost;
afterAll(async () => {
  await host?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("library API", () => {
  it("generate: downloads into the cache its env names, writes, then check reports nothing to change", async () => {
    host = await rawHost(SPEC_DIR);
    const env = { MCP_SPEC_BASE_URL: host.base, MCP_GEN_CACHE_DIR: "cache" };
    const lines: string[] = [];
    const written = await generate({
      revision: "2025-03-26",
      out: "out",
      cwd: work,
      env,
      log: (l) => lines.push(l),
    });
    expect(written.origin).toBe("fetched");
    expect(host.served).toHaveLength(2);
    expect(lines).toEqual([expect.stringContaining("fetching pinned revision 2025-03-26")]);
    expect(existsSync(join(work, "cache", "spec", "2025-03-26", "schema.ts"))).toBe(true);
    expect(written.files).toContain("types.ts");
    expect(written.changes.map((c) => c.kind)).toEqual(written.changes.map(() => "added"));
    const checked = await generate({
      revision: "2025-03-26",
      out: "out",
      cwd: work,
      env,
      check: true,
    });
    expect(checked).toMatchObject({ origin: "cache", changes: [], files: [] });
    expect(readFileSync(join(work, "out", "types.ts"), "utf8")).toContain(
      "regenerate with `mcp-gen --revision 2025-03-26 --out out`",
    );
  });

  it("generate: the CLI's options (legacy, auth) and mcp-gen.config.json, through the same pipeline", async () => {
    const project = join(work, "project");
    mkdirSync(project);
    writeFileSync(
      join(project, "mcp-gen.config.json"),
      JSON.stringify({
        revisions: ["2026-07-28"],
        out: "src/mcp",
        legacy: ["2025-11-25"],
        auth: true,
      }),
    );
    const checked = await generate({ cwd: project, specDir: SPEC_DIR, check: true });
    expect(checked).toMatchObject({
      revision: "2026-07-28",
      outDir: join(project, "src", "mcp"),
      files: [],
    });
    expect(checked.checks.every((c) => c.reason === "added")).toBe(true);
    expect(checked.changes.map((c) => c.path)).toContain("runtime/auth/oauth-client.ts");
    expect(checked.changes.map((c) => c.path)).toContain("legacy/2025-11-25/types.ts");
    // config: false reads no file: the options alone, here none naming a revision.
    await expect(generate({ cwd: project, specDir: SPEC_DIR, config: false })).rejects.toThrow(
      "missing --revision R (repeatable) or --all",
    );
    writeFileSync(
      join(project, "mcp-gen.config.json"),
      '{ "revisions": ["2026-07-28"], "outs": "x" }',
    );
    await expect(generate({ cwd: project, specDir: SPEC_DIR })).rejects.toThrow(
      'unknown key "outs"; did you mean "out"?',
    );
    writeFileSync(
      join(project, "mcp-gen.config.json"),
      '{ "revisions": ["2026-07-28", "2025-11-25"] }',
    );
    await expect(generate({ cwd: project, specDir: SPEC_DIR, check: true })).rejects.toThrow(
      "generate() makes one revision's output; 2 were asked for: pass `revision`",
    );
  });

  it("loadModel, diff and deprecations", () => {
    const older = loadModel(schemaFile("2025-11-25"), { revision: "2025-11-25" });
    const newer = loadModel(schemaFile("2026-07-28"), { revision: "2026-07-28" });
    const changes = diff(older, newer);
    expect(
      changes.some(
        (c) =>
          c.ruleId === "method-removed" && c.location === "initialize" && isBreaking(c.severity),
      ),
    ).toBe(true);
    expect(diff(newer, newer)).toEqual([]);
    const registry = deprecations(newer);
    expect(registry.length).toBeGreaterThan(0);
    expect(registry.every((e) => e.asOf === null || /^\d{4}-\d{2}-\d{2}$/.test(e.asOf))).toBe(true);
  });
});
