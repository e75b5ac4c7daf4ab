import fc from "fast-check";
import { clone, isPlainObject, setKey, type Json } from "./json-value.js";
import { AWKWARD_KEYS, NUMBERS, STRINGS, type SchemaFacts } from "./mutation-pools.js";

/*
 * Mutations of JSON values for the differential tests, aimed at what JSON Schema validation turns
 * on (required and unknown properties, JSON types, integers and bounds, formats, array lengths,
 * literal discriminators, nesting, awkward keys). The values they start from are generated from the
 * schema (schema-arbitraries.ts); what they produce stays JSON (json-value.ts).
 */

export const MUTATION_KINDS = [
  "deleteProperty",
  "addProperty",
  "replaceType",
  "null",
  "number",
  "string",
  "formatString",
  "array",
  "swapLiteral",
  "nest",
  "protoKey",
  "awkwardKey",
  "graft",
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

/** One mutation: what to do, where (an index into the value's locations), and which variant. */
export interface Mutation {
  kind: MutationKind;
  where: number;
  pick: number;
}

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom(...MUTATION_KINDS),
  where: fc.nat(),
  pick: fc.nat(),
});

type Location = { parent: { [key: string]: Json } | Json[]; key: string | number } | null;

const at = (root: Json, location: Location): Json =>
  location === null ? root : (location.parent as Record<string | number, Json>)[location.key]!;

/** The values a kind of mutation is about; the others it would only replace wholesale. */
const TARGETS: Readonly<Record<MutationKind, ((value: Json) => boolean) | null>> = {
  deleteProperty: null,
  addProperty: isPlainObject,
  replaceType: (v) => v === null || typeof v !== "object",
  null: null,
  number: (v) => typeof v === "number",
  string: (v) => typeof v === "string",
  formatString: (v) => typeof v === "string",
  array: Array.isArray,
  swapLiteral: (v) => typeof v === "string" || typeof v === "number",
  nest: null,
  protoKey: isPlainObject,
  awkwardKey: isPlainObject,
  graft: null,
};

/** Every location in a value, root first (`null`), in pre-order. */
function locations(value: Json): Location[] {
  const out: Location[] = [null];
  const walk = (node: Json): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        out.push({ parent: node, key: index });
        walk(item);
      });
    } else if (isPlainObject(node)) {
      for (const key of Object.keys(node)) {
        out.push({ parent: node, key });
        walk(node[key]!);
      }
    }
  };
  walk(value);
  return out;
}

const pickFrom = <T>(items: readonly T[], n: number): T => items[n % items.length]!;

/**
 * Applies mutations in order to a copy of `value`; `donors` are values that `graft` may insert
 * (other seeds). The input is never modified.
 */
export function mutate(
  value: Json,
  mutations: readonly Mutation[],
  facts: SchemaFacts,
  donors: readonly Json[],
): Json {
  let root = clone(value);
  for (const mutation of mutations) root = mutateOnce(root, mutation, facts, donors);
  return root;
}

/**
 * The values to check for one seed: the seed itself, each mutation applied alone to it (one
 * constraint probed at a time), and all of them applied in turn. Independent copies; the seed is
 * never modified.
 */
export function mutationFamily(
  seed: Json,
  mutations: readonly Mutation[],
  facts: SchemaFacts,
  donors: readonly Json[],
): Json[] {
  const singles = mutations.map((mutation) => mutateOnce(clone(seed), mutation, facts, donors));
  return [
    seed,
    ...singles,
    ...(mutations.length > 1 ? [mutate(seed, mutations, facts, donors)] : []),
  ];
}

function mutateOnce(
  root: Json,
  { kind, where, pick }: Mutation,
  facts: SchemaFacts,
  donors: readonly Json[],
): Json {
  const all = locations(root);
  if (kind === "deleteProperty") {
    // Any property or item, chosen among all of them: the deepest ones are as likely as the root's.
    const members = all.filter((location) => location !== null);
    if (members.length === 0) return null;
    const { parent, key } = pickFrom(members, where)!;
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
    return root;
  }
  // Aim at the values the mutation is about (numbers for `number`, …) when the value has any;
  // `replaceType` hits leaves half the time and any value (objects, arrays) the other half.
  const target = kind === "replaceType" && pick % 2 === 1 ? null : TARGETS[kind];
  const aimed = target ? all.filter((location) => target(at(root, location))) : all;
  const location = pickFrom(aimed.length > 0 ? aimed : all, where);
  const current = at(root, location);
  const replaced = mutateValue(current, kind, pick, facts, donors);
  if (location === null) return replaced;
  if (Array.isArray(location.parent)) location.parent[location.key as number] = replaced;
  else setKey(location.parent, location.key as string, replaced);
  return root;
}

/** Other JSON types, for `replaceType`: one of each kind, including empty containers. */
const OTHER_TYPES: readonly Json[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  0.5,
  "",
  "x",
  [],
  {},
  [null],
  { x: 1 },
];

/** A fresh copy of a pool value: pools are shared, values are mutated in place later. */
const fresh = <T extends Json>(items: readonly T[], n: number): T => clone(pickFrom(items, n));

function mutateValue(
  current: Json,
  kind: MutationKind,
  pick: number,
  facts: SchemaFacts,
  donors: readonly Json[],
): Json {
  const variant = Math.floor(pick / 7);
  switch (kind) {
    case "deleteProperty":
      return current; // done by mutateOnce, which needs the parent
    case "addProperty": {
      if (!isPlainObject(current))
        return { [pickFrom(facts.propertyNames, pick)]: fresh(OTHER_TYPES, variant) };
      const key =
        pick % 3 === 0 ? pickFrom(AWKWARD_KEYS, variant) : pickFrom(facts.propertyNames, pick);
      setKey(
        current,
        key,
        fresh([...OTHER_TYPES, ...STRINGS.slice(0, 8), ...NUMBERS.slice(0, 8)], variant),
      );
      return current;
    }
    case "replaceType":
      return fresh(OTHER_TYPES, pick);
    case "null":
      return null;
    case "number": {
      if (typeof current !== "number") return pickFrom(NUMBERS, pick);
      const candidates = [
        current + 0.5,
        -current,
        current - 1,
        current + 1,
        -1,
        current * 1e6,
        current / 3,
        pickFrom(NUMBERS, variant),
        pickFrom(facts.numbers.length ? facts.numbers : NUMBERS, variant),
        // The schema's bounds and their neighbours, often: they are where checks differ.
        ...[0, 1, 2, 3].map((k) =>
          pickFrom(facts.bounds.length ? facts.bounds : NUMBERS, variant + k * 5),
        ),
      ];
      const next = pickFrom(candidates, pick);
      return Number.isFinite(next) ? next : 0;
    }
    case "string": {
      if (typeof current !== "string") return pickFrom(STRINGS, pick);
      const candidates = [
        "",
        current + " ",
        " " + current,
        current.slice(1),
        current.toUpperCase(),
        current + "/",
        `${current}{x}`,
        current + "=",
        current.slice(0, -1),
      ];
      return pickFrom(candidates, pick);
    }
    case "formatString":
      return pickFrom(STRINGS, pick);
    case "array": {
      if (!Array.isArray(current)) return pick % 2 === 0 ? [current] : [];
      const op = pick % 6;
      if (op === 0) return [];
      if (op === 1) {
        // Around the schema's minItems/maxItems: copies of the items (or of a pool value).
        const length = pickFrom(facts.lengths.length ? facts.lengths : [0, 1, 2], variant);
        const items = current.length > 0 ? current : [pickFrom(OTHER_TYPES, variant)];
        return Array.from({ length }, (_, i) => clone(items[i % items.length]!));
      }
      if (op === 5 && current.length > 0)
        return Array.from({ length: 101 }, (_, i) => clone(current[i % current.length]!));
      if (op === 2) return [...current, fresh(OTHER_TYPES, variant)];
      if (op === 3 && current.length > 0) return [...current, clone(current[current.length - 1]!)];
      return current.length > 0 ? current.slice(1) : [fresh(OTHER_TYPES, variant)];
    }
    case "swapLiteral": {
      if (typeof current === "number" && facts.numbers.length > 0)
        return pickFrom(facts.numbers, pick);
      return pickFrom(facts.literals, pick);
    }
    case "nest": {
      const op = pick % 4;
      if (op === 0) return [current];
      if (op === 1) return { [pickFrom(facts.propertyNames, variant)]: current };
      if (op === 2 && isPlainObject(current)) {
        // One level deeper: the object again, inside one of its own properties.
        const keys = Object.keys(current);
        const key = keys.length > 0 ? pickFrom(keys, variant) : "x";
        const copy = clone(current);
        setKey(current, key, copy);
        return current;
      }
      return { x: { y: [current] } };
    }
    case "protoKey": {
      const key = pickFrom(["__proto__", "constructor", "prototype"], pick);
      const value = fresh<Json>(
        [
          {},
          { x: 1 },
          null,
          "x",
          [],
          1,
          { polluted: true },
          donors.length ? pickFrom(donors, variant) : {},
        ],
        variant,
      );
      const target: { [key: string]: Json } = isPlainObject(current) ? current : {};
      setKey(target, key, value);
      return target;
    }
    case "awkwardKey": {
      const key = pickFrom(AWKWARD_KEYS, pick);
      if (isPlainObject(current)) {
        // Rename an existing property (keeps its value, loses its name), or add the key.
        const keys = Object.keys(current);
        if (keys.length > 0 && variant % 2 === 0) {
          const old = pickFrom(keys, variant);
          const moved = current[old]!;
          delete current[old];
          setKey(current, key, moved);
        } else setKey(current, key, fresh(OTHER_TYPES, variant));
        return current;
      }
      const object: { [key: string]: Json } = {};
      setKey(object, key, current);
      return object;
    }
    case "graft":
      return donors.length > 0 ? fresh(donors, pick) : current;
  }
}
