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
 * `--check`: per folder, the options that changed since the run that wrote it; one line for the
 * files that differ only in their header (an option change alters every header), one line per other
 * file that would change, saying why; on stdout the unified diff of every changed file (a patch from
 * the folder to what a run writes); then exit 1, or 0 when everything is up to date.
 */
function reportChecks(results: readonly RunResult[], io: CliIO): void {
  const count = results.reduce((n, r) => n + r.checks.length, 0);
  if (count === 0) {
    io.stderr(
      `mcp-gen: --check: ${results.map((r) => shownPath(io.cwd, r.outDir)).join(", ")} up to date\n`,
    );
    return;
  }
  for (const result of results) {
    const dir = shownPath(io.cwd, result.outDir);
    const shown = (path: string) => (dir === "." ? path : `${dir}/${path}`);
    if (result.checks.length > 0 && result.changedOptions?.length)
      io.stderr(`mcp-gen: --check: ${dir}: options changed: ${result.changedOptions.join(", ")}\n`);
    const headerOnly = result.checks.filter((c) => c.headerOnly);
    if (headerOnly.length > 0)
      io.stderr(
        `mcp-gen: --check: ${dir}: ${headerOnly.length === 1 ? `${shown(headerOnly[0]!.path)} differs` : `${headerOnly.length} files differ`} only in their generated header (it names the options, the source's sha256 and the generator)\n`,
      );
    for (const check of result.checks)
      if (!check.headerOnly)
        io.stderr(`mcp-gen: --check: ${shown(check.path)}: ${explain(check.reason)}\n`);
    for (const check of result.checks) if (check.diff) io.stdout(check.diff);
  }
  const checks = results.flatMap((r) => r.checks);
  const diffs = checks.some((c) => c.diff);
  const edited = checks.some((c) => c.reason.startsWith("edited by hand"));
  throw new GeneratorError(
    `--check: ${count} file${count === 1 ? "" : "s"} would change${diffs ? " (the diff is on stdout)" : ""}; ${edited ? "move hand edits elsewhere, or pass --force to overwrite them" : "run the same command without --check to regenerate"}`,
  );
}
