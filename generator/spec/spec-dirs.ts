import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { REVISION_NAME } from "./revisions.js";

/**
 * The on-disk layout shared by a spec checkout (`<dir>/<rev>/schema.ts`, as in
 * the upstream `schema/` folder) and the local cache. Any directory with a
 * schema.ts counts as a revision, so a new protocol revision needs no code.
 */
export function schemaFileIn(baseDir: string, revision: string): string {
  return join(baseDir, revision, "schema.ts");
}

export function hasSchema(baseDir: string, revision: string): boolean {
  return isFile(schemaFileIn(baseDir, revision));
}

/** Revision names present under baseDir (sorted); [] when baseDir does not exist. */
export function revisionsIn(baseDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(baseDir);
  } catch {
    return [];
  }
  return names.filter((n) => REVISION_NAME.test(n) && hasSchema(baseDir, n)).sort();
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}
