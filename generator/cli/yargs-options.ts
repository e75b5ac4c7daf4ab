import type { Argv, Options, PositionalOptions } from "yargs";
import { UsageError } from "./context.js";
import type { FlagValues, OptionSpec, OptionTable } from "./options.js";

/** The command's options (options.ts) declared to yargs. */
export function declareOptions(y: Argv, table: OptionTable): Argv {
  let argv = y;
  for (const spec of Object.values(table)) {
    if (spec.positional) {
      argv = argv.positional(spec.flag, positionalOf(spec));
      continue;
    }
    argv = argv.option(spec.flag, optionOf(spec));
    for (const other of spec.conflicts ?? []) argv = argv.conflicts(spec.flag, other);
  }
  return argv;
}

function optionOf(spec: OptionSpec): Options {
  return {
    type: spec.type === "boolean" ? "boolean" : "string",
    describe: spec.describe,
    // No default for a flag without one: conflicts() and the config file must see "not given".
    ...(spec.default !== undefined ? { default: spec.default } : {}),
    ...(spec.type === "list" ? { array: true } : {}),
    ...(spec.type !== "boolean" ? { requiresArg: true } : {}),
    ...(spec.alias ? { alias: spec.alias } : {}),
    ...(spec.choices ? { choices: spec.choices } : {}),
    ...(spec.required ? { demandOption: true } : {}),
  };
}

function positionalOf(spec: OptionSpec): PositionalOptions {
  return { type: "string", describe: spec.describe };
}

/**
 * The values yargs parsed, keyed as the table is: a single-value option given twice is an error,
 * not the last one; a list is de-duplicated in order and, where the entry says so, split at commas.
 * Options not given are absent, so that the config file and the defaults can fill them.
 */
export function readFlags<T extends OptionTable>(
  parsed: Record<string, unknown>,
  table: T,
): FlagValues<T> {
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) {
    const raw = parsed[key] ?? parsed[spec.flag];
    if (raw === undefined) continue;
    values[key] = valueOf(raw, spec);
  }
  return values as FlagValues<T>;
}

function valueOf(raw: unknown, spec: OptionSpec): unknown {
  if (spec.type === "boolean") return raw === true;
  if (spec.type === "string") {
    if (Array.isArray(raw)) throw new UsageError(`--${spec.flag} may be given only once`);
    return String(raw);
  }
  const values = (Array.isArray(raw) ? raw : [raw]).map(String);
  if (values.some((v) => v === "")) throw new UsageError(`--${spec.flag} needs a value`);
  const split = spec.commaSeparated
    ? values.flatMap((v) =>
        v
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
      )
    : values;
  return [...new Set(split)];
}
