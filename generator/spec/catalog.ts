import { defaultCacheDir } from "./project-root.js";
import { readRevisions, type RevisionsManifest } from "./revisions.js";
import { chooseSpecDir } from "./sources.js";
import { hasSchema, revisionsIn } from "./spec-dirs.js";

/**
 * Every revision mcp-gen knows about: the pinned ones plus whatever a spec
 * dir or the cache holds, with where each one is available locally. Backs
 * `mcp-gen list`, `--all`, and the "known revisions" part of error messages.
 */
export type Presence = "spec-dir" | "env" | "cache";

export interface CatalogEntry {
  revision: string;
  releaseDate: string | null;
  /** Pinned in revisions.json (and so fetchable). */
  pinned: boolean;
  commit?: string;
  verified?: boolean;
  /** Local places holding `<rev>/schema.ts`, in resolution order; [] = absent. */
  present: Presence[];
}

export interface CatalogOptions {
  specDir?: string | undefined;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  cacheDir?: string;
  manifest?: RevisionsManifest;
}

export function catalog(options: CatalogOptions = {}): CatalogEntry[] {
  const manifest = options.manifest ?? readRevisions();
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const explicit = chooseSpecDir(options);

  const names = new Set<string>(Object.keys(manifest.revisions));
  if (explicit) for (const n of revisionsIn(explicit.dir)) names.add(n);
  for (const n of revisionsIn(cacheDir)) names.add(n);

  return [...names].sort().map((revision) => {
    const pin = manifest.revisions[revision];
    const present: Presence[] = [];
    if (explicit && hasSchema(explicit.dir, revision)) present.push(explicit.origin);
    if (hasSchema(cacheDir, revision)) present.push("cache");
    const entry: CatalogEntry = {
      revision,
      // An unpinned folder named like a date is still most likely that release.
      releaseDate: pin ? pin.releaseDate : /^\d{4}-\d{2}-\d{2}$/.test(revision) ? revision : null,
      pinned: pin !== undefined,
      present,
    };
    if (pin) {
      entry.commit = pin.commit;
      entry.verified = pin.verified;
    }
    return entry;
  });
}
