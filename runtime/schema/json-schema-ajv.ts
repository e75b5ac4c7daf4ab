/**
 * A JSON Schema engine over Ajv 8: the 2020-12 dialect by default (and for schemas naming it),
 * draft-07 for schemas naming that, formats from ajv-formats. Emitted only when generation was asked
 * for it (`--json-schema ajv`); the project then depends on `ajv`, `ajv-formats` and `re2js`.
 *
 * Nothing is ever fetched: Ajv compiles synchronously and resolves a `$ref` only among the schemas
 * it holds, so a reference outside the schema fails to compile and the schema is refused.
 *
 * A schema comes from a peer (a server's tool listing, or a tool author's), and so may the value:
 * no check may cost more than linear time. Ajv runs `pattern` with the backtracking `RegExp`, where
 * `^\S+@\S+\.\S+$` takes seconds on a few kilobytes, and compares `uniqueItems` pairwise. Here a
 * pattern runs on RE2 (`re2js`: linear, pure JavaScript) after a translation that keeps the
 * meaning JavaScript gives it; a pattern RE2 cannot express (look-around, back-references) runs
 * natively, but only on strings up to `maxBacktrackingInput`. `uniqueItems` hashes each item's
 * canonical JSON. On every value the answer is Ajv's own, error message included.
 */
import AjvModule, { type SchemaValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { RE2JS } from "re2js";
import type { JsonSchemaEngine, SchemaCheck } from "./json-schema.js";

// Both packages are CommonJS: depending on the loader, the default import is the export itself or
// a namespace holding it as `default`.
function interop<T>(m: unknown): T {
  return ((m as { default?: unknown }).default ?? m) as T;
}
const Ajv = interop<typeof AjvModule.default>(AjvModule);
const Ajv2020 = interop<typeof Ajv2020Module.default>(Ajv2020Module);
const addFormats = interop<typeof addFormatsModule.default>(addFormatsModule);

type AjvInstance = InstanceType<typeof Ajv> | InstanceType<typeof Ajv2020>;

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

export interface AjvEngineOptions {
  /**
   * Longest string a pattern RE2 cannot run (look-around, back-references) is tried on, in UTF-16
   * units; default 500. A longer one is not checked: the value fails, saying so.
   */
  maxBacktrackingInput?: number;
}

export const DEFAULT_MAX_BACKTRACKING_INPUT = 500;

export function ajvEngine(engineOptions: AjvEngineOptions = {}): JsonSchemaEngine {
  const regExp = Object.assign(
    linearRegExp(engineOptions.maxBacktrackingInput ?? DEFAULT_MAX_BACKTRACKING_INPUT),
    { code: "linearRegExp" },
  );
  // `addUsedSchema: false`: schemas from different tools (or servers) may reuse an `$id`.
  const options = { strict: false, allErrors: false, addUsedSchema: false, code: { regExp } };
  let modern: AjvInstance | undefined;
  let draft07: AjvInstance | undefined;
  const instanceFor = (dialect: unknown): AjvInstance => {
    if (dialect === undefined || (typeof dialect === "string" && DRAFT_2020_12.test(dialect)))
      return (modern ??= prepared(new Ajv2020(options)));
    if (typeof dialect === "string" && DRAFT_07.test(dialect))
      return (draft07 ??= prepared(new Ajv(options)));
    throw new Error(`unsupported JSON Schema dialect ${JSON.stringify(dialect)}`);
  };
  return {
    compile(schema): SchemaCheck {
      const validate = instanceFor(schema.$schema).compile(schema);
      return (value) => {
        if (validate(value)) return { ok: true };
        const first = validate.errors?.[0];
        return {
          ok: false,
          errors: [{ path: first?.instancePath ?? "", message: first?.message ?? "is invalid" }],
        };
      };
    },
  };
}

function prepared<A extends AjvInstance>(ajv: A): A {
  addFormats(ajv);
  ajv.removeKeyword("uniqueItems");
  ajv.addKeyword({
    keyword: "uniqueItems",
    type: "array",
    schemaType: "boolean",
    validate: uniqueItems,
  });
  return ajv;
}

// ---------------------------------------------------------------------------------------------
// uniqueItems

/**
 * `uniqueItems` in linear time. Reports the pair Ajv reports (its loops run from the end: the last
 * item that repeats an earlier one, and the nearest earlier one it repeats), in Ajv's words.
 */
const uniqueItems: SchemaValidateFunction = (
  enabled: boolean,
  data: unknown[],
  _parent,
  context,
) => {
  // Ajv reads the errors off the function after a failure.
  delete uniqueItems.errors;
  if (!enabled) return true;
  const seen = new Map<string, number>();
  let duplicate: { i: number; j: number } | null = null;
  for (let i = 0; i < data.length; i++) {
    const key = canonicalKey(data[i]);
    const j = seen.get(key);
    if (j !== undefined) duplicate = { i, j };
    seen.set(key, i);
  }
  if (!duplicate) return true;
  uniqueItems.errors = [
    {
      keyword: "uniqueItems",
      instancePath: context?.instancePath ?? "",
      params: duplicate,
      message: `must NOT have duplicate items (items ## ${duplicate.j} and ${duplicate.i} are identical)`,
    },
  ];
  return false;
};

/**
 * A text equal for two JSON values exactly when JSON Schema calls them equal: object keys sorted,
 * numbers by value (`1` and `1.0` are one number once parsed).
 */
export function canonicalKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalKey).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalKey((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return value === undefined ? "undefined" : JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// pattern

interface RegExpLike {
  test(input: string): boolean;
}

/**
 * Ajv's `code.regExp`: each pattern on RE2 when it can be expressed there, else the native engine
 * up to `maxInput` characters. `toString` is Ajv's cache key for the compiled pattern.
 */
function linearRegExp(maxInput: number): (pattern: string, flags: string) => RegExpLike {
  return (pattern, flags) => {
    const key = `/${pattern}/${flags}`;
    const linear = toRe2(pattern);
    if (linear) return { test: (input) => linear.test(input), toString: () => `re2${key}` };
    const native = new RegExp(pattern, flags);
    return {
      test(input) {
        if (input.length > maxInput)
          throw new Error(
            `a string of ${input.length} characters is longer than the ${maxInput} a pattern with look-around or back-references is tried on (${pattern})`,
          );
        return native.test(input);
      },
      toString: () => `native${key}`,
    };
  };
}

/** JavaScript's `\s` (WhiteSpace and LineTerminator), which RE2 reads as ASCII space only. */
const JS_SPACE =
  "\\t\\n\\x0B\\f\\r \\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF";
/** What `.` matches in JavaScript without the `s` flag: everything but line terminators. */
const JS_DOT = "[^\\n\\r\\u2028\\u2029]";

/**
 * The pattern on RE2 with JavaScript's meaning, or null where RE2 has no equal. RE2 differs in
 * `\s` and `.` (the rest of what both accept, `\d`, `\w`, `\b`, anchors without the `m` flag, means
 * the same), so those are spelled out; an empty class (`[]`, `[^]`) or `\S` inside a class has no
 * short RE2 spelling and goes to the native engine.
 */
export function toRe2(pattern: string): RE2JS | null {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const next = pattern[i + 1];
      if (next === undefined) return null;
      i++;
      if (next === "s") out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      else if (next === "S") {
        if (inClass) return null;
        out += `[^${JS_SPACE}]`;
      } else out += c + next;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c;
    } else if (c === "[") {
      inClass = true;
      out += c;
      if (pattern[i + 1] === "^") out += pattern[++i];
      if (pattern[i + 1] === "]") return null;
    } else out += c === "." ? JS_DOT : c;
  }
  try {
    return RE2JS.compile(RE2JS.translateRegExp(out));
  } catch {
    return null;
  }
}
