import { Node, SyntaxKind, type JSDocableNode, type TypeNode as TsTypeNode } from "./ts-morph.js";
import type {
  Doc,
  Deprecation,
  DeprecationNote,
  DeprecationTarget,
  ObjectType,
  Property,
  TypeNode,
} from "../ir/model.js";
import { GeneratorError } from "../errors.js";
import { FORMAT_CHECKERS } from "../ir/formats.js";
import { LIBRARY_TYPES, NUMBERS_ARE_INTEGERS_BY_DEFAULT } from "../ir/conventions.js";
import { EMPTY_DOC, parseDeprecation, parseJsDoc } from "./jsdoc.js";
import { checkUnionMembers } from "./budget.js";
import { lineOf } from "./source.js";

/** What type conversion needs from the rest of the loader. */
export interface TypeContext {
  file: string;
  /** Values of the schema's constants, for `typeof CONSTANT`. */
  constants: ReadonlyMap<string, string | number | boolean>;
  /** The definition being read, for `declaredIn` and deprecation places. */
  definition: string;
  /** Collects every `@deprecated` tag met, with its place. */
  deprecations: Deprecation[];
  /** Every name the schema declares, so that a global such as `Date` is known to be the library's. */
  declared: ReadonlySet<string>;
  /** Whether `number` means integer (the spec's schema convention; default) or any number (tools files). */
  integersByDefault?: boolean;
}

export function fail(ctx: { file: string }, node: Node, message: string): never {
  throw new GeneratorError(message, ctx.file, lineOf(node));
}

/** The last JSDoc block attached to a node, parsed; an empty doc when there is none. */
export function docOf(node: Node): Doc {
  const docs = Node.isJSDocable(node) ? (node as unknown as JSDocableNode).getJsDocs() : [];
  const last = docs[docs.length - 1];
  if (last) return parseJsDoc(last.getText());
  const inline = inlineJsDoc(node);
  return inline ? parseJsDoc(inline) : EMPTY_DOC;
}

/**
 * A JSDoc block that opens on the line of the token before the node and runs up to the node on its
 * line (`{ a: string; /** @maxItems 3 *\/ b?: string[] }`). The compiler counts a comment on that
 * line as trailing the previous token and attaches it to nothing, yet its author meant the member
 * it stands in front of. A block followed by a line break is left alone: that one may trail the
 * previous member.
 */
function inlineJsDoc(node: Node): string | null {
  const trivia = node.getSourceFile().getFullText().slice(node.getPos(), node.getStart());
  let last: { text: string; end: number } | null = null;
  for (let i = 0; i < trivia.length;) {
    if (trivia.startsWith("//", i)) {
      const end = trivia.indexOf("\n", i);
      i = end === -1 ? trivia.length : end + 1;
    } else if (trivia.startsWith("/*", i)) {
      const end = trivia.indexOf("*/", i + 2);
      if (end === -1) return null;
      last = { text: trivia.slice(i, end + 2), end: end + 2 };
      i = end + 2;
    } else i++;
  }
  if (!last || !last.text.startsWith("/**") || last.text === "/**/") return null;
  return /^[ \t]*$/.test(trivia.slice(last.end)) ? last.text : null;
}

/** Converts a TypeScript type node; anything the IR cannot describe is an error naming its line. */
export function convertType(node: TsTypeNode, ctx: TypeContext, path: string[]): TypeNode {
  switch (node.getKind()) {
    case SyntaxKind.StringKeyword:
      return { kind: "string", format: null };
    case SyntaxKind.NumberKeyword:
      return {
        kind: "number",
        integer: ctx.integersByDefault ?? NUMBERS_ARE_INTEGERS_BY_DEFAULT,
        minimum: null,
        maximum: null,
      };
    case SyntaxKind.BooleanKeyword:
      return { kind: "boolean" };
    case SyntaxKind.NullKeyword:
      return { kind: "null" };
    case SyntaxKind.UnknownKeyword:
      return { kind: "unknown" };
    case SyntaxKind.AnyKeyword:
      return { kind: "any" };
    case SyntaxKind.ObjectKeyword:
      return { kind: "nonPrimitive" };
    case SyntaxKind.NeverKeyword:
      // The impossible type: a union of nothing, which no value matches.
      return { kind: "union", members: [] };
    case SyntaxKind.ParenthesizedType:
      return convertType(node.asKindOrThrow(SyntaxKind.ParenthesizedType).getTypeNode(), ctx, path);
    case SyntaxKind.LiteralType:
      return convertLiteral(node.asKindOrThrow(SyntaxKind.LiteralType), ctx);
    case SyntaxKind.TypeQuery:
      return convertTypeQuery(node.asKindOrThrow(SyntaxKind.TypeQuery), ctx);
    case SyntaxKind.ArrayType:
      return {
        kind: "array",
        items: convertType(
          node.asKindOrThrow(SyntaxKind.ArrayType).getElementTypeNode(),
          ctx,
          path,
        ),
        minItems: null,
        maxItems: null,
      };
    case SyntaxKind.UnionType: {
      const members = node.asKindOrThrow(SyntaxKind.UnionType).getTypeNodes();
      checkUnionMembers(members.length, ctx.file, lineOf(node));
      return { kind: "union", members: members.map((member) => convertType(member, ctx, path)) };
    }
    case SyntaxKind.IntersectionType:
      return {
        kind: "intersection",
        members: node
          .asKindOrThrow(SyntaxKind.IntersectionType)
          .getTypeNodes()
          .map((member) => convertType(member, ctx, path)),
      };
    case SyntaxKind.TypeLiteral:
      return convertMembers(
        node.asKindOrThrow(SyntaxKind.TypeLiteral).getMembers(),
        ctx,
        path,
        null,
      );
    case SyntaxKind.TypeReference:
      return convertReference(node.asKindOrThrow(SyntaxKind.TypeReference), ctx, path);
    default:
      return fail(
        ctx,
        node,
        `unsupported TypeScript construct: ${node.getKindName()} \`${node.getText()}\``,
      );
  }
}

function convertLiteral(node: Node, ctx: TypeContext): TypeNode {
  const literal = node.asKindOrThrow(SyntaxKind.LiteralType).getLiteral();
  if (Node.isStringLiteral(literal) || Node.isNoSubstitutionTemplateLiteral(literal)) {
    return { kind: "literal", value: literal.getLiteralValue(), constant: null };
  }
  if (Node.isNumericLiteral(literal))
    return { kind: "literal", value: literal.getLiteralValue(), constant: null };
  if (Node.isTrueLiteral(literal) || Node.isFalseLiteral(literal)) {
    return { kind: "literal", value: literal.getLiteralValue(), constant: null };
  }
  if (Node.isNullLiteral(literal)) return { kind: "null" };
  if (
    Node.isPrefixUnaryExpression(literal) &&
    literal.getOperatorToken() === SyntaxKind.MinusToken
  ) {
    const operand = literal.getOperand();
    if (Node.isNumericLiteral(operand))
      return { kind: "literal", value: -operand.getLiteralValue(), constant: null };
  }
  return fail(ctx, node, `unsupported literal type \`${node.getText()}\``);
}

function convertTypeQuery(node: Node, ctx: TypeContext): TypeNode {
  const name = node.asKindOrThrow(SyntaxKind.TypeQuery).getExprName().getText();
  const value = ctx.constants.get(name);
  if (value === undefined)
    return fail(ctx, node, `\`typeof ${name}\` does not name an exported constant`);
  return { kind: "literal", value, constant: name };
}

function convertReference(node: Node, ctx: TypeContext, path: string[]): TypeNode {
  const ref = node.asKindOrThrow(SyntaxKind.TypeReference);
  const name = ref.getTypeName().getText();
  const args = ref.getTypeArguments();
  if (args.length === 0) {
    const library = LIBRARY_TYPES[name];
    return library && !ctx.declared.has(name) ? structuredClone(library) : { kind: "ref", name };
  }
  if (name === "Record" && args.length === 2)
    return convertRecord(ref, args[0]!, args[1]!, ctx, path);
  if (name === "Array" && args.length === 1) {
    return {
      kind: "array",
      items: convertType(args[0]!, ctx, path),
      minItems: null,
      maxItems: null,
    };
  }
  return fail(ctx, node, `unsupported generic type \`${ref.getText()}\``);
}

/**
 * `Record<K, T>`: each string literal of `K` is a required property of type `T`, and `string` among
 * `K`'s members adds the index signature, as TypeScript's mapped type makes of it
 * (`Record<"name" | string, string>` is `{ name: string; [key: string]: string }`).
 */
function convertRecord(
  node: Node,
  key: TsTypeNode,
  value: TsTypeNode,
  ctx: TypeContext,
  path: string[],
): ObjectType {
  const keys = Node.isUnionTypeNode(key) ? key.getTypeNodes() : [key];
  const object: ObjectType = { kind: "object", properties: [], indexSignature: null };
  for (const member of keys) {
    const literal = Node.isLiteralTypeNode(member) ? member.getLiteral() : null;
    if (member.getKind() === SyntaxKind.StringKeyword) {
      object.indexSignature = {
        keyName: "key",
        type: convertType(value, ctx, path),
        declaredIn: null,
      };
    } else if (
      literal &&
      (Node.isStringLiteral(literal) || Node.isNoSubstitutionTemplateLiteral(literal))
    ) {
      const name = literal.getLiteralValue();
      if (object.properties.some((p) => p.name === name)) continue;
      object.properties.push({
        name,
        type: convertType(value, ctx, [...path, name]),
        optional: false,
        readonly: false,
        doc: EMPTY_DOC,
        deprecated: null,
        declaredIn: null,
        line: lineOf(member),
      });
    } else {
      fail(ctx, node, `unsupported Record key \`${member.getText()}\` in \`${node.getText()}\``);
    }
  }
  return object;
}

/**
 * Reads the members of an interface or object literal. `owner` is the interface declaring them
 * (`null` for an anonymous object type), recorded on each property as `declaredIn`.
 */
export function convertMembers(
  members: Node[],
  ctx: TypeContext,
  path: string[],
  owner: string | null,
): ObjectType {
  const object: ObjectType = { kind: "object", properties: [], indexSignature: null };
  for (const member of members) {
    if (Node.isPropertySignature(member)) {
      object.properties.push(convertProperty(member, ctx, path, owner));
    } else if (Node.isIndexSignatureDeclaration(member)) {
      if (member.getKeyTypeNode().getKind() !== SyntaxKind.StringKeyword) {
        fail(
          ctx,
          member,
          `unsupported index signature key type \`${member.getKeyTypeNode().getText()}\``,
        );
      }
      const typeNode = member.getReturnTypeNode();
      if (!typeNode) fail(ctx, member, "index signature without a type");
      object.indexSignature = {
        keyName: member.getKeyName(),
        type: convertType(typeNode, ctx, path),
        declaredIn: owner,
      };
    } else {
      fail(ctx, member, `unsupported member \`${member.getText().split("\n")[0]}\``);
    }
  }
  return object;
}

function convertProperty(
  member: Node,
  ctx: TypeContext,
  path: string[],
  owner: string | null,
): Property {
  const signature = member.asKindOrThrow(SyntaxKind.PropertySignature);
  const nameNode = signature.getNameNode();
  let name: string;
  if (Node.isIdentifier(nameNode)) name = nameNode.getText();
  else if (Node.isStringLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode))
    name = nameNode.getLiteralValue();
  else return fail(ctx, member, `unsupported property name \`${nameNode.getText()}\``);
  const typeNode = signature.getTypeNode();
  if (!typeNode) return fail(ctx, member, `property \`${name}\` has no type`);
  const doc = docOf(signature);
  const propertyPath = [...path, name];
  const type = applyTagConstraints(convertType(typeNode, ctx, propertyPath), doc, ctx, member);
  const deprecated = parseDeprecation(doc);
  const line = lineOf(signature);
  if (deprecated)
    ctx.deprecations.push({
      ...deprecated,
      target: propertyTarget(ctx.definition, propertyPath, type, deprecated),
      line,
    });
  return {
    name,
    type,
    optional: signature.hasQuestionToken(),
    readonly: signature.isReadonly(),
    doc,
    deprecated,
    declaredIn: owner,
    line,
  };
}

/**
 * A tag on a property deprecates the property, unless its first sentence quotes some (not all) of
 * the literal values the property's type allows: then only those values are deprecated.
 */
function propertyTarget(
  definition: string,
  path: string[],
  type: TypeNode,
  note: DeprecationNote,
): DeprecationTarget {
  const literals =
    type.kind === "union"
      ? type.members.flatMap((m) => (m.kind === "literal" ? [m.value] : []))
      : [];
  // Only the first sentence says what is deprecated; later ones may quote the replacement.
  const firstSentence = note.text.split(/\.\s/)[0] ?? "";
  const quoted = new Set([...firstSentence.matchAll(/"([^"]*)"/g)].map((match) => match[1]));
  const values = literals.filter((value) => quoted.has(String(value)));
  if (values.length > 0 && values.length < literals.length)
    return { kind: "literal", definition, path, values };
  return { kind: "property", definition, path };
}

/**
 * Folds the JSDoc tags that constrain values (`@format`, `@minimum`, …) into the type they apply to.
 * A constraint tag that fits no part of the type is an error, never silently dropped.
 */
export function applyTagConstraints(
  type: TypeNode,
  doc: Doc,
  ctx: { file: string },
  at: Node,
): TypeNode {
  let result = type;
  for (const written of doc.tags) {
    // `@format: uri` is a slip authors make for `@format uri`; the colon is not part of the value.
    const tag = { name: written.name, text: written.text.replace(/^:\s*/, "") };
    const apply = (kind: TypeNode["kind"], change: (node: TypeNode) => TypeNode): void => {
      let applied = false;
      result = mapTop(result, (node) => {
        if (node.kind !== kind) return node;
        applied = true;
        return change(node);
      });
      if (!applied) fail(ctx, at, `@${tag.name} does not apply to this type`);
    };
    const number = (): number => {
      const value = Number(tag.text);
      if (tag.text === "" || !Number.isFinite(value))
        fail(ctx, at, `@${tag.name} needs a number, got \`${tag.text}\``);
      return value;
    };
    switch (tag.name) {
      case "format":
        if (!Object.hasOwn(FORMAT_CHECKERS, tag.text)) {
          fail(
            ctx,
            at,
            `unsupported @format \`${tag.text}\` (supported: ${Object.keys(FORMAT_CHECKERS).join(", ")})`,
          );
        }
        apply("string", (node) => ({ ...node, format: tag.text }) as TypeNode);
        break;
      case "minimum":
        apply("number", (node) => ({ ...node, minimum: number() }) as TypeNode);
        break;
      case "maximum":
        apply("number", (node) => ({ ...node, maximum: number() }) as TypeNode);
        break;
      case "minItems":
        apply("array", (node) => ({ ...node, minItems: number() }) as TypeNode);
        break;
      case "maxItems":
        apply("array", (node) => ({ ...node, maxItems: number() }) as TypeNode);
        break;
      case "TJS-type":
        if (tag.text !== "number" && tag.text !== "integer")
          fail(ctx, at, `unsupported @TJS-type \`${tag.text}\``);
        apply("number", (node) => ({ ...node, integer: tag.text === "integer" }) as TypeNode);
        break;
      case "nullable":
        // Only a hint for schema.json's generator; the TypeScript type already says `| null`.
        if (!mapTopSome(result, (node) => node.kind === "null"))
          fail(ctx, at, "@nullable on a type without `null`");
        break;
      default:
        break;
    }
  }
  return result;
}

/** Applies `change` to the node itself, or to each member when it is a union. */
function mapTop(type: TypeNode, change: (node: TypeNode) => TypeNode): TypeNode {
  if (type.kind === "union")
    return { kind: "union", members: type.members.map((member) => mapTop(member, change)) };
  return change(type);
}

function mapTopSome(type: TypeNode, test: (node: TypeNode) => boolean): boolean {
  return type.kind === "union"
    ? type.members.some((member) => mapTopSome(member, test))
    : test(type);
}
