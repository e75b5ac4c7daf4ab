/** Where schema.ts comes from: pinned revisions, spec dirs, the cache and downloads. */
export { catalog, type CatalogEntry, type CatalogOptions, type Presence } from "./catalog.js";
export { fetchRevision, revisionSourceUrl, type FetchOptions, type FetchResult } from "./fetch.js";
export { defaultCacheDir, defaultRevisionsFile } from "./project-root.js";
export { findProjectRoot, projectRoot } from "../package-root.js";
export {
  resolveSchema,
  type ResolvedSchema,
  type ResolveOptions,
  type SchemaOrigin,
} from "./resolve.js";
export {
  readRevisions,
  validateRevisions,
  REVISION_NAME,
  type RevisionEntry,
  type RevisionsManifest,
} from "./revisions.js";
export { chooseSpecDir, type ExplicitSpecDir } from "./sources.js";
export { hasSchema, revisionsIn, schemaFileIn } from "./spec-dirs.js";
