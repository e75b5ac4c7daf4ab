/*
 * What the differential tests' mutations (test/helpers/mutate.ts) draw from: pools of strings,
 * numbers and keys near what JSON Schema validation turns on, and the literals, property names and
 * bounds of the schema under test.
 */

type Schema = { [key: string]: unknown };

/** Strings near the formats the schema uses (uri, uri-template, byte) and other edge cases. */
export const STRINGS: readonly string[] = [
  "",
  " ",
  "x",
  "http://x",
  "https://example.com/a/b?c=d#e",
  "file:///tmp/a.txt",
  "urn:isbn:0451450523",
  "mailto:a@b.c",
  "x:",
  "a:b",
  "//example.com/a",
  "/relative/path",
  "not a uri",
  "http://exa mple.com",
  "http://[::1]:80/",
  "http://[:::1]/",
  "http://%zz",
  "{var}",
  "{+path}",
  "{a.b}",
  "{a,b*}",
  "file:///{path}",
  "{",
  "}",
  "{var",
  "a{b}c",
  "AAAA",
  "AA==",
  "AAA=",
  "A===",
  "YWJj",
  "YWJj\n",
  "!!!!",
  "bad base64 ==",
  "A",
  "AAAAA",
  "2025-06-18",
  "2026-07-28",
  "2.0",
  "1.0",
  "__proto__",
  "constructor",
  "a/b",
  "a~b",
  "~0~1",
  "\u0000",
  "\ud800",
  "é",
  "0",
  "-1",
  "true",
  "null",
];

/** Numbers around integer/number checks and the bounds the schema uses (0..1 priorities, etc.). */
export const NUMBERS: readonly number[] = [
  0,
  -0,
  1,
  -1,
  2,
  0.5,
  -0.5,
  1.5,
  0.1,
  0.9999999,
  1.0000001,
  100,
  101,
  1000,
  -32700,
  -32600,
  -32601,
  -32602,
  -32603,
  -32000,
  -32001,
  -32002,
  -32042,
  -32768,
  -32769,
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  1e21,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  5e-324,
  1e-7,
  123.456,
];

/** Keys to add: awkward ones for objects and pointers, plus the schema's own property names. */
export const AWKWARD_KEYS: readonly string[] = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "",
  "a/b",
  "/",
  "~",
  "~0",
  "~1",
  "a~1b",
  "~01",
  "x",
  "0",
  "length",
  "extra",
];

/** Facts about a schema the mutations use: its literal strings (discriminators) and property names. */
export interface SchemaFacts {
  /** Every `const`/`enum` string value, e.g. methods, content types, roles. */
  literals: string[];
  /** Every `const`/`enum` number value, e.g. error codes. */
  numbers: number[];
  /** Every property name. */
  propertyNames: string[];
  /** Every `minimum`/`maximum`, and the numbers just inside and outside of them. */
  bounds: number[];
  /** Every `minItems`/`maxItems`, and one more and one less. */
  lengths: number[];
}

export function schemaFacts(schema: unknown): SchemaFacts {
  const literals = new Set<string>();
  const numbers = new Set<number>();
  const propertyNames = new Set<string>();
  const bounds = new Set<number>();
  const lengths = new Set<number>();
  const add = (value: unknown): void => {
    if (typeof value === "string") literals.add(value);
    else if (typeof value === "number") numbers.add(value);
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    const s = node as Schema;
    if ("const" in s) add(s["const"]);
    if (Array.isArray(s["enum"])) s["enum"].forEach(add);
    for (const key of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
      const bound = s[key];
      if (typeof bound === "number")
        for (const d of [0, -1, 1, -0.5, 0.5, -1e-9, 1e-9]) bounds.add(bound + d);
    }
    for (const key of ["minItems", "maxItems"]) {
      const length = s[key];
      if (typeof length === "number")
        for (const d of [0, -1, 1]) if (length + d >= 0) lengths.add(length + d);
    }
    for (const [key, child] of Object.entries(s)) {
      if (
        key === "const" ||
        key === "enum" ||
        key === "description" ||
        key === "default" ||
        key === "examples"
      )
        continue;
      if (key === "properties" && child && typeof child === "object") {
        for (const name of Object.keys(child)) propertyNames.add(name);
      }
      walk(child);
    }
  };
  walk(schema);
  return {
    literals: [...literals].sort(),
    numbers: [...numbers].sort((a, b) => a - b),
    propertyNames: [...propertyNames].sort(),
    bounds: [...bounds].sort((a, b) => a - b),
    lengths: [...lengths].sort((a, b) => a - b),
  };
}
