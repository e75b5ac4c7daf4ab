/**
 * JSDoc and deprecations as the loader reads them, on the `jsdoc` and `deprecations` fixtures
 * (and a few inline schemas for placements the fixtures cannot hold at once).
 */
import { describe, expect, it } from "vitest";
import { definition, loadFixture, loadSchemaText, propertiesOf } from "../../helpers/golden.js";
import { parseJsDoc } from "../../../generator/load/jsdoc.js";

describe("JSDoc", () => {
  const model = loadFixture("jsdoc");

  it("splits text from block tags, keeping paragraphs and tag order", () => {
    const thing = definition(model, "Thing");
    expect(thing.doc.text).toBe("A documented thing.\n\nIts description has two paragraphs.");
    expect(thing.doc.tags.map((t) => t.name)).toEqual(["category", "example", "see", "see"]);
    expect(thing.doc.tags[2]).toEqual({ name: "see", text: "{@link Helper} for the helper" });
    expect(thing.doc.tags[3]).toEqual({ name: "see", text: "https://example.com/things" });
  });

  it("keeps an @-line inside a fenced example as example text", () => {
    const example = definition(model, "Thing").doc.tags.find((t) => t.name === "example");
    expect(example?.text).toBe(
      '```json\n{ "name": "lamp" }\n@notATag inside a fence stays text\n```',
    );
  });

  it("reads @category without backticks, and @internal", () => {
    expect(definition(model, "Thing").category).toBe("things/get");
    expect(definition(model, "Identifier").category).toBe("Common Types");
    expect(definition(model, "Helper")).toMatchObject({
      internal: true,
      category: null,
      doc: { text: "", tags: [{ name: "internal", text: "" }] },
    });
    expect(definition(model, "Thing").internal).toBe(false);
  });

  it("reads property docs", () => {
    expect(propertiesOf(model, "Thing").get("name")!.doc).toEqual({
      text: "The thing's name.",
      tags: [{ name: "example", text: '"lamp"' }],
    });
  });

  it("ignores line comments and uses only the last JSDoc block", () => {
    expect(definition(model, "Undocumented").doc).toEqual({ text: "", tags: [] });
    // A one-line block has nowhere else for its tags: `@see` after the text is one (as the
    // one-line `/** Adds two numbers. @title Add */` of a tools file needs).
    expect(definition(model, "TwoBlocks").doc).toEqual({
      text: "This one.",
      tags: [{ name: "see", text: "nothing" }],
    });
  });
});

describe("tags after the text", () => {
  it("a one-line block: each ` @tag` starts a tag; an inline {@link} and an address stay text", () => {
    expect(parseJsDoc("/** Adds two numbers. @title Add */")).toEqual({
      text: "Adds two numbers.",
      tags: [{ name: "title", text: "Add" }],
    });
    expect(parseJsDoc("/** Sums. @title Sum @tool add_up */").tags).toEqual([
      { name: "title", text: "Sum" },
      { name: "tool", text: "add_up" },
    ]);
    expect(parseJsDoc("/** See {@link Helper}, or mail a@b.example. */")).toEqual({
      text: "See {@link Helper}, or mail a@b.example.",
      tags: [],
    });
  });

  it("a longer block keeps a mid-line @ as text: tags start a line", () => {
    expect(parseJsDoc("/**\n * Mentions @decorator here.\n * @title T\n */")).toEqual({
      text: "Mentions @decorator here.",
      tags: [{ name: "title", text: "T" }],
    });
  });
});

describe("deprecations", () => {
  const model = loadFixture("deprecations");

  it("lists every @deprecated tag with its target, revision, SEP and line, in source order", () => {
    expect(
      model.deprecations.map(({ target, asOf, sep, line }) => ({ target, asOf, sep, line })),
    ).toEqual([
      {
        target: { kind: "definition", definition: "LegacyReport" },
        asOf: "2099-02-03",
        sep: "SEP-1234",
        line: 6,
      },
      {
        target: { kind: "property", definition: "ReportOptions", path: ["pageSize"] },
        asOf: "2099-02-03",
        sep: "SEP-1235",
        line: 14,
      },
      {
        target: { kind: "literal", definition: "ReportOptions", path: ["mode"], values: ["b"] },
        asOf: "2099-02-03",
        sep: "SEP-1236",
        line: 21,
      },
      {
        target: { kind: "property", definition: "ReportOptions", path: ["layout", "margin"] },
        asOf: "2099-05-06",
        sep: null,
        line: 25,
      },
      {
        target: { kind: "property", definition: "ReportOptions", path: ["note"] },
        asOf: null,
        sep: null,
        line: 30,
      },
      {
        target: { kind: "unionMember", definition: "AnyReport", member: "LegacyReport" },
        asOf: "2099-02-03",
        sep: "SEP-1237",
        line: 36,
      },
    ]);
  });

  it("marks deprecated definitions and properties, keeping the tag text", () => {
    expect(definition(model, "LegacyReport").deprecated).toEqual({
      text: "Deprecated as of protocol version 2099-02-03 (SEP-1234). Use {@link ReportOptions} instead.",
      asOf: "2099-02-03",
      sep: "SEP-1234",
    });
    const options = propertiesOf(model, "ReportOptions");
    expect(options.get("pageSize")!.deprecated?.sep).toBe("SEP-1235");
    expect(options.get("mode")!.deprecated?.asOf).toBe("2099-02-03");
    expect(options.get("layout")!.deprecated).toBeNull();
    expect(definition(model, "ReportOptions").deprecated).toBeNull();
  });

  it("deprecates only the quoted literal values named in the first sentence", () => {
    const literal = model.deprecations.find((d) => d.target.kind === "literal");
    // "c" is quoted too, but in the sentence naming the replacement.
    expect(literal?.target).toMatchObject({ values: ["b"] });
  });

  it("deprecates the whole property when every literal value is quoted", () => {
    const inline = loadSchemaText(`export interface X {
  /** @deprecated The "a" and "b" values are deprecated as of protocol version 2099-01-01. */
  mode: "a" | "b";
}
`);
    expect(inline.deprecations.map((d) => d.target)).toEqual([
      { kind: "property", definition: "X", path: ["mode"] },
    ]);
  });

  it("reads `as of revision draft` as a revision", () => {
    const inline = loadSchemaText(
      "/** @deprecated As of revision draft, see SEP-7. */\nexport type X = string;\n",
    );
    expect(inline.deprecations[0]).toMatchObject({ asOf: "draft", sep: "SEP-7" });
  });

  // A member deprecation may stand before or after the `|`, on the member's line or its own.
  const memberDeprecations = (text: string) =>
    loadSchemaText(
      `export interface A { a: string }\nexport interface B { b: string }\n${text}`,
    ).deprecations.map((d) => d.target);
  const expected = [{ kind: "unionMember", definition: "U", member: "B" }];

  it("finds a member deprecation written on its own line before the member", () => {
    expect(memberDeprecations("export type U =\n  /** @deprecated old */\n  B | A;\n")).toEqual(
      expected,
    );
  });

  it("finds a member deprecation written after `|` on the same line", () => {
    expect(memberDeprecations("export type U =\n  | A\n  | /** @deprecated old */ B;\n")).toEqual(
      expected,
    );
  });

  it("finds a member deprecation written on the line before `| Member`", () => {
    expect(
      memberDeprecations("export type U =\n  | A\n  /** @deprecated old */\n  | B;\n"),
    ).toEqual(expected);
  });
});
