/**
 * Focused facts about how the loader reads type constructs, on the golden fixtures' schemas (loaded
 * afresh here, not read from expected/, so that a wrong golden file cannot hide a loader bug).
 */
import { describe, expect, it } from "vitest";
import type { TypeNode } from "../../../generator/ir/model.js";
import { definition, fixtureNames, loadFixture, propertiesOf } from "../../helpers/golden.js";

const int = (minimum: number | null = null, maximum: number | null = null): TypeNode => ({
  kind: "number",
  integer: true,
  minimum,
  maximum,
});
const str: TypeNode = { kind: "string", format: null };
const ref = (name: string): TypeNode => ({ kind: "ref", name });
const lit = (value: string | number | boolean, constant: string | null = null): TypeNode => ({
  kind: "literal",
  value,
  constant,
});

describe("properties", () => {
  const model = loadFixture("properties");

  it("reads required, optional and quoted names with their owner and line", () => {
    const props = [...propertiesOf(model, "Gizmo").values()];
    expect(props.map((p) => [p.name, p.optional, p.declaredIn, p.line])).toEqual([
      ["title", false, "Gizmo", 4],
      ["weight", true, "Gizmo", 5],
      ["io.example/key", false, "Gizmo", 6],
      ["io.example/optional-flag", true, "Gizmo", 7],
      ["with space", false, "Gizmo", 8],
    ]);
    expect(props[0]!.doc).toEqual({ text: "What the gizmo is called.", tags: [] });
  });

  it("places definitions at their declaration line, after the JSDoc", () => {
    expect(model.definitions.map((d) => [d.name, d.declaration, d.line])).toEqual([
      ["Gizmo", "interface", 2],
      ["Settings", "interface", 12],
    ]);
  });

  it("trims a one-line JSDoc's text", () => {
    expect(definition(model, "Gizmo").doc.text).toBe(
      "A gizmo with required, optional and quoted property names.",
    );
  });
});

describe("extends", () => {
  const model = loadFixture("extends");

  it("merges several bases in order and overrides an inherited property in place", () => {
    const panel = [...propertiesOf(model, "Panel").values()];
    expect(panel.map((p) => [p.name, p.optional, p.declaredIn])).toEqual([
      ["name", false, "Named"],
      ["label", false, "Panel"],
      ["width", false, "Sized"],
      ["height", false, "Sized"],
      ["color", true, "Panel"],
    ]);
    expect(definition(model, "Panel").heritage).toEqual([
      { name: "Named", omit: [] },
      { name: "Sized", omit: [] },
    ]);
  });

  it("inherits through a chain and from an object alias, narrowing an inherited property", () => {
    const wide = propertiesOf(model, "WidePanel");
    expect([...wide.keys()]).toEqual(["name", "label", "width", "height", "color", "tag"]);
    expect(wide.get("width")).toMatchObject({ type: lit(1000), declaredIn: "WidePanel" });
    expect(wide.get("label")!.declaredIn).toBe("Panel");
    // The alias's object type is anonymous, hence no declaring definition.
    expect(wide.get("tag")).toMatchObject({ type: str, declaredIn: null });
  });

  it("leaves the bases untouched", () => {
    expect([...propertiesOf(model, "Named").values()].map((p) => [p.name, p.optional])).toEqual([
      ["name", false],
      ["label", true],
    ]);
  });
});

describe("Omit<> in extends", () => {
  const model = loadFixture("omit");

  it("drops the omitted keys", () => {
    expect(definition(model, "PublicAccount").heritage).toEqual([
      { name: "Account", omit: ["password", "recoveryCode"] },
    ]);
    expect([...propertiesOf(model, "PublicAccount").keys()]).toEqual([
      "id",
      "displayName",
      "avatarUrl",
    ]);
  });

  it("keeps and overrides the other keys", () => {
    const fresh = propertiesOf(model, "NewAccount");
    expect([...fresh.keys()]).toEqual(["password", "recoveryCode", "displayName"]);
    expect(fresh.get("displayName")).toMatchObject({
      type: lit("anonymous"),
      declaredIn: "NewAccount",
    });
  });
});

describe("intersections", () => {
  const model = loadFixture("intersection");

  it("keeps the members in order, anonymous objects without an owner", () => {
    const type = definition(model, "OwnedStampedNote").type;
    expect(type.kind).toBe("intersection");
    if (type.kind !== "intersection") return;
    expect(type.members.slice(0, 2)).toEqual([ref("Stamp"), ref("Owner")]);
    expect(type.members[2]).toMatchObject({
      kind: "object",
      properties: [{ name: "text", declaredIn: null, optional: false }],
    });
  });

  it("reads an intersection as a property type", () => {
    expect(propertiesOf(model, "Holder").get("note")!.type).toMatchObject({
      kind: "intersection",
      members: [ref("Stamp"), { kind: "object" }],
    });
  });
});

describe("index signatures", () => {
  const model = loadFixture("index-signatures");
  const object = (name: string) => {
    const type = definition(model, name).type;
    if (type.kind !== "object") throw new Error("not an object");
    return type;
  };

  it("reads the key name, value type and owner", () => {
    expect(object("Labels").indexSignature).toEqual({
      keyName: "key",
      type: str,
      declaredIn: "Labels",
    });
    expect(object("Bag").indexSignature).toEqual({
      keyName: "key",
      type: { kind: "unknown" },
      declaredIn: "Bag",
    });
    expect(object("Counters")).toMatchObject({
      properties: [{ name: "total" }],
      indexSignature: { keyName: "counterName", type: { kind: "union", members: [int(), str] } },
    });
  });

  it("reads an index signature in an anonymous object", () => {
    expect(propertiesOf(model, "Extra").get("nested")!.type).toEqual({
      kind: "object",
      properties: [],
      indexSignature: { keyName: "key", type: { kind: "boolean" }, declaredIn: null },
    });
  });
});

describe("unions and literals", () => {
  it("reads unions of refs, primitives and arrays of unions", () => {
    const model = loadFixture("unions");
    expect(definition(model, "Shape").type).toEqual({
      kind: "union",
      members: [ref("Circle"), ref("Square")],
    });
    expect(definition(model, "Scalar").type).toEqual({
      kind: "union",
      members: [str, int(), { kind: "boolean" }, { kind: "null" }],
    });
    expect(propertiesOf(model, "Drawing").get("shapes")!.type).toEqual({
      kind: "array",
      items: { kind: "union", members: [ref("Circle"), ref("Square")] },
      minItems: null,
      maxItems: null,
    });
  });

  it("reads string, number (negative, fractional) and boolean literals", () => {
    const model = loadFixture("literals");
    const props = propertiesOf(model, "Switch");
    expect([...props.values()].map((p) => p.type)).toEqual([
      lit("switch"),
      lit(2),
      lit(true),
      lit(false),
      { kind: "union", members: [lit("low"), lit("medium"), lit("high")] },
      lit(-1),
      lit(0.5),
    ]);
    expect(definition(model, "Answer").type).toEqual({
      kind: "union",
      members: [lit("yes"), lit("no"), lit(42), lit(false)],
    });
  });
});

describe("constants and typeof", () => {
  const model = loadFixture("typeof-constants");

  it("reads exported constants: strings, negative numbers, `as const`, booleans", () => {
    expect(model.constants.map((c) => [c.name, c.value, c.internal, c.line])).toEqual([
      ["LATEST_PROTOCOL_VERSION", "2099-01-01", false, 2],
      ["JSONRPC_VERSION", "2.0", false, 4],
      ["GADGET_MISSING", -32042, false, 7],
      ["BELOW_ZERO", -5, false, 10],
      ["MAX_GADGETS", 7, false, 12],
      ["MODE", "strict", false, 14],
      ["DEBUG", false, true, 17],
    ]);
  });

  it("resolves `typeof CONST` to the constant's value, keeping its name", () => {
    expect(propertiesOf(model, "Envelope").get("jsonrpc")!.type).toEqual(
      lit("2.0", "JSONRPC_VERSION"),
    );
    expect(propertiesOf(model, "GadgetMissingError").get("code")!.type).toEqual(
      lit(-32042, "GADGET_MISSING"),
    );
  });

  it("finds the version constants by role", () => {
    expect(model.protocolVersion).toBe("2099-01-01");
    expect(model.jsonrpcVersion).toBe("2.0");
  });

  it("treats only constants in the JSON-RPC error range as error codes, with every definition using them", () => {
    expect(model.errorCodes).toEqual([
      {
        code: -32042,
        constant: "GADGET_MISSING",
        definitions: ["GadgetMissingError", "GadgetFailure"],
      },
    ]);
  });
});

describe("arrays, Record and nested objects", () => {
  it("reads T[], Array<T> and nested arrays alike", () => {
    const props = propertiesOf(loadFixture("arrays"), "Lists");
    const array = (items: TypeNode): TypeNode => ({
      kind: "array",
      items,
      minItems: null,
      maxItems: null,
    });
    expect(props.get("names")!.type).toEqual(array(str));
    expect(props.get("counts")!.type).toEqual(array(int()));
    expect(props.get("grid")!.type).toEqual(array(array(int())));
    expect(props.get("items")!.type).toEqual(array(ref("Item")));
    expect(props.get("mixed")!.type).toEqual(array({ kind: "union", members: [str, int()] }));
  });

  it("reads Record<string, T> as an object with an index signature, and inherits one from an alias", () => {
    const model = loadFixture("record");
    expect(propertiesOf(model, "Registry").get("entries")!.type).toEqual({
      kind: "object",
      properties: [],
      indexSignature: { keyName: "key", type: ref("Entry"), declaredIn: null },
    });
    expect(definition(model, "Annotated").type).toMatchObject({
      properties: [{ name: "name", declaredIn: "Annotated" }],
      indexSignature: { type: { kind: "unknown" }, declaredIn: null },
    });
  });

  it("reads nested object literals with docs and an empty object", () => {
    const config = propertiesOf(loadFixture("nested-objects"), "Config");
    const server = config.get("server")!.type;
    expect(server).toMatchObject({
      kind: "object",
      properties: [
        { name: "host", optional: false, declaredIn: null, line: 3 },
        { name: "port", optional: true, doc: { text: "Defaults to 8080." }, line: 5 },
        {
          name: "tls",
          type: {
            kind: "object",
            properties: [{ name: "enabled" }, { name: "certificate", optional: true }],
          },
        },
      ],
    });
    expect(config.get("empty")!.type).toEqual({
      kind: "object",
      properties: [],
      indexSignature: null,
    });
  });
});

describe("primitives", () => {
  it("maps every keyword", () => {
    const model = loadFixture("primitives");
    expect([...propertiesOf(model, "Primitives").values()].map((p) => [p.name, p.type])).toEqual([
      ["text", str],
      ["count", int()],
      ["flag", { kind: "boolean" }],
      ["nothing", { kind: "null" }],
      ["someObject", { kind: "nonPrimitive" }],
      ["whatever", { kind: "unknown" }],
      ["loose", { kind: "any" }],
    ]);
    expect(definition(model, "JustNull").type).toEqual({ kind: "null" });
    expect(definition(model, "Opaque").type).toEqual({ kind: "nonPrimitive" });
  });
});

describe("every fixture", () => {
  it.each(fixtureNames())(
    "gives a model for %s that is plain JSON (no undefined anywhere)",
    (name) => {
      const model = loadFixture(name);
      expect(JSON.parse(JSON.stringify(model))).toStrictEqual(model);
    },
  );
});

describe("constructs of real schema revisions", () => {
  it("reads `never` as the impossible type, an empty union", () => {
    const model = loadFixture("never");
    expect(definition(model, "Nothing").type).toEqual({ kind: "union", members: [] });
    const structured = propertiesOf(model, "TextOnly").get("structured")!;
    expect([structured.type, structured.optional]).toEqual([{ kind: "union", members: [] }, true]);
  });

  it("reads Record with a literal-or-string key as the named property plus an index signature", () => {
    const model = loadFixture("record-named-key");
    const hint = propertiesOf(model, "Hints").get("hint")!.type;
    expect(
      hint.kind === "object" && hint.properties.map((p) => [p.name, p.type, p.optional]),
    ).toEqual([["name", str, false]]);
    expect(hint.kind === "object" && hint.indexSignature?.type).toEqual(str);
    const sizes = propertiesOf(model, "Hints").get("sizes")!.type;
    expect(
      sizes.kind === "object" && [sizes.properties.map((p) => p.name), sizes.indexSignature],
    ).toEqual([["small", "large"], null]);
  });

  it("merges two declarations of one interface: members and bases of both, a repeated member once", () => {
    const model = loadFixture("merging");
    expect(model.definitions.map((d) => d.name)).toEqual(["Base", "Item"]);
    const item = definition(model, "Item");
    expect(item.heritage).toEqual([{ name: "Base", omit: [] }]);
    expect(
      [...propertiesOf(model, "Item").values()].map((p) => [p.name, p.declaredIn, p.optional]),
    ).toEqual([
      ["id", "Base", false],
      ["name", "Item", false],
      ["size", "Item", true],
    ]);
    expect([item.doc.text, item.line]).toEqual(["The first declaration.", 6]);
  });

  it("keeps `readonly` as a fact of the property, also inside anonymous object types", () => {
    const model = loadFixture("readonly");
    const props = propertiesOf(model, "Point");
    expect([props.get("x")!.readonly, props.get("y")!.readonly]).toEqual([true, false]);
    const bounds = props.get("bounds")!.type;
    expect(bounds.kind === "object" && bounds.properties[0]!.readonly).toBe(true);
  });

  it("reads the library's Date as schema.json does, a date-time string", () => {
    expect(propertiesOf(loadFixture("date"), "Stamped").get("lastModified")!.type).toEqual({
      kind: "string",
      format: "date-time",
    });
  });

  it("skips stray top-level semicolons", () => {
    expect(loadFixture("empty-statement").definitions.map((d) => d.name)).toEqual([
      "First",
      "Second",
    ]);
  });
});
