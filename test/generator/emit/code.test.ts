import { describe, expect, it } from "vitest";
import {
  access,
  code,
  ident,
  isCode,
  join,
  jsdoc,
  json,
  key,
  lineComments,
  literal,
  nothing,
  str,
  type Code,
} from "../../../generator/emit/code.js";

/** Evaluates generated JavaScript (an expression) to see what it means, not only how it reads. */
const evaluate = (expression: Code): unknown =>
  new Function(`"use strict"; return (${String(expression)});`)();

const hostile = [
  "__proto__",
  'a"b',
  "it's",
  "line\nbreak",
  "back\\slash",
  "${injected}",
  "`tick`",
  "*/ end of comment",
  "</script>",
  "\u2028\u2029",
  "",
];

describe("code: interpolated data is quoted", () => {
  it.each(hostile)("a string stays the same string: %j", (value) => {
    const built = code`${value}`;
    expect(evaluate(built)).toBe(value);
    expect(evaluate(code`[${value}, ${value}]`)).toEqual([value, value]);
  });

  it("escapes U+2028 and U+2029 rather than writing them raw", () => {
    expect(String(str("\u2028\u2029"))).toBe('"\\u2028\\u2029"');
    expect(String(json({ text: "\u2028" }))).toBe('{"text":"\\u2028"}');
  });

  it("prints numbers, booleans and null as literals, and refuses what has none", () => {
    expect(String(code`f(${-1}, ${2.5}, ${true}, ${null})`)).toBe("f(-1, 2.5, true, null)");
    expect(() => code`${Number.NaN}`).toThrow(/no literal/);
    expect(() => code`${Infinity}`).toThrow(/no literal/);
    expect(() => code`${undefined as unknown as string}`).toThrow(/cannot interpolate/);
    expect(() => code`${{} as unknown as string}`).toThrow(/cannot interpolate/);
  });

  it("literal and json print data as JavaScript that means the same data", () => {
    expect(evaluate(literal("x\ny"))).toBe("x\ny");
    expect(String(literal(3))).toBe("3");
    const data = { a: [1, "two", null], "odd key": { __proto__: "no" }, nested: { t: true } };
    expect(evaluate(json(data))).toEqual(data);
    expect(() => json(undefined)).toThrow(/not JSON/);
  });
});

describe("code: nesting", () => {
  it("splices code as it is, however deep, and quotes the strings inside each level", () => {
    const name = 'weird "name"';
    const inner = code`f(${name})`;
    const middle = code`[${inner}, ${"plain"}]`;
    const outer = code`const x = ${middle};`;
    expect(String(outer)).toBe('const x = [f("weird \\"name\\""), "plain"];');
  });

  it("joins code with a separator that is code too", () => {
    const items = ["a", "b\nc"].map((s) => code`${s}`);
    expect(String(join(items))).toBe('"a", "b\\nc"');
    expect(String(join(items, code` | `))).toBe('"a" | "b\\nc"');
    expect(String(join([]))).toBe("");
    expect(String(code`x${nothing}y`)).toBe("xy");
  });
});

describe("code: raw text only by construction", () => {
  it("makes code only from a template literal's own parts", () => {
    const parts = Object.assign(["not code"], { raw: ["not code"] });
    expect(() => code(parts as unknown as TemplateStringsArray)).toThrow(/template literal/);
    // Even frozen, an array without `raw` is not a template's strings.
    expect(() => code(Object.freeze(["x"]) as unknown as TemplateStringsArray)).toThrow(
      /template literal/,
    );
  });

  it("is a brand no plain string or look-alike object carries", () => {
    expect(isCode(code`x`)).toBe(true);
    expect(isCode("x")).toBe(false);
    expect(isCode({ toString: () => "x" })).toBe(false);
    // A look-alike is data: interpolating it is refused, not spliced.
    expect(() => code`${{ toString: () => "evil()" } as unknown as Code}`).toThrow();
  });

  it("writes a name bare only where it is an identifier", () => {
    expect(String(ident("isCallToolRequest"))).toBe("isCallToolRequest");
    expect(() => ident("a-b")).toThrow(/not a valid TypeScript identifier/);
    expect(() => ident("x; evil()")).toThrow(/not a valid TypeScript identifier/);
    expect(String(key("plain"))).toBe("plain");
    expect(String(key("tools/call"))).toBe('"tools/call"');
    // In an object literal a bare or quoted `__proto__` sets the prototype: computed, it is a key.
    expect(String(key("__proto__"))).toBe('["__proto__"]');
    expect(Object.keys(evaluate(code`({ ${key("__proto__")}: 1 })`) as object)).toEqual([
      "__proto__",
    ]);
    expect(String(access("plain"))).toBe(".plain");
    expect(String(access("a'b"))).toBe(`["a'b"]`);
    expect(evaluate(code`({ ${key("x\ny")}: 1 })${access("x\ny")}`)).toBe(1);
  });

  it("keeps doc text inside its comment", () => {
    const doc = String(jsdoc(["ends */ here", "", "two\nlines"]));
    expect(doc).toBe("/**\n * ends *\\/ here\n *\n * two\n * lines\n */\n");
    expect(String(jsdoc([]))).toBe("");
    // The comment is the whole program's only content: nothing after `*/` leaked out of it.
    expect(new Function(`${doc}return 1;`)()).toBe(1);
  });
});

describe("lineComments", () => {
  it("keeps a text with line breaks inside its comment", () => {
    const texts = ["plain", "out\nexport const evil = 1;", "a\r\nb\u2028c\u2029d\re"];
    const comment = String(lineComments(texts));
    expect(comment.split("\n")).toEqual([
      "// plain",
      "// out export const evil = 1;",
      "// a b c d e",
    ]);
    // Nothing but comments: the program declares nothing and returns nothing.
    expect(new Function(`${comment}\nreturn typeof evil;`)()).toBe("undefined");
  });
});
