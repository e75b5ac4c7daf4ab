import { join } from "node:path";
import { GeneratorError } from "../errors.js";
import { catalog } from "./catalog.js";
import { fetchRevision, revisionSourceUrl } from "./fetch.js";
import { defaultCacheDir } from "./project-root.js";
import { readRevisions, REVISION_NAME, type RevisionsManifest } from "./revisions.js";
import { chooseSpecDir, type ExplicitSpecDir } from "./sources.js";
import { hasSchema, isDirectory, revisionsIn, schemaFileIn } from "./spec-dirs.js";
import { PIN_STAMP, readStamp, touch } from "./cache-entries.js";
import { didYouMean } from "../suggest.js";

/**
 * Finds the schema.ts to generate from, in a fixed order:
 *   1. `--spec-dir DIR`, else 2. MCP_SPEC_DIR (only the first one given is used),
 *   3. the per-user cache `<cache>/spec/<rev>/`, 4. a download of the pinned commit.
 * A spec dir the user named is authoritative: a revision missing there is an error naming the
 * file expected, never served from the cache or the network (a folder one level too high would
 * otherwise go unnoticed).
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
    throw new GeneratorError(
      `invalid revision name "${revision}" (expected e.g. 2025-06-18 or draft)`,
    );
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
    log(
      `mcp-gen: ${why}; fetching pinned revision ${revision} from ${from} into ${join(cacheDir, revision)}`,
    );
    const fetchOptions: Parameters<typeof fetchRevision>[1] = {
      cacheDir,
      env,
      manifest: m,
      baseUrl: options.baseUrl,
    };
    if (options.fetch) fetchOptions.fetch = options.fetch;
    await fetchRevision(revision, fetchOptions);
    return found(cacheDir, "fetched");
  };
  const knownList = (): string => {
    const names = catalog({ cacheDir, manifest: getManifest(), env: {} }).map((e) => e.revision);
    return names.length ? names.join(", ") : "(none)";
  };

  const explicit = chooseSpecDir({ specDir: options.specDir, env, cwd: options.cwd });
  if (explicit) {
    // The user named where the spec is: it is the only place looked at, so a wrong folder is said at once.
    if (!isDirectory(explicit.dir)) {
      throw new GeneratorError(`${explicit.label}: no such directory`);
    }
    if (hasSchema(explicit.dir, revision)) return found(explicit.dir, explicit.origin);
    throw new GeneratorError(missingInSpecDir(explicit, revision));
  }

  const pin = getManifest().revisions[revision];
  if (hasSchema(cacheDir, revision)) {
    const stamp = readStamp(join(cacheDir, revision));
    // An unstamped copy was put there by hand; a stamped one must come from the pinned commit.
    if (!pin || !stamp || (stamp.commit === pin.commit && sameFiles(stamp.files, pin.files))) {
      touch(join(cacheDir, revision, PIN_STAMP));
      return found(cacheDir, "cache");
    }
    const why = `the cached ${revision} is from commit ${stamp.commit.slice(0, 12)}, pinned is ${pin.commit.slice(0, 12)}`;
    if (options.offline)
      throw new GeneratorError(
        `${why} (--offline): run without --offline or "mcp-gen fetch --revision ${revision}"`,
      );
    return await attempt(() => fetchIntoCache(why), revision, env);
  }

  if (pin === undefined) {
    const names = knownList();
    throw new GeneratorError(
      `unknown revision "${revision}"; known revisions: ${names}${didYouMean(revision, names.split(", "))} (for another revision pass --spec-dir DIR or set MCP_SPEC_DIR to a folder holding ${revision}/schema.ts)`,
    );
  }
  if (options.offline) throw new GeneratorError(offlineAdvice(revision));
  return await attempt(
    () => fetchIntoCache(`no local schema.ts for revision ${revision}`),
    revision,
    env,
  );
}

/** One line naming the file that was expected, and the likely slip: a folder one level too high. */
function missingInSpecDir(explicit: ExplicitSpecDir, revision: string): string {
  const expected = schemaFileIn(explicit.dir, revision);
  const held = revisionsIn(explicit.dir);
  const flag = explicit.origin === "spec-dir" ? "--spec-dir" : "MCP_SPEC_DIR=";
  const given = explicit.label.slice(
    explicit.origin === "spec-dir" ? "--spec-dir ".length : "MCP_SPEC_DIR=".length,
  );
  const hint = hasSchema(join(explicit.dir, "schema"), revision)
    ? `; did you mean ${flag}${flag.endsWith("=") ? "" : " "}${join(given, "schema")}?`
    : held.length > 0
      ? `; it holds ${held.join(", ")}${didYouMean(revision, held)}`
      : "; it holds no <revision>/schema.ts at all";
  return `${explicit.label} has no revision ${revision}: expected ${expected}${hint}`;
}

function sameFiles(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(b);
  return Object.keys(a).length === keys.length && keys.every((k) => a[k] === b[k]);
}

/**
 * Where mcp-gen's own npm scripts (scripts/generate.mjs) look for a spec copy beside a checkout of
 * mcp-gen, when neither --spec-dir nor MCP_SPEC_DIR is given: named in the advice so that a
 * contributor without network knows where the copy goes.
 */
const SHARED_SPEC_COPY = "../shared/mcp-spec/schema";

/** The ways to provide a schema without a download: the folder layout and how to point at it. */
function localAdvice(revision: string): string {
  return `put it at DIR/${revision}/schema.ts and pass --spec-dir DIR or set MCP_SPEC_DIR=DIR (mcp-gen's own npm scripts use ${SHARED_SPEC_COPY} beside the checkout)`;
}

/** --offline with nothing local: a local copy, or a download (from a mirror when the host is out of reach). */
function offlineAdvice(revision: string): string {
  return `no schema.ts for revision ${revision} (--offline): ${localAdvice(revision)}, or run without --offline to download the pinned copy (MCP_SPEC_BASE_URL=URL fetches it from a mirror)`;
}

/**
 * Whatever stops an automatic download (no network, HTTP error, hash mismatch) ends in one line
 * with the reason and the ways that do not depend on the same host: a local copy, or a mirror. A
 * retry (`mcp-gen fetch`) would fail the same way, so it is not offered.
 */
async function attempt(
  run: () => Promise<ResolvedSchema>,
  revision: string,
  env: NodeJS.ProcessEnv,
): Promise<ResolvedSchema> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof GeneratorError)) throw e;
    const reason = e.toString().replace(/^mcp-gen: /, "");
    const mirror = env.MCP_SPEC_BASE_URL
      ? `or fix the mirror MCP_SPEC_BASE_URL=${env.MCP_SPEC_BASE_URL}`
      : "or set MCP_SPEC_BASE_URL to a mirror of the pinned files";
    throw new GeneratorError(
      `no schema.ts for revision ${revision}, and downloading it failed (${reason}): ${localAdvice(revision)}, ${mirror}`,
    );
  }
}
