/**
 * mcp-gen as a user gets it: the packed tarball (`npm pack`) installed into an empty project, with
 * no spec folder anywhere and a local stand-in for the raw-content host (MCP_SPEC_BASE_URL on
 * 127.0.0.1). `npx mcp-gen --revision 2026-07-28` must download, verify, cache and generate; a
 * second run must use the cache; `--check` must be 0 after it and 1 after a hand edit. The library
 * API is imported from the same install, typed.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRevisions } from "../../generator/spec/revisions.js";
import { rawHost, type RawHost } from "../helpers/raw-host.js";
import { ROOT, SPEC_DIR } from "../helpers/spec.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../helpers/tsc.js";

const run = promisify(execFile);
const REVISION = "2026-07-28";
/** What `--legacy` is for it by default, as the header names it (newest first). */
const DEFAULT_LEGACY = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
let work: string;
let consumer: string;
let host: RawHost;
let base: string;
let served: string[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-consumer-"));
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], {
      cwd: ROOT,
      encoding: "utf8",
    }),
  ) as Array<{ filename: string }>;
  consumer = join(work, "app");
  mkdirSync(consumer);
  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify({ name: "app", private: true, type: "module" }),
  );
  // Dependencies come from npm's cache where it has them (CI's npm ci filled it).
  execFileSync(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", join(work, packed[0]!.filename)],
    { cwd: consumer, stdio: "ignore" },
  );

  host = await rawHost(SPEC_DIR);
  base = host.base;
  served = host.served;
}, 300_000);

afterAll(async () => {
  await host?.close();
  rmSync(work, { recursive: true, force: true });
});

/** `npx mcp-gen …` in the consumer project: no spec folder, the stand-in host, a private cache. */
async function mcpGen(...args: string[]): Promise<{ code: number; stderr: string }> {
  return mcpGenWith({}, ...args);
}

/** As mcpGen, with `extra` added to the environment (MCP_SPEC_DIR: a spec folder). */
async function mcpGenWith(
  extra: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ code: number; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MCP_SPEC_BASE_URL: base,
    MCP_GEN_CACHE_DIR: join(work, "cache"),
    npm_config_offline: "true",
  };
  delete env.MCP_SPEC_DIR;
  Object.assign(env, extra);
  try {
    const { stderr } = await run("npx", ["mcp-gen", ...args], {
      cwd: consumer,
      env,
      encoding: "utf8",
    });
    return { code: 0, stderr };
  } catch (e) {
    const error = e as { code?: number; stderr?: string };
    return {
      code: typeof error.code === "number" ? error.code : -1,
      stderr: error.stderr ?? String(e),
    };
  }
}

describe("the packed package in an empty project", () => {
  it("downloads, verifies, caches and generates; then uses the cache; --check is 0, then 1 after a hand edit", async () => {
    const pin = readRevisions().revisions[REVISION]!;
    const first = await mcpGen("--revision", REVISION);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(
      `fetching pinned revision ${REVISION} from ${base}/${pin.commit}/schema/${REVISION}/`,
    );
    expect(first.stderr).toMatch(/schema from fetched/);
    // The default --legacy: every released initialize-era revision before it is fetched too.
    const pins = readRevisions().revisions;
    for (const legacy of DEFAULT_LEGACY)
      expect(first.stderr).toContain(
        `fetching pinned revision ${legacy} from ${base}/${pins[legacy]!.commit}/schema/${legacy}/`,
      );
    expect(served.sort()).toEqual(
      [REVISION, ...DEFAULT_LEGACY]
        .flatMap((revision) =>
          Object.keys(pins[revision]!.files).map(
            (p) => `/${pins[revision]!.commit}/schema/${revision}/${p}`,
          ),
        )
        .sort(),
    );
    expect(
      JSON.parse(readFileSync(join(work, "cache", "spec", REVISION, ".mcp-gen-pin.json"), "utf8")),
    ).toMatchObject({ commit: pin.commit });
    const out = join(consumer, "generated", REVISION);
    expect(readFileSync(join(out, "README.md"), "utf8")).toContain(
      `pinned at upstream commit \`${pin.commit}\``,
    );

    const requests = served.length;
    const second = await mcpGen("--revision", REVISION);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/schema from cache/);
    expect(served.length).toBe(requests);

    expect((await mcpGen("--revision", REVISION, "--check")).code).toBe(0);
    writeFileSync(
      join(out, "types.ts"),
      `${readFileSync(join(out, "types.ts"), "utf8")}// edited\n`,
    );
    const check = await mcpGen("--revision", REVISION, "--check");
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(
      `mcp-gen: --check: generated/${REVISION}/types.ts: edited by hand since mcp-gen wrote it\n` +
        "mcp-gen: --check: 1 file would change (the diff is on stdout); move hand edits elsewhere, or pass --force to overwrite them\n",
    );
  });

  it("exports a typed library API: generate, loadModel, diff, deprecations and the IR types", async () => {
    writeFileSync(
      join(consumer, "use.ts"),
      `import { deprecations, diff, generate, isBreaking, loadModel, type Change, type GenerateResult, type ProtocolModel } from "mcp-gen";
const schema = process.argv[2]!;
const model: ProtocolModel = loadModel(schema, { revision: "${REVISION}" });
const changes: Change[] = diff(model, model);
const result: GenerateResult = await generate({ revision: "${REVISION}", specDir: process.argv[3]!, out: "lib-out", check: true });
console.log(JSON.stringify({ methods: model.methods.length, changes: changes.length, breaking: changes.some((c) => isBreaking(c.severity)), deprecations: deprecations(model).length, pending: result.changes.length }));
`,
    );
    const checked = tsc(consumer, {
      compilerOptions: { ...STRICT_OPTIONS, ...NODE_TYPES, noEmit: false, outDir: "js" },
      files: ["use.ts"],
    });
    expect(checked.status, checked.output).toBe(0);
    const { stdout } = await run(
      process.execPath,
      [join(consumer, "js", "use.js"), join(SPEC_DIR, REVISION, "schema.ts"), SPEC_DIR],
      {
        cwd: consumer,
        env: { ...process.env, MCP_GEN_CACHE_DIR: join(work, "cache") },
        encoding: "utf8",
      },
    );
    const summary = JSON.parse(stdout) as {
      methods: number;
      changes: number;
      breaking: boolean;
      deprecations: number;
      pending: number;
    };
    expect(summary.methods).toBeGreaterThan(10);
    expect(summary).toMatchObject({ changes: 0, breaking: false });
    expect(summary.deprecations).toBeGreaterThan(0);
    expect(summary.pending).toBeGreaterThan(0); // lib-out does not exist yet: every file would be added
  });

  it("npx mcp-gen init writes the config; npx mcp-gen generates it (spec from MCP_SPEC_DIR) and --check passes", async () => {
    const init = await mcpGen("init");
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(consumer, "mcp-gen.config.json"), "utf8"))).toEqual({
      revisions: [REVISION],
      out: "src/mcp",
    });
    const generated = await mcpGenWith({ MCP_SPEC_DIR: SPEC_DIR });
    expect(generated.code, generated.stderr).toBe(0);
    expect(generated.stderr).toMatch(
      new RegExp(`^mcp-gen: ${REVISION}: wrote \\d+ files to src/mcp \\(schema from env, `),
    );
    expect(readFileSync(join(consumer, "src", "mcp", "types.ts"), "utf8")).toContain(
      `regenerate with \`mcp-gen --revision ${REVISION} --legacy ${DEFAULT_LEGACY.join(",")} --out src/mcp\``,
    );
    // The same inputs, the schema now from the cache the first test filled: still up to date.
    expect(await mcpGen("--check")).toEqual({
      code: 0,
      stderr: "mcp-gen: --check: src/mcp up to date\n",
    });
  });

  it("ships source maps that carry their sources", () => {
    const map = JSON.parse(
      readFileSync(
        join(consumer, "node_modules", "mcp-gen", "dist", "generator", "api.js.map"),
        "utf8",
      ),
    ) as { sources: string[]; sourcesContent?: string[] };
    expect(map.sourcesContent).toHaveLength(map.sources.length);
    expect(map.sourcesContent![0]).toBe(readFileSync(join(ROOT, "generator", "api.ts"), "utf8"));
    expect(
      existsSync(join(consumer, "node_modules", "mcp-gen", "dist", "generator", "api.d.ts")),
    ).toBe(true);
  });
});
