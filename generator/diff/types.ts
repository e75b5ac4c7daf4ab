import type { TypeNode } from "../ir/model.js";

/**
 * A type as one canonical string, for structural comparison: refs by name, object properties and
 * union/intersection members sorted, docs, lines and `declaredIn` left out. Two types are the same
 * for the diff exactly when their canonical strings are equal.
 */
export function typeText(type: TypeNode, resolve?: RefText, openObjects = false): string {
  const text = (node: TypeNode) => typeText(node, resolve, openObjects);
  switch (type.kind) {
    case "string":
      return type.format ? `string<${type.format}>` : "string";
    case "number": {
      const base = type.integer ? "integer" : "number";
      const bounds = [
        type.minimum !== null ? `>=${type.minimum}` : "",
        type.maximum !== null ? `<=${type.maximum}` : "",
      ].filter(Boolean);
      return bounds.length ? `${base}(${bounds.join(",")})` : base;
    }
    case "boolean":
    case "null":
    case "unknown":
    case "any":
      return type.kind;
    case "nonPrimitive":
      return "object";
    case "literal":
      // `typeof CONSTANT`: the constant's value changes are the constant's (or error code's) rules.
      return type.constant ? `typeof ${type.constant}` : JSON.stringify(type.value);
    case "ref":
      return resolve ? resolve(type.name) : type.name;
    case "array": {
      const bounds = [
        type.minItems !== null ? `>=${type.minItems}` : "",
        type.maxItems !== null ? `<=${type.maxItems}` : "",
      ].filter(Boolean);
      return `Array<${text(type.items)}>${bounds.length ? `(${bounds.join(",")})` : ""}`;
    }
    case "object": {
      // For shapes: an object that only says "any keys, any values" is any JSON object, as `object` is.
      const index = type.indexSignature ? text(type.indexSignature.type) : "unknown";
      if (openObjects && type.properties.length === 0 && (index === "unknown" || index === "any"))
        return "object";
      const members = [...type.properties]
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map((p) => `${JSON.stringify(p.name)}${p.optional ? "?" : ""}: ${text(p.type)}`);
      if (type.indexSignature) members.push(`[key: string]: ${text(type.indexSignature.type)}`);
      return `{ ${members.join("; ")} }`;
    }
    case "union":
    case "intersection":
      if (type.members.length === 0) return type.kind === "union" ? "never" : "unknown";
      return [...new Set(type.members.map(text))]
        .sort()
        .join(type.kind === "union" ? " | " : " & ");
  }
}

/** Splits a type into its literal members (as canonical text) and its other members (a union flattened one level). */
export function literalParts(type: TypeNode): { values: string[]; others: string[] } {
  const members = type.kind === "union" ? type.members : [type];
  const values: string[] = [];
  const others: string[] = [];
  for (const member of members) {
    if (member.kind === "literal") values.push(typeText(member));
    else others.push(typeText(member));
  }
  return { values: [...new Set(values)], others: [...new Set(others)].sort() };
}

/** How a ref is written in a canonical text: its name (the default), a new name, or its shape. */
export type RefText = (name: string) => string;

/**
 * Canonical text with every ref replaced by the shape it names, so that two types written with
 * different names (an extracted `MetaObject`, a renamed reference) compare equal exactly when their
 * values are the same. A ref met again inside itself stays a name (recursive types).
 *
 * `shapes` keeps each name's shape for later calls on the same model, with the names it expanded.
 * A shape is kept only when every ref it left as a name pointed back into itself, and it is reused
 * only where none of the names it expanded is being expanded: there it reads exactly as it would
 * worked out again. Without it, every call expands every definition it reaches again.
 */
export function shapeText(
  type: TypeNode,
  lookup: (name: string) => TypeNode | undefined,
  shapes?: KeptShapes,
): string {
  const expanding: string[] = [];
  const expanded: Array<Set<string>> = []; // per open expansion: the names expanded inside it
  let outermostCut = Infinity; // the shallowest open expansion a ref was left as a name for
  const resolve: RefText = (name) => {
    const known = shapes?.get(name);
    if (known && !expanding.some((open) => known.names.has(open))) {
      for (const inner of known.names) expanded.at(-1)?.add(inner);
      return known.text;
    }
    const target = lookup(name);
    if (!target) return name;
    const open = expanding.indexOf(name);
    if (open >= 0) {
      outermostCut = Math.min(outermostCut, open);
      return name;
    }
    if (isAnyJson(name, lookup)) return "unknown";
    const depth = expanding.push(name) - 1;
    const names = new Set([name]);
    expanded.push(names);
    const outer = outermostCut;
    outermostCut = Infinity;
    const text = typeText(target, resolve, true);
    expanding.pop();
    expanded.pop();
    if (outermostCut >= depth) shapes?.set(name, { text, names });
    outermostCut = Math.min(outer, outermostCut);
    for (const inner of names) expanded.at(-1)?.add(inner);
    return text;
  };
  return typeText(type, resolve, true);
}

/** Shapes worked out by shapeText, by definition name, with the names each expanded. */
export type KeptShapes = Map<string, { text: string; names: ReadonlySet<string> }>;

/**
 * Whether a definition is "any JSON value" spelled out (`JSONValue`): a union of string, number,
 * boolean, null, an array of itself and an object of itself, which accepts what `unknown` does.
 */
function isAnyJson(name: string, lookup: (name: string) => TypeNode | undefined): boolean {
  const type = lookup(name);
  if (type?.kind !== "union") return false;
  const self = (node: TypeNode | undefined): boolean => node?.kind === "ref" && node.name === name;
  const kinds = new Set<string>();
  for (const member of type.members) {
    const resolved = member.kind === "ref" ? lookup(member.name) : member;
    if (resolved?.kind === "array" && self(resolved.items)) kinds.add("array");
    else if (
      resolved?.kind === "object" &&
      resolved.properties.length === 0 &&
      self(resolved.indexSignature?.type)
    )
      kinds.add("object");
    else if (resolved && ["string", "number", "boolean", "null"].includes(resolved.kind))
      kinds.add(resolved.kind);
    else return false;
  }
  return kinds.size === 6;
}

/**
 * Whether `after` only adds members to `before`'s union (wider: readers break) or only drops some
 * (narrower: writers break); `null` for any other change. Arrays compare their items; a member naming
 * a union alias counts as that union's members. `renamed` writes `before`'s refs under their new names.
 */
export function unionChange(
  before: TypeNode,
  after: TypeNode,
  lookup: {
    from: (name: string) => TypeNode | undefined;
    to: (name: string) => TypeNode | undefined;
  },
  renamed?: RefText,
): "wider" | "narrower" | null {
  const accepts = (type: TypeNode) => type.kind === "unknown" || type.kind === "any";
  if (accepts(after) && !accepts(before)) return "wider";
  if (accepts(before) && !accepts(after)) return "narrower";
  // Any JSON object (`object`, `{ [key: string]: unknown }`) holds every value of an object shape.
  const anyObject = (type: TypeNode, find: (name: string) => TypeNode | undefined) =>
    isAnyObject(resolved(type, find));
  const shaped = (type: TypeNode, find: (name: string) => TypeNode | undefined) => {
    const object = resolved(type, find);
    return object.kind === "object" && !isAnyObject(object);
  };
  if (anyObject(before, lookup.from) && shaped(after, lookup.to)) return "narrower";
  if (shaped(before, lookup.from) && anyObject(after, lookup.to)) return "wider";
  if (before.kind === "array" && after.kind === "array") {
    const items = unionChange(before.items, after.items, lookup, renamed);
    if (items || typeText(before.items, renamed) !== typeText(after.items)) return items;
    // The same items: bounds tightened or loosened.
    const within = (outer: typeof before, inner: typeof before) =>
      (outer.minItems ?? 0) <= (inner.minItems ?? 0) &&
      (outer.maxItems ?? Infinity) >= (inner.maxItems ?? Infinity);
    return within(after, before) ? "wider" : within(before, after) ? "narrower" : null;
  }
  const members = (
    type: TypeNode,
    find: (name: string) => TypeNode | undefined,
    names?: RefText,
  ): Set<string> => {
    const out = new Set<string>();
    const add = (node: TypeNode, seen: Set<string>): void => {
      const target = node.kind === "ref" && !seen.has(node.name) ? find(node.name) : undefined;
      if (node.kind === "union") for (const member of node.members) add(member, seen);
      else if (node.kind === "ref" && target?.kind === "union")
        add(target, new Set([...seen, node.name]));
      else out.add(typeText(node, names));
    };
    add(type, new Set());
    return out;
  };
  const a = members(before, lookup.from, renamed);
  const b = members(after, lookup.to);
  if (a.size === b.size && [...a].every((m) => b.has(m))) return null;
  if ([...a].every((m) => b.has(m))) return "wider";
  if ([...b].every((m) => a.has(m))) return "narrower";
  return null;
}

/** A type with its refs followed to what they name (a ref to a ref too; a cycle stops at the ref). */
function resolved(type: TypeNode, find: (name: string) => TypeNode | undefined): TypeNode {
  const seen = new Set<string>();
  let node = type;
  while (node.kind === "ref" && !seen.has(node.name)) {
    seen.add(node.name);
    const target = find(node.name);
    if (!target) break;
    node = target;
  }
  return node;
}

/** `object`, or an object type without properties whose keys may hold any value: any JSON object. */
function isAnyObject(type: TypeNode): boolean {
  if (type.kind === "nonPrimitive") return true;
  if (type.kind !== "object" || type.properties.length > 0) return false;
  const values = type.indexSignature?.type.kind;
  return values === undefined || values === "unknown" || values === "any";
}
