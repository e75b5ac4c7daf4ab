import { readdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { compileCacheDir, formatCacheDir, modelCacheDir, specCacheDir } from "./cache-dir.js";
import { REVISION_NAME } from "./revisions.js";

/**
 * What the cache holds, and its upkeep. A downloaded revision carries a stamp naming the commit it
 * came from (so a changed pin is fetched again rather than served stale); every entry's stamp or
 * file is touched when used, and entries unused for `STALE_AFTER_DAYS` are pruned: one cache serves
 * every project of a user, each perhaps with another mcp-gen version and other pins.
 */
export const PIN_STAMP = ".mcp-gen-pin.json";
export const STALE_AFTER_DAYS = 30;
/**
 * Formatted bodies are small and many (a revision with its legacy ones keeps about 0.8 MB), loaded
 * models fewer and larger (0.1–0.3 MB a revision): of each, beyond this many bytes the least
 * recently used go, whatever their age.
 */
export const KEPT_PART_MAX_BYTES = 64 * 1024 * 1024;

/** The parts of many files, each added by runs as they go, that are held to `KEPT_PART_MAX_BYTES`. */
export const KEPT_PARTS = ["format", "model"] as const;
export type KeptPart = (typeof KEPT_PARTS)[number];

export interface PinStamp {
  commit: string;
  files: Record<string, string>;
}

export interface CacheEntry {
  part: "spec" | "v8" | KeptPart;
  /** Revision name, or the compiled code's, formatted body's or loaded model's file name. */
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
  for (const [part, dir] of [
    ["v8", compileCacheDir(cacheRoot)],
    ["format", formatCacheDir(cacheRoot)],
    ["model", modelCacheDir(cacheRoot)],
  ] as const)
    for (const name of list(dir)) {
      const path = join(dir, name);
      entries.push({ part, name, path, bytes: sizeOf(path), lastUsed: lastUsed(path, path) });
    }
  return entries;
}

/**
 * Removes entries unused for `maxAgeDays`, then of each kept part (formatted bodies, loaded models)
 * the least recently used beyond `maxKeptBytes`; returns what it removed. Never throws.
 */
export function pruneCache(
  cacheRoot: string,
  now: number = Date.now(),
  maxAgeDays: number = STALE_AFTER_DAYS,
  maxKeptBytes: number = KEPT_PART_MAX_BYTES,
): CacheEntry[] {
  const limit = now - maxAgeDays * 86_400_000;
  const entries = cacheEntries(cacheRoot);
  const stale = entries.filter((e) => e.lastUsed.getTime() < limit);
  for (const part of KEPT_PARTS) {
    const kept = entries
      .filter((e) => e.part === part && e.lastUsed.getTime() >= limit)
      .sort((a, b) => b.lastUsed.getTime() - a.lastUsed.getTime());
    let bytes = 0;
    for (const entry of kept) {
      bytes += entry.bytes;
      if (bytes > maxKeptBytes) stale.push(entry);
    }
  }
  for (const entry of stale) rmSync(entry.path, { recursive: true, force: true });
  return stale;
}

/** Empties the cache (or one part of it). */
export function clearCache(cacheRoot: string, part?: CacheEntry["part"]): void {
  const dirs = {
    spec: specCacheDir,
    v8: compileCacheDir,
    format: formatCacheDir,
    model: modelCacheDir,
  };
  for (const [name, dir] of Object.entries(dirs))
    if (part === undefined || part === name)
      rmSync(dir(cacheRoot), { recursive: true, force: true });
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
