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
import { generate } from "./generate.js";
import { toolsCommand } from "./tools.js";
import { JSON_SCHEMA_ADAPTERS, type JsonSchemaAdapter } from "../emit/json-schema/adapters.js";
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

async function parse(argv: readonly string[]): Promise<{ job: Job | undefined; output: string }> {
  let job: Job | undefined;
  const specDir = {
    type: "string",
    requiresArg: true,
    describe: "folder holding <revision>/schema.ts (beats MCP_SPEC_DIR)",
  } as const;
  const offline = {
    type: "boolean",
    default: false,
    describe: "never download; fail if the schema is not local",
  } as const;
  const revisions = {
    type: "string",
    array: true,
    requiresArg: true,
    describe: "protocol revision (repeatable)",
  } as const;

  const parser: Argv = yargs()
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
    })
    .command(
      "$0",
      "generate TypeScript for one or more revisions",
      (y) =>
        y
          .option("revision", { ...revisions, alias: "r" })
          .option("all", { type: "boolean", describe: "every known revision (see mcp-gen list)" }) // no default: conflicts() would see one
          .option("out", {
            type: "string",
            requiresArg: true,
            describe:
              "output folder (default generated/<revision>; with several revisions, <out>/<revision>)",
          })
          .option("legacy", {
            type: "string",
            array: true,
            requiresArg: true,
            describe:
              "initialize-era revisions the server also serves, comma-separated or repeated (e.g. 2025-11-25,2025-06-18; default: none, modern clients only)",
          })
          .option("spec-dir", specDir)
          .option("offline", offline)
          .option("check", {
            type: "boolean",
            describe: "write nothing; exit 1 listing the files a run would change (for CI)",
          })
          .option("force", {
            type: "boolean",
            describe: "overwrite generated files that were edited by hand",
          })
          .option("watch", {
            type: "boolean",
            describe: "after generating, regenerate whenever the schema.ts changes (Ctrl-C stops)",
          })
          .option("auth", {
            type: "boolean",
            describe:
              "also emit the authorization adapters: runtime/oauth-client.ts (needs oauth4webapi), runtime/jwt-verifier.ts (needs jose)",
          })
          .option("json-schema", {
            type: "string",
            choices: JSON_SCHEMA_ADAPTERS,
            requiresArg: true,
            describe: "also emit a JSON Schema engine adapter (its package becomes a dependency)",
          })
          .conflicts("revision", "all")
          .example(
            "$0 --revision 2026-07-28",
            "generate into generated/2026-07-28 (downloads the pinned spec if needed)",
          )
          .example(
            "$0 -r 2026-07-28 --out src/mcp --spec-dir ../spec/schema",
            "from a local spec checkout, into src/mcp",
          )
          .example(
            "$0 -r 2026-07-28 --out src/mcp --check",
            "in CI: fail if src/mcp is not what the schema generates",
          )
          .example(
            "$0 -r 2026-07-28 --legacy 2025-11-25,2025-06-18",
            "one server for 2026-07-28 that also serves initialize-era clients",
          ),
      (a) => {
        job = (io) =>
          generate(
            {
              revisions: list(a.revision, "--revision"),
              legacy: list(a.legacy, "--legacy").flatMap((r) =>
                r
                  .split(",")
                  .map((x) => x.trim())
                  .filter(Boolean),
              ),
              all: a.all === true,
              out: single(a.out, "--out"),
              specDir: single(a.specDir, "--spec-dir"),
              offline: a.offline,
              force: a.force === true,
              check: a.check === true,
              watch: a.watch === true,
              jsonSchema: single(a.jsonSchema, "--json-schema") as JsonSchemaAdapter | undefined,
              auth: a.auth === true,
            },
            io,
          );
      },
    )
    .command(
      "tools <file>",
      "each tool's JSON Schemas, compiled validators and typed definition, from a file of tool argument and result types",
      (y) =>
        y
          .positional("file", {
            type: "string",
            describe:
              "the tools file: an exported <Tool>Arguments type per tool, <Tool>Result beside it",
          })
          .option("out", {
            type: "string",
            requiresArg: true,
            describe: "output folder (default generated/tools)",
          })
          .example(
            "$0 tools src/tools.ts --out src/mcp-tools",
            "defineTool, TOOLS and CHECKS for the tools of src/tools.ts",
          ),
      (a) => {
        job = (io) => toolsCommand({ file: String(a.file), out: single(a.out, "--out") }, io);
      },
    )
    .command(
      "ir",
      "print a revision's IR as JSON on stdout",
      (y) =>
        y
          .option("revision", {
            type: "string",
            requiresArg: true,
            demandOption: true,
            alias: "r",
            describe: "protocol revision",
          })
          .option("spec-dir", specDir)
          .option("offline", offline)
          .option("protocol", {
            type: "boolean",
            default: false,
            describe:
              "print the protocol description derived from the IR (the generated protocol.ts) instead",
          })
          .example("$0 ir -r 2026-07-28 > ir.json", "the model mcp-gen generates from, as JSON")
          .example(
            "$0 ir -r 2026-07-28 --protocol",
            "the protocol facts the generated server and client read, as JSON",
          ),
      (a) => {
        job = (io) =>
          printIR(
            {
              revision: single(a.revision, "--revision") as string,
              specDir: single(a.specDir, "--spec-dir"),
              offline: a.offline,
              protocol: a.protocol,
            },
            io,
          );
      },
    )
    .command(
      "list",
      "list known revisions and where each is available",
      (y) =>
        y
          .option("spec-dir", specDir)
          .example("$0 list", "every revision, its pin and where it is present"),
      (a) => {
        job = (io) => listRevisions({ specDir: single(a.specDir, "--spec-dir") }, io);
      },
    )
    .command(
      "fetch",
      "download pinned revisions into the cache (sha256-checked), or pin a new one with --commit",
      (y) =>
        y
          .option("revision", { ...revisions, alias: "r" })
          .option("all", { type: "boolean", describe: "every pinned revision" })
          .option("commit", {
            type: "string",
            requiresArg: true,
            describe:
              "pin --revision at this upstream commit (40 hex digits): download, hash, write revisions.json",
          })
          .option("manifest", {
            type: "string",
            requiresArg: true,
            describe:
              "the revisions.json to read and, with --commit, write (default: mcp-gen's own)",
          })
          .conflicts("revision", "all")
          .conflicts("commit", "all")
          .example("$0 fetch --all", "fill the cache for offline use")
          .example("$0 fetch -r 2026-07-28 --commit <sha>", "pin 2026-07-28 to an upstream commit"),
      (a) => {
        job = (io) =>
          fetchCommand(
            {
              revisions: list(a.revision, "--revision"),
              all: a.all === true,
              commit: single(a.commit, "--commit"),
              manifest: single(a.manifest, "--manifest"),
            },
            io,
          );
      },
    )
    .command(
      "cache",
      "show the per-user cache (downloads, compiled code), or clear it",
      (y) =>
        y
          .option("clear", { type: "boolean", describe: "remove everything in it" })
          .example("$0 cache", "where the cache is and what it holds")
          .example("$0 cache --clear", "empty it (it refills on the next run)"),
      (a) => {
        job = (io) => cacheCommand({ clear: a.clear === true }, io);
      },
    )
    .command(
      "deprecations",
      "print a revision's deprecation registry",
      (y) =>
        y
          .option("revision", {
            type: "string",
            requiresArg: true,
            demandOption: true,
            alias: "r",
            describe: "protocol revision",
          })
          .option("format", {
            type: "string",
            choices: ["table", "json"],
            default: "table",
            describe: "output format",
          })
          .option("spec-dir", specDir)
          .option("offline", offline)
          .example(
            "$0 deprecations -r 2026-07-28",
            "what is deprecated, since when, and its earliest removal",
          ),
      (a) => {
        job = (io) =>
          deprecationsCommand(
            {
              revision: single(a.revision, "--revision") as string,
              format: single(a.format, "--format") as string,
              specDir: single(a.specDir, "--spec-dir"),
              offline: a.offline,
            },
            io,
          );
      },
    )
    .command(
      "diff <from> <to>",
      "report the changes between two revisions (or two schema.ts files)",
      (y) =>
        y
          .positional("from", { type: "string", describe: "older revision, or a schema.ts path" })
          .positional("to", { type: "string", describe: "newer revision, or a schema.ts path" })
          .option("format", {
            type: "string",
            choices: ["markdown", "json", "github"],
            default: "markdown",
            describe: "output format (github: workflow annotations)",
          })
          .option("fail-on", {
            type: "string",
            choices: ["breaking"],
            requiresArg: true,
            describe: "exit 1 when any change is breaking",
          })
          .option("spec-dir", specDir)
          .option("offline", offline)
          .example("$0 diff 2025-11-25 2026-07-28", "the changes as Markdown, grouped by severity")
          .example(
            "$0 diff 2025-11-25 2026-07-28 --format github --fail-on breaking",
            "in a GitHub workflow: annotations, fail on breaking",
          ),
      (a) => {
        job = (io) =>
          diffCommand(
            {
              from: String(a.from),
              to: String(a.to),
              format: single(a.format, "--format") as string,
              failOn: single(a.failOn, "--fail-on"),
              specDir: single(a.specDir, "--spec-dir"),
              offline: a.offline,
            },
            io,
          );
      },
    )
    .epilog(
      "Environment: MCP_SPEC_DIR (spec folder, as --spec-dir), MCP_SPEC_BASE_URL (where downloads come from instead of the raw-content host: <base>/<commit>/schema/<revision>/<file>), MCP_GEN_CACHE_DIR (cache folder), MCP_GEN_DEBUG=1 (stack traces).",
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

const COMMANDS = ["ir", "list", "fetch", "cache", "deprecations", "diff", "tools"];

/** yargs' "Unknown argument: lst" for a mistyped command, with the command meant. */
function withSuggestion(message: string, argv: readonly string[]): string {
  const first = argv[0];
  const unknown = /^Unknown arguments?: (\S+?)(,|$)/.exec(message)?.[1];
  if (first === undefined || first.startsWith("-") || unknown !== first) return message;
  return `${message}${didYouMean(first, COMMANDS)}`;
}

/** A repeated single-value option arrives as an array; say so instead of picking one. */
function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new UsageError(`${name} may be given only once`);
  return String(value);
}

function list(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  const values = (Array.isArray(value) ? value : [value]).map(String);
  if (values.some((v) => v === "")) throw new UsageError(`${name} needs a value`);
  return values;
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
