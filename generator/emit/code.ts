/**
 * The only way schema data (names, strings, doc text) reaches generated code. Property names such as
 * `__proto__`, quotes, newlines or `*\/` are data, never code: each helper here quotes or escapes
 * one kind of position.
 */

/** A JavaScript string literal for any string. */
export function str(value: string): string {
  // JSON string syntax is valid JS; U+2028/2029 are escaped for older parsers and readability.
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A literal for a JSON scalar. */
export function literal(value: string | number | boolean | null): string {
  return typeof value === "string" ? str(value) : String(value);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key in a type or object literal: bare when it is an identifier, else quoted. */
export function key(name: string): string {
  return IDENTIFIER.test(name) ? name : str(name);
}

/** A property access: `.name` or `["odd name"]`. */
export function access(name: string): string {
  return IDENTIFIER.test(name) ? `.${name}` : `[${str(name)}]`;
}

/** Text safe inside a block comment. */
export function commentText(text: string): string {
  return text.replace(/\*\//g, "*\\/");
}

/** A JSDoc block for the given lines, or `""` when there are none. */
export function jsdoc(lines: string[]): string {
  if (lines.length === 0) return "";
  const body = lines
    .flatMap((line) => commentText(line).split("\n"))
    .map((line) => (line ? ` * ${line}` : " *"));
  return `/**\n${body.join("\n")}\n */\n`;
}

/** A JSON-pointer segment (RFC 6901) for a property name. */
export function pointerSegment(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}
