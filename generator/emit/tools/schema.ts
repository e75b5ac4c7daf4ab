import type { Definition, TypeNode } from "../../ir/model.js";
import { ModelIndex, walkType } from "../../ir/query.js";

export type JsonSchema = { [key: string]: unknown };

/** The dialect every emitted schema declares (the MCP default). */
export const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/**
 * A definition as a standalone JSON Schema 2020-12 document: the definition itself at the root, the
 * definitions it reaches under `$defs` (so every `$ref` stays inside the document), descriptions
 * from the JSDoc. The semantics are the compiled validators' (`validators/compile.ts`): objects are
 * open, an index signature constrains the undeclared keys (`additionalProperties`), `number` is an
 * integer when the model says so; the tools differential test holds the two to agreement.
 */
export function definitionSchema(index: ModelIndex, root: Definition): JsonSchema {
  const reached = new Map<string, Definition>();
  const visit = (type: TypeNode): void => {
    walk(type, (name) => {
      if (name === root.name || reached.has(name)) return;
      const definition = index.get(name);
      if (!definition) throw new Error(`unknown type ${name}`);
      reached.set(name, definition);
      visit(definition.type);
    });
  };
  visit(root.type);
  const toSchema = (type: TypeNode): JsonSchema => schemaOf(type, root.name);
  const schema: JsonSchema = { $schema: DIALECT, ...described(toSchema(root.type), root.doc.text) };
  if (reached.size > 0) {
    const names = [...reached.keys()].sort();
    schema.$defs = Object.fromEntries(
      names.map((name) => [
        name,
        described(toSchema(reached.get(name)!.type), reached.get(name)!.doc.text),
      ]),
    );
  }
  return schema;
}

function described(schema: JsonSchema, text: string): JsonSchema {
  return text ? { description: text, ...schema } : schema;
}

/** Calls `ref` for every definition a type refers to. */
function walk(type: TypeNode, ref: (name: string) => void): void {
  walkType(type, (node) => {
    if (node.kind === "ref") ref(node.name);
  });
}

function schemaOf(type: TypeNode, rootName: string): JsonSchema {
  const of = (node: TypeNode) => schemaOf(node, rootName);
  switch (type.kind) {
    case "string":
      return type.format === null ? { type: "string" } : { type: "string", format: type.format };
    case "number": {
      const schema: JsonSchema = { type: type.integer ? "integer" : "number" };
      if (type.minimum !== null) schema.minimum = type.minimum;
      if (type.maximum !== null) schema.maximum = type.maximum;
      return schema;
    }
    case "boolean":
      return { type: "boolean" };
    case "null":
      return { type: "null" };
    case "unknown":
    case "any":
      return {};
    case "nonPrimitive":
      return { type: "object" };
    case "literal":
      return { const: type.value };
    case "ref":
      return { $ref: type.name === rootName ? "#" : `#/$defs/${type.name}` };
    case "array": {
      const schema: JsonSchema = { type: "array", items: of(type.items) };
      if (type.minItems !== null) schema.minItems = type.minItems;
      if (type.maxItems !== null) schema.maxItems = type.maxItems;
      return schema;
    }
    case "object": {
      const schema: JsonSchema = { type: "object" };
      if (type.properties.length > 0)
        schema.properties = Object.fromEntries(
          type.properties.map((p) => [p.name, described(of(p.type), p.doc.text)]),
        );
      const required = type.properties.filter((p) => !p.optional).map((p) => p.name);
      if (required.length > 0) schema.required = required;
      if (type.indexSignature) schema.additionalProperties = of(type.indexSignature.type);
      return schema;
    }
    case "union":
      return type.members.every((m) => m.kind === "literal")
        ? { enum: type.members.map((m) => (m as { value: unknown }).value) }
        : { anyOf: type.members.map(of) };
    case "intersection":
      return { allOf: type.members.map(of) };
  }
}
