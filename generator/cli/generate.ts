import { existsSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { GeneratedFile } from "../emit/file.js";
import type { OutputChange } from "../emit/write.js";
import type { ProtocolModel } from "../ir/model.js";
import { catalog } from "../spec/catalog.js";
import { enableCompileCache } from "./compile-cache.js";
import { resolveSchema, type ResolvedSchema, type SchemaOrigin } from "../spec/resolve.js";
import { pinnedCommitOf, readRevisions } from "../spec/revisions.js";
import { releasesOf } from "../registry/index.js";
import { GeneratorError, inSchemaFile } from "../errors.js";
import { compileCacheDir, formatCacheDir, modelCacheDir } from "../spec/cache-dir.js";
import { keptFiles, type KeptFiles } from "./kept-files.js";
import { cachedModels } from "./model-cache.js";
import { pruneCache } from "../spec/cache-entries.js";
import { checkOutput, type FileCheck } from "./check-report.js";
import { cacheDirFor, cacheRootFor, logTo, UsageError, type CliIO } from "./context.js";
import { checkLegacyList, legacyModels } from "./legacy.js";
import { legacyInput } from "../derive/legacy-default.js";
import {
  changedInputs,
  GENERATE_OPTIONS,
  regenerateCommand,
  TOOLS_OPTIONS,
  type OptionTable,
} from "./options.js";
import { readManifest } from "../emit/manifest.js";
import { shownPath, type GenerateRequest } from "./request.js";
import { generatorVersion } from "./version.js";

/**
 * The one generation pipeline, for the command line (`mcp-gen`, `mcp-gen tools`) and the library
 * (`generate()`): a normalized request (request.ts) → every schema named located before anything
 * is loaded → each revision loaded once, then the default legacy revisions its model calls for
 * located and loaded (cli/legacy.ts), so a missing revision fails before any output is written →
 * its files rendered → written, or compared with the folder (`check`).
 *
 * The loader and emitters (ts-morph, prettier, templates) are imported only here, on demand:
 * `mcp-gen list` and `mcp-gen fetch` stay fast and keep working whatever state those modules are in.
 */
export interface RunResult {
  /** The revision, or `tools` for `mcp-gen tools` output. */
  name: string;
  outDir: string;
  /** Where the schema came from (revisions only). */
  origin?: SchemaOrigin;
  /** The folder's generated files, relative to it (none with `check`). */
  files: string[];
  /** With `check`: what a run would change. Otherwise: what this run changed. */
  changes: OutputChange[];
  /** With `check`: why each file would change, with its diff. */
  checks: FileCheck[];
  /** With `check`: the input options that differ from the run that wrote the folder, as phrases. */
  changedOptions?: string[];
}

/** The schema loader's module, imported on demand (its TypeScript is most of a run's start-up). */
type LoaderModule = typeof import("../load/index.js");

/** One output folder's work, run once, or again by `--watch` when `watched` changes. */
export interface Job {
  watched: string;
  outDir: string;
  run(check: boolean): Promise<RunResult>;
}

/** Runs every job of the request once. */
export async function runRequest(
  request: GenerateRequest,
  io: CliIO,
): Promise<{ jobs: Job[]; results: RunResult[] }> {
  const { jobs, saveCompiled } = await prepareJobs(request, io);
  const results: RunResult[] = [];
  for (const job of jobs) {
    results.push(await job.run(request.check));
    saveCompiled(); // after the first output: the cached code then holds what a run compiles
  }
  if (!request.check) pruneCache(cacheRootFor(io)); // entries no project used for a month
  return { jobs, results };
}

/** Every job of the request, each schema located (and the legacy ones loaded) before any runs. */
async function prepareJobs(
  request: GenerateRequest,
  io: CliIO,
): Promise<{ jobs: Job[]; saveCompiled: () => void }> {
  if (request.check && (request.force || request.watch))
    throw new UsageError("--check writes nothing: it goes with neither --force nor --watch");
  const revisions = selectRevisions(request, io);
  if (revisions.length === 0 && !request.tools)
    throw new UsageError(
      "missing --revision R (repeatable) or --all, or an mcp-gen.config.json (mcp-gen init writes one)",
    );
  checkLegacyList(request, revisions);
  const located: ResolvedSchema[] = [];
  for (const revision of revisions) located.push(await resolveForCli(revision, request, io));
  const listed: ResolvedSchema[] = [];
  for (const revision of request.legacy ?? [])
    listed.push(await resolveForCli(revision, request, io));
  if (request.tools && !existsSync(request.tools.file))
    throw new GeneratorError("no such file", shownPath(io.cwd, request.tools.file));
  const compileCache = enableCompileCache(compileCacheDir(cacheRootFor(io))); // before the loader brings in TypeScript
  const kept = keptFiles(formatCacheDir(cacheRootFor(io)));
  const models = keptFiles(modelCacheDir(cacheRootFor(io)));

  // The loader (TypeScript, ts-morph) is loaded only for a schema the model cache does not hold.
  let loader: Promise<LoaderModule> | undefined;
  const loaded = (): Promise<LoaderModule> => {
    if (!loader) {
      compileCache.preloadParser();
      loader = import("../load/index.js");
    }
    return loader;
  };

  const jobs: Job[] = [];
  if (located.length > 0) {
    // The run's first loads (each revision and the legacy ones it serves) share one TypeScript
    // project; a --watch reload gets a project of its own, so a long watch does not accumulate them.
    let project: ReturnType<LoaderModule["schemaProject"]> | undefined;
    const load = cachedModels(models, async (schemaFile, revision) => {
      const { loadModel, schemaProject } = await loaded();
      project ??= schemaProject();
      return loadModel(schemaFile, { revision, project });
    });
    const first = new Map<string, ProtocolModel>();
    // Loaded once here (the default legacy set depends on each model); a --watch run reloads.
    for (const schema of located)
      first.set(schema.revision, await load(schema.schemaFile, schema.revision));
    const listedByName = new Map(listed.map((schema) => [schema.revision, schema]));
    const legacy = await legacyModels(
      request,
      first,
      io,
      async (revision) =>
        listedByName.get(revision) ?? (await resolveForCli(revision, request, io)),
      (schema) => load(schema.schemaFile, schema.revision),
    );
    const run = await revisionRunner(request, io, revisions.length, kept, models);
    for (const schema of located) {
      let preloaded = first.get(schema.revision);
      jobs.push({
        watched: schema.schemaFile,
        outDir: outDirFor(schema.revision, request, revisions.length),
        // async: a schema broken mid-edit under --watch is a rejected run, not a throw.
        run: async (check) => {
          const model =
            preloaded ??
            (await loaded()).loadModel(schema.schemaFile, { revision: schema.revision });
          preloaded = undefined;
          return run(schema, model, legacy.get(schema.revision) ?? [], check);
        },
      });
    }
  }
  if (request.tools) jobs.push(await toolsJob(request.tools, request, io, loaded));
  return { jobs, saveCompiled: () => compileCache.save() };
}

/**
 * Emits one located revision, announcing it on one line; or says what it would change. With
 * legacy revisions the server and client also speak them: each must be an initialize-era revision
 * the generated one can bridge to (generator/derive/eras.ts).
 */
async function revisionRunner(
  request: GenerateRequest,
  io: CliIO,
  count: number,
  kept: KeptFiles,
  models: KeptFiles,
) {
  const version = generatorVersion();
  const releases = releasesOf(readRevisions());
  const [{ renderRevision, writeRevision }, { bridgeProblem }] = await Promise.all([
    import("../emit/index.js"),
    import("../derive/eras.js"),
  ]);
  return async (
    schema: ResolvedSchema,
    model: ProtocolModel,
    legacy: readonly ProtocolModel[],
    check: boolean,
  ): Promise<RunResult> => {
    const started = performance.now();
    for (const old of legacy) {
      const problem = bridgeProblem(model, old);
      if (problem) throw new UsageError(problem);
    }
    const outDir = outDirFor(schema.revision, request, count);
    const defaultOut = resolve(request.base, "generated", schema.revision);
    const options = {
      outDir,
      generatorVersion: version,
      regenerate: regenerateCommand(["mcp-gen"], GENERATE_OPTIONS, {
        ...request.options,
        revision: [schema.revision],
        legacy: legacyInput(model, legacy),
        out: outDir === defaultOut ? undefined : shownPath(request.base, outDir),
      }),
      sourceCommit: pinnedCommitOf(schema.revision, model.source.sha256),
      releases,
      force: request.force,
      jsonSchema: request.jsonSchema,
      ...(legacy.length > 0 ? { legacy } : {}),
      auth: request.auth,
      store: request.store,
      telemetry: request.telemetry,
      kept,
    };
    const result = { name: schema.revision, outDir, origin: schema.origin };
    if (check) {
      const files = await keptIfDone([kept, models], () =>
        inSchemaFile(schema.schemaFile, model.source.file, () =>
          renderRevision(model, version, options, kept),
        ),
      );
      return {
        ...result,
        ...compared(outDir, files, io, { regenerate: options.regenerate, table: GENERATE_OPTIONS }),
      };
    }
    const written = await keptIfDone([kept, models], () =>
      inSchemaFile(schema.schemaFile, model.source.file, () => writeRevision(model, options)),
    );
    const ms = Math.round(performance.now() - started);
    io.stderr(
      `mcp-gen: ${schema.revision}: ${outcome(written.files.length, written.plan.changes, shownPath(io.cwd, outDir))} (schema from ${schema.origin}, ${ms} ms)\n`,
    );
    return { ...result, files: written.files, changes: written.plan.changes, checks: [] };
  };
}

/** Runs `work`, then keeps what it formatted and loaded; a run that fails keeps nothing, as it writes nothing. */
async function keptIfDone<T>(stores: readonly KeptFiles[], work: () => Promise<T>): Promise<T> {
  try {
    const done = await work();
    for (const store of stores) store.save();
    return done;
  } catch (error) {
    for (const store of stores) store.drop();
    throw error;
  }
}

/**
 * `mcp-gen tools`: a file of tool argument and result types, read through the schema loader, into
 * each tool's listing entry with its JSON Schemas, compiled validators and `defineTool` (see
 * `generator/emit/tools/`).
 */
async function toolsJob(
  tools: NonNullable<GenerateRequest["tools"]>,
  request: GenerateRequest,
  io: CliIO,
  loaded: () => Promise<LoaderModule>,
): Promise<Job> {
  const [{ loadModel }, { renderTools }, { writeOutput }] = await Promise.all([
    loaded(),
    import("../emit/tools/render.js"),
    import("../emit/write.js"),
  ]);
  const outDir = tools.out ?? resolve(request.base, "generated", "tools");
  const source = shownPath(request.base, tools.file);
  const regenerate = regenerateCommand(["mcp-gen", "tools"], TOOLS_OPTIONS, {
    file: source,
    out:
      outDir === resolve(request.base, "generated", "tools")
        ? undefined
        : shownPath(request.base, outDir),
  });
  const run = async (check: boolean): Promise<RunResult> => {
    // A tools file says `number` for real numbers; integers are tagged `@TJS-type integer`.
    const model = loadModel(tools.file, {
      revision: basename(tools.file, ".ts"),
      integersByDefault: false,
    });
    const files = await renderTools(model, {
      file: source,
      source,
      generatorVersion: generatorVersion(),
      regenerate,
    });
    if (check)
      return {
        name: "tools",
        outDir,
        ...compared(outDir, files, io, { regenerate, table: TOOLS_OPTIONS }),
      };
    const plan = writeOutput(
      outDir,
      files,
      {
        generator: `mcp-gen ${generatorVersion()}`,
        revision: model.revision,
        schemaSha256: model.source.sha256,
        regenerate,
      },
      { force: request.force },
    );
    io.stderr(
      `mcp-gen: tools from ${shownPath(io.cwd, tools.file)}: ${outcome(files.length, plan.changes, shownPath(io.cwd, outDir))}\n`,
    );
    return {
      name: "tools",
      outDir,
      files: files.map((f) => f.path),
      changes: plan.changes,
      checks: [],
    };
  };
  return { watched: tools.file, outDir, run };
}

/**
 * What a run would change in `outDir`, per file; and which input options differ from the ones the
 * folder's manifest recorded (its regenerate command) against `inputs.regenerate`, this run's.
 */
function compared(
  outDir: string,
  files: readonly GeneratedFile[],
  io: CliIO,
  inputs: { regenerate: string; table: OptionTable },
) {
  const recorded = readManifest(outDir)?.regenerate;
  const checks = checkOutput(outDir, files, shownPath(io.cwd, outDir));
  return {
    changedOptions:
      typeof recorded === "string" ? changedInputs(recorded, inputs.regenerate, inputs.table) : [],
    files: [],
    changes: checks.map(({ path, reason }): OutputChange => ({
      path,
      kind: reason === "added" || reason === "removed" ? reason : "changed",
    })),
    checks,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * What a run did to its folder, in words: a run that changed nothing says so rather than counting
 * every file as written, and one that changed some says how many it left as they were.
 */
export function outcome(total: number, changes: readonly OutputChange[], dir: string): string {
  const written = changes.filter((c) => c.kind !== "removed").length;
  const removed = changes.length - written;
  if (changes.length === 0)
    return `up to date, nothing written (${plural(total, "file")} in ${dir})`;
  const rest = [
    ...(written < total ? [`${total - written} unchanged`] : []),
    ...(removed > 0 ? [`${removed} removed`] : []),
  ];
  return `wrote ${plural(written, "file")} to ${dir}${rest.length > 0 ? `, ${rest.join(", ")}` : ""}`;
}

/** `--revision` (repeatable, de-duplicated in order) or `--all` (everything `mcp-gen list` shows). */
function selectRevisions(request: GenerateRequest, io: CliIO): string[] {
  if (request.all) {
    const all = catalog({
      specDir: request.specDir,
      env: io.env,
      cwd: io.cwd,
      cacheDir: cacheDirFor(io),
    }).map((e) => e.revision);
    if (all.length === 0) throw new UsageError("--all: no revisions are known");
    return all;
  }
  return [...new Set(request.revisions)];
}

/**
 * With one revision `out` is its output folder; with several, each revision gets `<out>/<rev>/`.
 * The default is `generated/<rev>/` under the request's base folder.
 */
function outDirFor(revision: string, request: GenerateRequest, count: number): string {
  if (request.out === undefined) return resolve(request.base, "generated", revision);
  return count === 1 ? request.out : join(request.out, revision);
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
