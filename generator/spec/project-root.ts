import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { specCacheDir, userCacheDir } from "./cache-dir.js";

/**
 * Finds the mcp-gen checkout this module belongs to.
 *
 * The same code runs from `generator/spec/` (vitest, sources) and from
 * `dist/generator/spec/` (the built bin), so a fixed number of `..` would be
 * wrong in one of the two. Walking up to the package.json named "mcp-gen"
 * works from both, and from an npm install where the package sits in
 * node_modules.
 */
export function findProjectRoot(fromUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && readPackageName(pkg) === "mcp-gen") return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the mcp-gen package.json above ${fileURLToPath(fromUrl)}`);
    dir = parent;
  }
}

function readPackageName(file: string): unknown {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name;
  } catch {
    return undefined; // an unreadable package.json is simply not ours; keep walking
  }
}

let cachedRoot: string | undefined;

/** The project root, computed once per process. */
export function projectRoot(): string {
  cachedRoot ??= findProjectRoot();
  return cachedRoot;
}

/** Default location of downloaded revisions (`<rev>/`): the per-user cache's `spec/`. */
export function defaultCacheDir(): string {
  return specCacheDir(userCacheDir());
}

/** Default location of the pinned-revisions manifest. */
export function defaultRevisionsFile(): string {
  return join(projectRoot(), "schema", "revisions.json");
}
