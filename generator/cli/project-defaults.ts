import { resolve } from "node:path";
import { CONFIG_FILE, findConfig, type ConfigFile } from "./config-file.js";
import { UsageError, type CliIO } from "./context.js";
import { GENERATE_OPTIONS, type FlagValues } from "./options.js";

/**
 * What a command takes from the project's `mcp-gen.config.json` when its command line does not say:
 * the spec folder, and for a command about one revision (ir, deprecations, diff) the revision the
 * project generates. So a project with a config needs neither `MCP_SPEC_DIR` nor `--revision`.
 */
type Configured = FlagValues<typeof GENERATE_OPTIONS>;

const configured = (config: ConfigFile | undefined): Configured =>
  (config?.values.get(GENERATE_OPTIONS) ?? {}) as Configured;

/**
 * The spec folder: `--spec-dir`, else none when MCP_SPEC_DIR is set (the environment beats the
 * file, as a flag beats both), else the config's `spec-dir`, relative to the config's folder.
 */
export function specDirOf(
  flag: string | undefined,
  config: ConfigFile | undefined,
  io: CliIO,
): string | undefined {
  if (flag !== undefined || io.env["MCP_SPEC_DIR"]) return flag;
  const fromFile = configured(config).specDir;
  return fromFile === undefined ? undefined : resolve(config!.dir, fromFile);
}

/** A read-only command's spec folder and revision, the config filling what the command line left out. */
export function withProjectDefaults<
  A extends { revision?: string | undefined; specDir?: string | undefined },
>(args: A, io: CliIO): A & { revision: string } {
  const config = findConfig(undefined, io.cwd);
  return {
    ...args,
    specDir: specDirOf(args.specDir, config, io),
    revision: args.revision ?? configRevision(config),
  };
}

/** The config's one revision; a usage error naming what to pass when there is none, or several. */
export function configRevision(config: ConfigFile | undefined): string {
  const revisions = configured(config).revision ?? [];
  if (revisions.length === 1) return revisions[0]!;
  if (revisions.length === 0)
    throw new UsageError(
      `missing --revision R${config ? ` (${config.file} names no revision)` : ` (or an ${CONFIG_FILE} naming one: mcp-gen init writes it)`}`,
    );
  throw new UsageError(
    `missing --revision R: ${config!.file} names several (${revisions.join(", ")})`,
  );
}
