import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateWithCache } from "../../helpers/cache-runs.js";

// The compile cache (generator/cli/compile-cache.ts) only changes how fast the generator starts: a
// run with a cold, warm, corrupt or unwritable cache must write the same files and succeed.
const REVISION = "2025-03-26";

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-cc-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const generate = (cacheDir: string) => generateWithCache(work, cacheDir, REVISION);

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
    // Without kept models the run parses its schema, so it loads (and compiles) the parser again.
    rmSync(join(cache, "model"), { recursive: true });
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
