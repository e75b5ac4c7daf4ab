import { existsSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { GeneratorError } from "../errors.js";
import type { ProtocolModel } from "../ir/model.js";
import { FAIL_ON, type Change, type FailOn } from "../diff/rules.js";
import { UsageError, type CliIO } from "./context.js";
import { resolveForCli } from "./generate.js";
import { findConfig } from "./config-file.js";
import { configRevision, specDirOf } from "./project-defaults.js";

export interface DiffArgs {
  from: string;
  /** Default: the revision mcp-gen.config.json names. */
  to?: string | undefined;
  format: string;
  failOn?: string | undefined;
  specDir?: string | undefined;
  offline: boolean;
}

/**
 * `mcp-gen diff <from> [to]` (`to` by default the config's revision): every change between two revisions (or two `schema.ts` files), as
 * Markdown grouped by severity, JSON, or GitHub workflow annotations. With `--fail-on breaking` it
 * exits 1 when any change is breaking (`breaking-client`/`breaking-server`: any that breaks that
 * party, `breaking-both` included), after printing the report.
 */
export async function diffCommand(given: DiffArgs, io: CliIO): Promise<void> {
  const config = findConfig(undefined, io.cwd);
  const args = {
    ...given,
    to: given.to ?? configRevision(config),
    specDir: specDirOf(given.specDir, config, io),
  };
  if (!["markdown", "json", "github"].includes(args.format))
    throw new UsageError(`--format must be markdown, json or github, not "${args.format}"`);
  const failOn = args.failOn as FailOn | undefined;
  if (failOn !== undefined && !FAIL_ON.includes(failOn))
    throw new UsageError(`--fail-on must be ${FAIL_ON.join(", ")}, not "${args.failOn}"`);
  const from = await loadSide(args.from, args, io);
  const to = await loadSide(args.to, args, io);
  const [{ diffModels, failsOn }, report, { parseChangelog }, { changelogText }] =
    await Promise.all([
      import("../diff/index.js"),
      import("../diff/report.js"),
      import("../registry/changelog.js"),
      import("../spec/docs.js"),
    ]);
  // The newer revision's changelog, when the spec's docs are beside its schema: its migrations.
  const changelog = changelogText(to.file);
  const changes = diffModels(from.model, to.model, {
    changelog: changelog === null ? undefined : parseChangelog(changelog),
  });
  const [a, b] = [from.model.revision, to.model.revision];
  const root = repositoryOf(io);
  io.stdout(
    args.format === "json"
      ? report.diffJson(a, b, changes)
      : args.format === "github"
        ? report.diffGithub(a, b, changes, (change) => locate(change, [to, from], root))
        : report.diffMarkdown(a, b, changes),
  );
  if (failOn === undefined) return;
  const failing = changes.filter((c) => failsOn(c.severity, failOn)).length;
  if (failing > 0) {
    const plural = failing === 1 ? "" : "s";
    const what =
      failOn === "breaking"
        ? `breaking change${plural}`
        : `change${plural} breaking ${failOn.replace("breaking-", "")}s`;
    throw new GeneratorError(`${failing} ${what} from ${a} to ${b} (--fail-on ${failOn})`);
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
 * The folder annotation paths are relative to: the workflow's checkout (`GITHUB_WORKSPACE`), else
 * the git repository holding the working directory (a `.git` folder, or file in a worktree), else
 * the working directory itself.
 */
function repositoryOf(io: CliIO): string {
  const workspace = io.env["GITHUB_WORKSPACE"];
  if (workspace) return resolve(io.cwd, workspace);
  for (let dir = resolve(io.cwd); ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return resolve(io.cwd);
  }
}

/** A file's path from the repository root, `/`-separated as GitHub wants it; `null` outside it. */
function repositoryPath(root: string, file: string): string | null {
  const rel = relative(root, file);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return null;
  return rel.split(sep).join("/");
}

/**
 * The schema line a change concerns: its definition, method message or constant in the newer
 * schema, else (a removal) in the older one. `null` for a schema outside the repository (one from
 * the download cache, a spec folder beside the checkout): GitHub can only place an annotation on a
 * file of the repository, so it is shown without one.
 */
function locate(
  change: Change,
  sides: readonly Side[],
  root: string,
): { file: string; line: number | null } | null {
  const name = change.location.replace(/^(constant|error) /, "").split(".")[0]!;
  for (const side of sides) {
    const { model } = side;
    const method = model.methods.find((m) => m.method === change.location);
    const line =
      model.definitions.find((d) => d.name === (method?.roles[0]?.message ?? name))?.line ??
      model.constants.find((c) => c.name === name)?.line ??
      null;
    if (line === null) continue;
    const file = repositoryPath(root, side.file);
    return file === null ? null : { file, line };
  }
  const file = repositoryPath(root, sides[0]!.file);
  return file === null ? null : { file, line: null };
}
