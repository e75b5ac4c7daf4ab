import { readdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { compileCacheDir, specCacheDir } from "./cache-dir.js";
import { REVISION_NAME } from "./revisions.js";

/**
 * What the cache holds, and its upkeep. A downloaded revision carries a stamp naming the commit it
 * came from (so a changed pin is fetched again rather than served stale); every entry's stamp or
 * file is touched when used, and entries unused for `STALE_AFTER_DAYS` are pruned: one cache serves
 * every project of a user, each perhaps with another mcp-gen version and other pins.
 */
export const PIN_STAMP = ".mcp-gen-pin.json";
export const STALE_AFTER_DAYS = 30;

export interface PinStamp {
  commit: string;
  files: Record<string, string>;
}

export interface CacheEntry {
  part: "spec" | "v8";
  /** Revision name, or the compiled-code file's name. */
  name: string;
  path: string;
  bytes: number;
  lastUsed: Date;
  /** For a revision: the commit it was downloaded from (null when unstamped). */
  commit?: string | null;
}

export function readStamp(revisionDir: string): PinStamp | null {
  try {
    const data = JSON.parse(
      readFileSync(join(revisionDir, PIN_STAMP), "utf8"),
    ) as Partial<PinStamp>;
    return typeof data.commit === "string" && typeof data.files === "object" && data.files !== null
      ? (data as PinStamp)
      : null;
  } catch {
    return null;
  }
}

/** Records a use; best-effort (a read-only cache still serves). */
export function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // nothing to do: an entry that cannot be touched is at worst pruned and fetched again
  }
}

export function cacheEntries(cacheRoot: string): CacheEntry[] {
  const entries: CacheEntry[] = [];
  const spec = specCacheDir(cacheRoot);
  for (const name of list(spec).filter((n) => REVISION_NAME.test(n))) {
    const path = join(spec, name);
    const stamp = readStamp(path);
    entries.push({
      part: "spec",
      name,
      path,
      bytes: sizeOf(path),
      lastUsed: lastUsed(join(path, PIN_STAMP), path),
      commit: stamp?.commit ?? null,
    });
  }
  const v8 = compileCacheDir(cacheRoot);
  for (const name of list(v8)) {
    const path = join(v8, name);
    entries.push({ part: "v8", name, path, bytes: sizeOf(path), lastUsed: lastUsed(path, path) });
  }
  return entries;
}

/** Removes entries unused for `maxAgeDays`; returns what it removed. Never throws. */
export function pruneCache(
  cacheRoot: string,
  now: number = Date.now(),
  maxAgeDays: number = STALE_AFTER_DAYS,
): CacheEntry[] {
  const limit = now - maxAgeDays * 86_400_000;
  const stale = cacheEntries(cacheRoot).filter((e) => e.lastUsed.getTime() < limit);
  for (const entry of stale) rmSync(entry.path, { recursive: true, force: true });
  return stale;
}

/** Empties the cache (or one part of it). */
export function clearCache(cacheRoot: string, part?: CacheEntry["part"]): void {
  if (part !== "v8") rmSync(specCacheDir(cacheRoot), { recursive: true, force: true });
  if (part !== "spec") rmSync(compileCacheDir(cacheRoot), { recursive: true, force: true });
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => !n.startsWith("."))
      .sort();
  } catch {
    return [];
  }
}

function lastUsed(stamp: string, fallback: string): Date {
  for (const path of [stamp, fallback]) {
    try {
      return statSync(path).mtime;
    } catch {
      // try the next
    }
  }
  return new Date(0);
}

function sizeOf(path: string): number {
  try {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.size;
    return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
  } catch {
    return 0;
  }
}
