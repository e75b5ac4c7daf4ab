/**
 * A JSON Schema engine over `@cfworker/json-schema`, which runs where code generation at run time
 * is not allowed (edge runtimes): the 2020-12 dialect by default, and the drafts the library knows
 * for schemas naming them. Emitted only when generation was asked for it
 * (`--json-schema cfworker`); the project then depends on `@cfworker/json-schema`.
 *
 * Nothing is ever fetched: the library resolves a `$ref` only inside the schema, and an
 * unresolvable one fails the check (the schema is refused, never treated as permissive).
 *
 * The library runs `pattern` with the backtracking `RegExp` (`^\S+@\S+\.\S+$` takes seconds on a
 * few kilobytes) and compares `uniqueItems` pairwise, and has no hook for either. So each is
 * bounded in the schema itself, where it stands: a `pattern` is tried only on strings of at most
 * `maxPatternInput` characters and `uniqueItems` only on arrays of at most `maxUniqueItems` items
 * (an `if`, whose `else` fails a longer one with the library's own "too long" error).
 */
import { Validator, type Schema, type SchemaDraft } from "@cfworker/json-schema";
import type { JsonSchemaEngine, SchemaCheck } from "./json-schema.js";

const DIALECTS: ReadonlyArray<[RegExp, SchemaDraft]> = [
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, "2019-09"],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, "7"],
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, "4"],
];

export interface CfworkerEngineOptions {
  /** Longest string (in code points) a `pattern` is tried on; default 500. A longer one fails. */
  maxPatternInput?: number;
  /** Most items an array under `uniqueItems` may have; default 1000. A longer one fails. */
  maxUniqueItems?: number;
}

export const DEFAULT_MAX_PATTERN_INPUT = 500;
export const DEFAULT_MAX_UNIQUE_ITEMS = 1000;

export function cfworkerEngine(options: CfworkerEngineOptions = {}): JsonSchemaEngine {
  const limits = {
    pattern: options.maxPatternInput ?? DEFAULT_MAX_PATTERN_INPUT,
    uniqueItems: options.maxUniqueItems ?? DEFAULT_MAX_UNIQUE_ITEMS,
  };
  return {
    compile(given): SchemaCheck {
      const schema = bounded(given, limits) as Record<string, unknown>;
      const dialect = schema.$schema;
      const draft =
        dialect === undefined
          ? "2020-12"
          : DIALECTS.find(([uri]) => typeof dialect === "string" && uri.test(dialect))?.[1];
      if (!draft) throw new Error(`unsupported JSON Schema dialect ${JSON.stringify(dialect)}`);
      const validator = new Validator(schema as Schema, draft, true);
      return (value) => {
        const result = validator.validate(value);
        if (result.valid) return { ok: true };
        // Errors run from the outermost ("a subschema had errors") inwards: the last is the cause.
        const cause = result.errors.at(-1);
        return {
          ok: false,
          errors: [
            {
              path: decodeURI((cause?.instanceLocation ?? "#").replace(/^#/, "")),
              message: cause?.error ?? "is invalid",
            },
          ],
        };
      };
    },
  };
}

/** Keywords whose values are data, not schemas: nothing in them is a keyword. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose values map names to schemas: the names are not keywords. */
const MAP_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

interface Limits {
  pattern: number;
  uniqueItems: number;
}

/**
 * A copy of the schema in which every `pattern` and `uniqueItems: true` only runs within its limit:
 * `{ pattern: P }` becomes `{ allOf: [{ if: { maxLength: N }, then: { pattern: P }, else: { maxLength: N } }] }`
 * (appended to the subschema's own `allOf`, so the pointers into it stay valid). `if` runs first
 * and alone decides which branch runs, so an over-long string never meets the pattern. Any other
 * keyword's value is walked as schemas (what it holds is read as a schema, if at all, through a
 * `$ref`), except data and the names of a map of schemas.
 */
function bounded(schema: unknown, limits: Limits): unknown {
  if (Array.isArray(schema)) return schema.map((item) => bounded(item, limits));
  if (typeof schema !== "object" || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  const guards: unknown[] = [];
  // An `allOf` that is not an array is not one the library reads: nothing can be added to it.
  const guarded = !("allOf" in schema) || Array.isArray(schema.allOf);
  for (const [key, value] of Object.entries(schema)) {
    if (guarded && key === "pattern" && typeof value === "string")
      guards.push(guard({ maxLength: limits.pattern }, { pattern: value }));
    else if (guarded && key === "uniqueItems" && value === true)
      guards.push(guard({ maxItems: limits.uniqueItems }, { uniqueItems: true }));
    else if (DATA_KEYWORDS.has(key)) put(copy, key, value);
    else if (MAP_KEYWORDS.has(key) && isMap(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value)) put(map, name, bounded(sub, limits));
      put(copy, key, map);
    } else put(copy, key, bounded(value, limits));
  }
  if (guards.length > 0)
    put(copy, "allOf", [...((copy.allOf as unknown[] | undefined) ?? []), ...guards]);
  return copy;
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Defines a data property, so that a name such as `__proto__` stays data. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

const guard = (limit: Record<string, number>, check: Record<string, unknown>) => ({
  if: limit,
  then: check,
  else: limit,
});
