import { Node, SyntaxKind, type SourceFile } from "./ts-morph.js";
import type {
  Constant,
  Definition,
  Deprecation,
  Heritage,
  ObjectType,
  TypeNode,
} from "../ir/model.js";
import { GeneratorError } from "../errors.js";
import { categoryOf, hasTag, parseDeprecation, parseJsDoc } from "./jsdoc.js";
import { applyTagConstraints, convertMembers, convertType, docOf, fail } from "./types.js";
import { lineOf } from "./source.js";

/** Everything read from the declarations, before inheritance is resolved. */
export interface Declarations {
  definitions: Definition[];
  constants: Constant[];
  deprecations: Deprecation[];
}

/**
 * Reads every top-level statement. Exported interfaces, type aliases and constants become the model;
 * any other statement is a construct the generator does not understand, reported with its line.
 * An interface's `type` here holds its own members only; `inherit.ts` adds the inherited ones.
 */
export function readDeclarations(
  sourceFile: SourceFile,
  file: string,
  options: { integersByDefault?: boolean } = {},
): Declarations {
  const ctx = { file };
  const constants = readConstants(sourceFile, file);
  const values = new Map(constants.map((c) => [c.name, c.value] as const));
  const definitions: Definition[] = [];
  const deprecations: Deprecation[] = [];
  const statements = sourceFile.getStatements();
  const declared = new Set(
    statements.flatMap((s) =>
      Node.isInterfaceDeclaration(s) || Node.isTypeAliasDeclaration(s) ? [s.getName()] : [],
    ),
  );
  for (const statement of statements) {
    // A stray `;` between declarations is an empty statement: valid, and nothing to read.
    if (Node.isVariableStatement(statement) || Node.isEmptyStatement(statement)) continue;
    if (!Node.isInterfaceDeclaration(statement) && !Node.isTypeAliasDeclaration(statement)) {
      fail(
        ctx,
        statement,
        `unsupported top-level ${statement.getKindName()} \`${statement.getText().split("\n")[0]}\``,
      );
    }
    if (!statement.isExported()) fail(ctx, statement, `\`${statement.getName()}\` is not exported`);
    if (statement.getTypeParameters().length > 0)
      fail(ctx, statement, `unsupported generic declaration \`${statement.getName()}\``);
    const name = statement.getName();
    const doc = docOf(statement);
    const typeCtx = {
      file,
      constants: values,
      definition: name,
      deprecations,
      declared,
      ...options,
    };
    const deprecated = parseDeprecation(doc);
    if (deprecated) {
      deprecations.push({
        ...deprecated,
        target: { kind: "definition", definition: name },
        line: lineOf(statement),
      });
    }
    let type: TypeNode;
    let heritage: Heritage[] = [];
    if (Node.isInterfaceDeclaration(statement)) {
      type = convertMembers(statement.getMembers(), typeCtx, [], name);
      heritage = statement.getExtends().map((clause) => readHeritage(clause, file));
    } else {
      type = applyTagConstraints(
        convertType(statement.getTypeNodeOrThrow(), typeCtx, []),
        doc,
        ctx,
        statement,
      );
      readUnionMemberDeprecations(statement, name, deprecations);
    }
    const definition: Definition = {
      name,
      declaration: Node.isInterfaceDeclaration(statement) ? "interface" : "type",
      type,
      heritage,
      doc,
      category: categoryOf(doc),
      internal: hasTag(doc, "internal"),
      deprecated,
      line: lineOf(statement),
    };
    const earlier = definitions.find((d) => d.name === name);
    if (earlier && earlier.declaration === "interface" && definition.declaration === "interface")
      mergeInterface(earlier, definition, file);
    else definitions.push(definition);
  }
  return { definitions, constants, deprecations };
}

/**
 * Declaration merging: a second `interface` of the same name adds its members and bases to the
 * first, as TypeScript merges them. A property declared in both must have the same type there (else
 * the schema does not compile); the first declaration's doc and line stand for the merged one.
 */
function mergeInterface(into: Definition, from: Definition, file: string): void {
  const target = into.type as ObjectType;
  const source = from.type as ObjectType;
  for (const property of source.properties) {
    const existing = target.properties.find((p) => p.name === property.name);
    if (!existing) target.properties.push(property);
    else if (
      shapeKey(existing.type) !== shapeKey(property.type) ||
      existing.optional !== property.optional
    ) {
      throw new GeneratorError(
        `\`${into.name}.${property.name}\` is declared twice with different types`,
        file,
        property.line,
      );
    }
  }
  if (source.indexSignature) {
    if (
      target.indexSignature &&
      shapeKey(target.indexSignature.type) !== shapeKey(source.indexSignature.type)
    ) {
      throw new GeneratorError(
        `\`${into.name}\` has two different index signatures`,
        file,
        from.line,
      );
    }
    target.indexSignature ??= source.indexSignature;
  }
  for (const heritage of from.heritage) {
    if (!into.heritage.some((h) => h.name === heritage.name)) into.heritage.push(heritage);
  }
  if (into.doc.text === "" && into.doc.tags.length === 0) into.doc = from.doc;
  into.category ??= from.category;
  into.internal ||= from.internal;
  into.deprecated ??= from.deprecated;
}

/** A type as JSON without where it was written (lines, docs), so two spellings of one type compare equal. */
function shapeKey(type: TypeNode): string {
  return JSON.stringify(type, (key, value: unknown) =>
    key === "line" || key === "doc" || key === "declaredIn" ? undefined : value,
  );
}

function readConstants(sourceFile: SourceFile, file: string): Constant[] {
  const constants: Constant[] = [];
  for (const statement of sourceFile.getVariableStatements()) {
    const names = statement
      .getDeclarations()
      .map((d) => `\`${d.getName()}\``)
      .join(", ");
    if (!statement.isExported())
      fail({ file }, statement, `unsupported non-exported variable ${names}`);
    if (statement.getDeclarationKind() !== "const")
      fail({ file }, statement, `unsupported non-const variable ${names}`);
    const doc = docOf(statement);
    for (const declaration of statement.getDeclarations()) {
      const initializer = declaration.getInitializer();
      const value = initializer ? literalValue(initializer) : undefined;
      if (value === undefined)
        fail({ file }, declaration, `constant \`${declaration.getName()}\` is not a literal`);
      constants.push({
        name: declaration.getName(),
        value,
        doc,
        internal: hasTag(doc, "internal"),
        line: lineOf(declaration),
      });
    }
  }
  return constants;
}

function literalValue(node: Node): string | number | boolean | undefined {
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node))
    return node.getLiteralValue();
  if (Node.isNumericLiteral(node)) return node.getLiteralValue();
  if (Node.isTrueLiteral(node) || Node.isFalseLiteral(node)) return node.getLiteralValue();
  if (Node.isPrefixUnaryExpression(node) && node.getOperatorToken() === SyntaxKind.MinusToken) {
    const operand = node.getOperand();
    if (Node.isNumericLiteral(operand)) return -operand.getLiteralValue();
  }
  if (Node.isAsExpression(node) && node.getTypeNode()?.getText() === "const")
    return literalValue(node.getExpression());
  return undefined;
}

/** `extends Base` or `extends Omit<Base, "a" | "b">`. */
function readHeritage(clause: Node, file: string): Heritage {
  const withArgs = clause.asKindOrThrow(SyntaxKind.ExpressionWithTypeArguments);
  const name = withArgs.getExpression().getText();
  const args = withArgs.getTypeArguments();
  if (args.length === 0) return { name, omit: [] };
  const [base, keys] = args;
  if (
    name !== "Omit" ||
    args.length !== 2 ||
    !Node.isTypeReference(base!) ||
    base.getTypeArguments().length > 0
  ) {
    return fail({ file }, clause, `unsupported heritage clause \`${clause.getText()}\``);
  }
  const keyNodes = Node.isUnionTypeNode(keys!) ? keys.getTypeNodes() : [keys!];
  const omit = keyNodes.map((key) => {
    const literal = Node.isLiteralTypeNode(key) ? key.getLiteral() : null;
    if (!literal || !Node.isStringLiteral(literal))
      return fail({ file }, key, `unsupported Omit key \`${key.getText()}\``);
    return literal.getLiteralValue();
  });
  return { name: base.getTypeName().getText(), omit };
}

/**
 * A `@deprecated` JSDoc in front of one member of a union alias deprecates that member only. The
 * comment may stand before or after the member's `|`, on its own line or not, so the text between the
 * previous member (or the `=`) and this one is searched rather than the compiler's attached comments.
 */
function readUnionMemberDeprecations(
  statement: Node,
  definition: string,
  deprecations: Deprecation[],
): void {
  const union = statement.asKindOrThrow(SyntaxKind.TypeAliasDeclaration).getTypeNode();
  if (!union || !Node.isUnionTypeNode(union)) return;
  const text = statement.getSourceFile().getFullText();
  let from = union.getPos();
  for (const member of union.getTypeNodes()) {
    const docs = text.slice(from, member.getStart()).match(/\/\*\*[\s\S]*?\*\//g) ?? [];
    const last = docs[docs.length - 1];
    const note = last ? parseDeprecation(parseJsDoc(last)) : null;
    if (note) {
      deprecations.push({
        ...note,
        target: { kind: "unionMember", definition, member: member.getText() },
        line: lineOf(member),
      });
    }
    from = member.getEnd();
  }
}
