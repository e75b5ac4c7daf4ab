import { join } from "node:path";
import { GeneratorError } from "../errors.js";
import { catalog } from "./catalog.js";
import { fetchRevision, revisionSourceUrl } from "./fetch.js";
import { defaultCacheDir } from "./project-root.js";
import { readRevisions, REVISION_NAME, type RevisionsManifest } from "./revisions.js";
import { chooseSpecDir, type ExplicitSpecDir } from "./sources.js";
import { hasSchema, isDirectory, schemaFileIn } from "./spec-dirs.js";

/**
 * Finds the schema.ts to generate from, in a fixed order:
 *   1. `--spec-dir DIR`, else 2. MCP_SPEC_DIR (only the first one given is used),
 *   3. the cache `schema/<rev>/`, 4. a download of the pinned commit.
 * A spec dir the user named explicitly is trusted to be what they want, so a
 * revision missing there is not silently served from elsewhere, except for a
 * pinned revision, whose cached copy is hash-checked and therefore equivalent.
 */
export type SchemaOrigin = "spec-dir" | "env" | "cache" | "fetched";

export interface ResolveOptions {
  revision: string;
  specDir?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** Never download; fail instead. */
  offline?: boolean;
  cacheDir?: string;
  /** Receives one-line notices (downloads); defaults to stderr. */
  log?: (line: string) => void;
  cwd?: string;
  /** Defaults to schema/revisions.json, read only when needed. */
  manifest?: RevisionsManifest;
  fetch?: typeof globalThis.fetch;
  baseUrl?: string | undefined;
}

export interface ResolvedSchema {
  revision: string;
  /** The revision folder (schema.ts, schema.json, examples/). */
  dir: string;
  schemaFile: string;
  origin: SchemaOrigin;
}

export async function resolveSchema(options: ResolveOptions): Promise<ResolvedSchema> {
  const { revision } = options;
  const env = options.env ?? process.env;
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  let manifest = options.manifest;
  const getManifest = (): RevisionsManifest => (manifest ??= readRevisions());

  if (!REVISION_NAME.test(revision)) {
    throw new GeneratorError(`invalid revision name "${revision}" (expected e.g. 2025-06-18 or draft)`);
  }
  const found = (dir: string, origin: SchemaOrigin): ResolvedSchema => ({
    revision,
    dir: join(dir, revision),
    schemaFile: schemaFileIn(dir, revision),
    origin,
  });
  const fetchIntoCache = async (why: string): Promise<ResolvedSchema> => {
    const m = getManifest();
    const entry = m.revisions[revision] as NonNullable<RevisionsManifest["revisions"][string]>;
    const from = revisionSourceUrl(revision, entry, m, { baseUrl: options.baseUrl, env });
    log(`mcp-gen: ${why}; fetching pinned revision ${revision} from ${from} into ${join(cacheDir, revision)}`);
    const fetchOptions: Parameters<typeof fetchRevision>[1] = { cacheDir, env, manifest: m, baseUrl: options.baseUrl };
    if (options.fetch) fetchOptions.fetch = options.fetch;
    await fetchRevision(revision, fetchOptions);
    return found(cacheDir, "fetched");
  };
  const knownList = (explicit?: ExplicitSpecDir): string => {
    const names = catalog({ specDir: explicit?.dir, cacheDir, manifest: getManifest(), env: {} }).map((e) => e.revision);
    return names.length ? names.join(", ") : "(none)";
  };

  const explicit = chooseSpecDir({ specDir: options.specDir, env, cwd: options.cwd });
  if (explicit) {
    if (!isDirectory(explicit.dir)) {
      throw new GeneratorError(`${explicit.label}: no such directory`);
    }
    if (hasSchema(explicit.dir, revision)) return found(explicit.dir, explicit.origin);

    const pinned = getManifest().revisions[revision] !== undefined;
    if (!pinned) {
      throw new GeneratorError(
        `unknown revision "${revision}": not pinned in schema/revisions.json and no ${revision}/schema.ts in ${explicit.label}; known revisions: ${knownList(explicit)}`,
      );
    }
    if (hasSchema(cacheDir, revision)) {
      log(`mcp-gen: ${explicit.label} has no ${revision}/schema.ts; using the cached pinned copy in ${join(cacheDir, revision)}`);
      return found(cacheDir, "cache");
    }
    if (options.offline) {
      throw new GeneratorError(
        `no schema.ts for revision ${revision} in ${explicit.label} (--offline): pass a --spec-dir that has ${revision}/schema.ts, or run "mcp-gen fetch --revision ${revision}" (network)`,
      );
    }
    return await attempt(() => fetchIntoCache(`${explicit.label} has no ${revision}/schema.ts`), revision);
  }

  if (hasSchema(cacheDir, revision)) return found(cacheDir, "cache");

  if (getManifest().revisions[revision] === undefined) {
    throw new GeneratorError(
      `unknown revision "${revision}"; known revisions: ${knownList()} (for another revision pass --spec-dir DIR or set MCP_SPEC_DIR to a folder holding ${revision}/schema.ts)`,
    );
  }
  if (options.offline) throw new GeneratorError(missingAdvice(revision));
  return await attempt(() => fetchIntoCache(`no local schema.ts for revision ${revision}`), revision);
}

/** The one line that lists every way to provide a schema. */
function missingAdvice(revision: string): string {
  return `no schema.ts for revision ${revision}: pass --spec-dir DIR, set MCP_SPEC_DIR, or run "mcp-gen fetch --revision ${revision}" (network)`;
}

/**
 * Whatever stops an automatic download (no network, HTTP error, hash mismatch)
 * ends in the advice line, with the reason appended.
 */
async function attempt(run: () => Promise<ResolvedSchema>, revision: string): Promise<ResolvedSchema> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof GeneratorError)) throw e;
    const reason = e.toString().replace(/^mcp-gen: /, "");
    throw new GeneratorError(`${missingAdvice(revision)}; automatic fetch failed: ${reason}`);
  }
}
