import { readFileSync } from "node:fs";
import { writeWhole } from "../fs/write-whole.js";
import { GeneratorError } from "../errors.js";
import { downloadAll, installRevision, revisionSourceUrl, type FetchOptions } from "./fetch.js";
import { sha256Hex } from "./integrity.js";
import { defaultCacheDir, defaultRevisionsFile } from "./project-root.js";
import {
  readRevisions,
  REVISION_NAME,
  validateRevisions,
  type RevisionEntry,
} from "./revisions.js";

/**
 * `mcp-gen fetch --revision R --commit C`: pins R to upstream commit C. The files are downloaded
 * from that commit and hashed, so the pin is verified by construction (the commit holds exactly
 * these bytes); revisions.json is rewritten in one rename and the files go into the cache.
 *
 * Which files: those R was pinned with before (its examples too), else `schema.ts` and
 * `schema.json`; only `schema.ts` must exist at the commit (the raw-content host cannot list a
 * folder, so nothing else is discovered).
 */
export interface PinResult {
  revision: string;
  entry: RevisionEntry;
  manifestFile: string;
  /** Files of the earlier pin that the commit does not have. */
  dropped: string[];
  dir: string;
}

export async function pinRevision(
  revision: string,
  commit: string,
  options: Omit<FetchOptions, "manifest"> & { manifestFile?: string | undefined } = {},
): Promise<PinResult> {
  if (!REVISION_NAME.test(revision))
    throw new GeneratorError(
      `invalid revision name "${revision}" (expected e.g. 2025-06-18 or draft)`,
    );
  if (!/^[0-9a-f]{40}$/.test(commit))
    throw new GeneratorError(
      `--commit must be a full commit id (40 lowercase hex digits), not "${commit}"`,
    );
  const manifestFile = options.manifestFile ?? defaultRevisionsFile();
  const manifest = readRevisions(manifestFile);
  const previous = manifest.revisions[revision];
  const paths = previous ? Object.keys(previous.files).sort() : ["schema.json", "schema.ts"];
  const draft: RevisionEntry = { commit, releaseDate: null, verified: true, files: {} };
  const source = revisionSourceUrl(revision, draft, manifest, options);
  const contents = await downloadAll(
    source,
    paths,
    options.fetch ?? globalThis.fetch,
    options.timeoutMs ?? 30_000,
    () => {},
    (path) => path !== "schema.ts",
  );

  const files = Object.fromEntries(
    [...contents.keys()].sort().map((path) => [path, sha256Hex(contents.get(path)!)]),
  );
  const entry: RevisionEntry = {
    commit,
    releaseDate: previous
      ? previous.releaseDate
      : /^\d{4}-\d{2}-\d{2}$/.test(revision)
        ? revision
        : null,
    verified: true,
    note: `pinned by mcp-gen fetch --commit: every file downloaded from this commit and hashed`,
    files,
  };
  // The file as it is ($comment and key order kept), with the one entry set; through the same
  // checks as reading it back, so a pin that could not be read is never written.
  const raw = JSON.parse(readFileSync(manifestFile, "utf8")) as {
    revisions: Record<string, unknown>;
  };
  raw.revisions = Object.fromEntries(
    Object.entries({ ...raw.revisions, [revision]: entry }).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  validateRevisions(raw, manifestFile);
  writeWhole(manifestFile, `${JSON.stringify(raw, null, 2)}\n`);

  const dir = installRevision(options.cacheDir ?? defaultCacheDir(), revision, entry, contents);
  return {
    revision,
    entry,
    manifestFile,
    dropped: previous ? paths.filter((p) => !contents.has(p)) : [],
    dir,
  };
}
