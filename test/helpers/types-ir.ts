import type {
  Constant,
  Definition,
  Doc,
  Heritage,
  ObjectType,
  ProtocolModel,
  Property,
  TypeNode,
} from "../../generator/ir/model.js";
import { IR_VERSION } from "../../generator/ir/model.js";

/*
 * Small builders for hand-made IR pieces, for the types emitter's unit tests. They produce exactly
 * what the loader would: interfaces hold every property (inherited ones included) with `declaredIn`.
 */

export const noDoc: Doc = { text: "", tags: [] };

export const doc = (text: string, ...tags: Array<[string, string]>): Doc => ({
  text,
  tags: tags.map(([name, tagText]) => ({ name, text: tagText })),
});

export const t = {
  string: (): TypeNode => ({ kind: "string", format: null }),
  number: (integer = true): TypeNode => ({ kind: "number", integer, minimum: null, maximum: null }),
  boolean: (): TypeNode => ({ kind: "boolean" }),
  null: (): TypeNode => ({ kind: "null" }),
  unknown: (): TypeNode => ({ kind: "unknown" }),
  any: (): TypeNode => ({ kind: "any" }),
  object: (): TypeNode => ({ kind: "nonPrimitive" }),
  literal: (value: string | number | boolean, constant: string | null = null): TypeNode => ({
    kind: "literal",
    value,
    constant,
  }),
  ref: (name: string): TypeNode => ({ kind: "ref", name }),
  array: (items: TypeNode): TypeNode => ({ kind: "array", items, minItems: null, maxItems: null }),
  union: (...members: TypeNode[]): TypeNode => ({ kind: "union", members }),
  intersection: (...members: TypeNode[]): TypeNode => ({ kind: "intersection", members }),
  record: (type: TypeNode, declaredIn: string | null = null): ObjectType => ({
    kind: "object",
    properties: [],
    indexSignature: { keyName: "key", type, declaredIn },
  }),
  literalObject: (properties: Property[], index: TypeNode | null = null): ObjectType => ({
    kind: "object",
    properties,
    indexSignature: index ? { keyName: "key", type: index, declaredIn: null } : null,
  }),
};

let nextLine = 1;

export function prop(
  name: string,
  type: TypeNode,
  options: {
    optional?: boolean;
    readonly?: boolean;
    doc?: Doc;
    declaredIn?: string | null;
    line?: number;
  } = {},
): Property {
  return {
    name,
    type,
    optional: options.optional ?? false,
    readonly: options.readonly ?? false,
    doc: options.doc ?? noDoc,
    deprecated: null,
    declaredIn: options.declaredIn ?? null,
    line: options.line ?? nextLine++,
  };
}

export function alias(
  name: string,
  type: TypeNode,
  options: { doc?: Doc; line?: number } = {},
): Definition {
  return {
    name,
    declaration: "type",
    type,
    heritage: [],
    doc: options.doc ?? noDoc,
    category: null,
    internal: false,
    deprecated: null,
    line: options.line ?? nextLine++,
  };
}

/** An interface; `properties` must already include inherited ones, as after the loader's inheritance pass. */
export function iface(
  name: string,
  properties: Property[],
  options: {
    heritage?: Heritage[];
    doc?: Doc;
    line?: number;
    index?: ObjectType["indexSignature"];
  } = {},
): Definition {
  return {
    name,
    declaration: "interface",
    type: { kind: "object", properties, indexSignature: options.index ?? null },
    heritage: options.heritage ?? [],
    doc: options.doc ?? noDoc,
    category: null,
    internal: false,
    deprecated: null,
    line: options.line ?? nextLine++,
  };
}

export function constant(
  name: string,
  value: string | number | boolean,
  options: { doc?: Doc; line?: number } = {},
): Constant {
  return {
    name,
    value,
    doc: options.doc ?? noDoc,
    internal: false,
    line: options.line ?? nextLine++,
  };
}

export function model(definitions: Definition[], constants: Constant[] = []): ProtocolModel {
  return {
    irVersion: IR_VERSION,
    revision: "test",
    source: { file: "schema.ts", sha256: "0".repeat(64) },
    protocolVersion: null,
    jsonrpcVersion: null,
    definitions,
    constants,
    errorCodes: [],
    methods: [],
    lifecycle: { kind: "unknown" },
    deprecations: [],
  };
}
