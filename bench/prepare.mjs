// Builds what the benchmarks measure: generated output for one revision, compiled to plain JavaScript
// (a benchmark must not pay for TypeScript transpilation), under .bench-tmp/.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
export const SPEC_DIR = resolve(
  process.env.MCP_SPEC_DIR ?? join(ROOT, "..", "shared", "mcp-spec", "schema"),
);
/** Scratch folder; BENCH_TMP moves it, but only within the project (its scripts resolve node_modules and ESM from there). */
export const TMP = resolve(process.env.BENCH_TMP ?? join(ROOT, ".bench-tmp"));

/**
 * Generates `revision` with the built CLI and compiles it; returns the folder of the JavaScript.
 * With `legacy` revisions, the dual-era server (`--legacy`), in a folder named after all of them;
 * `flags` are further options (`--auth`, `--json-schema ajv`), which name the folder too.
 */
export function prepareRevision(revision, legacy = [], flags = []) {
  const cli = join(ROOT, "dist", "generator", "cli", "main.js");
  if (!existsSync(cli)) throw new Error("run `npm run build` first");
  const name = [revision, ...legacy, ...flags.map((f) => f.replace(/^--/, ""))].join("+");
  const out = join(TMP, "src", name);
  // No legacy revisions named: the modern-only output (the default would add every earlier one).
  const legacyArgs = ["--legacy", legacy.length > 0 ? legacy.join(",") : "none"];
  execFileSync(
    process.execPath,
    [cli, "--revision", revision, ...legacyArgs, ...flags, "--spec-dir", SPEC_DIR, "--out", out],
    { stdio: "inherit" },
  );
  const tsconfig = join(TMP, `tsconfig.${name}.json`);
  mkdirSync(TMP, { recursive: true });
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        rootDir: out,
        outDir: join(TMP, "js", name),
        types: ["node"],
        typeRoots: [join(ROOT, "node_modules", "@types")],
        skipLibCheck: true,
      },
      include: [join(out, "**/*.ts")],
    }),
  );
  execFileSync(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", tsconfig], { stdio: "inherit" });
  return join(TMP, "js", name);
}
