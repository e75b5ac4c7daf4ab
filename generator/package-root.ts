import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// The package's own files (templates, .prettierrc.json, schema/revisions.json) are found from here; it
// sits at the top of generator/ because every layer may need them.

/**
 * Finds the mcp-gen checkout this module belongs to.
 *
 * The same code runs from `generator/` (vitest, sources) and from
 * `dist/generator/` (the built bin), so a fixed number of `..` would be
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
    if (parent === dir)
      throw new Error(`cannot find the mcp-gen package.json above ${fileURLToPath(fromUrl)}`);
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
