/**
 * #25 item 3 (JSON Schema): a schema and a value from a peer cannot freeze the process. The Ajv
 * adapter runs `pattern` on RE2 with JavaScript's meaning and `uniqueItems` by hashing, answering
 * as stock Ajv does; the cfworker adapter bounds both in the schema. The attack inputs here took
 * seconds each before (a 6 KB string under `^\S+@\S+\.\S+$`, 32,000 objects under `uniqueItems`).
 */
import AjvModule from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ajvEngine, canonicalKey, toRe2 } from "../../../runtime/schema/json-schema-ajv.js";
import { cfworkerEngine } from "../../../runtime/schema/json-schema-cfworker.js";
import { SchemaCache } from "../../../runtime/schema/json-schema.js";

/** Both packages are CommonJS: the default import is the export itself or holds it as `default`. */
function interop<T>(m: unknown): T {
  return ((m as { default?: unknown }).default ?? m) as T;
}
const Ajv2020 = interop<typeof AjvModule.default>(AjvModule);
const addFormats = interop<typeof addFormatsModule.default>(addFormatsModule);

/** Stock Ajv as the adapter configures it, without the budget: the oracle. */
function stock(schema: Record<string, unknown>) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, addUsedSchema: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return (value: unknown) => {
    const ok = validate(value);
    return { ok, message: ok ? undefined : validate.errors?.[0]?.message };
  };
}

const EMAIL = "^\\S+@\\S+\\.\\S+$";
/** Cubic for a backtracking engine: about a second at 2 KB, minutes at 6 KB. */
const HOSTILE = `${"@".repeat(3000)}${".".repeat(3000)} `;
const distinctObjects = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, tag: "t" }));

/** Characters where JavaScript's and RE2's defaults differ, and ordinary ones. */
const ALPHABET = [
  "a",
  "Z",
  "0",
  "_",
  "@",
  ".",
  "-",
  " ",
  "\t",
  "\n",
  "\r",
  "\u000b",
  "\u00a0",
].concat(["\u2028", "\u2029", "\u3000", "\ufeff", "\u1680", "é", "😀", "[", "]", "\\", "x"]);
const PATTERNS = [
  EMAIL,
  "^[a-z][a-z0-9_-]{0,15}$",
  "^\\s*$",
  "\\S",
  "^.+$",
  "^[\\s\\d]+$",
  "^[^\\s@]+@[^\\s@]+$",
  "a.c",
  "^(?<word>\\w+)\\b",
  "^\\d{3}-\\d{4}$",
  "^[\\u00e0-\\u00ff]+$",
  "^\\u{1F600}$",
  "^(a|b)*c$",
  "[.]",
  "^\\.\\*$",
];

describe("the Ajv adapter's patterns", () => {
  it.each(PATTERNS)("%s answers as JavaScript's RegExp on every string", (pattern) => {
    const linear = toRe2(pattern);
    expect(linear).not.toBeNull();
    const native = new RegExp(pattern, "u");
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((cs) => cs.join("")),
        (input) => linear!.test(input) === native.test(input),
      ),
      { numRuns: 400 },
    );
  });

  it("checks a 6 KB hostile string against the e-mail pattern, and agrees with Ajv on ordinary ones", () => {
    const schema = { type: "string", pattern: EMAIL };
    const check = new SchemaCache(ajvEngine()).check(schema);
    const oracle = stock(schema);
    expect(check(HOSTILE)).toEqual({
      ok: false,
      errors: [{ path: "", message: `must match pattern "${EMAIL}"` }],
    });
    for (const value of ["a@b.c", "a b@c.d", "a\u00a0@b.c", "ab.c", "a@b", "x@y.z\n", 3]) {
      const result = check(value);
      expect({ ok: result.ok, message: result.errors?.[0]?.message }).toEqual(oracle(value));
    }
  });

  it("runs patternProperties on RE2 too", () => {
    const check = new SchemaCache(ajvEngine()).check({
      type: "object",
      patternProperties: { [EMAIL]: { type: "number" } },
      additionalProperties: false,
    });
    expect(check({ [HOSTILE]: 1 }).ok).toBe(false);
    expect(check({ "a@b.c": 1 }).ok).toBe(true);
    expect(check({ "a@b.c": "x" })).toMatchObject({ ok: false, errors: [{ path: "/a@b.c" }] });
  });

  it("runs a pattern RE2 cannot express natively, only on strings within the limit", () => {
    const schema = { type: "string", pattern: "^(?=.*\\d)(a|\\d)+$" };
    const check = new SchemaCache(ajvEngine({ maxBacktrackingInput: 20 })).check(schema);
    expect(toRe2(schema.pattern)).toBeNull();
    expect(check("a1a").ok).toBe(true);
    expect(check("aaa").ok).toBe(false);
    const long = check(`${"a".repeat(30)}1`);
    expect(long.ok).toBe(false);
    expect(long.errors?.[0]?.message).toMatch(/31 characters is longer than the 20/);
  });
});

describe("the Ajv adapter's uniqueItems", () => {
  it("accepts 32,000 distinct objects and finds a duplicate among them", () => {
    const check = new SchemaCache(ajvEngine()).check({ type: "array", uniqueItems: true });
    const items = distinctObjects(32_000);
    expect(check(items).ok).toBe(true);
    const repeated = [...items, { tag: "t", id: 17 }];
    expect(check(repeated)).toEqual({
      ok: false,
      errors: [
        {
          path: "",
          message: "must NOT have duplicate items (items ## 17 and 32000 are identical)",
        },
      ],
    });
  });

  it("answers as stock Ajv on arrays of JSON values, the pair it names included", () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(0, 1, 1.5, -0, "a", "b", "", true, false, null),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("a", "b", "c"), tie("value"), {
          maxKeys: 3,
          // Parsed JSON has no null-prototype objects (which Ajv tells apart from `{}`).
          noNullPrototype: true,
        }),
      ),
    })).value;
    const schema = { type: "object", properties: { list: { type: "array", uniqueItems: true } } };
    const check = new SchemaCache(ajvEngine()).check(schema);
    const oracle = stock(schema);
    fc.assert(
      fc.property(fc.array(json, { maxLength: 8 }), (list) => {
        const result = check({ list });
        expect({ ok: result.ok, message: result.errors?.[0]?.message }).toEqual(oracle({ list }));
      }),
      { numRuns: 500 },
    );
  });

  it("keys objects regardless of key order, and arrays by order", () => {
    expect(canonicalKey({ b: [1, { y: 2, x: 1 }], a: "s" })).toBe(
      canonicalKey({ a: "s", b: [1, { x: 1, y: 2 }] }),
    );
    expect(canonicalKey([1, 2])).not.toBe(canonicalKey([2, 1]));
    expect(canonicalKey({ a: "1" })).not.toBe(canonicalKey({ a: 1 }));
  });
});

describe("the cfworker adapter's bounds", () => {
  const schema = {
    type: "object",
    properties: {
      email: { type: "string", pattern: EMAIL },
      tags: { type: "array", uniqueItems: true },
      // Properties named like the keywords are names, not keywords.
      pattern: { type: "string" },
      uniqueItems: true,
    },
  };

  it("fails a string over the limit without running the pattern, and checks the rest as before", () => {
    const check = new SchemaCache(cfworkerEngine()).check(schema);
    expect(check({ email: HOSTILE })).toEqual({
      ok: false,
      errors: [{ path: "/email", message: "String is too long (6001 > 500)." }],
    });
    expect(check({ email: "a@b.c" }).ok).toBe(true);
    expect(check({ email: "ab.c" })).toMatchObject({ ok: false, errors: [{ path: "/email" }] });
    expect(check({ pattern: "x".repeat(5000), uniqueItems: [1, 1] }).ok).toBe(true);
  });

  it("fails an array over the limit without comparing its items, and finds duplicates within it", () => {
    const check = new SchemaCache(cfworkerEngine({ maxUniqueItems: 100 })).check(schema);
    expect(check({ tags: distinctObjects(32_000) })).toEqual({
      ok: false,
      errors: [{ path: "/tags", message: "Array has too many items (32000 > 100)." }],
    });
    expect(check({ tags: distinctObjects(100) }).ok).toBe(true);
    expect(check({ tags: [{ a: 1 }, { a: 1 }] })).toMatchObject({
      ok: false,
      errors: [{ path: "/tags" }],
    });
  });

  it("leaves data keywords alone: a const holding `pattern` is still that value", () => {
    const check = new SchemaCache(cfworkerEngine()).check({ const: { pattern: "x" } });
    expect(check({ pattern: "x" }).ok).toBe(true);
    expect(check({ pattern: "y" }).ok).toBe(false);
  });

  it("keeps pointers into the schema: a $ref to a bounded definition", () => {
    const check = new SchemaCache(cfworkerEngine({ maxPatternInput: 10 })).check({
      $defs: { code: { type: "string", pattern: "^[a-z]+$", allOf: [{ minLength: 2 }] } },
      type: "array",
      items: { $ref: "#/$defs/code" },
    });
    expect(check(["ab", "cd"]).ok).toBe(true);
    expect(check(["a"]).ok).toBe(false);
    expect(check(["AB"]).ok).toBe(false);
    expect(check(["abcdefghijk"]).ok).toBe(false);
  });
});
