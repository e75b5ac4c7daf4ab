#!/usr/bin/env node
/**
 * mcp-gen command line. Parsing only picks a command; the work runs after
 * yargs returns, so every failure ends in the same place and is reported as
 * exactly one line on stderr:
 *   GeneratorError → its toString(), exit 1
 *   bad usage      → exit 2
 *   anything else  → "internal error", exit 70 (MCP_GEN_DEBUG=1 adds the stack)
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import yargs, { type Argv } from "yargs";
import { GeneratorError } from "../errors.js";
import { processIO, UsageError, type CliIO } from "./context.js";
import { deprecationsCommand } from "./deprecations.js";
import { diffCommand } from "./diff.js";
import { cacheCommand } from "./cache.js";
import { fetchCommand } from "./fetch.js";
import { didYouMean } from "../suggest.js";
import { generateCommand, toolsCommand } from "./generate-command.js";
import { initCommand } from "./init.js";
import {
  CACHE_OPTIONS,
  DEPRECATIONS_OPTIONS,
  DIFF_OPTIONS,
  FETCH_OPTIONS,
  GENERATE_OPTIONS,
  INIT_OPTIONS,
  IR_OPTIONS,
  LIST_OPTIONS,
  TOOLS_OPTIONS,
  type FlagValues,
  type OptionTable,
} from "./options.js";
import { declareOptions, readFlags } from "./yargs-options.js";
import { printIR } from "./ir.js";
import { listRevisions } from "./list.js";
import { generatorVersion } from "./version.js";

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 70; // EX_SOFTWARE

type Job = (io: CliIO) => Promise<void> | void;

/** Runs one mcp-gen invocation and returns its exit code; never throws, never exits the process. */
export async function main(
  argv: readonly string[],
  ioOverrides: Partial<CliIO> = {},
): Promise<number> {
  const io: CliIO = { ...processIO(), ...ioOverrides };
  try {
    const { job, output } = await parse(argv);
    if (output) io.stdout(output.endsWith("\n") ? output : `${output}\n`); // --help / --version
    if (job) await job(io);
    return EXIT_OK;
  } catch (e) {
    return report(e, io);
  }
}

function report(e: unknown, io: CliIO): number {
  if (e instanceof GeneratorError) {
    io.stderr(`${e.toString()}\n`);
    return EXIT_ERROR;
  }
  if (e instanceof UsageError) {
    io.stderr(`mcp-gen: ${oneLine(e.message)} (see mcp-gen --help)\n`);
    return EXIT_USAGE;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  io.stderr(`mcp-gen: internal error: ${oneLine(err.message)}\n`);
  if (io.env.MCP_GEN_DEBUG && err.stack) io.stderr(`${err.stack}\n`);
  return EXIT_INTERNAL;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/** A command: its yargs line, its options (options.ts), examples, and what it runs. */
interface Command<T extends OptionTable> {
  command: string;
  describe: string;
  options: T;
  examples: ReadonlyArray<readonly [string, string]>;
  run: (values: FlagValues<T>, io: CliIO) => Promise<void> | void;
}

const command = <T extends OptionTable>(c: Command<T>): Command<T> => c;

const COMMAND_TABLE = [
  command({
    command: "$0",
    describe: "generate TypeScript for one or more revisions",
    options: GENERATE_OPTIONS,
    examples: [
      [
        "$0 --revision 2026-07-28",
        "generate into generated/2026-07-28 (downloads the pinned spec if needed)",
      ],
      [
        "$0 -r 2026-07-28 --out src/mcp --spec-dir ../spec/schema",
        "from a local spec checkout, into src/mcp",
      ],
      [
        "$0 -r 2026-07-28 --out src/mcp --check",
        "in CI: fail if src/mcp is not what the schema generates",
      ],
      [
        "$0 -r 2026-07-28 --legacy none",
        "modern peers only (by default the output also speaks every released initialize-era revision)",
      ],
      ["$0", "everything mcp-gen.config.json names (see mcp-gen init)"],
    ],
    run: generateCommand,
  }),
  command({
    command: "init",
    describe: "write mcp-gen.config.json: the revisions and output folder `mcp-gen` then generates",
    options: INIT_OPTIONS,
    examples: [
      ["$0 init --out src/mcp", "a config for the latest released revision, into src/mcp"],
    ],
    run: initCommand,
  }),
  command({
    command: "tools [file]",
    describe:
      "each tool's JSON Schemas, compiled validators and typed definition, from a file of tool argument and result types",
    options: TOOLS_OPTIONS,
    examples: [
      [
        "$0 tools src/tools.ts --out src/mcp-tools",
        "defineTool, TOOLS and CHECKS for the tools of src/tools.ts",
      ],
      [
        "$0 tools src/tools.ts --out src/mcp-tools --check",
        "in CI: fail if src/mcp-tools is not what the file generates",
      ],
    ],
    run: toolsCommand,
  }),
  command({
    command: "ir",
    describe: "print a revision's IR as JSON on stdout",
    options: IR_OPTIONS,
    examples: [
      ["$0 ir -r 2026-07-28 > ir.json", "the model mcp-gen generates from, as JSON"],
      [
        "$0 ir -r 2026-07-28 --protocol",
        "the protocol facts the generated server and client read, as JSON",
      ],
    ],
    run: printIR,
  }),
  command({
    command: "list",
    describe: "list known revisions and where each is available",
    options: LIST_OPTIONS,
    examples: [["$0 list", "every revision, its pin and where it is present"]],
    run: listRevisions,
  }),
  command({
    command: "fetch",
    describe:
      "download pinned revisions into the cache (sha256-checked), or pin a new one with --commit",
    options: FETCH_OPTIONS,
    examples: [
      ["$0 fetch --all", "fill the cache for offline use"],
      ["$0 fetch -r 2026-07-28 --commit <sha>", "pin 2026-07-28 to an upstream commit"],
    ],
    run: fetchCommand,
  }),
  command({
    command: "cache",
    describe:
      "show the per-user cache (downloads, compiled code, formatted bodies, loaded models), or clear it",
    options: CACHE_OPTIONS,
    examples: [
      ["$0 cache", "where the cache is and what it holds"],
      ["$0 cache --clear", "empty it (it refills on the next run)"],
    ],
    run: cacheCommand,
  }),
  command({
    command: "deprecations",
    describe: "print a revision's deprecation registry",
    options: DEPRECATIONS_OPTIONS,
    examples: [
      ["$0 deprecations -r 2026-07-28", "what is deprecated, since when, and its earliest removal"],
      ["$0 deprecations", "the same for the revision mcp-gen.config.json names"],
    ],
    run: deprecationsCommand,
  }),
  command({
    command: "diff <from> [to]",
    describe: "report the changes between two revisions (or two schema.ts files)",
    options: DIFF_OPTIONS,
    examples: [
      ["$0 diff 2025-11-25 2026-07-28", "the changes as Markdown, grouped by severity"],
      ["$0 diff 2025-11-25", "to the revision mcp-gen.config.json names"],
      [
        "$0 diff 2025-11-25 2026-07-28 --format github --fail-on breaking",
        "in a GitHub workflow: annotations, fail on breaking",
      ],
      [
        "$0 diff 2025-11-25 2026-07-28 --fail-on breaking-server",
        "fail only on changes that break servers (breaking-both included)",
      ],
    ],
    run: diffCommand,
  }),
] as const;

async function parse(argv: readonly string[]): Promise<{ job: Job | undefined; output: string }> {
  let job: Job | undefined;
  let parser: Argv = yargs()
    .scriptName("mcp-gen")
    .usage("$0 [command] [options]")
    .exitProcess(false)
    .strict()
    .parserConfiguration({ "camel-case-expansion": true })
    // Handlers only record the job, so whatever yargs fails on is the command line itself.
    .fail((message: string | undefined, error: Error | undefined) => {
      throw new UsageError(
        withSuggestion(message ?? error?.message ?? "invalid command line", argv),
      );
    });
  for (const c of COMMAND_TABLE as readonly Command<OptionTable>[]) {
    parser = parser.command(
      c.command,
      c.describe,
      (y) =>
        c.examples.reduce((a, [cmd, text]) => a.example(cmd, text), declareOptions(y, c.options)),
      (a) => {
        const values = readFlags(a as Record<string, unknown>, c.options);
        job = (io) => c.run(values, io);
      },
    );
  }
  parser = parser
    .epilog(
      "Environment: MCP_SPEC_DIR (spec folder, as --spec-dir), MCP_SPEC_BASE_URL (where downloads come from instead of the raw-content host: <base>/<commit>/schema/<revision>/<file>), MCP_GEN_CACHE_DIR (cache folder), MCP_GEN_DEBUG=1 (stack traces). Config: mcp-gen.config.json in the working directory (revisions, out, spec-dir, legacy, json-schema, auth, store, telemetry, tools.file, tools.out); flags override it, and MCP_SPEC_DIR its spec-dir.",
    )
    .version(generatorVersion())
    .help()
    .alias("h", "help");

  let output = "";
  await parser.parseAsync(
    [...argv],
    {},
    (_err: Error | undefined, _argv: unknown, text: string) => {
      output = text;
    },
  );
  return { job, output };
}

const COMMANDS = COMMAND_TABLE.map((c) => c.command.split(" ")[0]!).filter((c) => c !== "$0");

/** yargs' "Unknown argument: lst" for a mistyped command, with the command meant. */
function withSuggestion(message: string, argv: readonly string[]): string {
  const first = argv[0];
  const unknown = /^Unknown arguments?: (\S+?)(,|$)/.exec(message)?.[1];
  if (first === undefined || first.startsWith("-") || unknown !== first) return message;
  return `${message}${didYouMean(first, COMMANDS)}`;
}

/** True when this file is the process entry point (also through npm's bin symlink). */
function isEntryPoint(): boolean {
  const invoked = process.argv[1];
  if (!invoked) return false;
  try {
    return realpathSync(invoked) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  process.exitCode = await main(process.argv.slice(2));
}
