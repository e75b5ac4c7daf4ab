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
import { code, ident, join, jsdoc, key, literal, nothing, str, type Code } from "../code.js";

/**
 * Builders for the TypeScript of `types.ts`: one function per construct, each returning code.
 * Every schema name, string and doc text goes through the quoting helpers of `../code.ts`; a name
 * where TypeScript wants an identifier goes through `ident`, which refuses one that is not.
 */

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
export function docComment(doc: Doc): Code {
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
export function typeText(type: TypeNode): Code {
  return print(type, Precedence.Union);
}

function print(type: TypeNode, context: Precedence): Code {
  switch (type.kind) {
    case "string":
      return code`string`;
    case "number":
      return code`number`;
    case "boolean":
      return code`boolean`;
    case "null":
      return code`null`;
    case "unknown":
      return code`unknown`;
    case "any":
      return code`any`;
    case "nonPrimitive":
      return code`object`;
    case "literal":
      return type.constant !== null
        ? code`typeof ${ident(type.constant)}`
        : literalText(type.value);
    case "ref":
      return ident(type.name);
    case "array":
      return code`${print(type.items, Precedence.Postfix)}[]`;
    case "object":
      return objectText(type);
    case "union":
      return group(type.members, code` | `, Precedence.Union, context);
    case "intersection":
      return group(type.members, code` & `, Precedence.Intersection, context);
  }
}

function group(members: TypeNode[], separator: Code, own: Precedence, context: Precedence): Code {
  if (members.length === 0) return own === Precedence.Union ? code`never` : code`unknown`;
  if (members.length === 1) return print(members[0]!, context);
  // A nested union (or intersection) keeps its parentheses, so the text has exactly the IR's tree.
  const inner = own === Precedence.Union ? Precedence.Intersection : Precedence.Postfix;
  const text = join(
    members.map((member) => print(member, inner)),
    separator,
  );
  return context > own ? code`(${text})` : text;
}

/** A literal value, as a literal type or a constant's initializer (`-1` is a valid literal type). */
function literalText(value: string | number | boolean): Code {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new Error(
      `mcp-gen types: ${JSON.stringify(String(value))} cannot be written as a literal`,
    );
  }
  return literal(value);
}

/**
 * An object literal type: `{}` without members; on one line (`{ a: T; b?: U }`) when no member has
 * docs; else one member per block, separated by blank lines as the schema writes them.
 */
export function objectText(type: ObjectType): Code {
  if (type.properties.length === 0 && !type.indexSignature) return code`{}`;
  const members = memberLines(type.properties, type.indexSignature);
  if (type.properties.every((property) => isEmptyDoc(property.doc)))
    return code`{ ${join(members, code`; `)} }`;
  return code`{\n${join(members, code`;\n\n`)};\n}`;
}

/** Each member's text, with its doc, without the `;` that ends it. */
function memberLines(
  properties: readonly Property[],
  indexSignature: IndexSignature | null,
): Code[] {
  const lines = properties.map(propertyText);
  if (indexSignature)
    lines.push(code`[${ident(indexSignature.keyName)}: string]: ${typeText(indexSignature.type)}`);
  return lines;
}

/** A property signature with its doc, without the closing `;`. */
export function propertyText(property: Property): Code {
  const readonly = property.readonly ? code`readonly ` : nothing;
  const optional = property.optional ? code`?` : nothing;
  return code`${docComment(property.doc)}${readonly}${key(property.name)}${optional}: ${typeText(property.type)}`;
}

/** One `extends` entry: `Base` or `Omit<Base, "a" | "b">`. */
export function heritageText(heritage: Heritage): Code {
  if (heritage.omit.length === 0) return ident(heritage.name);
  return code`Omit<${ident(heritage.name)}, ${join(heritage.omit.map(str), code` | `)}>`;
}

/**
 * A definition, declared the way the schema declares it. An interface lists only the members it
 * declares itself, in source order; what it inherits comes through its `extends` clause.
 */
export function definitionText(definition: Definition): Code {
  const doc = docComment(definition.doc);
  const name = ident(definition.name);
  if (definition.declaration === "type")
    return code`${doc}export type ${name} = ${typeText(definition.type)};\n`;
  const type = definition.type;
  if (type.kind !== "object") {
    throw new Error(
      `mcp-gen types: interface ${JSON.stringify(definition.name)} does not have an object type`,
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
      ? code` extends ${join(definition.heritage.map(heritageText))}`
      : nothing;
  const members = memberLines(own, ownIndex);
  const separator = own.some((property) => !isEmptyDoc(property.doc)) ? code`;\n\n` : code`;\n`;
  const body = members.length > 0 ? code`${join(members, separator)};\n` : nothing;
  return code`${doc}export interface ${name}${heritage} {\n${body}}\n`;
}

export function constantText(constant: Constant): Code {
  return code`${docComment(constant.doc)}export const ${ident(constant.name)} = ${literalText(constant.value)};\n`;
}

/**
 * Every definition and constant, interleaved by source line as in the schema (definitions first on
 * a tie, which a well-formed schema never has).
 */
export function declarationsText(
  definitions: readonly Definition[],
  constants: readonly Constant[],
): Code[] {
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
