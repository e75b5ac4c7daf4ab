import { GeneratorError } from "../errors.js";
import { explain } from "./check-report.js";
import type { CliIO } from "./context.js";
import { runRequest, type RunResult } from "./generate.js";
import {
  generateRequest,
  shownPath,
  toolsRequest,
  type GenerateFlags,
  type GenerateRequest,
  type ToolsFlags,
} from "./request.js";
import { watchFiles } from "./watch.js";

/** `mcp-gen [--revision R …]`: the revisions (and the config's tools) through the one pipeline. */
export const generateCommand = (flags: GenerateFlags, io: CliIO): Promise<void> =>
  runCommand(generateRequest(flags, io), io);

/** `mcp-gen tools [file]`: a tools file through the same pipeline. */
export const toolsCommand = (flags: ToolsFlags, io: CliIO): Promise<void> =>
  runCommand(toolsRequest(flags, io), io);

async function runCommand(request: GenerateRequest, io: CliIO): Promise<void> {
  const { jobs, results } = await runRequest(request, io);
  if (request.check) return reportChecks(results, io);
  if (request.watch)
    await watchFiles(
      jobs.map((job) => ({ file: job.watched, regenerate: () => job.run(false) })),
      io,
    );
}

/**
 * `--check`: one line per file that would change, saying why, on stderr; the unified diff of every
 * changed file on stdout (a patch from the folder to what a run writes); then exit 1, or 0 when
 * everything is up to date.
 */
function reportChecks(results: readonly RunResult[], io: CliIO): void {
  const checks = results.flatMap((r) => {
    const dir = shownPath(io.cwd, r.outDir);
    return r.checks.map((c) => ({ ...c, shown: dir === "." ? c.path : `${dir}/${c.path}` }));
  });
  if (checks.length === 0) {
    io.stderr(
      `mcp-gen: --check: ${results.map((r) => shownPath(io.cwd, r.outDir)).join(", ")} up to date\n`,
    );
    return;
  }
  for (const check of checks) {
    io.stderr(`mcp-gen: --check: ${check.shown}: ${explain(check.reason)}\n`);
    if (check.diff) io.stdout(check.diff);
  }
  const diffs = checks.some((c) => c.diff);
  const edited = checks.some((c) => c.reason.startsWith("edited by hand"));
  throw new GeneratorError(
    `--check: ${checks.length} file${checks.length === 1 ? "" : "s"} would change${diffs ? " (the diff is on stdout)" : ""}; ${edited ? "move hand edits elsewhere, or pass --force to overwrite them" : "run the same command without --check to regenerate"}`,
  );
}
