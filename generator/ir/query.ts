import type {
  Definition,
  Method,
  MethodRole,
  ObjectType,
  ProtocolModel,
  TypeNode,
} from "./model.js";

/**
 * Read-only questions about a model, shared by the loader's later passes, the emitters, the
 * registry and the diff, so that none of them walks types its own way.
 */
export class ModelIndex {
  readonly definitions: ReadonlyMap<string, Definition>;

  constructor(readonly model: Pick<ProtocolModel, "definitions">) {
    this.definitions = new Map(model.definitions.map((d) => [d.name, d] as const));
  }

  get(name: string): Definition | undefined {
    return this.definitions.get(name);
  }

  /** Follows refs and aliases to the object type a node stands for, or `null` if it is not one. */
  objectOf(type: TypeNode | null | undefined, seen = new Set<string>()): ObjectType | null {
    if (!type) return null;
    if (type.kind === "object") return type;
    if (type.kind === "ref" && !seen.has(type.name)) {
      seen.add(type.name);
      return this.objectOf(this.definitions.get(type.name)?.type, seen);
    }
    return null;
  }

  /** The names a type is a union of (a ref counts as a union of one), or `null` when not all are refs. */
  refMembers(type: TypeNode | null | undefined): string[] | null {
    if (!type) return null;
    if (type.kind === "ref") return [type.name];
    if (type.kind === "union" && type.members.every((m) => m.kind === "ref")) {
      return type.members.map((m) => (m as { name: string }).name);
    }
    return null;
  }

  /** Members of the union alias `name`, or `[]` when the schema has no such alias. */
  unionMembers(name: string): string[] {
    const definition = this.definitions.get(name);
    return (definition && this.refMembers(definition.type)) ?? [];
  }

  property(type: TypeNode | null | undefined, name: string) {
    return this.objectOf(type)?.properties.find((p) => p.name === name) ?? null;
  }
}

/** Calls `visit` on every node of a type tree, depth first, parents before children. */
export function walkType(type: TypeNode, visit: (node: TypeNode) => void): void {
  visit(type);
  switch (type.kind) {
    case "array":
      walkType(type.items, visit);
      break;
    case "object":
      for (const property of type.properties) walkType(property.type, visit);
      if (type.indexSignature) walkType(type.indexSignature.type, visit);
      break;
    case "union":
    case "intersection":
      for (const member of type.members) walkType(member, visit);
      break;
    default:
      break;
  }
}

/** A method in one of its roles: the view of code that thinks in wire messages (who sends what). */
export type MethodInRole = MethodRole & { method: string };

/** Every role of every method, in model order: a method with two roles appears twice. */
export function methodRoles(methods: readonly Method[]): MethodInRole[] {
  return methods.flatMap(({ method, roles }) => roles.map((role) => ({ method, ...role })));
}
