import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { GeneratorError } from "../errors.js";
import { replaceDir } from "../fs/replace-dir.js";
import { PIN_STAMP, type PinStamp } from "./cache-entries.js";
import { sha256Hex } from "./integrity.js";
import { didYouMean } from "../suggest.js";
import { defaultCacheDir } from "./project-root.js";
import { readRevisions, type RevisionEntry, type RevisionsManifest } from "./revisions.js";

/**
 * Downloads one pinned revision into the cache, `schema/<rev>/`.
 *
 * Every file is checked against revisions.json before anything touches the
 * disk, and the finished folder is renamed into place in one step, so an
 * interrupted or rejected fetch never leaves a half-written revision behind
 * for `resolveSchema` to pick up.
 */
export interface FetchOptions {
  /** Where `<rev>/` is created; defaults to the project's `schema/`. */
  cacheDir?: string;
  /** Replaces revisions.json's rawBaseUrl; files come from `<baseUrl>/<commit>/schema/<rev>/<path>`. */
  baseUrl?: string | undefined;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Consulted for MCP_SPEC_BASE_URL (so tests can point at a local server). */
  env?: NodeJS.ProcessEnv;
  /** Defaults to schema/revisions.json. */
  manifest?: RevisionsManifest;
  /** Per-file timeout. */
  timeoutMs?: number;
}

export interface FetchResult {
  revision: string;
  /** The installed `<cacheDir>/<rev>` folder. */
  dir: string;
  /** Relative paths written, sorted. */
  files: string[];
  /** Where the files came from, `<baseUrl>/<commit>/schema/<rev>/`. */
  source: string;
}

const CONCURRENCY = 8;

/** `<baseUrl>/<commit>/schema/<rev>/` for a revision, honouring MCP_SPEC_BASE_URL. */
export function revisionSourceUrl(
  revision: string,
  entry: RevisionEntry,
  manifest: RevisionsManifest,
  options: Pick<FetchOptions, "baseUrl" | "env"> = {},
): string {
  const env = options.env ?? process.env;
  const base = options.baseUrl ?? (env.MCP_SPEC_BASE_URL || undefined) ?? manifest.rawBaseUrl;
  return `${base.replace(/\/+$/, "")}/${entry.commit}/schema/${revision}/`;
}

export async function fetchRevision(
  revision: string,
  options: FetchOptions = {},
): Promise<FetchResult> {
  const manifest = options.manifest ?? readRevisions();
  const entry = manifest.revisions[revision];
  if (!entry) {
    const known = Object.keys(manifest.revisions).sort().join(", ");
    throw new GeneratorError(
      `cannot fetch unknown revision "${revision}"; pinned revisions: ${known}${didYouMean(revision, Object.keys(manifest.revisions))} (pin a new one with --commit)`,
    );
  }
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const source = revisionSourceUrl(revision, entry, manifest, options);
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const paths = Object.keys(entry.files).sort();

  // 1. Download and verify everything in memory: a mismatch must leave the disk alone.
  const contents = await downloadAll(source, paths, doFetch, timeoutMs, (path, url, data) => {
    const expected = entry.files[path];
    const actual = sha256Hex(data);
    if (actual !== expected) {
      throw new GeneratorError(
        `sha256 mismatch for schema/${revision}/${path}: expected ${expected}, got ${actual}; cache left unchanged`,
        url,
      );
    }
  });
  // 2. Write a complete copy next to the target (same filesystem), then swap it in.
  const dir = installRevision(cacheDir, revision, entry, contents);
  return { revision, dir, files: paths, source };
}

/**
 * Downloads `paths` under `source`, at most CONCURRENCY at a time, each checked by `check` before it
 * is kept. With `optional`, a file the host does not have (404) is left out instead of failing.
 */
export async function downloadAll(
  source: string,
  paths: readonly string[],
  doFetch: typeof globalThis.fetch,
  timeoutMs: number,
  check: (path: string, url: string, data: Uint8Array) => void,
  optional: (path: string) => boolean = () => false,
): Promise<Map<string, Uint8Array>> {
  const contents = new Map<string, Uint8Array>();
  await inBatches(paths, CONCURRENCY, async (path) => {
    const url = source + path.split("/").map(encodeURIComponent).join("/");
    const data = await download(doFetch, url, timeoutMs, optional(path));
    if (data === null) return;
    check(path, url, data);
    contents.set(path, data);
  });
  return contents;
}

/** Writes a revision's verified files, stamped with their pin, into `<cacheDir>/<rev>` in one rename. */
export function installRevision(
  cacheDir: string,
  revision: string,
  entry: RevisionEntry,
  contents: ReadonlyMap<string, Uint8Array>,
): string {
  mkdirSync(cacheDir, { recursive: true });
  const tmp = mkdtempSync(join(cacheDir, `.fetch-${revision}-`));
  try {
    for (const [path, data] of contents) {
      const target = join(tmp, ...path.split("/"));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, data, { flag: "wx" });
    }
    const stamp: PinStamp = { commit: entry.commit, files: entry.files };
    writeFileSync(join(tmp, PIN_STAMP), `${JSON.stringify(stamp)}\n`, { flag: "wx" });
    const dir = join(cacheDir, revision);
    replaceDir(tmp, dir);
    return dir;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function download(
  doFetch: typeof globalThis.fetch,
  url: string,
  timeoutMs: number,
  optional = false,
): Promise<Uint8Array | null> {
  let response: Response;
  try {
    response = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw new GeneratorError(`cannot download: ${describeFetchFailure(e)}`, url);
  }
  if (optional && response.status === 404) return null;
  if (!response.ok) {
    throw new GeneratorError(
      `download failed: HTTP ${response.status} ${response.statusText}`.trimEnd(),
      url,
    );
  }
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (e) {
    throw new GeneratorError(`download interrupted: ${describeFetchFailure(e)}`, url);
  }
}

/** undici reports "fetch failed" and hides the useful part (ECONNREFUSED, ENOTFOUND...) in `cause`. */
function describeFetchFailure(e: unknown): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError") return "timed out";
  const cause = err.cause?.code ?? err.cause?.message;
  return cause ? `${err.message ?? "fetch failed"} (${cause})` : (err.message ?? String(e));
}

/** Runs `job` over `items` with at most `limit` in flight; the first failure rejects. */
async function inBatches<T>(
  items: readonly T[],
  limit: number,
  job: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await job(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
