/**
 * mcp-gen as a library (`import { generate } from "mcp-gen"`): the same steps as the command line,
 * as functions. `loadModel` reads a `schema.ts` into the IR (its types are exported here too);
 * `generate` writes a revision's TypeScript into a folder (or, with `check`, says what it would
 * change); `diff` compares two models; `deprecations` lists a model's deprecation registry.
 */
import { resolve } from "node:path";
import { generatorVersion } from "./cli/version.js";
import { diffModels } from "./diff/index.js";
import { checkRevision, writeRevision } from "./emit/index.js";
import { inSchemaFile } from "./errors.js";
import type { OutputChange } from "./emit/write.js";
import type { ProtocolModel } from "./ir/model.js";
import { loadModel } from "./load/index.js";
import { deprecationRegistry, releasesOf, type RegistryEntry } from "./registry/index.js";
import { specCacheDir, userCacheDir } from "./spec/cache-dir.js";
import { resolveSchema, type SchemaOrigin } from "./spec/resolve.js";
import { pinnedCommitOf, readRevisions } from "./spec/revisions.js";

export type * from "./ir/model.js";
export type { Change, RuleId, Severity } from "./diff/index.js";
export type { RegistryEntry } from "./registry/index.js";
export type { OutputChange } from "./emit/write.js";
export { GeneratorError } from "./errors.js";
export { isBreaking } from "./diff/index.js";
export { loadModel };

export interface GenerateOptions {
  /** A protocol revision: `2026-07-28`, `draft`, or any folder name under `specDir`. */
  revision: string;
  /** Output folder; default `generated/<revision>` under `cwd`. */
  out?: string;
  /** Folder holding `<revision>/schema.ts`; default: `MCP_SPEC_DIR`, else the cache, else a verified download. */
  specDir?: string;
  /** Never download. */
  offline?: boolean;
  /** Overwrite generated files edited by hand. */
  force?: boolean;
  /** Write nothing; report what would change. */
  check?: boolean;
  /** Relative paths are taken from here; default `process.cwd()`. */
  cwd?: string;
  /** Environment (MCP_SPEC_DIR, MCP_SPEC_BASE_URL, MCP_GEN_CACHE_DIR); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** One-line notices (a download); default: none. */
  log?: (line: string) => void;
}

export interface GenerateResult {
  revision: string;
  outDir: string;
  /** Where the schema came from. */
  origin: SchemaOrigin;
  /** The folder's generated files, relative to `outDir` (none with `check`). */
  files: string[];
  /** With `check`: what a run would change (empty: up to date). Otherwise: what this run changed. */
  changes: OutputChange[];
}

export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const schema = await resolveSchema({
    revision: options.revision,
    specDir: options.specDir,
    env,
    offline: options.offline === true,
    cwd,
    log: options.log ?? (() => {}),
    cacheDir: resolve(cwd, specCacheDir(userCacheDir(env))), // the caller's environment, not only process.env
  });
  const model = loadModel(schema.schemaFile, { revision: schema.revision });
  const outDir = resolve(cwd, options.out ?? `generated/${schema.revision}`);
  const emit = {
    outDir,
    generatorVersion: generatorVersion(),
    regenerate: [
      "mcp-gen",
      "--revision",
      schema.revision,
      ...(options.out ? ["--out", options.out] : []),
      ...(options.specDir ? ["--spec-dir", options.specDir] : []),
    ].join(" "),
    sourceCommit: pinnedCommitOf(schema.revision, model.source.sha256),
    releases: releasesOf(readRevisions()),
    force: options.force === true,
  };
  if (options.check) {
    const plan = await inSchemaFile(schema.schemaFile, model.source.file, () =>
      checkRevision(model, emit),
    );
    return {
      revision: schema.revision,
      outDir,
      origin: schema.origin,
      files: [],
      changes: plan.changes,
    };
  }
  const written = await inSchemaFile(schema.schemaFile, model.source.file, () =>
    writeRevision(model, emit),
  );
  return {
    revision: schema.revision,
    outDir,
    origin: schema.origin,
    files: written.files,
    changes: written.plan.changes,
  };
}

/** Every change between two models, each with its rule, severity and location. */
export const diff = (from: ProtocolModel, to: ProtocolModel) => diffModels(from, to);

/** The model's deprecation registry, earliest removals dated from the pinned release dates. */
export function deprecations(model: ProtocolModel): RegistryEntry[] {
  return deprecationRegistry(model, releasesOf(readRevisions()));
}
