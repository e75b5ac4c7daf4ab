import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateWithCache } from "../../helpers/cache-runs.js";

// The formatted bodies a run keeps (generator/cli/kept-files.ts) spare the next run prettier's work
// on what it formatted before; they must never change what is written: a warm, partly useless or
// broken cache gives the same files as none.
const REVISION = "2025-03-26";

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-fc-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const generate = (cacheDir: string, options: string[] = [], out?: string) =>
  generateWithCache(work, cacheDir, REVISION, options, out);

const kept = (cache: string): string[] => {
  try {
    return readdirSync(join(cache, "format")).sort();
  } catch {
    return [];
  }
};

describe("formatted bodies kept between runs", () => {
  it("keeps each formatted body once; a run after it formats nothing new and writes the same files", () => {
    const cache = join(work, "cache-a");
    const first = generate(cache);
    expect(first.status, first.stderr).toBe(0);
    const entries = kept(cache);
    const formattedModules = [...first.files.keys()].filter(
      (f) => f.endsWith(".ts") && !f.startsWith("runtime/"),
    );
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.length).toBeLessThanOrEqual(formattedModules.length);
    const second = generate(cache);
    expect(second.status, second.stderr).toBe(0);
    expect(second.files).toEqual(first.files);
    expect(kept(cache)).toEqual(entries);
  });

  it("finds the bodies again when only the header changes, and formats only the bodies an option changed", () => {
    const cache = join(work, "cache-b");
    expect(generate(cache).status).toBe(0);
    const entries = kept(cache);
    // Another --out: another regenerate command in every header, the same bodies.
    const headerOnly = generate(cache, [], "elsewhere");
    expect(headerOnly.status, headerOnly.stderr).toBe(0);
    expect(headerOnly.files.get("types.ts")).toContain("--out elsewhere");
    expect(kept(cache)).toEqual(entries);
    const telemetry = generate(cache, ["--telemetry", "otel"]);
    expect(telemetry.status, telemetry.stderr).toBe(0);
    const added = kept(cache).filter((e) => !entries.includes(e));
    expect(added.length).toBeGreaterThan(0);
    expect(added.length).toBeLessThan(entries.length);
    expect(telemetry.files).toEqual(
      generate(join(work, "cache-b-fresh"), ["--telemetry", "otel"]).files,
    );
  });

  it("formats again what it cannot read, and does not stop a run it cannot keep for", () => {
    const cache = join(work, "cache-c");
    const reference = generate(cache);
    expect(reference.status, reference.stderr).toBe(0);
    // An entry that is a folder cannot be read: formatted again, the same bytes.
    const [entry] = kept(cache);
    rmSync(join(cache, "format", entry!));
    mkdirSync(join(cache, "format", entry!));
    const unreadable = generate(cache);
    expect(unreadable.status, unreadable.stderr).toBe(0);
    expect(unreadable.files).toEqual(reference.files);
    // A file where the folder should be: nothing kept, the same output.
    const blocked = join(work, "cache-d");
    mkdirSync(blocked);
    writeFileSync(join(blocked, "format"), "a file where the folder should be");
    const r = generate(blocked);
    expect(r.status, r.stderr).toBe(0);
    expect(r.files).toEqual(reference.files);
  });
});
