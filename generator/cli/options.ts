import { JSON_SCHEMA_ADAPTERS } from "../emit/json-schema/adapters.js";
import { FAIL_ON } from "../diff/rules.js";
import { STORE_CHOICES } from "../emit/store/adapters.js";
import { TELEMETRY_CHOICES } from "../emit/telemetry/adapters.js";

/**
 * Every option of every command, once. Each entry drives the command line (yargs reads it through
 * yargs-options.ts), the values a command receives (`FlagValues`, also the library's options), the
 * key of `mcp-gen.config.json` it may come from (`configKey`), and, for `input` options, how the
 * regenerate command in every generated file's header names it. A new option is one entry here
 * plus its use in the command that reads it.
 */
export interface OptionSpec {
  /** The option's name on the command line (kebab-case; yargs accepts camelCase too). */
  readonly flag: string;
  readonly alias?: string;
  readonly type: "string" | "boolean" | "list";
  readonly describe: string;
  /** A positional argument (`tools <file>`) rather than a flag. */
  readonly positional?: true;
  readonly choices?: readonly string[];
  /** For `list`: each value may also be comma-separated (`--legacy a,b`). */
  readonly commaSeparated?: true;
  readonly default?: string | boolean;
  /** yargs demands it. */
  readonly required?: true;
  /** The flags it cannot go with. */
  readonly conflicts?: readonly string[];
  /** Its key in `mcp-gen.config.json` (dotted: a key of an object there); absent: not in the file. */
  readonly configKey?: string;
  /** What the output is generated from: named, normalized, by the regenerate command of its header. */
  readonly input?: true;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

type ValueOf<S extends OptionSpec> = S["type"] extends "boolean"
  ? boolean
  : S["type"] extends "list"
    ? string[]
    : S extends { choices: readonly (infer C)[] }
      ? C
      : string;

/** The values a command receives: one per entry, optional unless it has a default or is required. */
export type FlagValues<T extends OptionTable> = {
  [K in keyof T as T[K] extends { default: unknown } | { required: true } ? K : never]: ValueOf<
    T[K]
  >;
} & {
  [K in keyof T as T[K] extends { default: unknown } | { required: true } ? never : K]?:
    ValueOf<T[K]> | undefined;
};

const specDir = {
  flag: "spec-dir",
  type: "string",
  describe:
    "folder holding <revision>/schema.ts (beats MCP_SPEC_DIR, which beats the config's spec-dir)",
  configKey: "spec-dir",
} as const;
/** The one revision a read-only command (ir, deprecations) is about; the config's when not given. */
const oneRevision = {
  flag: "revision",
  alias: "r",
  type: "string",
  describe: "protocol revision (default: the one mcp-gen.config.json names)",
} as const;
const offline = {
  flag: "offline",
  type: "boolean",
  default: false,
  describe: "never download; fail if the schema is not local",
} as const;
const config = {
  flag: "config",
  type: "string",
  describe:
    "the config file to read (default: mcp-gen.config.json in the working directory, if any)",
} as const;
const check = {
  flag: "check",
  type: "boolean",
  describe:
    "write nothing; exit 1 saying per file whether it was edited by hand or the schema changed it, with a unified diff on stdout (for CI)",
} as const;
const force = {
  flag: "force",
  type: "boolean",
  describe: "overwrite generated files that were edited by hand",
} as const;

/** The default command: TypeScript for one or more revisions (and the config's tools). */
export const GENERATE_OPTIONS = {
  revision: {
    flag: "revision",
    alias: "r",
    type: "list",
    describe: "protocol revision (repeatable)",
    configKey: "revisions",
    input: true,
    conflicts: ["all"],
  },
  all: {
    flag: "all",
    type: "boolean",
    describe: "every known revision (see mcp-gen list)",
  },
  legacy: {
    flag: "legacy",
    type: "list",
    commaSeparated: true,
    describe:
      "initialize-era revisions the server and client also speak, comma-separated or repeated (default: every released initialize-era revision older than --revision; none: modern peers only)",
    configKey: "legacy",
    input: true,
  },
  out: {
    flag: "out",
    type: "string",
    describe:
      "output folder (default generated/<revision>; with several revisions, <out>/<revision>)",
    configKey: "out",
    input: true,
  },
  specDir,
  offline,
  check,
  force,
  watch: {
    flag: "watch",
    type: "boolean",
    describe: "after generating, regenerate whenever the schema.ts changes (Ctrl-C stops)",
  },
  jsonSchema: {
    flag: "json-schema",
    type: "string",
    choices: JSON_SCHEMA_ADAPTERS,
    describe: "also emit a JSON Schema engine adapter (its package becomes a dependency)",
    configKey: "json-schema",
    input: true,
  },
  auth: {
    flag: "auth",
    type: "boolean",
    describe:
      "also emit the authorization adapters: runtime/auth/oauth-client.ts (needs oauth4webapi), runtime/auth/jwt-verifier.ts (needs jose)",
    configKey: "auth",
    input: true,
  },
  store: {
    flag: "store",
    type: "string",
    choices: STORE_CHOICES,
    describe:
      "also emit a shared store for several server processes behind one load balancer: runtime/server/store-redis.ts (needs ioredis)",
    configKey: "store",
    input: true,
  },
  telemetry: {
    flag: "telemetry",
    type: "string",
    choices: TELEMETRY_CHOICES,
    describe:
      "the generated server and client record OpenTelemetry spans and metrics by the MCP semantic conventions: runtime/telemetry/otel.ts (needs @opentelemetry/api)",
    configKey: "telemetry",
    input: true,
  },
  config,
} as const satisfies OptionTable;

/** `mcp-gen tools [file]`. */
export const TOOLS_OPTIONS = {
  file: {
    flag: "file",
    positional: true,
    type: "string",
    describe:
      "the tools file: an exported <Tool>Arguments type per tool, <Tool>Result beside it (default: the config's tools.file)",
    configKey: "tools.file",
    input: true,
  },
  out: {
    flag: "out",
    type: "string",
    describe: "output folder (default generated/tools)",
    configKey: "tools.out",
    input: true,
  },
  check,
  force,
  watch: {
    flag: "watch",
    type: "boolean",
    describe: "after generating, regenerate whenever the tools file changes (Ctrl-C stops)",
  },
  config,
} as const satisfies OptionTable;

/** `mcp-gen init`. */
export const INIT_OPTIONS = {
  revision: {
    flag: "revision",
    alias: "r",
    type: "list",
    describe: "protocol revision the config names (repeatable; default: the latest released)",
  },
  out: {
    flag: "out",
    type: "string",
    describe: "output folder the config names (default src/mcp)",
  },
  force: { flag: "force", type: "boolean", describe: "replace an existing mcp-gen.config.json" },
} as const satisfies OptionTable;

export const IR_OPTIONS = {
  revision: oneRevision,
  specDir,
  offline,
  protocol: {
    flag: "protocol",
    type: "boolean",
    default: false,
    describe:
      "print the protocol description derived from the IR (the generated protocol.ts) instead",
  },
} as const satisfies OptionTable;

export const LIST_OPTIONS = { specDir } as const satisfies OptionTable;

export const FETCH_OPTIONS = {
  revision: {
    flag: "revision",
    alias: "r",
    type: "list",
    describe: "protocol revision (repeatable)",
    conflicts: ["all"],
  },
  all: { flag: "all", type: "boolean", describe: "every pinned revision" },
  commit: {
    flag: "commit",
    type: "string",
    describe:
      "pin --revision at this upstream commit (40 hex digits): download, hash, write revisions.json",
    conflicts: ["all"],
  },
  manifest: {
    flag: "manifest",
    type: "string",
    describe: "the revisions.json to read and, with --commit, write (default: mcp-gen's own)",
  },
} as const satisfies OptionTable;

export const CACHE_OPTIONS = {
  clear: { flag: "clear", type: "boolean", describe: "remove everything in it" },
} as const satisfies OptionTable;

export const DEPRECATIONS_OPTIONS = {
  revision: oneRevision,
  format: {
    flag: "format",
    type: "string",
    choices: ["table", "json"],
    default: "table",
    describe: "output format",
  },
  width: {
    flag: "width",
    type: "string",
    describe:
      "the table's width in characters, its long cells wrapped to fit (default: the terminal's, else 100; 0: no limit, one line per entry)",
  },
  specDir,
  offline,
} as const satisfies OptionTable;

export const DIFF_OPTIONS = {
  from: {
    flag: "from",
    positional: true,
    type: "string",
    required: true,
    describe: "older revision, or a schema.ts path",
  },
  to: {
    flag: "to",
    positional: true,
    type: "string",
    describe: "newer revision, or a schema.ts path (default: the one mcp-gen.config.json names)",
  },
  format: {
    flag: "format",
    type: "string",
    choices: ["markdown", "json", "github"],
    default: "markdown",
    describe: "output format (github: workflow annotations)",
  },
  failOn: {
    flag: "fail-on",
    type: "string",
    choices: FAIL_ON,
    describe:
      "exit 1 when any change is breaking (breaking-client, breaking-server: one that breaks that party)",
  },
  specDir,
  offline,
} as const satisfies OptionTable;

/** A value as one shell word, quoted only when it needs to be. */
export const shellWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * The command that makes an output again from its normalized inputs: the table's `input` options in
 * table order, each as the command line spells it. Where the schema was read from (--spec-dir,
 * MCP_SPEC_DIR, the cache), whether a config file was used, and how paths were spelled are not
 * inputs, so the header and the manifest are the same however the same output was asked for.
 */
export function regenerateCommand<T extends OptionTable>(
  words: readonly string[],
  table: T,
  values: Partial<Record<keyof T, unknown>>,
): string {
  const out = [...words];
  for (const [key, spec] of Object.entries(table)) {
    if (!spec.input) continue;
    const value = values[key];
    if (value === undefined || value === false) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      const joined = shellWord(value.join(","));
      out.push(...(spec.positional ? [joined] : [`--${spec.flag}`, joined]));
    } else if (value === true) out.push(`--${spec.flag}`);
    else out.push(...(spec.positional ? [] : [`--${spec.flag}`]), shellWord(String(value)));
  }
  return out.join(" ");
}

/** A command `regenerateCommand` wrote, read back into its words (single-quoted words unquoted). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/(?:'((?:[^']|'\\'')*)'|(\S+))/g))
    words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : match[2]!);
  return words;
}

/**
 * The input options a regenerate command names, by flag (`revision`, `legacy`; a positional by its
 * table flag): the inverse of `regenerateCommand` for the same table. A flag the table does not know
 * (a command an older mcp-gen wrote) is kept under its own name.
 */
export function inputsOf(command: string, table: OptionTable): Map<string, string> {
  const specs = Object.values(table).filter((s) => s.input);
  const byFlag = new Map(specs.map((s) => [s.flag, s]));
  const positional = specs.filter((s) => s.positional);
  const words = shellWords(command).filter((w) => w !== "mcp-gen" && w !== "tools");
  const inputs = new Map<string, string>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith("--")) {
      const spec = positional.shift();
      if (spec) inputs.set(spec.flag, word);
      continue;
    }
    const flag = word.slice(2);
    const next = words[i + 1];
    const takesValue =
      byFlag.get(flag)?.type !== "boolean" && next !== undefined && !next.startsWith("--");
    inputs.set(flag, takesValue ? next : "on");
    if (takesValue) i++;
  }
  return inputs;
}

/**
 * How the inputs of two regenerate commands differ, one phrase per option in the order the commands
 * name them: `--legacy (was 2025-11-25, now none)`, `--auth (was off, now on)`. Empty: the same.
 */
export function changedInputs(before: string, after: string, table: OptionTable): string[] {
  const [was, now] = [inputsOf(before, table), inputsOf(after, table)];
  const flags = [...new Set([...was.keys(), ...now.keys()])];
  const shown = (flag: string, value: string | undefined) =>
    value ?? (table[flagKey(table, flag) ?? ""]?.type === "boolean" ? "off" : "unset");
  return flags
    .filter((flag) => was.get(flag) !== now.get(flag))
    .map(
      (flag) => `--${flag} (was ${shown(flag, was.get(flag))}, now ${shown(flag, now.get(flag))})`,
    );
}

const flagKey = (table: OptionTable, flag: string): string | undefined =>
  Object.keys(table).find((key) => table[key]!.flag === flag);
