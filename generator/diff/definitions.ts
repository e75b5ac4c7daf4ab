import type { ObjectType, Property, TypeNode } from "../ir/model.js";
import { CAPABILITY_TYPES, MEMBERSHIP_UNIONS } from "../ir/conventions.js";
import { counterparts, type Party } from "../registry/reach.js";
import { severityFor, type Change } from "./rules.js";
import { literalParts, typeText } from "./types.js";
import type { DiffContext } from "./context.js";

// Definitions, property by property: added, removed, optional or required, retyped, literal values.

const MEMBERSHIP_TYPES = new Set<string>([
  ...Object.keys(MEMBERSHIP_UNIONS),
  ...Object.values(MEMBERSHIP_UNIONS).flatMap((role) =>
    role.resultUnion ? [role.resultUnion] : [],
  ),
]);
const CAPABILITY_PARTY = new Map<string, Party>([
  [CAPABILITY_TYPES.client, "client"],
  [CAPABILITY_TYPES.server, "server"],
]);

export function definitions(c: DiffContext): void {
  for (const old of c.from.definitions) {
    const now = c.defs.to.get(old.name);
    const renamedTo = c.renames.get(old.name);
    if (renamedTo) {
      c.add(
        "definition-renamed",
        "non-breaking",
        old.name,
        `Definition ${old.name} renamed to ${renamedTo} (same shape)`,
        { from: old.name, to: renamedTo },
      );
      continue;
    }
    if (!now) {
      c.add(
        "definition-removed",
        severityFor(c.parties(old.name).all),
        old.name,
        `Definition ${old.name} removed`,
      );
      continue;
    }
    if (MEMBERSHIP_TYPES.has(old.name)) continue; // reported by the method rules
    c.changes.push(...definitionChanges(c, old.name, old.type, now.type));
  }
  const renameTargets = new Set(c.renames.values());
  for (const now of c.to.definitions) {
    if (!c.defs.from.has(now.name) && !renameTargets.has(now.name))
      c.add("definition-added", "non-breaking", now.name, `Definition ${now.name} added`);
  }
}

/** The changes of one definition, every inherited one left to the definition declaring it. */
function definitionChanges(
  c: DiffContext,
  name: string,
  before: TypeNode,
  after: TypeNode,
): Change[] {
  if (before.kind === "object" && after.kind === "object") {
    return objectChanges(c, name, [], before, after);
  }
  const literal = literalChanges(c, name, [], before, after);
  if (literal) return literal;
  if (c.equivalent(before, after)) return [];
  return [
    {
      ruleId: "definition-type-changed",
      severity: severityFor(c.typeChangeParties(before, after, c.parties(name))),
      location: name,
      message: `Type of ${name} changed`,
      from: typeText(before),
      to: typeText(after),
    },
  ];
}

export function objectChanges(
  c: DiffContext,
  definition: string,
  path: string[],
  before: ObjectType,
  after: ObjectType,
): Change[] {
  const out: Change[] = [];
  const names = [
    ...after.properties.map((p) => p.name),
    ...before.properties
      .map((p) => p.name)
      .filter((n) => !after.properties.some((p) => p.name === n)),
  ];
  for (const name of names) {
    const a = before.properties.find((p) => p.name === name) ?? null;
    const b = after.properties.find((p) => p.name === name) ?? null;
    let changes = propertyChanges(c, definition, [...path, name], a, b);
    // A message's own `params` is the method's params: the method rules report it, the
    // property rules only what changed inside an inline params object.
    if (path.length === 0 && name === "params" && c.messages.has(definition)) {
      changes = changes.filter((c) => c.location !== `${definition}.params`);
    }
    // Likewise a response wrapper's `result`: the method-results rule reports it.
    if (path.length === 0 && name === "result" && c.responses.has(definition)) {
      changes = changes.filter((c) => c.location !== `${definition}.result`);
    }
    if (changes.length === 0) continue;
    if (path.length === 0 && reportedByDeclarer(c, definition, name, a, b, changes)) continue;
    out.push(...changes);
  }
  const ia = before.indexSignature;
  const ib = after.indexSignature;
  const ta = ia ? typeText(ia.type) : "none";
  const tb = ib ? typeText(ib.type) : "none";
  // Objects are open: no index signature and one of `unknown` values accept the same.
  const open = (text: string) =>
    text === "none" || text === "unknown" || text === "any" ? "open" : text;
  const sameIndex = ia && ib ? c.equivalent(ia.type, ib.type) : open(ta) === open(tb);
  const inheritedIndex =
    path.length === 0 &&
    (ib ?? ia)?.declaredIn &&
    (ib ?? ia)!.declaredIn !== definition &&
    c.defs.from.has((ib ?? ia)!.declaredIn!);
  if (!sameIndex && !inheritedIndex) {
    const parties = c.parties(definition);
    out.push({
      ruleId: "property-type-changed",
      severity: severityFor(
        ia && ib ? c.typeChangeParties(ia.type, ib.type, parties) : parties.all,
      ),
      location: `${[definition, ...path].join(".")}[string]`,
      message: `Index signature of ${[definition, ...path].join(".")} changed`,
      from: ta,
      to: tb,
    });
  }
  return out;
}

/**
 * True when an inherited property's change is the change reported at the definition declaring it
 * (that definition exists in both revisions and changed the same way).
 */
function reportedByDeclarer(
  c: DiffContext,
  definition: string,
  name: string,
  a: Property | null,
  b: Property | null,
  changes: Change[],
): boolean {
  const declarer = (b ?? a)!.declaredIn;
  if (!declarer || declarer === definition) return false;
  const before = c.defs.from.get(declarer)?.type;
  const after = c.defs.to.get(declarer)?.type;
  if (before?.kind !== "object" || after?.kind !== "object") return false;
  const there = propertyChanges(
    c,
    declarer,
    [name],
    before.properties.find((p) => p.name === name) ?? null,
    after.properties.find((p) => p.name === name) ?? null,
  );
  const shape = (list: Change[], owner: string) =>
    JSON.stringify(list.map((c) => [c.ruleId, c.location.slice(owner.length), c.from, c.to]));
  return shape(there, declarer) === shape(changes, definition);
}

function propertyChanges(
  c: DiffContext,
  definition: string,
  path: string[],
  a: Property | null,
  b: Property | null,
): Change[] {
  const location = [definition, ...path].join(".");
  const parties = c.parties(definition);
  const capabilityParty = CAPABILITY_PARTY.get(definition);
  if (!a && b) {
    if (capabilityParty) {
      return [
        {
          ruleId: "capability-added",
          severity: b.optional ? "non-breaking" : severityFor([capabilityParty]),
          location,
          message: `${capabilityParty === "client" ? "Client" : "Server"} capability ${path.join(".")} added`,
          to: typeText(b.type),
        },
      ];
    }
    return [
      b.optional
        ? {
            ruleId: "property-added-optional",
            severity: "non-breaking",
            location,
            message: `Optional property ${location} added`,
            to: typeText(b.type),
          }
        : {
            ruleId: "property-added-required",
            severity: severityFor(parties.producers),
            location,
            message: `Required property ${location} added`,
            to: typeText(b.type),
          },
    ];
  }
  if (a && !b) {
    if (capabilityParty) {
      return [
        {
          ruleId: "capability-removed",
          severity: severityFor(counterparts([capabilityParty])),
          location,
          message: `${capabilityParty === "client" ? "Client" : "Server"} capability ${path.join(".")} removed`,
          from: typeText(a.type),
        },
      ];
    }
    return [
      {
        ruleId: "property-removed",
        severity: severityFor(parties.consumers),
        location,
        message: `Property ${location} removed`,
        from: typeText(a.type),
      },
    ];
  }
  if (!a || !b) return [];
  const out: Change[] = [];
  if (a.optional && !b.optional) {
    out.push({
      ruleId: "property-became-required",
      severity: severityFor(parties.producers),
      location,
      message: `Property ${location} became required`,
      from: "optional",
      to: "required",
    });
  } else if (!a.optional && b.optional) {
    out.push({
      ruleId: "property-became-optional",
      severity: severityFor(parties.consumers),
      location,
      message: `Property ${location} became optional`,
      from: "required",
      to: "optional",
    });
  }
  const inner = lookThrough(c, a.type, b.type);
  if (inner) {
    out.push(...objectChanges(c, definition, path, inner.before, inner.after));
    return out;
  }
  const literal = literalChanges(c, definition, path, a.type, b.type);
  if (literal) return [...out, ...literal];
  if (!c.equivalent(a.type, b.type)) {
    const severity = severityFor(c.typeChangeParties(a.type, b.type, parties));
    out.push({
      ruleId: "property-type-changed",
      severity,
      location,
      message: `Type of ${location} changed`,
      from: typeText(a.type),
      to: typeText(b.type),
    });
  }
  return out;
}

/**
 * The two object types to compare property by property: two inline objects, or an object moved
 * between inline and a named type (or from one name to another) — looked through, so that what
 * changed inside shows. Two refs to one name are compared where that definition is.
 */
export function lookThrough(
  c: DiffContext,
  before: TypeNode,
  after: TypeNode,
): { before: ObjectType; after: ObjectType } | null {
  if (before.kind === "ref" && after.kind === "ref" && c.renamed(before.name) === after.name)
    return null;
  const a = c.index.from.objectOf(before);
  const b = c.index.to.objectOf(after);
  return a && b ? { before: a, after: b } : null;
}

/** Literal values added or removed when that is all that changed (other members equal); `null` when it does not apply. */
function literalChanges(
  c: DiffContext,
  definition: string,
  path: string[],
  before: TypeNode,
  after: TypeNode,
): Change[] | null {
  const a = literalParts(before);
  const b = literalParts(after);
  if (
    a.values.length === 0 ||
    b.values.length === 0 ||
    JSON.stringify(a.others) !== JSON.stringify(b.others)
  )
    return null;
  const location = [definition, ...path].join(".");
  const parties = c.parties(definition);
  const added = b.values.filter((v) => !a.values.includes(v));
  const removed = a.values.filter((v) => !b.values.includes(v));
  const show = (values: string[]) => values.join(" | ");
  const out: Change[] = [];
  if (added.length) {
    out.push({
      ruleId: "literal-value-added",
      severity: severityFor(parties.consumers),
      location,
      message: `${location} accepts new value${added.length > 1 ? "s" : ""} ${show(added)}`,
      to: show(added),
    });
  }
  if (removed.length) {
    out.push({
      ruleId: "literal-value-removed",
      severity: severityFor(parties.producers),
      location,
      message: `${location} no longer accepts ${show(removed)}`,
      from: show(removed),
    });
  }
  return out;
}
