import { join } from "node:path";
import { projectRoot } from "../package-root.js";
import { specCacheDir, userCacheDir } from "./cache-dir.js";

/** Default location of downloaded revisions (`<rev>/`): the per-user cache's `spec/`. */
export function defaultCacheDir(): string {
  return specCacheDir(userCacheDir());
}

/** Default location of the pinned-revisions manifest. */
export function defaultRevisionsFile(): string {
  return join(projectRoot(), "schema", "revisions.json");
}
