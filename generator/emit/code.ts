/**
 * The only way schema data (names, strings, doc text) reaches generated code. Generated TypeScript is
 * a `Code` value, built with the `code` tagged template: its literal parts are code written in the
 * generator's own source, and every value interpolated into it is either `Code` (spliced as it is) or
 * data (a string, number, boolean or null), which is always quoted. A property name such as
 * `__proto__`, a quote, a newline or `*\/` is data, never code: there is no function that turns a
 * plain string into code unquoted, only helpers that quote or check one kind of position (`key`,
 * `access`, `ident`, `jsdoc`).
 */

const BRAND: unique symbol = Symbol("mcp-gen code");

/** A fragment of generated TypeScript. Only this module makes one; `String(code)` is its text. */
export interface Code {
  readonly [BRAND]: true;
  toString(): string;
}

/** Not exported: outside this module, code is made only by `code` and the helpers below. */
class Fragment implements Code {
  readonly [BRAND] = true as const;
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a `code` template takes: code, spliced; data, quoted. */
export type Interpolation = Code | string | number | boolean | null;

export const isCode = (value: unknown): value is Code => value instanceof Fragment;

/**
 * Code from a template literal. Interpolated `Code` is spliced; a string becomes a string literal;
 * a finite number, a boolean or null its literal. Anything else is a bug in an emitter and throws.
 */
export function code(parts: TemplateStringsArray, ...values: Interpolation[]): Code {
  // A template literal's strings array is frozen and carries `raw`; a hand-made array is not code.
  if (!Object.isFrozen(parts) || !Array.isArray((parts as { raw?: unknown }).raw))
    throw new Error("code`…` takes a template literal, not a string array");
  let text = parts[0]!;
  values.forEach((value, i) => {
    text += piece(value) + parts[i + 1]!;
  });
  return new Fragment(text);
}

function piece(value: Interpolation): string {
  if (value instanceof Fragment) return value.toString();
  if (typeof value === "string") return quote(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`code: ${value} has no literal`);
    return String(value);
  }
  if (typeof value === "boolean" || value === null) return String(value);
  throw new Error(`code: cannot interpolate ${typeof value} (only Code or data)`);
}

/** Code, separated by a separator (also code): `join([a, b], code\`, \`)`. */
export function join(items: readonly Code[], separator: Code = code`, `): Code {
  return new Fragment(items.map(String).join(String(separator)));
}

/** The empty fragment. */
export const nothing: Code = new Fragment("");

/** A JavaScript string literal for any string. */
export function str(value: string): Code {
  return new Fragment(quote(value));
}

function quote(value: string): string {
  // JSON string syntax is valid JS; U+2028/2029 are escaped for older parsers and readability.
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A literal for a JSON scalar. */
export function literal(value: string | number | boolean | null): Code {
  return code`${value}`;
}

/**
 * JSON data as a JavaScript expression (JSON is valid JavaScript): objects, arrays and scalars alike.
 * The one way plain data (protocol facts, listings) is printed into generated code. JSON text is
 * not quite JavaScript: in an object literal `"__proto__": x` sets the prototype instead of making
 * a key, so that one key is printed computed, `["__proto__"]: x`, which makes an own property as
 * `JSON.parse` would.
 */
export function json(value: unknown): Code {
  if (JSON.stringify(value) === undefined) throw new Error(`json: ${typeof value} is not JSON`);
  return new Fragment(jsonText(value));
}

function jsonText(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map((item) => (isJsonValue(item) ? jsonText(item) : "null")).join(",")}]`;
  if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function"
  ) {
    const members = Object.entries(value)
      .filter(([, item]) => isJsonValue(item))
      .map(([name, item]) => `${propertyKey(name)}:${jsonText(item)}`);
    return `{${members.join(",")}}`;
  }
  return quoteScalar(value);
}

/** What JSON.stringify keeps in an object (it drops undefined, functions and symbols). */
const isJsonValue = (value: unknown): boolean =>
  value !== undefined && typeof value !== "function" && typeof value !== "symbol";

function quoteScalar(value: unknown): string {
  return typeof value === "string" ? quote(value) : JSON.stringify(value);
}

/** An object literal's key for any name: `__proto__` computed (quoted, it would set the prototype). */
function propertyKey(name: string): string {
  return name === PROTO ? `[${quote(name)}]` : quote(name);
}

/** The one key an object literal treats as something else than a property (ECMA-262 B.3.1). */
const PROTO = "__proto__";

/**
 * An IdentifierName of ECMAScript (what TypeScript takes as a declaration's name): Unicode ID_Start
 * and ID_Continue, with `$`, `_` and the two joiners (`\u` escapes are not: the loader's names have none).
 */
const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/** Whether a name can stand as an identifier (a declaration, a reference, a bare key). */
export const isIdentifier = (name: string): boolean => IDENTIFIER.test(name);

/**
 * A name where TypeScript wants an identifier (a declaration, a reference, `typeof X`, `V.isX`).
 * A name that is not one cannot be quoted there: it is an error, never code that means something else.
 */
export function ident(name: string): Code {
  if (!IDENTIFIER.test(name))
    throw new Error(`mcp-gen: ${quote(name)} is not a valid TypeScript identifier`);
  return new Fragment(name);
}

/**
 * A property key in a type or object literal: bare when it is an identifier, else quoted, and
 * `__proto__` computed (`["__proto__"]`), the one spelling that makes a key in an object literal
 * rather than the prototype (and means the same property in a type).
 */
export function key(name: string): Code {
  if (name === PROTO) return new Fragment(`[${quote(name)}]`);
  return IDENTIFIER.test(name) ? new Fragment(name) : str(name);
}

/** A property access: `.name` or `["odd name"]`. */
export function access(name: string): Code {
  return IDENTIFIER.test(name) ? new Fragment(`.${name}`) : code`[${name}]`;
}

/** Text safe inside a block comment. */
function commentText(text: string): string {
  return text.replace(/\*\//g, "*\\/");
}

/** A JSDoc block for the given lines (ending in a newline), or nothing when there are none. */
export function jsdoc(lines: readonly string[]): Code {
  if (lines.length === 0) return nothing;
  const body = lines
    .flatMap((line) => commentText(line).split("\n"))
    .map((line) => (line ? ` * ${line}` : " *"));
  return new Fragment(`/**\n${body.join("\n")}\n */\n`);
}

/**
 * `//` comment lines for the given texts. A line break inside a text (a path given on the command
 * line may hold one) would end its comment and start code: it is written as a space instead.
 */
export function lineComments(texts: readonly string[]): Code {
  return new Fragment(
    texts.map((text) => `// ${text.replace(/\r\n|[\r\n\u2028\u2029]/g, " ")}`).join("\n"),
  );
}

/** A JSON-pointer segment (RFC 6901) for a property name: data, to be quoted where it is printed. */
export function pointerSegment(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}
