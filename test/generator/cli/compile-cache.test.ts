import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The compile cache (generator/cli/compile-cache.ts) only changes how fast the generator starts: a
// run with a cold, warm, corrupt or unwritable cache must write the same files and succeed.
const repoRoot = resolve(import.meta.dirname, "../../..");
const bin = join(repoRoot, "dist", "generator", "cli", "main.js");
const specDir = resolve(repoRoot, process.env.MCP_SPEC_DIR ?? "../shared/mcp-spec/schema");
const REVISION = "2025-03-26";

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-cc-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let runs = 0;
/** One CLI process with the given cache folder; returns its output files and exit status. */
function generate(cacheDir: string): {
  status: number | null;
  stderr: string;
  files: Map<string, string>;
} {
  // Each run in a folder of its own, writing to the same relative --out: the outputs must be byte-identical.
  const cwd = join(work, `run-${++runs}`);
  mkdirSync(cwd);
  const out = join(cwd, "out");
  const r = spawnSync(
    process.execPath,
    [bin, "--revision", REVISION, "--spec-dir", specDir, "--out", "out"],
    {
      cwd,
      encoding: "utf8",
      env: { ...process.env, MCP_GEN_CACHE_DIR: cacheDir },
    },
  );
  const files = new Map<string, string>();
  if (r.status === 0) {
    for (const name of readdirSync(out, { recursive: true, encoding: "utf8" }).sort()) {
      const path = join(out, name);
      if (statSync(path).isFile()) files.set(name, readFileSync(path, "utf8"));
    }
  }
  return { status: r.status, stderr: r.stderr, files };
}

const cacheFiles = (dir: string) =>
  readdirSync(join(dir, "v8"), { recursive: true, encoding: "utf8" }).filter((f) =>
    statSync(join(dir, "v8", f)).isFile(),
  );

describe("compile cache", () => {
  it("is written by the first run and leaves the output unchanged on the next", () => {
    const cache = join(work, "cache-a");
    const first = generate(cache);
    expect(first.status, first.stderr).toBe(0);
    expect(cacheFiles(cache).length).toBeGreaterThan(0);
    const second = generate(cache);
    expect(second.status, second.stderr).toBe(0);
    expect(second.files).toEqual(first.files);
    expect(first.files.size).toBeGreaterThan(5);
  });

  it("survives a corrupt cache and replaces it", () => {
    const cache = join(work, "cache-b");
    const reference = generate(cache);
    expect(reference.status, reference.stderr).toBe(0);
    for (const file of cacheFiles(cache)) writeFileSync(join(cache, "v8", file), "not V8 code");
    const after = generate(cache);
    expect(after.status, after.stderr).toBe(0);
    expect(after.files).toEqual(reference.files);
    for (const file of cacheFiles(cache))
      expect(statSync(join(cache, "v8", file)).size).toBeGreaterThan("not V8 code".length);
  });

  it("does not stop a run when the cache cannot be written", () => {
    const blocked = join(work, "not-a-folder");
    writeFileSync(blocked, "a file where the cache folder should be");
    const r = generate(blocked);
    expect(r.status, r.stderr).toBe(0);
    expect(r.files.size).toBeGreaterThan(5);
  });
});
