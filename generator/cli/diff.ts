import { existsSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { GeneratorError } from "../errors.js";
import type { ProtocolModel } from "../ir/model.js";
import { UsageError, type CliIO } from "./context.js";
import { resolveForCli } from "./generate.js";

export interface DiffArgs {
  from: string;
  to: string;
  format: string;
  failOn?: string | undefined;
  specDir?: string | undefined;
  offline: boolean;
}

/**
 * `mcp-gen diff <from> <to>`: every change between two revisions (or two `schema.ts` files), as
 * Markdown grouped by severity or as JSON. With `--fail-on breaking` it exits 1 when any change is
 * breaking, after printing the report.
 */
export async function diffCommand(args: DiffArgs, io: CliIO): Promise<void> {
  if (args.format !== "markdown" && args.format !== "json") throw new UsageError(`--format must be markdown or json, not "${args.format}"`);
  if (args.failOn !== undefined && args.failOn !== "breaking") throw new UsageError(`--fail-on must be "breaking", not "${args.failOn}"`);
  const from = await loadSide(args.from, args, io);
  const to = await loadSide(args.to, args, io);
  const [{ diffModels, isBreaking }, report] = await Promise.all([import("../diff/index.js"), import("../diff/report.js")]);
  const changes = diffModels(from, to);
  io.stdout(args.format === "json" ? report.diffJson(from.revision, to.revision, changes) : report.diffMarkdown(from.revision, to.revision, changes));
  const breaking = changes.filter((c) => isBreaking(c.severity)).length;
  if (args.failOn === "breaking" && breaking > 0) {
    throw new GeneratorError(`${breaking} breaking change${breaking === 1 ? "" : "s"} from ${from.revision} to ${to.revision} (--fail-on breaking)`);
  }
}

/** A revision name, or the path of a `schema.ts` file (its folder names the revision). */
async function loadSide(ref: string, args: DiffArgs, io: CliIO): Promise<ProtocolModel> {
  const { loadModel } = await import("../load/index.js");
  if (ref.endsWith(".ts")) {
    const file = resolve(io.cwd, ref);
    if (!existsSync(file)) throw new GeneratorError(`${ref}: no such file`);
    return loadModel(file, { revision: basename(file) === "schema.ts" ? basename(dirname(file)) : basename(file, ".ts") });
  }
  const schema = await resolveForCli(ref, args, io);
  return loadModel(schema.schemaFile, { revision: schema.revision });
}
