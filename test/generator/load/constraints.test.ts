/**
 * Constraint tags (`@format`, `@minimum`, `@maximum`, `@TJS-type`, `@nullable`, `@maxItems`) in
 * the IR, and the generated validators of the `constraints` fixture (and a few others) run on
 * accepted and rejected values. The validators are imported as TypeScript from a temp folder.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GeneratorError } from "../../../generator/errors.js";
import type { TypeNode } from "../../../generator/ir/model.js";
import {
  definition,
  importValidators,
  loadSchemaText,
  propertiesOf,
  renderFixture,
  type RenderedFixture,
} from "../../helpers/golden.js";

type Result =
  { ok: true; value: unknown } | { ok: false; errors: Array<{ path: string; message: string }> };
type Validators = { validators: Record<string, (value: unknown) => Result> } & Record<
  string,
  unknown
>;

describe("constraint tags in the IR", () => {
  let rendered: RenderedFixture;
  beforeAll(async () => {
    rendered = await renderFixture("constraints");
  });

  const prop = (name: string): TypeNode =>
    propertiesOf(rendered.model, "Measurement").get(name)!.type;

  it("folds @format into the string", () => {
    expect(prop("source")).toEqual({ kind: "string", format: "uri" });
    expect(propertiesOf(rendered.model, "Slip").get("origin")!.type).toEqual({
      kind: "string",
      format: "uri",
    }); // `@format: uri`
    expect(definition(rendered.model, "Link").type).toEqual({ kind: "string", format: "uri" });
  });

  it("folds @minimum, @maximum and @TJS-type number into the number", () => {
    expect(prop("ratio")).toEqual({ kind: "number", integer: false, minimum: 0, maximum: 1 });
    expect(prop("count")).toEqual({ kind: "number", integer: true, minimum: 0, maximum: null });
    expect(prop("reading")).toEqual({
      kind: "number",
      integer: false,
      minimum: null,
      maximum: null,
    });
  });

  it("accepts @nullable on a type that includes null, applying the other tags to the rest", () => {
    expect(prop("comment")).toEqual({
      kind: "union",
      members: [{ kind: "string", format: null }, { kind: "null" }],
    });
    expect(prop("homepage")).toEqual({
      kind: "union",
      members: [{ kind: "string", format: "uri" }, { kind: "null" }],
    });
  });

  it("folds @maxItems into the array", () => {
    expect(prop("tags")).toEqual({
      kind: "array",
      items: { kind: "string", format: null },
      minItems: null,
      maxItems: 3,
    });
  });

  it("reads a JSDoc written on the line of the token before its member (the compiler attaches it to nothing)", () => {
    const compact = propertiesOf(rendered.model, "Compact");
    expect(compact.get("link")!.type).toEqual({ kind: "string", format: "uri" });
    expect(compact.get("tags")!.type).toEqual({
      kind: "array",
      items: { kind: "string", format: null },
      minItems: null,
      maxItems: 3,
    });
    expect(compact.get("tags")!.doc.tags).toEqual([{ name: "maxItems", text: "3" }]);
    expect(compact.get("count")!.doc).toEqual({ text: "", tags: [] });
    expect(compact.get("count")!.type).toEqual({
      kind: "number",
      integer: true,
      minimum: null,
      maximum: null,
    });
  });

  it("leaves a JSDoc that ends its line to no member: it may trail the one before", () => {
    const model = loadSchemaText(
      "export interface T {\n  a: string; /** @maxItems 3 */\n  b: string[];\n}\n",
    );
    const b = propertiesOf(model, "T").get("b")!;
    expect(b.doc).toEqual({ text: "", tags: [] });
    expect(b.type).toEqual({
      kind: "array",
      items: { kind: "string", format: null },
      minItems: null,
      maxItems: null,
    });
  });

  it("keeps the tags in the docs too", () => {
    expect(
      propertiesOf(rendered.model, "Measurement")
        .get("ratio")!
        .doc.tags.map((t) => `@${t.name} ${t.text}`),
    ).toEqual(["@TJS-type number", "@minimum 0", "@maximum 1"]);
  });

  it("emits the format runtime only when a format is used", () => {
    expect(rendered.files.map((f) => f.path).sort()).toEqual([
      "README.md",
      "browser.ts",
      "deprecations.json",
      "deprecations.ts",
      "index.ts",
      "runtime/schema/formats.ts",
      "types.ts",
      "validators.ts",
    ]);
  });

  it("rejects a constraint tag that fits no part of the type", () => {
    const error = (() => {
      try {
        loadSchemaText("export interface X {\n  /** @minimum 1 */\n  name: string;\n}\n");
      } catch (e) {
        return e as GeneratorError;
      }
      throw new Error("did not throw");
    })();
    expect(error).toBeInstanceOf(GeneratorError);
    expect(error.line).toBe(3);
    expect(error.toString()).toMatch(/schema\.ts:3: @minimum does not apply to this type$/);
    expect(() =>
      loadSchemaText("export interface X {\n  /** @maxItems many */\n  tags: string[];\n}\n"),
    ).toThrow(/@maxItems needs a number/);
    expect(() =>
      loadSchemaText("export interface X {\n  /** @TJS-type string */\n  n: number;\n}\n"),
    ).toThrow(/unsupported @TJS-type `string`/);
    expect(() =>
      loadSchemaText("export interface X {\n  /** @nullable */\n  s: string;\n}\n"),
    ).toThrow(/@nullable on a type without `null`/);
  });
});

describe("generated validators of the constraints fixture", () => {
  let v: Validators;
  let dispose = (): void => {};
  beforeAll(async () => {
    ({ module: v, dispose } = await importValidators<Validators>(
      await renderFixture("constraints"),
    ));
  });
  afterAll(() => dispose());

  const valid = { source: "https://example.com/m/1", ratio: 0.25, count: 3, comment: null };
  const check = (value: unknown): Result => v.validators["Measurement"]!(value);

  it("exports is/validate functions and the validators table", () => {
    expect(Object.keys(v.validators)).toEqual(["Measurement", "Link", "Slip", "Compact"]);
    expect(typeof v["isMeasurement"]).toBe("function");
    expect(typeof v["validateLink"]).toBe("function");
  });

  it.each([
    ["the minimal value", valid],
    ["ratio at both bounds", { ...valid, ratio: 0 }],
    ["ratio 1", { ...valid, ratio: 1 }],
    ["a comment string", { ...valid, comment: "fine" }],
    ["three tags", { ...valid, tags: ["a", "b", "c"] }],
    ["a null homepage", { ...valid, homepage: null }],
    ["a uri homepage", { ...valid, homepage: "urn:example:home" }],
    ["a real-number reading", { ...valid, reading: -2.5 }],
    ["unknown extra properties (objects are open)", { ...valid, extra: true }],
  ])("accepts %s", (_name, value) => {
    expect(check(value)).toEqual({ ok: true, value });
  });

  it.each([
    [
      "a ratio above @maximum",
      { ...valid, ratio: 1.5 },
      "/ratio",
      "must be number and >= 0 and <= 1",
    ],
    [
      "a ratio below @minimum",
      { ...valid, ratio: -0.1 },
      "/ratio",
      "must be number and >= 0 and <= 1",
    ],
    ["a non-integer count", { ...valid, count: 1.5 }, "/count", "must be integer and >= 0"],
    ["a negative count", { ...valid, count: -1 }, "/count", "must be integer and >= 0"],
    [
      "a source that is not a uri",
      { ...valid, source: "not a uri" },
      "/source",
      'must be string in format "uri"',
    ],
    [
      "four tags (@maxItems 3)",
      { ...valid, tags: ["a", "b", "c", "d"] },
      "/tags",
      "must have at most 3 items",
    ],
    ["a non-string tag", { ...valid, tags: ["a", 2] }, "/tags/1", "must be string"],
    [
      "a missing comment (nullable is not optional)",
      { source: valid.source, ratio: 0.5, count: 1 },
      "",
      "must have required property 'comment'",
    ],
    ["a numeric comment", { ...valid, comment: 5 }, "/comment", "must be string or null"],
    [
      "a homepage that is not a uri",
      { ...valid, homepage: "home" },
      "/homepage",
      "must be string or null",
    ],
    ["an array", [valid], "", "must be object"],
  ])("rejects %s", (_name, value, path, message) => {
    expect(check(value)).toEqual({ ok: false, errors: [{ path, message }] });
  });

  it("checks a constrained alias", () => {
    expect(v.validators["Link"]!("https://example.com")).toMatchObject({ ok: true });
    expect(v.validators["Link"]!("example")).toEqual({
      ok: false,
      errors: [{ path: "", message: 'must be string in format "uri"' }],
    });
  });
});

describe("generated validators of other fixtures", () => {
  const disposers: Array<() => void> = [];
  afterAll(() => disposers.forEach((d) => d()));
  const load = async (name: string): Promise<Validators["validators"]> => {
    const { module, dispose } = await importValidators<Validators>(await renderFixture(name));
    disposers.push(dispose);
    return module.validators;
  };

  it("properties: quoted names are required and escaped in pointers", async () => {
    const validators = await load("properties");
    const gizmo = { title: "t", "io.example/key": "k", "with space": "s" };
    expect(validators["Gizmo"]!(gizmo).ok).toBe(true);
    expect(validators["Gizmo"]!({ ...gizmo, "io.example/key": 1 })).toEqual({
      ok: false,
      errors: [{ path: "/io.example~1key", message: "must be string" }],
    });
    const { "io.example/key": _omitted, ...missing } = gizmo;
    expect(validators["Gizmo"]!(missing)).toEqual({
      ok: false,
      errors: [{ path: "", message: "must have required property 'io.example/key'" }],
    });
  });

  it("index signatures: constrain undeclared keys only", async () => {
    const validators = await load("index-signatures");
    expect(validators["Counters"]!({ total: 1, a: 2, b: "x" }).ok).toBe(true);
    expect(validators["Counters"]!({ total: 1, a: true })).toEqual({
      ok: false,
      errors: [{ path: "/a", message: "must be integer or string" }],
    });
    expect(validators["Labels"]!({ "a/b": 1 })).toEqual({
      ok: false,
      errors: [{ path: "/a~1b", message: "must be string" }],
    });
    expect(validators["Bag"]!({ anything: [1, { x: null }] }).ok).toBe(true);
  });

  it("unions: report the error inside the member the value meant to be", async () => {
    const validators = await load("unions");
    expect(validators["Shape"]!({ type: "circle", radius: 2 }).ok).toBe(true);
    expect(validators["Shape"]!({ type: "circle", radius: "big" })).toEqual({
      ok: false,
      errors: [{ path: "/radius", message: "must be integer" }],
    });
    expect(
      validators["Drawing"]!({
        shapes: [{ type: "square", side: 1 }, { type: "hexagon" }],
        background: null,
      }).ok,
    ).toBe(false);
    expect(validators["Scalar"]!(null).ok).toBe(true);
    expect(validators["Scalar"]!({}).ok).toBe(false);
  });

  it("intersections: every member must hold", async () => {
    const validators = await load("intersection");
    expect(validators["StampedNote"]!({ createdAt: "now", text: "hi" }).ok).toBe(true);
    expect(validators["StampedNote"]!({ text: "hi" })).toEqual({
      ok: false,
      errors: [{ path: "", message: "must have required property 'createdAt'" }],
    });
    expect(validators["Holder"]!({ note: { createdAt: "now" } })).toEqual({
      ok: false,
      errors: [{ path: "/note", message: "must have required property 'body'" }],
    });
  });

  it("literals and typeof constants: exact values", async () => {
    const literals = await load("literals");
    const sw = {
      kind: "switch",
      version: 2,
      on: true,
      broken: false,
      level: "low",
      offset: -1,
      ratio: 0.5,
    };
    expect(literals["Switch"]!(sw).ok).toBe(true);
    expect(literals["Switch"]!({ ...sw, offset: 1 })).toEqual({
      ok: false,
      errors: [{ path: "/offset", message: "must be equal to -1" }],
    });
    const constants = await load("typeof-constants");
    expect(constants["GadgetMissingError"]!({ code: -32042, message: "gone" }).ok).toBe(true);
    expect(constants["GadgetMissingError"]!({ code: -32000, message: "gone" }).ok).toBe(false);
    expect(constants["GadgetFailure"]!({ error: { code: -5, message: "x" } }).ok).toBe(true);
  });
});
