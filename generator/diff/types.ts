import type { TypeNode } from "../ir/model.js";

/**
 * A type as one canonical string, for structural comparison: refs by name, object properties and
 * union/intersection members sorted, docs, lines and `declaredIn` left out. Two types are the same
 * for the diff exactly when their canonical strings are equal.
 */
export function typeText(type: TypeNode): string {
  switch (type.kind) {
    case "string":
      return type.format ? `string<${type.format}>` : "string";
    case "number": {
      const base = type.integer ? "integer" : "number";
      const bounds = [type.minimum !== null ? `>=${type.minimum}` : "", type.maximum !== null ? `<=${type.maximum}` : ""].filter(Boolean);
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
      return type.name;
    case "array": {
      const bounds = [type.minItems !== null ? `>=${type.minItems}` : "", type.maxItems !== null ? `<=${type.maxItems}` : ""].filter(Boolean);
      return `Array<${typeText(type.items)}>${bounds.length ? `(${bounds.join(",")})` : ""}`;
    }
    case "object": {
      const members = [...type.properties]
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map((p) => `${JSON.stringify(p.name)}${p.optional ? "?" : ""}: ${typeText(p.type)}`);
      if (type.indexSignature) members.push(`[key: string]: ${typeText(type.indexSignature.type)}`);
      return `{ ${members.join("; ")} }`;
    }
    case "union":
    case "intersection":
      if (type.members.length === 0) return type.kind === "union" ? "never" : "unknown";
      return [...new Set(type.members.map(typeText))].sort().join(type.kind === "union" ? " | " : " & ");
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
