import { existsSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { GeneratorError } from "../errors.js";
import type { ProtocolModel } from "../ir/model.js";
import type { Change } from "../diff/rules.js";
import { displayPath, UsageError, type CliIO } from "./context.js";
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
  if (!["markdown", "json", "github"].includes(args.format))
    throw new UsageError(`--format must be markdown, json or github, not "${args.format}"`);
  if (args.failOn !== undefined && args.failOn !== "breaking")
    throw new UsageError(`--fail-on must be "breaking", not "${args.failOn}"`);
  const from = await loadSide(args.from, args, io);
  const to = await loadSide(args.to, args, io);
  const [{ diffModels, isBreaking }, report] = await Promise.all([
    import("../diff/index.js"),
    import("../diff/report.js"),
  ]);
  const changes = diffModels(from.model, to.model);
  const [a, b] = [from.model.revision, to.model.revision];
  io.stdout(
    args.format === "json"
      ? report.diffJson(a, b, changes)
      : args.format === "github"
        ? report.diffGithub(a, b, changes, (change) => locate(change, [to, from], io))
        : report.diffMarkdown(a, b, changes),
  );
  const breaking = changes.filter((c) => isBreaking(c.severity)).length;
  if (args.failOn === "breaking" && breaking > 0) {
    throw new GeneratorError(
      `${breaking} breaking change${breaking === 1 ? "" : "s"} from ${a} to ${b} (--fail-on breaking)`,
    );
  }
}

interface Side {
  model: ProtocolModel;
  file: string;
}

/** A revision name, or the path of a `schema.ts` file (its folder names the revision). */
async function loadSide(ref: string, args: DiffArgs, io: CliIO): Promise<Side> {
  const { loadModel } = await import("../load/index.js");
  if (ref.endsWith(".ts")) {
    const file = resolve(io.cwd, ref);
    if (!existsSync(file)) throw new GeneratorError(`${ref}: no such file`);
    return {
      model: loadModel(file, {
        revision: basename(file) === "schema.ts" ? basename(dirname(file)) : basename(file, ".ts"),
      }),
      file,
    };
  }
  const schema = await resolveForCli(ref, args, io);
  return {
    model: loadModel(schema.schemaFile, { revision: schema.revision }),
    file: schema.schemaFile,
  };
}

/**
 * The schema line a change concerns: its definition, method message or constant in the newer
 * schema, else (a removal) in the older one.
 */
function locate(
  change: Change,
  sides: readonly Side[],
  io: CliIO,
): { file: string; line: number | null } {
  const name = change.location.replace(/^(constant|error) /, "").split(".")[0]!;
  for (const side of sides) {
    const { model } = side;
    const method = model.methods.find((m) => m.method === change.location);
    const line =
      model.definitions.find((d) => d.name === (method?.roles[0]?.message ?? name))?.line ??
      model.constants.find((c) => c.name === name)?.line ??
      null;
    if (line !== null) return { file: displayPath(io, side.file), line };
  }
  return { file: displayPath(io, sides[0]!.file), line: null };
}
