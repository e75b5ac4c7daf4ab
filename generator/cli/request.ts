import { isAbsolute, relative, resolve, sep } from "node:path";
import type { JsonSchemaAdapter } from "../emit/json-schema/adapters.js";
import { legacyChoice } from "../derive/legacy-default.js";
import type { StoreAdapter } from "../emit/store/adapters.js";
import type { TelemetryAdapter } from "../emit/telemetry/adapters.js";
import { CONFIG_FILE, findConfig } from "./config-file.js";
import { UsageError, type CliIO } from "./context.js";
import { specDirOf } from "./project-defaults.js";
import { GENERATE_OPTIONS, TOOLS_OPTIONS, type FlagValues } from "./options.js";

/**
 * What a generation run is asked for, normalized: the command line (or the library's options) over
 * the config file over the defaults, every path absolute. Generation reads only this, so the same
 * inputs make the same output and the same header however they were spelled.
 */
export interface GenerateRequest {
  revisions: string[];
  all: boolean;
  /**
   * Initialize-era revisions the server also serves; `[]`: none (`--legacy none`); `undefined`: the
   * default, every released initialize-era revision older than the one generated (cli/legacy.ts).
   */
  legacy: string[] | undefined;
  /** The output folder asked for (absolute); default: `generated/<revision>` under `base`. */
  out: string | undefined;
  /** The folder relative paths are taken from and shown from: the config file's, else the working directory. */
  base: string;
  specDir: string | undefined;
  offline: boolean;
  check: boolean;
  force: boolean;
  watch: boolean;
  jsonSchema: JsonSchemaAdapter | undefined;
  auth: boolean;
  store: StoreAdapter | undefined;
  telemetry: TelemetryAdapter | undefined;
  /**
   * Every option of the table, the command line's value over the config file's: what a new option
   * is read from (the fields above are the ones generation normalizes further).
   */
  options: GenerateFlags;
  /** `mcp-gen tools`, or the config's `tools` on a run that names no revision. */
  tools: { file: string; out: string | undefined } | undefined;
}

export type GenerateFlags = FlagValues<typeof GENERATE_OPTIONS>;
export type ToolsFlags = FlagValues<typeof TOOLS_OPTIONS>;

/**
 * The default command's request. The config's revisions apply when the command line names none;
 * its tools too, since a run without `--revision` regenerates the whole project. Flags win.
 */
export function generateRequest(
  flags: GenerateFlags,
  io: CliIO,
  { readConfig = true }: { readConfig?: boolean } = {},
): GenerateRequest {
  const config = readConfig ? findConfig(flags.config, io.cwd) : undefined;
  const fromFile = (config?.values.get(GENERATE_OPTIONS) ?? {}) as GenerateFlags;
  const tools = (config?.values.get(TOOLS_OPTIONS) ?? {}) as ToolsFlags;
  const base = config?.dir ?? io.cwd;
  const named = flags.revision !== undefined || flags.all === true;
  const options = Object.fromEntries(
    Object.keys(GENERATE_OPTIONS).map((key) => [
      key,
      (flags as Record<string, unknown>)[key] ?? (fromFile as Record<string, unknown>)[key],
    ]),
  ) as GenerateFlags;
  return {
    options,
    revisions: named ? (flags.revision ?? []) : (fromFile.revision ?? []),
    all: flags.all === true,
    legacy: legacyList(flags.legacy ?? fromFile.legacy),
    out:
      flags.out !== undefined
        ? resolve(io.cwd, flags.out)
        : fromFile.out !== undefined
          ? resolve(base, fromFile.out)
          : undefined,
    base,
    specDir: specDirOf(flags.specDir, config, io),
    offline: flags.offline,
    check: flags.check === true,
    force: flags.force === true,
    watch: flags.watch === true,
    jsonSchema: flags.jsonSchema ?? fromFile.jsonSchema,
    auth: flags.auth ?? fromFile.auth ?? false,
    store: flags.store ?? fromFile.store,
    telemetry: flags.telemetry ?? fromFile.telemetry,
    tools:
      !named && tools.file !== undefined
        ? { file: resolve(base, tools.file), out: tools.out && resolve(base, tools.out) }
        : undefined,
  };
}

/** `mcp-gen tools [file]`: the file and folder from the command line, else from the config's `tools`. */
export function toolsRequest(flags: ToolsFlags, io: CliIO): GenerateRequest {
  const config = findConfig(flags.config, io.cwd);
  const fromFile = (config?.values.get(TOOLS_OPTIONS) ?? {}) as ToolsFlags;
  const base = config?.dir ?? io.cwd;
  // A path on the command line is relative to where it was typed; one in the config, to the config.
  const path = (typed: string | undefined, configured: string | undefined) =>
    typed !== undefined
      ? resolve(io.cwd, typed)
      : configured !== undefined
        ? resolve(base, configured)
        : undefined;
  const file = path(flags.file, fromFile.file);
  if (file === undefined)
    throw new UsageError(
      `missing the tools file (mcp-gen tools FILE, or "tools.file" in ${CONFIG_FILE})`,
    );
  const out = path(flags.out, fromFile.out);
  return {
    options: { offline: true },
    revisions: [],
    all: false,
    legacy: [],
    out: undefined,
    base,
    specDir: undefined,
    offline: true,
    check: flags.check === true,
    force: flags.force === true,
    watch: flags.watch === true,
    jsonSchema: undefined,
    auth: false,
    store: undefined,
    telemetry: undefined,
    tools: { file, out },
  };
}

/** `--legacy` (or the config's `legacy`) normalized: `none` is the empty list, absent the default. */
function legacyList(given: readonly string[] | undefined): string[] | undefined {
  const choice = legacyChoice(given);
  if (choice.kind === "invalid") throw new UsageError(choice.why);
  return choice.kind === "default" ? undefined : choice.revisions;
}

/**
 * A path as headers and messages show it: relative to `base` where it is inside it (with `/`),
 * else absolute.
 */
export function shownPath(base: string, path: string): string {
  const rel = relative(base, path);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel) || rel.length > path.length) return path;
  return rel.split(sep).join("/");
}
