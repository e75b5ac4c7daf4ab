import { join, resolve } from "node:path";
import type { JsonSchemaAdapter } from "../emit/json-schema/adapters.js";
import type { ProtocolModel } from "../ir/model.js";
import { catalog } from "../spec/catalog.js";
import { enableCompileCache } from "./compile-cache.js";
import { resolveSchema, type ResolvedSchema } from "../spec/resolve.js";
import { pinnedCommitOf, readRevisions } from "../spec/revisions.js";
import { releasesOf } from "../registry/index.js";
import { GeneratorError, inSchemaFile } from "../errors.js";
import { watchSchemas } from "./watch.js";
import { compileCacheDir } from "../spec/cache-dir.js";
import { pruneCache } from "../spec/cache-entries.js";
import {
  cacheDirFor,
  cacheRootFor,
  displayPath,
  logTo,
  UsageError,
  type CliIO,
} from "./context.js";
import { generatorVersion } from "./version.js";

/**
 * The default command: schema.ts → IR → generated files, for one or more
 * revisions in one process. Every schema is located before anything is
 * loaded, so a missing revision fails before any output is written, and each
 * revision is loaded exactly once.
 *
 * The loader and emitters (ts-morph, prettier, templates) are imported only
 * here, on demand: `mcp-gen list` and `mcp-gen fetch` stay fast and keep
 * working whatever state those modules are in.
 */
export interface GenerateArgs {
  revisions: string[];
  /** Initialize-era revisions the generated server also serves (`--legacy`). */
  legacy?: string[] | undefined;
  /** Also emit the optional authorization adapters (OAuth client, JWT verifier). */
  auth?: boolean;
  all: boolean;
  out?: string | undefined;
  specDir?: string | undefined;
  offline: boolean;
  /** Overwrite generated files edited by hand. */
  force?: boolean;
  /** Write nothing; fail listing the files a run would change. */
  check?: boolean;
  /** After generating, regenerate whenever a schema.ts changes, until interrupted. */
  watch?: boolean;
  /** The JSON Schema engine adapter to emit beside the runtime (`--json-schema`). */
  jsonSchema?: JsonSchemaAdapter | undefined;
}

export async function generate(args: GenerateArgs, io: CliIO): Promise<void> {
  if (args.check && (args.force || args.watch))
    throw new UsageError("--check writes nothing: it goes with neither --force nor --watch");
  const revisions = selectRevisions(args, io);
  const legacyRevisions = [...new Set(args.legacy ?? [])];
  if (legacyRevisions.length > 0 && revisions.length !== 1)
    throw new UsageError(
      "--legacy serves older clients from one server: give exactly one --revision",
    );
  const located: ResolvedSchema[] = [];
  for (const revision of revisions) located.push(await resolveForCli(revision, args, io));
  const legacyLocated: ResolvedSchema[] = [];
  for (const revision of legacyRevisions)
    legacyLocated.push(await resolveForCli(revision, args, io));
  const compileCache = enableCompileCache(compileCacheDir(cacheRootFor(io))); // before the loader brings in TypeScript
  const run = await revisionRunner(args, io, revisions.length, legacyLocated);

  if (args.check) {
    const changes: string[] = [];
    for (const schema of located) changes.push(...(await run.check(schema)));
    if (changes.length > 0)
      throw new GeneratorError(
        `--check: ${changes.length} file${changes.length === 1 ? "" : "s"} would change: ${changes.join(", ")}`,
      );
    io.stderr(
      `mcp-gen: --check: ${located.map((s) => displayPath(io, outDirFor(s.revision, args, revisions.length, io))).join(", ")} up to date\n`,
    );
    return;
  }
  for (const schema of located) {
    await run.write(schema);
    compileCache.save(); // after the first revision: the cached code then holds what a run compiles
  }
  pruneCache(cacheRootFor(io)); // entries no project used for a month
  if (args.watch) await watchSchemas(located, run.write, io);
}

/**
 * Loads and emits one located revision, announcing it on one line; or lists what it would change.
 * With `--legacy` revisions (loaded once, here), the server also serves them: each must be an
 * initialize-era revision the generated one can bridge to (generator/derive/eras.ts).
 */
async function revisionRunner(
  args: GenerateArgs,
  io: CliIO,
  count: number,
  legacyLocated: readonly ResolvedSchema[],
) {
  const version = generatorVersion();
  const releases = releasesOf(readRevisions());
  const [{ loadModel }, { emitRevision, checkRevision }, { bridgeProblem }] = await Promise.all([
    import("../load/index.js"),
    import("../emit/index.js"),
    import("../derive/eras.js"),
  ]);
  const legacy = legacyLocated.map((schema) =>
    loadModel(schema.schemaFile, { revision: schema.revision }),
  );
  const load = (schema: ResolvedSchema): ProtocolModel => {
    const model = loadModel(schema.schemaFile, { revision: schema.revision });
    for (const old of legacy) {
      const problem = bridgeProblem(model, old);
      if (problem) throw new UsageError(problem);
    }
    return model;
  };
  const optionsFor = (schema: ResolvedSchema, model: ProtocolModel) => {
    const outDir = outDirFor(schema.revision, args, count, io);
    return {
      outDir,
      generatorVersion: version,
      regenerate: regenerateCommand(schema.revision, outDir, args, io),
      sourceCommit: pinnedCommitOf(schema.revision, model.source.sha256),
      releases,
      force: args.force === true,
      jsonSchema: args.jsonSchema,
      ...(legacy.length > 0 ? { legacy } : {}),
      auth: args.auth === true,
    };
  };
  return {
    async write(schema: ResolvedSchema): Promise<void> {
      const started = performance.now();
      const model = load(schema);
      const options = optionsFor(schema, model);
      const written = await inSchemaFile(schema.schemaFile, model.source.file, () =>
        emitRevision(model, options),
      );
      const ms = Math.round(performance.now() - started);
      io.stderr(
        `mcp-gen: ${schema.revision}: wrote ${written.length} file${written.length === 1 ? "" : "s"} to ${displayPath(io, options.outDir)} (schema from ${schema.origin}, ${ms} ms)\n`,
      );
    },
    async check(schema: ResolvedSchema): Promise<string[]> {
      const model = load(schema);
      const options = optionsFor(schema, model);
      const plan = await inSchemaFile(schema.schemaFile, model.source.file, () =>
        checkRevision(model, options),
      );
      return plan.changes.map(
        (c) => `${join(displayPath(io, options.outDir), c.path)} (${c.kind})`,
      );
    },
  };
}

/**
 * The command that makes this output again, as the user would type it from the same folder: the
 * revision, its `--legacy` revisions, and `--out` and `--spec-dir` when they were given (MCP_SPEC_DIR is the user's
 * environment, not part of the command).
 */
function regenerateCommand(
  revision: string,
  outDir: string,
  args: GenerateArgs,
  io: CliIO,
): string {
  const words = ["mcp-gen", "--revision", revision];
  const legacy = [...new Set(args.legacy ?? [])];
  if (legacy.length > 0) words.push("--legacy", legacy.join(","));
  if (args.out !== undefined) words.push("--out", shellWord(displayPath(io, outDir)));
  if (args.specDir) words.push("--spec-dir", shellWord(args.specDir));
  if (args.jsonSchema) words.push("--json-schema", args.jsonSchema);
  if (args.auth) words.push("--auth");
  return words.join(" ");
}

const shellWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;

/** `--revision` (repeatable, de-duplicated in order) or `--all` (everything `mcp-gen list` shows). */
export function selectRevisions(
  args: Pick<GenerateArgs, "revisions" | "all" | "specDir">,
  io: CliIO,
): string[] {
  if (args.all) {
    const all = catalog({
      specDir: args.specDir,
      env: io.env,
      cwd: io.cwd,
      cacheDir: cacheDirFor(io),
    }).map((e) => e.revision);
    if (all.length === 0) throw new UsageError("--all: no revisions are known");
    return all;
  }
  const unique = [...new Set(args.revisions)];
  if (unique.length === 0) throw new UsageError("missing --revision R (repeatable) or --all");
  return unique;
}

/**
 * With one revision `--out` is its output folder; with several, each revision
 * gets `<out>/<rev>/`. The default is `generated/<rev>/` under the working directory.
 */
function outDirFor(revision: string, args: GenerateArgs, count: number, io: CliIO): string {
  if (args.out === undefined) return resolve(io.cwd, "generated", revision);
  const out = resolve(io.cwd, args.out);
  return count === 1 ? out : join(out, revision);
}

/** resolveSchema wired to the CLI's environment, cache and stderr. */
export function resolveForCli(
  revision: string,
  args: { specDir?: string | undefined; offline: boolean },
  io: CliIO,
): Promise<ResolvedSchema> {
  return resolveSchema({
    revision,
    specDir: args.specDir,
    env: io.env,
    offline: args.offline,
    cacheDir: cacheDirFor(io),
    log: logTo(io),
    cwd: io.cwd,
    ...(io.fetch ? { fetch: io.fetch } : {}),
  });
}
