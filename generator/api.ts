/**
 * mcp-gen as a library (`import { generate } from "mcp-gen"`): the same steps as the command line,
 * as functions. `loadModel` reads a `schema.ts` into the IR (its types are exported here too);
 * `generate` writes a revision's TypeScript into a folder (or, with `check`, says what it would
 * change); `diff` compares two models; `deprecations` lists a model's deprecation registry.
 */
import type { FileCheck } from "./cli/check-report.js";
import type { CliIO } from "./cli/context.js";
import { runRequest, type RunResult } from "./cli/generate.js";
import { generateRequest, type GenerateFlags } from "./cli/request.js";
import { diffModels } from "./diff/index.js";
import type { OutputChange } from "./emit/write.js";
import { GeneratorError } from "./errors.js";
import type { ProtocolModel } from "./ir/model.js";
import { loadModel } from "./load/index.js";
import { deprecationRegistry, releasesOf, type RegistryEntry } from "./registry/index.js";
import type { SchemaOrigin } from "./spec/resolve.js";
import { readRevisions } from "./spec/revisions.js";

export type * from "./ir/model.js";
export type { Change, FailOn, RuleId, Severity } from "./diff/index.js";
export type { RegistryEntry } from "./registry/index.js";
export type { OutputChange } from "./emit/write.js";
export type { CheckReason, FileCheck } from "./cli/check-report.js";
export { GeneratorError };
export { FAIL_ON, failsOn, isBreaking } from "./diff/index.js";
export { loadModel };

/**
 * The generation options: every option of the command line's default command (its option table,
 * generator/cli/options.ts), camelCased, beside the environment it runs in. `revision` (or the
 * config's revisions) must name exactly one revision.
 */
export interface GenerateOptions extends Omit<
  GenerateFlags,
  "revision" | "offline" | "all" | "watch" | "check" | "force" | "config"
> {
  /** A protocol revision: `2026-07-28`, `draft`, or any folder name under `specDir`. */
  revision?: string;
  /**
   * The initialize-era revisions the server and client also speak; default: every released
   * initialize-era revision older than `revision`; `["none"]` (or `[]`): none.
   */
  legacy?: string[];
  /** Output folder; default `generated/<revision>` under `cwd`. */
  out?: string;
  /** Folder holding `<revision>/schema.ts`; default: `MCP_SPEC_DIR`, else the cache, else a verified download. */
  specDir?: string;
  /** Never download. */
  offline?: boolean;
  /** Overwrite generated files edited by hand. */
  force?: boolean;
  /** Write nothing; report what would change, and why (`checks`). */
  check?: boolean;
  /** The config file to read; default `mcp-gen.config.json` in `cwd` when there; `false`: none. */
  config?: string | false;
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
  /** With `check`: each file that would change, why (edited by hand, or its inputs changed), and its diff. */
  checks: FileCheck[];
}

/** Writes one revision's output (or, with `check`, says what a run would change): the CLI's pipeline. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const { cwd = process.cwd(), env = process.env, log, config, revision, ...rest } = options;
  const io: CliIO = {
    stdout: () => {},
    stderr: () => {},
    notice: log ?? (() => {}),
    env,
    cwd,
  };
  const request = generateRequest(
    {
      ...rest,
      ...(revision !== undefined ? { revision: [revision] } : {}),
      config: config === false ? undefined : config,
      offline: options.offline === true,
    },
    io,
    { readConfig: config !== false },
  );
  request.tools = undefined; // the library's generate() is one revision's output
  const { results } = await runRequest(request, io);
  if (results.length !== 1)
    throw new GeneratorError(
      `generate() makes one revision's output; ${results.length} were asked for: pass \`revision\``,
    );
  const [result] = results as [RunResult];
  return {
    revision: result.name,
    outDir: result.outDir,
    origin: result.origin!,
    files: result.files,
    changes: result.changes,
    checks: result.checks,
  };
}

/** Every change between two models, each with its rule, severity and location. */
export const diff = (from: ProtocolModel, to: ProtocolModel) => diffModels(from, to);

/** The model's deprecation registry, earliest removals dated from the pinned release dates. */
export function deprecations(model: ProtocolModel): RegistryEntry[] {
  return deprecationRegistry(model, releasesOf(readRevisions()));
}
