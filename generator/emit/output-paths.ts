import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep, win32 } from "node:path";
import { GeneratorError } from "../errors.js";

/**
 * Where regeneration may write and delete: only inside the output folder, and never through a
 * link. The paths it touches come from two places, what it generates (its own) and the folder's
 * manifest (a file anyone who can commit to the folder can edit), so a manifest entry is checked
 * to name a file inside the folder before it is believed, and every folder on the way to a path,
 * and the path itself, is checked to be no symbolic link: a link would carry a write or a removal
 * to wherever it points. Both refusals happen while planning, before anything is written.
 *
 * The output folder itself may be a link (the user named it on the command line): it is resolved
 * once, and nothing below it is followed.
 */

/** The output folder as a real path when it exists (a link the user named is followed once). */
export function realOutputDir(outDir: string): string {
  const target = resolve(outDir);
  try {
    return realpathSync(target);
  } catch {
    return target; // not there yet: it is created whole, by one rename
  }
}

/**
 * Whether a manifest entry names a file inside the output folder, as mcp-gen writes them: a
 * relative path of `/`-separated segments, none empty, `.` or `..`, with no backslash, drive or NUL.
 */
export function isOutputPath(path: string): boolean {
  if (path === "" || isAbsolute(path) || win32.isAbsolute(path)) return false;
  if (/[\\\0:]/.test(path)) return false;
  return path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

/**
 * Refuses a manifest that lists a path outside the output folder, naming the entry's line. Such
 * an entry was not written by mcp-gen: a run would delete whatever it points to.
 */
export function checkManifestPaths(
  manifestFile: string,
  paths: readonly string[],
  target: string,
): void {
  for (const path of paths) {
    const inside = isOutputPath(path) && !relative(target, resolve(target, path)).startsWith("..");
    if (inside) continue;
    throw new GeneratorError(
      `lists ${JSON.stringify(path)}, which is not a file inside the output folder; mcp-gen never wrote it and will not delete it: remove the entry (or the manifest) and run again`,
      manifestFile,
      lineOf(manifestFile, path),
    );
  }
}

/**
 * Refuses when a path of the output folder, or a folder on the way to it, is a symbolic link.
 * Checks each folder once however many paths pass through it.
 */
export function refuseLinks(target: string, paths: Iterable<string>): void {
  const seen = new Set<string>();
  for (const path of paths) {
    let at = target;
    for (const segment of path.split("/")) {
      at = `${at}${sep}${segment}`;
      if (seen.has(at)) continue;
      seen.add(at);
      const stat = lstatIfAny(at);
      if (stat === null) break; // nothing there yet, so nothing under it either
      if (stat.isSymbolicLink())
        throw new GeneratorError(
          `cannot write output: ${join(relative(target, at))} is a symbolic link; mcp-gen writes and deletes only inside the output folder, never through a link: replace the link with what it points to, or choose another --out`,
          target,
        );
      if (!stat.isDirectory()) break;
    }
  }
}

function lstatIfAny(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** The manifest's line holding `path` as a key (it is written one entry a line); 0: not found. */
function lineOf(manifestFile: string, path: string): number {
  try {
    const text = readFileSync(manifestFile, "utf8");
    const at = text.indexOf(`${JSON.stringify(path)}:`);
    return at < 0 ? 0 : text.slice(0, at).split("\n").length;
  } catch {
    return 0;
  }
}
