import type { Definition, ObjectType, TypeNode } from "../../ir/model.js";
import { access, code, ident, join, literal, nothing, pointerSegment, type Code } from "../code.js";

/**
 * Compiles IR types into straight-line JavaScript checks, one function per definition.
 *
 * Every check function takes the value and returns a boolean; nothing is allocated on success. On
 * failure the innermost check records a message and a JSON pointer relative to the value it was
 * given, and each caller prefixes its own segment while returning, so the full pointer is built only
 * on the failing path (`fail` and `within` in the validators template).
 *
 * Semantics are those of the official `schema.json` (as Ajv reads it): objects are open, an index
 * signature constrains only the keys not declared, `number` means integer unless the IR says not.
 */
export class ValidatorCompiler {
  /** Finished functions, in creation order. */
  readonly functions: Code[] = [];
  /** The template's helper functions the checks call, so that the file declares no unused ones. */
  readonly helpers = new Set<"fail" | "missing" | "within" | "pointer" | "union" | "isObject">();
  private readonly names = new Set<string>();

  /**
   * @param formatFunctions the format checker of each format, as code naming it (the target
   *   records the import of each one used)
   */
  constructor(private readonly formatFunctions: (format: string) => Code) {}

  /** The check function name of a definition. */
  static checkName(definition: string): Code {
    return ident(`check${definition}`);
  }

  /** Compiles a definition's check; returns the functions it added (the check and its helpers). */
  addDefinition(definition: Definition): Code[] {
    const start = this.functions.length;
    this.addFunction(ValidatorCompiler.checkName(definition.name), definition.type);
    return this.functions.slice(start);
  }

  private addFunction(name: Code, type: TypeNode): Code {
    this.names.add(String(name));
    const scope = new Scope();
    const body = this.statements(type, code`v`, { parts: [] }, scope, name);
    // `never` rejects without reading the value; strict consumers flag an unread parameter.
    const param = isNever(type) ? code`_v` : code`v`;
    this.functions.push(
      code`function ${name}(${param}: any): boolean {\n${lines(body)}\nreturn true;\n}`,
    );
    return name;
  }

  /** A fresh helper name derived from the function it is hoisted out of. */
  private helperName(owner: Code): Code {
    let n = 1;
    while (this.names.has(`${owner}_${n}`)) n++;
    const name = ident(`${owner}_${n}`);
    this.names.add(String(name));
    return name;
  }

  /** Statements that return false (after recording an error) when `value` does not match `type`. */
  private statements(type: TypeNode, value: Code, path: Path, scope: Scope, owner: Code): Code[] {
    const single = this.singleCheck(type, value, path);
    if (single) return [code`if (!${single.test}) return ${single.onFailure};`];
    switch (type.kind) {
      case "array":
        return this.arrayStatements(type, value, path, scope, owner);
      case "object":
        return this.objectStatements(type, value, path, scope, owner);
      case "intersection":
        return type.members.flatMap((member) => this.statements(member, value, path, scope, owner));
      case "union":
        return this.unionStatements(type.members, value, path, owner);
      default:
        throw new Error(`no check for ${type.kind}`);
    }
  }

  /** A check that is one test, with what to return when it fails; `null` for checks of several statements. */
  private singleCheck(
    type: TypeNode,
    value: Code,
    path: Path,
  ): { test: Code; onFailure: Code } | null {
    if (type.kind === "ref") {
      this.helpers.add("within");
      return {
        test: code`${ValidatorCompiler.checkName(type.name)}(${value})`,
        onFailure: code`within(${renderPath(path)})`,
      };
    }
    const leaf = this.leafCheck(type, value);
    return leaf && { test: code`(${leaf.test})`, onFailure: this.fail(path, leaf.message) };
  }

  /** A call recording a failure at `path` with a message. */
  private fail(path: Path, message: string): Code {
    this.helpers.add("fail");
    return code`fail(${renderPath(path)}, ${message})`;
  }

  /** A call recording that the object at `path` lacks a required property (the message is built on failure only). */
  private missing(path: Path, name: string): Code {
    this.helpers.add("missing").add("fail");
    return code`missing(${renderPath(path)}, ${name})`;
  }

  /** Checks that fit in one expression, with the message for their failure; `null` for the rest. */
  private leafCheck(type: TypeNode, v: Code): { test: Code; message: string } | null {
    switch (type.kind) {
      case "string": {
        if (type.format === null)
          return { test: code`typeof ${v} === "string"`, message: "must be string" };
        const checker = this.formatFunctions(type.format);
        return {
          test: code`typeof ${v} === "string" && ${checker}(${v})`,
          message: `must be string in format "${type.format}"`,
        };
      }
      case "number": {
        const tests = [
          type.integer ? code`Number.isInteger(${v})` : code`typeof ${v} === "number"`,
        ];
        const words = [type.integer ? "integer" : "number"];
        if (type.minimum !== null) {
          tests.push(code`${v} >= ${type.minimum}`);
          words.push(`>= ${type.minimum}`);
        }
        if (type.maximum !== null) {
          tests.push(code`${v} <= ${type.maximum}`);
          words.push(`<= ${type.maximum}`);
        }
        return { test: join(tests, code` && `), message: `must be ${words.join(" and ")}` };
      }
      case "boolean":
        return { test: code`typeof ${v} === "boolean"`, message: "must be boolean" };
      case "null":
        return { test: code`${v} === null`, message: "must be null" };
      case "unknown":
      case "any":
        return { test: ALWAYS, message: "" };
      case "nonPrimitive":
        this.helpers.add("isObject");
        return { test: code`isObject(${v})`, message: "must be object" };
      case "literal":
        return {
          test: code`${v} === ${literal(type.value)}`,
          message: `must be equal to ${String(literal(type.value))}`,
        };
      case "union": {
        // `never`: no value matches (schema.json says `not: {}`).
        if (isNever(type)) return { test: code`false`, message: "must NOT be valid" };
        const members = type.members.map((member) => this.leafCheck(member, v));
        if (members.some((m) => m === null)) return null;
        const tests = members.map((m) => m!.test);
        if (tests.includes(ALWAYS)) return { test: ALWAYS, message: "" };
        return {
          test: join(
            tests.map((t) => code`(${t})`),
            code` || `,
          ),
          message: `must be ${describeLeaves(type.members)}`,
        };
      }
      default:
        return null;
    }
  }

  private arrayStatements(
    type: Extract<TypeNode, { kind: "array" }>,
    value: Code,
    path: Path,
    scope: Scope,
    owner: Code,
  ): Code[] {
    const out = [code`if (!Array.isArray(${value})) return ${this.fail(path, "must be array")};`];
    if (type.minItems !== null) {
      out.push(
        code`if (${value}.length < ${type.minItems}) return ${this.fail(path, `must have at least ${type.minItems} items`)};`,
      );
    }
    if (type.maxItems !== null) {
      out.push(
        code`if (${value}.length > ${type.maxItems}) return ${this.fail(path, `must have at most ${type.maxItems} items`)};`,
      );
    }
    if (acceptsAll(type.items)) return out;
    const i = scope.name("i");
    const item = scope.name("x");
    const body = this.statements(
      type.items,
      item,
      { parts: [...path.parts, "/", { dynamic: i }] },
      scope,
      owner,
    );
    out.push(
      code`for (let ${i} = 0; ${i} < ${value}.length; ${i}++) {\nconst ${item} = ${value}[${i}];\n${lines(body)}\n}`,
    );
    return out;
  }

  private objectStatements(
    type: ObjectType,
    value: Code,
    path: Path,
    scope: Scope,
    owner: Code,
  ): Code[] {
    this.helpers.add("isObject");
    const out = [code`if (!isObject(${value})) return ${this.fail(path, "must be object")};`];
    for (const property of type.properties) {
      if (!property.optional) {
        out.push(
          code`if (${read(value, property.name)} === undefined) return ${this.missing(path, property.name)};`,
        );
      }
    }
    for (const property of type.properties) {
      if (acceptsAll(property.type)) continue;
      const propertyPath: Path = { parts: [...path.parts, `/${pointerSegment(property.name)}`] };
      if (isNever(property.type)) {
        // Present at all is wrong; nothing to read.
        out.push(
          code`if (${read(value, property.name)} !== undefined) return ${this.fail(propertyPath, "must NOT be valid")};`,
        );
        continue;
      }
      const local = scope.name("p");
      const assign = code`const ${local} = ${read(value, property.name)};`;
      // A required property was found present above; only an optional one may be absent.
      const single = property.optional
        ? this.singleCheck(property.type, local, propertyPath)
        : null;
      if (single) {
        out.push(
          code`${assign}\nif (${local} !== undefined && !${single.test}) return ${single.onFailure};`,
        );
        continue;
      }
      const body = this.statements(property.type, local, propertyPath, scope, owner);
      out.push(
        property.optional
          ? code`${assign}\nif (${local} !== undefined) {\n${lines(body)}\n}`
          : code`${assign}\n${lines(body)}`,
      );
    }
    const extra = type.indexSignature?.type;
    if (extra && !acceptsAll(extra)) {
      const k = scope.name("k");
      const declared = type.properties.map((p) => code`${k} !== ${p.name}`);
      const item = scope.name("x");
      this.helpers.add("pointer");
      const body = this.statements(
        extra,
        item,
        { parts: [...path.parts, "/", { dynamic: code`pointer(${k})` }] },
        scope,
        owner,
      );
      const guard = declared.length > 0 ? code`if (${join(declared, code` && `)}) ` : nothing;
      out.push(
        code`for (const ${k} in ${value}) ${guard}{\nconst ${item} = ${value}[${k}];\n${lines(body)}\n}`,
      );
    }
    return out;
  }

  /**
   * A union with non-trivial members: simple members are tested inline, the others become functions
   * of their own so the union is an `||` of expressions. On failure `union` re-runs the non-trivial
   * members and reports the error that got deepest, which for a tagged union is the error inside the
   * member the value meant to be.
   */
  private unionStatements(members: TypeNode[], value: Code, path: Path, owner: Code): Code[] {
    const tests: Code[] = [];
    const checks: Code[] = [];
    for (const member of members) {
      const leaf = this.leafCheck(member, value);
      if (leaf) {
        tests.push(code`(${leaf.test})`);
        continue;
      }
      const check =
        member.kind === "ref"
          ? ValidatorCompiler.checkName(member.name)
          : this.addFunction(this.helperName(owner), member);
      checks.push(check);
      tests.push(code`${check}(${value})`);
    }
    this.helpers.add("union").add("fail");
    return [
      code`if (!(${join(tests, code` || `)})) return union(${renderPath(path)}, ${value}, [${join(checks)}]);`,
    ];
  }
}

/**
 * Every name an object inherits (`constructor`, `toString`, `__proto__`, …): a property of that
 * name is read only when the value has it as its own, or an absent optional `toString` would be
 * the inherited function and fail its check, and an absent required `constructor` would pass.
 * (ECMA-262's `Object.prototype` with Annex B's; a test holds it to the running engine's.)
 */
const INHERITED: ReadonlySet<string> = new Set([
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
]);

/** The value of a property, `undefined` when the object does not hold it itself. */
function read(value: Code, name: string): Code {
  return INHERITED.has(name)
    ? code`(Object.hasOwn(${value}, ${name}) ? ${value}${access(name)} : undefined)`
    : code`${value}${access(name)}`;
}

/** The test that every value passes (`unknown`, `any`). */
const ALWAYS = code`true`;

/** Statements, one per line. */
const lines = (statements: readonly Code[]): Code => join(statements, code`\n`);

/** A JSON pointer under construction: static segments (data), and expressions for indices and keys. */
interface Path {
  parts: Array<string | { dynamic: Code }>;
}

function renderPath(path: Path): Code {
  const pieces: Code[] = [];
  let pending = "";
  for (const part of path.parts) {
    if (typeof part === "string") pending += part;
    else {
      if (pending) pieces.push(code`${pending}`);
      pending = "";
      pieces.push(part.dynamic);
    }
  }
  if (pending || pieces.length === 0) pieces.push(code`${pending}`);
  return join(pieces, code` + `);
}

const acceptsAll = (type: TypeNode): boolean => type.kind === "unknown" || type.kind === "any";

/** `never`: the empty union, which no value matches. */
const isNever = (type: TypeNode): boolean => type.kind === "union" && type.members.length === 0;

function describeLeaves(members: TypeNode[]): string {
  const words = members.map((m) => {
    if (m.kind === "literal") return String(literal(m.value));
    if (m.kind === "number") return m.integer ? "integer" : "number";
    if (m.kind === "nonPrimitive") return "object";
    return m.kind;
  });
  return [...new Set(words)].join(" or ");
}

/** Local variable names, unique within one generated function. */
class Scope {
  private counter = 0;
  name(prefix: string): Code {
    return ident(`${prefix}${this.counter++}`);
  }
}
