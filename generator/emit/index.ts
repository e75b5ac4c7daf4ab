import type { ProtocolModel } from "../ir/model.js";
import type { Releases } from "../registry/index.js";
import { entryFiles } from "./entries.js";
import {
  header,
  regenerateCommand,
  type EmitContext,
  type GeneratedFile,
  type Provenance,
  type Target,
} from "./file.js";
import { readmeFile } from "./readme.js";
import { runtimeClosure } from "./runtime-closure.js";
import { finishedText, type FormattedBodies } from "./format-kept.js";
import { typesTarget } from "./types/target.js";
import { validatorsTarget } from "./validators/target.js";
import { protocolTarget } from "./protocol/target.js";
import { serverTarget } from "./server/target.js";
import { clientTarget } from "./client/target.js";
import { deprecationsTarget } from "./deprecations/target.js";
import { jsonSchemaTarget } from "./json-schema/target.js";
import { authTarget } from "./auth/target.js";
import { storeTarget } from "./store/target.js";
import type { StoreAdapter } from "./store/adapters.js";
import type { TelemetryAdapter } from "./telemetry/adapters.js";
import type { JsonSchemaAdapter } from "./json-schema/adapters.js";
import { planOutput, writeOutput, type OutputPlan } from "./write.js";

export const TARGETS: readonly Target[] = [
  typesTarget,
  validatorsTarget,
  protocolTarget,
  serverTarget,
  clientTarget,
  deprecationsTarget,
  jsonSchemaTarget,
  authTarget,
  storeTarget,
];

/** What the emitters are told beside the model: where it came from, and the project's release dates. */
export interface EmitFacts extends Provenance {
  releases: Releases;
  /** The JSON Schema engine adapter to emit beside the runtime (`--json-schema`), if any. */
  jsonSchema?: JsonSchemaAdapter | undefined;
  /** Initialize-era revisions the server also serves (`--legacy`). */
  legacy?: readonly ProtocolModel[] | undefined;
  /** `--auth`: the authorization adapters (runtime/auth/oauth-client.ts, runtime/auth/jwt-verifier.ts). */
  auth?: boolean;
  /** `--store`: the shared store's runtime module (runtime/server/store-redis.ts), if any. */
  store?: StoreAdapter | undefined;
  /** `--telemetry`: the telemetry adapter the server and client record through by default, if any. */
  telemetry?: TelemetryAdapter | undefined;
}

export interface EmitOptions extends EmitFacts {
  outDir: string;
  generatorVersion: string;
  /** Overwrite generated files edited by hand. */
  force?: boolean;
  /** Formatted bodies kept from earlier runs (format-kept.ts): the same output, sooner. */
  kept?: FormattedBodies | undefined;
}

/**
 * Writes every target for one revision into outDir (see write.ts: only mcp-gen's own files are
 * replaced). TypeScript files get the header and go through prettier; the entry points re-export
 * every module a target marks with `entry`; README.md describes the folder.
 */
export async function emitRevision(model: ProtocolModel, options: EmitOptions): Promise<string[]> {
  return (await writeRevision(model, options)).files;
}

/** emitRevision, also telling what the write changed. */
export async function writeRevision(
  model: ProtocolModel,
  options: EmitOptions,
): Promise<{ files: string[]; plan: OutputPlan }> {
  const files = await renderRevision(model, options.generatorVersion, options, options.kept);
  const plan = writeOutput(options.outDir, files, manifestFacts(model, options), {
    force: options.force === true,
  });
  return { files: files.map((f) => f.path), plan };
}

/** What emitRevision would change in outDir, writing nothing (`--check`). */
export async function checkRevision(
  model: ProtocolModel,
  options: EmitOptions,
): Promise<OutputPlan> {
  return planOutput(
    options.outDir,
    await renderRevision(model, options.generatorVersion, options, options.kept),
  );
}

function manifestFacts(model: ProtocolModel, options: EmitOptions) {
  return {
    generator: `mcp-gen ${options.generatorVersion}`,
    revision: model.revision,
    schemaSha256: model.source.sha256,
    regenerate: regenerateCommand({
      model,
      provenance: options,
      ...(options.legacy ? { legacy: options.legacy } : {}),
      auth: options.auth === true,
      store: options.store,
      telemetry: options.telemetry,
    }),
  };
}

/** The files of one revision, formatted, without writing them. */
export async function renderRevision(
  model: ProtocolModel,
  generatorVersion: string,
  facts: EmitFacts,
  kept?: FormattedBodies,
): Promise<GeneratedFile[]> {
  const provenance = { regenerate: facts.regenerate, sourceCommit: facts.sourceCommit };
  const ctx: EmitContext = {
    model,
    generatorVersion,
    provenance,
    releases: facts.releases,
    jsonSchema: facts.jsonSchema,
    auth: facts.auth === true,
    store: facts.store,
    telemetry: facts.telemetry,
  };
  if (facts.legacy?.length) ctx.legacy = facts.legacy;
  const files = uniqueByPath(TARGETS.flatMap((target) => target.emit(ctx)));
  files.push(...runtimeClosure(files));
  files.push(...entryFiles(model, files));
  const formatted = await Promise.all(
    files.map(async ({ path, content, description }) => {
      const done = (text: string): GeneratedFile =>
        description === undefined ? { path, content: text } : { path, content: text, description };
      return done(await finishedText(path, header(ctx), content, kept));
    }),
  );
  formatted.push(readmeFile(ctx, formatted));
  return formatted.map(({ path, content }) => ({ path, content }));
}

/** Targets share runtime modules (the server and the client both need `runtime/shared/jsonrpc.ts`): keep one. */
function uniqueByPath(files: GeneratedFile[]): GeneratedFile[] {
  const byPath = new Map<string, GeneratedFile>();
  for (const file of files) {
    const seen = byPath.get(file.path);
    if (seen && seen.content !== file.content)
      throw new Error(`two targets write ${file.path} differently`);
    byPath.set(file.path, seen ?? file);
  }
  return [...byPath.values()];
}
