import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT, SPEC_DIR } from "./spec.js";

/** What one built-CLI process wrote: its exit status, stderr, and the output folder's files. */
export interface CachedRun {
  status: number | null;
  stderr: string;
  files: Map<string, string>;
}

/**
 * Runs the built CLI (`dist/`) for one revision in a new folder under `work`, writing to the relative
 * `out` with the given cache folder (MCP_GEN_CACHE_DIR): the output of two runs compares byte for
 * byte, headers included. For the caches' tests: a cache may only change how fast a run is.
 */
export function generateWithCache(
  work: string,
  cacheDir: string,
  revision: string,
  options: readonly string[] = [],
  out = "out",
): CachedRun {
  const cwd = join(work, `run-${++cachedRuns}`);
  mkdirSync(cwd);
  const r = spawnSync(
    process.execPath,
    [BUILT_CLI, "--revision", revision, "--spec-dir", SPEC_DIR, "--out", out, ...options],
    { cwd, encoding: "utf8", env: { ...process.env, MCP_GEN_CACHE_DIR: cacheDir } },
  );
  const files = new Map<string, string>();
  if (r.status === 0)
    for (const name of readdirSync(join(cwd, out), { recursive: true, encoding: "utf8" }).sort()) {
      const path = join(cwd, out, name);
      if (statSync(path).isFile()) files.set(name, readFileSync(path, "utf8"));
    }
  return { status: r.status, stderr: r.stderr, files };
}

let cachedRuns = 0;
const BUILT_CLI = join(ROOT, "dist", "generator", "cli", "main.js");
