import { join, resolve } from "node:path";
import type { ProtocolModel } from "../ir/model.js";
import { catalog } from "../spec/catalog.js";
import { enableCompileCache } from "./compile-cache.js";
import { resolveSchema, type ResolvedSchema } from "../spec/resolve.js";
import { compileCacheDir } from "../spec/cache-dir.js";
import { pruneCache } from "../spec/cache-entries.js";
import { cacheDirFor, cacheRootFor, displayPath, logTo, UsageError, type CliIO } from "./context.js";
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
  all: boolean;
  out?: string | undefined;
  specDir?: string | undefined;
  offline: boolean;
}

export async function generate(args: GenerateArgs, io: CliIO): Promise<void> {
  const revisions = selectRevisions(args, io);
  const version = generatorVersion();
  const located: ResolvedSchema[] = [];
  for (const revision of revisions) located.push(await resolveForCli(revision, args, io));
  const compileCache = enableCompileCache(compileCacheDir(cacheRootFor(io))); // before the loader brings in TypeScript
  const [{ loadModel }, { emitRevision }] = await Promise.all([import("../load/index.js"), import("../emit/index.js")]);

  for (const schema of located) {
    const started = performance.now();
    const model: ProtocolModel = loadModel(schema.schemaFile, { revision: schema.revision });
    const outDir = outDirFor(schema.revision, args, revisions.length, io);
    const written = await emitRevision(model, { outDir, generatorVersion: version });
    compileCache.save(); // after the first revision: the cached code then holds what a run compiles
    const ms = Math.round(performance.now() - started);
    io.stderr(
      `mcp-gen: ${schema.revision}: wrote ${written.length} file${written.length === 1 ? "" : "s"} to ${displayPath(io, outDir)} (schema from ${schema.origin}, ${ms} ms)\n`,
    );
  }
  pruneCache(cacheRootFor(io)); // entries no project used for a month
}

/** `--revision` (repeatable, de-duplicated in order) or `--all` (everything `mcp-gen list` shows). */
export function selectRevisions(args: Pick<GenerateArgs, "revisions" | "all" | "specDir">, io: CliIO): string[] {
  if (args.all) {
    const all = catalog({ specDir: args.specDir, env: io.env, cwd: io.cwd, cacheDir: cacheDirFor(io) }).map((e) => e.revision);
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
export function resolveForCli(revision: string, args: { specDir?: string | undefined; offline: boolean }, io: CliIO): Promise<ResolvedSchema> {
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
