import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, win32 } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { userCacheDir } from "../../../generator/spec/cache-dir.js";
import {
  cacheEntries,
  clearCache,
  PIN_STAMP,
  pruneCache,
} from "../../../generator/spec/cache-entries.js";

describe("userCacheDir", () => {
  it("follows each platform's convention, MCP_GEN_CACHE_DIR first", () => {
    expect(
      userCacheDir({ MCP_GEN_CACHE_DIR: "/x/c", XDG_CACHE_HOME: "/xdg" }, "linux", "/home/u"),
    ).toBe("/x/c");
    expect(userCacheDir({ XDG_CACHE_HOME: "/xdg" }, "linux", "/home/u")).toBe("/xdg/mcp-gen");
    expect(userCacheDir({}, "linux", "/home/u")).toBe("/home/u/.cache/mcp-gen");
    expect(userCacheDir({ XDG_CACHE_HOME: "relative/xdg" }, "linux", "/home/u")).toBe(
      "/home/u/.cache/mcp-gen",
    );
    expect(userCacheDir({ XDG_CACHE_HOME: "/xdg" }, "darwin", "/Users/u")).toBe(
      "/Users/u/Library/Caches/mcp-gen",
    );
    expect(
      userCacheDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32", "C:\\Users\\u"),
    ).toBe(win32.join("C:\\Users\\u\\AppData\\Local", "mcp-gen"));
  });
});

describe("cache upkeep", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function fill(): void {
    root = mkdtempSync(join(tmpdir(), "mcp-gen-cache-"));
    for (const rev of ["2025-06-18", "draft"]) {
      mkdirSync(join(root, "spec", rev), { recursive: true });
      writeFileSync(join(root, "spec", rev, "schema.ts"), "// x\n");
      writeFileSync(
        join(root, "spec", rev, PIN_STAMP),
        JSON.stringify({ commit: "a".repeat(40), files: {} }),
      );
    }
    mkdirSync(join(root, "v8"));
    writeFileSync(join(root, "v8", "old.bin"), "x");
    writeFileSync(join(root, "v8", "new.bin"), "xy");
    mkdirSync(join(root, "format"));
    for (const key of ["f1", "f2", "f3"]) writeFileSync(join(root, "format", key), "x".repeat(10));
    mkdirSync(join(root, "model"));
    for (const key of ["m1", "m2"]) writeFileSync(join(root, "model", key), "x".repeat(20));
  }

  it("lists downloads, compiled code, formatted bodies and models apart, with the commit each revision came from", () => {
    fill();
    const entries = cacheEntries(root).map((e) => [e.part, e.name, e.commit ?? null, e.bytes > 0]);
    expect(entries).toEqual([
      ["spec", "2025-06-18", "a".repeat(40), true],
      ["spec", "draft", "a".repeat(40), true],
      ["v8", "new.bin", null, true],
      ["v8", "old.bin", null, true],
      ["format", "f1", null, true],
      ["format", "f2", null, true],
      ["format", "f3", null, true],
      ["model", "m1", null, true],
      ["model", "m2", null, true],
    ]);
  });

  it("keeps formatted bodies and models each under the size limit, the least recently used going first", () => {
    fill();
    const now = Date.now();
    utimesSync(join(root, "format", "f2"), new Date(now - 3000), new Date(now - 3000));
    utimesSync(join(root, "format", "f1"), new Date(now - 2000), new Date(now - 2000));
    utimesSync(join(root, "format", "f3"), new Date(now - 1000), new Date(now - 1000));
    utimesSync(join(root, "model", "m1"), new Date(now - 1000), new Date(now - 1000));
    // 30 bytes of bodies and 40 of models: each part is held to the limit apart.
    expect(pruneCache(root, now, 30, 25).map((e) => e.name)).toEqual(["f2", "m1"]);
    expect(pruneCache(root, now, 30, 9).map((e) => e.name)).toEqual(["f3", "f1", "m2"]);
    expect(cacheEntries(root).filter((e) => e.part === "format" || e.part === "model")).toEqual([]);
    expect(cacheEntries(root).map((e) => e.name)).toEqual([
      "2025-06-18",
      "draft",
      "new.bin",
      "old.bin",
    ]);
  });

  it("prunes only what went unused for 30 days", () => {
    fill();
    const now = Date.now();
    const old = new Date(now - 31 * 86_400_000);
    utimesSync(join(root, "spec", "draft", PIN_STAMP), old, old);
    utimesSync(join(root, "v8", "old.bin"), old, old);
    expect(
      pruneCache(root, now)
        .map((e) => e.name)
        .sort(),
    ).toEqual(["draft", "old.bin"]);
    expect(cacheEntries(root).map((e) => e.name)).toEqual([
      "2025-06-18",
      "new.bin",
      "f1",
      "f2",
      "f3",
      "m1",
      "m2",
    ]);
  });

  it("clears one part or all", () => {
    fill();
    clearCache(root, "v8");
    expect(existsSync(join(root, "v8"))).toBe(false);
    expect(existsSync(join(root, "spec", "draft"))).toBe(true);
    clearCache(root, "format");
    expect(existsSync(join(root, "format"))).toBe(false);
    clearCache(root, "model");
    expect(existsSync(join(root, "model"))).toBe(false);
    expect(existsSync(join(root, "spec", "draft"))).toBe(true);
    clearCache(root);
    expect(cacheEntries(root)).toEqual([]);
  });
});
