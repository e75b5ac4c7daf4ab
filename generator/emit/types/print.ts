import type {
  Constant,
  Definition,
  Doc,
  Heritage,
  IndexSignature,
  ObjectType,
  Property,
  TypeNode,
} from "../../ir/model.js";
import { jsdoc, key, literal, str } from "../code.js";

/**
 * Builders for the TypeScript text of `types.ts`: one function per construct, each returning code.
 * Every schema name, string and doc text goes through the quoting helpers of `../code.ts`.
 */

/**
 * A name used where TypeScript wants an identifier (a declaration, a reference, `typeof X`).
 * `key()` leaves identifiers bare and quotes anything else; a quoted result cannot stand here, so
 * it is an error rather than code that would mean something else.
 */
export function identifier(name: string): string {
  const printed = key(name);
  if (printed !== name)
    throw new Error(`mcp-gen types: ${str(name)} is not a valid TypeScript identifier`);
  return printed;
}

/** The lines of a JSDoc block for a doc: its text, a blank line, then each tag as `@name text`. */
export function docLines(doc: Doc): string[] {
  const lines: string[] = [];
  if (doc.text !== "") lines.push(doc.text);
  if (doc.text !== "" && doc.tags.length > 0) lines.push("");
  for (const tag of doc.tags)
    lines.push(tag.text === "" ? `@${tag.name}` : `@${tag.name} ${tag.text}`);
  return lines;
}

/** The JSDoc block for a doc (ending in a newline), or `""` when the doc is empty. */
export function docComment(doc: Doc): string {
  return jsdoc(docLines(doc));
}

function isEmptyDoc(doc: Doc): boolean {
  return doc.text === "" && doc.tags.length === 0;
}

/** How tightly the position a type is printed in binds, to know when it needs parentheses. */
const Precedence = {
  Union: 0,
  Intersection: 1,
  /** Array element position: anything but a single primary type needs parentheses. */
  Postfix: 2,
} as const;
type Precedence = (typeof Precedence)[keyof typeof Precedence];

/** TypeScript text for a type node. Object types keep their members' docs. */
export function typeText(type: TypeNode): string {
  return print(type, Precedence.Union);
}

function print(type: TypeNode, context: Precedence): string {
  switch (type.kind) {
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "unknown":
      return "unknown";
    case "any":
      return "any";
    case "nonPrimitive":
      return "object";
    case "literal":
      return type.constant !== null
        ? `typeof ${identifier(type.constant)}`
        : literalText(type.value);
    case "ref":
      return identifier(type.name);
    case "array":
      return `${print(type.items, Precedence.Postfix)}[]`;
    case "object":
      return objectText(type);
    case "union":
      return group(type.members, " | ", Precedence.Union, context);
    case "intersection":
      return group(type.members, " & ", Precedence.Intersection, context);
  }
}

function group(
  members: TypeNode[],
  separator: string,
  own: Precedence,
  context: Precedence,
): string {
  if (members.length === 0) return own === Precedence.Union ? "never" : "unknown";
  if (members.length === 1) return print(members[0]!, context);
  // A nested union (or intersection) keeps its parentheses, so the text has exactly the IR's tree.
  const inner = own === Precedence.Union ? Precedence.Intersection : Precedence.Postfix;
  const text = members.map((member) => print(member, inner)).join(separator);
  return context > own ? `(${text})` : text;
}

/** A literal value, as a literal type or a constant's initializer (`-1` is a valid literal type). */
function literalText(value: string | number | boolean): string {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new Error(`mcp-gen types: ${str(String(value))} cannot be written as a literal`);
  }
  return literal(value);
}

/**
 * An object literal type: `{}` without members; on one line (`{ a: T; b?: U }`) when no member has
 * docs; else one member per block, separated by blank lines as the schema writes them.
 */
export function objectText(type: ObjectType): string {
  if (type.properties.length === 0 && !type.indexSignature) return "{}";
  const members = memberLines(type.properties, type.indexSignature);
  if (type.properties.every((property) => isEmptyDoc(property.doc)))
    return `{ ${members.join("; ")} }`;
  return `{\n${members.join(";\n\n")};\n}`;
}

/** Each member's text, with its doc, without the `;` that ends it. */
function memberLines(
  properties: readonly Property[],
  indexSignature: IndexSignature | null,
): string[] {
  const lines = properties.map(propertyText);
  if (indexSignature)
    lines.push(`[${identifier(indexSignature.keyName)}: string]: ${typeText(indexSignature.type)}`);
  return lines;
}

/** A property signature with its doc, without the closing `;`. */
export function propertyText(property: Property): string {
  return `${docComment(property.doc)}${property.readonly ? "readonly " : ""}${key(property.name)}${property.optional ? "?" : ""}: ${typeText(property.type)}`;
}

/** One `extends` entry: `Base` or `Omit<Base, "a" | "b">`. */
export function heritageText(heritage: Heritage): string {
  if (heritage.omit.length === 0) return identifier(heritage.name);
  return `Omit<${identifier(heritage.name)}, ${heritage.omit.map(str).join(" | ")}>`;
}

/**
 * A definition, declared the way the schema declares it. An interface lists only the members it
 * declares itself, in source order; what it inherits comes through its `extends` clause.
 */
export function definitionText(definition: Definition): string {
  const doc = docComment(definition.doc);
  const name = identifier(definition.name);
  if (definition.declaration === "type")
    return `${doc}export type ${name} = ${typeText(definition.type)};\n`;
  const type = definition.type;
  if (type.kind !== "object") {
    throw new Error(
      `mcp-gen types: interface ${str(definition.name)} does not have an object type`,
    );
  }
  const own = type.properties
    .map((property, order) => ({ property, order }))
    .filter(({ property }) => property.declaredIn === definition.name)
    .sort((a, b) => a.property.line - b.property.line || a.order - b.order)
    .map(({ property }) => property);
  const ownIndex = type.indexSignature?.declaredIn === definition.name ? type.indexSignature : null;
  const heritage =
    definition.heritage.length > 0
      ? ` extends ${definition.heritage.map(heritageText).join(", ")}`
      : "";
  const members = memberLines(own, ownIndex);
  const separator = own.some((property) => !isEmptyDoc(property.doc)) ? ";\n\n" : ";\n";
  const body = members.length > 0 ? `${members.join(separator)};\n` : "";
  return `${doc}export interface ${name}${heritage} {\n${body}}\n`;
}

export function constantText(constant: Constant): string {
  return `${docComment(constant.doc)}export const ${identifier(constant.name)} = ${literalText(constant.value)};\n`;
}

/**
 * Every definition and constant, interleaved by source line as in the schema (definitions first on
 * a tie, which a well-formed schema never has).
 */
export function declarationsText(
  definitions: readonly Definition[],
  constants: readonly Constant[],
): string[] {
  const items = [
    ...definitions.map((definition, order) => ({
      line: definition.line,
      order,
      text: () => definitionText(definition),
    })),
    ...constants.map((constant, order) => ({
      line: constant.line,
      order: definitions.length + order,
      text: () => constantText(constant),
    })),
  ];
  items.sort((a, b) => a.line - b.line || a.order - b.order);
  return items.map((item) => item.text());
}
