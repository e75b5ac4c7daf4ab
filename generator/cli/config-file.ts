import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { GeneratorError } from "../errors.js";
import { didYouMean } from "../suggest.js";
import { JsonSyntaxError, parseJsonWithLines } from "./json-lines.js";
import { GENERATE_OPTIONS, TOOLS_OPTIONS, type OptionSpec, type OptionTable } from "./options.js";

/** The file `mcp-gen` and `generate()` read from the working directory when it is there. */
export const CONFIG_FILE = "mcp-gen.config.json";

/** The tables whose `configKey` entries make up the file's keys. */
const TABLES: readonly OptionTable[] = [GENERATE_OPTIONS, TOOLS_OPTIONS];

/**
 * A read config: per table, the values of its entries the file gives, keyed as the table is. Paths
 * in it are relative to `dir`, the file's folder.
 */
export interface ConfigFile {
  /** The path as it is shown in messages. */
  file: string;
  dir: string;
  values: Map<OptionTable, Record<string, unknown>>;
}

/**
 * The config to use: the one `--config` names (it must exist), else `mcp-gen.config.json` in `cwd`
 * when there is one, else none. A file that is not valid JSON, has a key no option reads, or a value
 * of the wrong type stops the run with one line naming the file and the line.
 */
export function findConfig(named: string | undefined, cwd: string): ConfigFile | undefined {
  const path = resolve(cwd, named ?? CONFIG_FILE);
  if (named === undefined && !existsSync(path)) return undefined;
  const shown = named ?? CONFIG_FILE;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new GeneratorError(code === "ENOENT" ? "no such config file" : String(error), shown);
  }
  return { file: shown, dir: dirname(path), values: readConfig(text, shown) };
}

/** The text of a config file, checked against the option table. */
export function readConfig(text: string, file: string): Map<OptionTable, Record<string, unknown>> {
  let parsed;
  try {
    parsed = parseJsonWithLines(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new GeneratorError(error.message, file, error.line);
    throw error;
  }
  const { value, lineOf } = parsed;
  const fail = (message: string, path: string): never => {
    throw new GeneratorError(message, file, lineOf(path));
  };
  if (!isObject(value)) return fail("a config file is a JSON object", "");

  const byKey = new Map<string, { table: OptionTable; key: string; spec: OptionSpec }>();
  for (const table of TABLES)
    for (const [key, spec] of Object.entries(table))
      if (spec.configKey) byKey.set(spec.configKey, { table, key, spec });
  const groups = new Set([...byKey.keys()].filter((k) => k.includes(".")).map(parentOf));

  const values = new Map<OptionTable, Record<string, unknown>>(TABLES.map((t) => [t, {}]));
  const visit = (object: Record<string, unknown>, prefix: string) => {
    for (const [name, given] of Object.entries(object)) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (groups.has(path)) {
        if (!isObject(given)) fail(`"${path}" must be an object`, path);
        visit(given as Record<string, unknown>, path);
        continue;
      }
      const entry = byKey.get(path);
      if (!entry) {
        const known = [...byKey.keys(), ...groups]
          .filter((k) => parentOf(k) === prefix)
          .map((k) => (prefix ? k.slice(prefix.length + 1) : k));
        fail(
          `unknown key "${path}"${didYouMean(name, known)} (known: ${known.sort().join(", ")})`,
          path,
        );
        continue;
      }
      values.get(entry.table)![entry.key] = checked(given, entry.spec, path, fail);
    }
  };
  visit(value as Record<string, unknown>, "");
  return values;
}

function checked(
  given: unknown,
  spec: OptionSpec,
  path: string,
  fail: (message: string, path: string) => never,
): unknown {
  if (spec.type === "boolean") {
    if (typeof given !== "boolean") fail(`"${path}" must be true or false`, path);
    return given;
  }
  if (spec.type === "list") {
    const list = typeof given === "string" ? [given] : given;
    if (!Array.isArray(list) || !list.every((v) => typeof v === "string" && v !== ""))
      fail(`"${path}" must be a list of strings`, path);
    const values = spec.commaSeparated
      ? (list as string[]).flatMap((v) =>
          v
            .split(",")
            .map((x) => x.trim())
            .filter(Boolean),
        )
      : (list as string[]);
    return [...new Set(values)];
  }
  if (typeof given !== "string" || given === "") fail(`"${path}" must be a string`, path);
  if (spec.choices && !spec.choices.includes(given as string))
    fail(`"${path}" must be one of ${spec.choices.join(", ")}, not "${String(given)}"`, path);
  return given;
}

const parentOf = (path: string): string =>
  path.includes(".") ? path.slice(0, path.lastIndexOf(".")) : "";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
