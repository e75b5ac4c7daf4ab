import { describe, expect, it } from "vitest";
import { format } from "../../../generator/emit/format.js";
import {
  constantText,
  definitionText,
  docComment,
  typeText,
} from "../../../generator/emit/types/print.js";
import { ident } from "../../../generator/emit/code.js";
import { typesTarget } from "../../../generator/emit/types/target.js";
import type { ProtocolModel } from "../../../generator/ir/model.js";
import { alias, constant, doc, iface, model, prop, t } from "../../helpers/types-ir.js";

/** The formatted types.ts of a hand-made model, as the generator would write it (less the header). */
async function emitted(m: ProtocolModel): Promise<string> {
  const files = typesTarget.emit({ model: m, generatorVersion: "0.0.0-test", releases: {} });
  expect(files.map((f) => f.path)).toEqual(["types.ts"]);
  return format(files[0]!.content);
}

describe("interfaces", () => {
  const base = iface("Base", [
    prop("a", t.string(), { declaredIn: "Base", doc: doc("The a.") }),
    prop("b", t.number(), { declaredIn: "Base", optional: true }),
  ]);
  const other = iface("Other", [
    prop("x", t.boolean(), { declaredIn: "Other" }),
    prop("y", t.null(), { declaredIn: "Other" }),
  ]);
  const derived = iface(
    "Derived",
    [
      base.type.kind === "object" ? base.type.properties[0]! : prop("never", t.null()),
      // Redeclared here: own, although Base declares it too.
      prop("b", t.literal(1), { declaredIn: "Derived", line: 1001 }),
      prop("c", t.array(t.ref("Other")), {
        declaredIn: "Derived",
        line: 1000,
        doc: doc("Own property.", ["see", "Other"]),
      }),
    ],
    {
      heritage: [
        { name: "Base", omit: [] },
        { name: "Other", omit: ["x", "y"] },
      ],
      doc: doc("A derived one."),
    },
  );

  it("declares extends and Omit<> as written, and only its own properties, in source line order", () => {
    expect(String(definitionText(derived))).toBe(
      [
        "/**",
        " * A derived one.",
        " */",
        'export interface Derived extends Base, Omit<Other, "x" | "y"> {',
        "/**",
        " * Own property.",
        " *",
        " * @see Other",
        " */",
        "c: Other[];",
        "",
        "b: 1;",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("formats to the schema's layout", async () => {
    expect(await emitted(model([base, other, derived]))).toBe(
      [
        "export interface Base {",
        "  /**",
        "   * The a.",
        "   */",
        "  a: string;",
        "",
        "  b?: number;",
        "}",
        "",
        "export interface Other {",
        "  x: boolean;",
        "  y: null;",
        "}",
        "",
        "/**",
        " * A derived one.",
        " */",
        'export interface Derived extends Base, Omit<Other, "x" | "y"> {',
        "  /**",
        "   * Own property.",
        "   *",
        "   * @see Other",
        "   */",
        "  c: Other[];",
        "",
        "  b: 1;",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("keeps an own index signature and leaves an inherited one to extends", () => {
    const result = iface(
      "Result",
      [prop("_meta", t.record(t.unknown()), { declaredIn: "Result", optional: true })],
      {
        index: { keyName: "key", type: t.unknown(), declaredIn: "Result" },
      },
    );
    const empty = iface(
      "EmptyResult",
      [result.type.kind === "object" ? result.type.properties[0]! : prop("x", t.null())],
      {
        heritage: [{ name: "Result", omit: [] }],
        index: { keyName: "key", type: t.unknown(), declaredIn: "Result" },
      },
    );
    expect(String(definitionText(result))).toBe(
      "export interface Result {\n_meta?: { [key: string]: unknown };\n[key: string]: unknown;\n}\n",
    );
    expect(String(definitionText(empty))).toBe(
      "export interface EmptyResult extends Result {\n}\n",
    );
  });
});

describe("type aliases", () => {
  it("writes a union with typeof CONSTANT, literals and a parenthesized array element", async () => {
    const version = constant("JSONRPC_VERSION", "2.0", { doc: doc("", ["internal", ""]), line: 1 });
    const union = alias(
      "Version",
      t.union(
        t.literal("2.0", "JSONRPC_VERSION"),
        t.literal("1.0"),
        t.literal(-32700),
        t.literal(true),
        t.null(),
        t.array(t.union(t.string(), t.number(false))),
      ),
      { line: 2 },
    );
    expect(String(definitionText(union))).toBe(
      'export type Version = typeof JSONRPC_VERSION | "1.0" | -32700 | true | null | (string | number)[];\n',
    );
    expect(String(constantText(version))).toBe(
      '/**\n * @internal\n */\nexport const JSONRPC_VERSION = "2.0";\n',
    );
    expect(await emitted(model([union], [version]))).toBe(
      [
        "/**",
        " * @internal",
        " */",
        'export const JSONRPC_VERSION = "2.0";',
        "",
        'export type Version = typeof JSONRPC_VERSION | "1.0" | -32700 | true | null | (string | number)[];',
        "",
      ].join("\n"),
    );
  });

  it("maps every kind of node", () => {
    expect(String(typeText(t.number(true)))).toBe("number");
    expect(String(typeText(t.number(false)))).toBe("number");
    expect(String(typeText(t.object()))).toBe("object");
    expect(String(typeText(t.unknown()))).toBe("unknown");
    expect(String(typeText(t.boolean()))).toBe("boolean");
    expect(String(typeText(t.ref("JSONValue")))).toBe("JSONValue");
    expect(String(typeText(t.literalObject([])))).toBe("{}");
    expect(String(typeText(t.record(t.ref("JSONValue"))))).toBe("{ [key: string]: JSONValue }");
  });

  it("parenthesizes exactly where precedence needs it", () => {
    const { union, intersection, array, ref } = t;
    expect(String(typeText(array(array(ref("A")))))).toBe("A[][]");
    expect(String(typeText(array(intersection(ref("A"), ref("B")))))).toBe("(A & B)[]");
    expect(String(typeText(intersection(ref("A"), union(ref("B"), ref("C")))))).toBe("A & (B | C)");
    expect(String(typeText(union(ref("A"), intersection(ref("B"), ref("C")))))).toBe("A | B & C");
    expect(String(typeText(union(ref("A"), union(ref("B"), ref("C")))))).toBe("A | (B | C)");
    expect(String(typeText(array(t.literal("x", "X"))))).toBe("typeof X[]");
    expect(String(typeText(union(ref("A"))))).toBe("A");
    expect(String(typeText(array(union(ref("A")))))).toBe("A[]");
  });

  it("keeps the docs of a nested object literal's properties, and intersections with them", async () => {
    const error = alias(
      "Failure",
      t.intersection(
        t.ref("Error"),
        t.literalObject([
          prop("code", t.literal(-32042, "CODE")),
          prop(
            "data",
            t.literalObject([
              prop("supported", t.array(t.string()), { doc: doc("Supported ones.") }),
            ]),
          ),
        ]),
      ),
      { line: 3 },
    );
    const m = model(
      [iface("Error", [prop("message", t.string(), { declaredIn: "Error" })], { line: 2 }), error],
      [constant("CODE", -32042, { line: 1 })],
    );
    expect(await emitted(m)).toBe(
      [
        "export const CODE = -32042;",
        "",
        "export interface Error {",
        "  message: string;",
        "}",
        "",
        "export type Failure = Error & {",
        "  code: typeof CODE;",
        "  data: {",
        "    /**",
        "     * Supported ones.",
        "     */",
        "    supported: string[];",
        "  };",
        "};",
        "",
      ].join("\n"),
    );
  });
});

describe("names and text are data, never code", () => {
  it("quotes property names that are not identifiers, and keeps __proto__ a plain property", async () => {
    const odd = iface("Odd", [
      prop("io.modelcontextprotocol/x", t.string(), { declaredIn: "Odd" }),
      prop("__proto__", t.string(), { declaredIn: "Odd", optional: true }),
      prop('say "hi"', t.string(), { declaredIn: "Odd" }),
      prop("line\nbreak", t.string(), { declaredIn: "Odd" }),
      prop("$schema", t.string(), { declaredIn: "Odd" }),
      prop("constructor", t.string(), { declaredIn: "Odd" }),
      prop("123", t.string(), { declaredIn: "Odd" }),
      prop("", t.string(), { declaredIn: "Odd" }),
    ]);
    expect((await emitted(model([odd]))).split("\n")).toEqual([
      "export interface Odd {",
      '  "io.modelcontextprotocol/x": string;',
      '  ["__proto__"]?: string;',
      "  'say \"hi\"': string;",
      '  "line\\nbreak": string;',
      "  $schema: string;",
      "  constructor: string;",
      '  "123": string;',
      '  "": string;',
      "}",
      "",
    ]);
  });

  it("escapes */ in doc text and tags so a comment cannot end early", async () => {
    const tricky = alias("Tricky", t.string(), {
      doc: doc("Ends here */ export const injected = 1; /* no.\n\n  Indented line kept.", [
        "example",
        "a */ b\nsecond line",
      ]),
      line: 1,
    });
    expect(String(docComment(tricky.doc))).toBe(
      [
        "/**",
        " * Ends here *\\/ export const injected = 1; /* no.",
        " *",
        " *   Indented line kept.",
        " *",
        " * @example a *\\/ b",
        " * second line",
        " */",
        "",
      ].join("\n"),
    );
    const text = await emitted(model([tricky]));
    expect(text).not.toMatch(/^export const injected/m);
    expect(text.match(/^export /gm)).toHaveLength(1);
    expect(text.endsWith("export type Tricky = string;\n")).toBe(true);
  });

  it("rejects a definition or constant name that is not an identifier instead of writing it quoted", () => {
    expect(() => definitionText(alias("Not-A-Name", t.string()))).toThrow(
      /not a valid TypeScript identifier/,
    );
    expect(() => constantText(constant("X; export const Y", 1))).toThrow(
      /not a valid TypeScript identifier/,
    );
    expect(() => typeText(t.ref("A | B"))).toThrow(/not a valid TypeScript identifier/);
  });
});

describe("file layout", () => {
  it("interleaves constants and definitions by source line", async () => {
    const m = model(
      [alias("A", t.string(), { line: 10 }), alias("B", t.literal(1, "ONE"), { line: 30 })],
      [
        constant("ONE", 1, { line: 20 }),
        constant("TWO", 2, { line: 40 }),
        constant("ZERO", 0, { line: 5 }),
      ],
    );
    const text = await emitted(m);
    expect(
      [...text.matchAll(/^export (?:const|type|interface) (\w+)/gm)].map((match) => match[1]),
    ).toEqual(["ZERO", "A", "ONE", "B", "TWO"]);
  });

  it("is byte-identical run to run and leaves the model untouched", async () => {
    const m = model(
      [
        iface(
          "P",
          [prop("params", t.literalObject([], t.unknown()), { declaredIn: "P", optional: true })],
          { line: 1 },
        ),
        iface("Q", [prop("params", t.ref("QParams"), { declaredIn: "Q" })], {
          heritage: [{ name: "P", omit: [] }],
          line: 2,
        }),
        iface("QParams", [prop("n", t.number(), { declaredIn: "QParams" })], { line: 3 }),
      ],
      [],
    );
    const before = JSON.stringify(m);
    const first = await emitted(m);
    expect(await emitted(m)).toBe(first);
    expect(JSON.stringify(m)).toBe(before);
  });
});

describe("any and unknown", () => {
  it("prints each as the schema wrote it, so a derived interface may narrow an `any` slot", async () => {
    const m = model([
      iface("Message", [
        prop("params", t.literalObject([], t.any()), { declaredIn: "Message", optional: true }),
      ]),
      iface("Meta", [
        prop("extra", t.literalObject([], t.unknown()), { declaredIn: "Meta", optional: true }),
      ]),
    ]);
    const text = await emitted(m);
    expect(text).toContain("  params?: { [key: string]: any };\n");
    expect(text).toContain("  extra?: { [key: string]: unknown };\n");
  });
});

it("ident() passes identifiers through unchanged", () => {
  expect(String(ident("JSONRPCMessage"))).toBe("JSONRPCMessage");
  expect(String(ident("$x_1"))).toBe("$x_1");
});
