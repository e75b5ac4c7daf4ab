import fc from "fast-check";

/*
 * Inputs for the differential tests: values generated from a JSON Schema (seeds), and mutations of
 * JSON values aimed at what JSON Schema validation turns on (required and unknown properties, JSON
 * types, integers and bounds, formats, array lengths, literal discriminators, nesting, awkward keys).
 *
 * Everything here produces JSON values only: no `undefined`, NaN, ±Infinity, holes, functions or
 * prototypes other than Object.prototype / Array.prototype. Keys such as `__proto__` are always
 * created as own data properties (never through the `__proto__` setter).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: unknown };

/** Sets an own data property, also for keys like `__proto__` whose assignment would do something else. */
export function setKey(object: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A deep copy that keeps `__proto__` keys as own properties. */
export function clone<T extends Json>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => clone(item)) as T;
  if (value !== null && typeof value === "object") {
    const copy: { [key: string]: Json } = {};
    for (const key of Object.keys(value)) setKey(copy, key, clone(value[key]!));
    return copy as T;
  }
  return value;
}

/** Whether a value is a JSON value as this module promises (used by the tests as a guard). */
export function isJson(value: unknown): value is Json {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isJson(value[i])) return false;
    return true;
  }
  if (typeof value === "object") {
    if (Object.getPrototypeOf(value) !== Object.prototype) return false;
    return Object.keys(value).every((key) => isJson((value as Record<string, unknown>)[key]));
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Pools
// ---------------------------------------------------------------------------------------------

/** Strings near the formats the schema uses (uri, uri-template, byte) and other edge cases. */
export const STRINGS: readonly string[] = [
  "",
  " ",
  "x",
  "http://x",
  "https://example.com/a/b?c=d#e",
  "file:///tmp/a.txt",
  "urn:isbn:0451450523",
  "mailto:a@b.c",
  "x:",
  "a:b",
  "//example.com/a",
  "/relative/path",
  "not a uri",
  "http://exa mple.com",
  "http://[::1]:80/",
  "http://[:::1]/",
  "http://%zz",
  "{var}",
  "{+path}",
  "{a.b}",
  "{a,b*}",
  "file:///{path}",
  "{",
  "}",
  "{var",
  "a{b}c",
  "AAAA",
  "AA==",
  "AAA=",
  "A===",
  "YWJj",
  "YWJj\n",
  "!!!!",
  "bad base64 ==",
  "A",
  "AAAAA",
  "2025-06-18",
  "2026-07-28",
  "2.0",
  "1.0",
  "__proto__",
  "constructor",
  "a/b",
  "a~b",
  "~0~1",
  "\u0000",
  "\ud800",
  "é",
  "0",
  "-1",
  "true",
  "null",
];

/** Numbers around integer/number checks and the bounds the schema uses (0..1 priorities, etc.). */
export const NUMBERS: readonly number[] = [
  0,
  -0,
  1,
  -1,
  2,
  0.5,
  -0.5,
  1.5,
  0.1,
  0.9999999,
  1.0000001,
  100,
  101,
  1000,
  -32700,
  -32600,
  -32601,
  -32602,
  -32603,
  -32000,
  -32001,
  -32002,
  -32042,
  -32768,
  -32769,
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  1e21,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  5e-324,
  1e-7,
  123.456,
];

/** Keys to add: awkward ones for objects and pointers, plus the schema's own property names. */
export const AWKWARD_KEYS: readonly string[] = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "",
  "a/b",
  "/",
  "~",
  "~0",
  "~1",
  "a~1b",
  "~01",
  "x",
  "0",
  "length",
  "extra",
];

/** Facts about a schema the mutations use: its literal strings (discriminators) and property names. */
export interface SchemaFacts {
  /** Every `const`/`enum` string value, e.g. methods, content types, roles. */
  literals: string[];
  /** Every `const`/`enum` number value, e.g. error codes. */
  numbers: number[];
  /** Every property name. */
  propertyNames: string[];
  /** Every `minimum`/`maximum`, and the numbers just inside and outside of them. */
  bounds: number[];
  /** Every `minItems`/`maxItems`, and one more and one less. */
  lengths: number[];
}

export function schemaFacts(schema: unknown): SchemaFacts {
  const literals = new Set<string>();
  const numbers = new Set<number>();
  const propertyNames = new Set<string>();
  const bounds = new Set<number>();
  const lengths = new Set<number>();
  const add = (value: unknown): void => {
    if (typeof value === "string") literals.add(value);
    else if (typeof value === "number") numbers.add(value);
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    const s = node as Schema;
    if ("const" in s) add(s["const"]);
    if (Array.isArray(s["enum"])) s["enum"].forEach(add);
    for (const key of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
      const bound = s[key];
      if (typeof bound === "number")
        for (const d of [0, -1, 1, -0.5, 0.5, -1e-9, 1e-9]) bounds.add(bound + d);
    }
    for (const key of ["minItems", "maxItems"]) {
      const length = s[key];
      if (typeof length === "number")
        for (const d of [0, -1, 1]) if (length + d >= 0) lengths.add(length + d);
    }
    for (const [key, child] of Object.entries(s)) {
      if (
        key === "const" ||
        key === "enum" ||
        key === "description" ||
        key === "default" ||
        key === "examples"
      )
        continue;
      if (key === "properties" && child && typeof child === "object") {
        for (const name of Object.keys(child)) propertyNames.add(name);
      }
      walk(child);
    }
  };
  walk(schema);
  return {
    literals: [...literals].sort(),
    numbers: [...numbers].sort((a, b) => a - b),
    propertyNames: [...propertyNames].sort(),
    bounds: [...bounds].sort((a, b) => a - b),
    lengths: [...lengths].sort((a, b) => a - b),
  };
}

// ---------------------------------------------------------------------------------------------
// Values generated from a JSON Schema
// ---------------------------------------------------------------------------------------------

/** Strings for each format the schema uses: valid ones, then near misses (mutations add more). */
const FORMAT_SAMPLES: Readonly<
  Record<string, { valid: readonly string[]; invalid: readonly string[] }>
> = {
  uri: {
    valid: [
      "https://example.com/resource",
      "file:///project/src/main.rs",
      "urn:x:y",
      "http://x",
      "mailto:a@b.c",
    ],
    invalid: ["not a uri", "", "/relative", "x:"],
  },
  "uri-template": {
    valid: ["file:///{path}", "https://example.com/{id}", "plain", "{+a,b*}"],
    invalid: ["{a.b}", "{", "a}"],
  },
  byte: { valid: ["aGVsbG8=", "AAAA", "YWI=", ""], invalid: ["!!!", "A===", "AAAAA"] },
};

/**
 * An arbitrary for each definition of a JSON Schema, producing values that are mostly (not always)
 * valid: required properties always, optional ones often, each union member. Now and then a leaf
 * is a near miss in its context: a number at or just past a `minimum`/`maximum` (or beside an
 * integer), an array of exactly `maxItems` items or one more, a string that misses its format,
 * another literal of the schema instead of a `const`. `$ref`s are followed to a bounded depth, past
 * which unions prefer members without references, objects keep only their required properties and
 * arrays stay empty.
 */
export function schemaArbitraries(
  schema: Schema,
  defsKey: string,
  maxDepth = 4,
): (name: string) => fc.Arbitrary<Json> {
  const defs = schema[defsKey] as Record<string, Schema>;
  const prefix = `#/${defsKey}/`;
  const cache = new Map<string, fc.Arbitrary<Json>>();
  const { literals } = schemaFacts(schema);

  const refName = (ref: string): string => {
    if (!ref.startsWith(prefix)) throw new Error(`unsupported $ref ${ref}`);
    return decodeURIComponent(ref.slice(prefix.length)).replace(/~1/g, "/").replace(/~0/g, "~");
  };

  const isRecursive = (node: Schema): boolean =>
    JSON.stringify(node).includes('"$ref"') ||
    node["type"] === "object" ||
    node["type"] === "array";

  const of = (node: unknown, depth: number): fc.Arbitrary<Json> => {
    if (node === true || node === undefined) return fc.constant(null).map(() => ({}));
    if (node === false) return fc.constant(null);
    const s = node as Schema;
    if (typeof s["$ref"] === "string") {
      const name = refName(s["$ref"]);
      const key = `${name}@${depth}`;
      let arb = cache.get(key);
      if (!arb) {
        // Built on first use, so recursive definitions only unfold as deep as values do.
        let inner: fc.Arbitrary<Json> | undefined;
        arb = fc.constant(null).chain(() => (inner ??= of(defs[name], depth - 1)));
        cache.set(key, arb);
      }
      return arb;
    }
    if ("const" in s) {
      // Now and then another literal of the schema in place of the expected one.
      const value = s["const"] as Json;
      const others = typeof value === "string" ? literals.filter((l) => l !== value) : [];
      return others.length > 0
        ? fc.oneof(
            { weight: 15, arbitrary: fc.constant(value) },
            { weight: 1, arbitrary: fc.constantFrom(...others) },
          )
        : fc.constant(value);
    }
    if (Array.isArray(s["enum"])) return fc.constantFrom(...(s["enum"] as Json[]));
    if (Array.isArray(s["allOf"])) {
      const parts = (s["allOf"] as unknown[]).map((part) => of(part, depth));
      return fc
        .tuple(...parts)
        .map((values) => values.reduce<Json>((merged, v) => mergeObjects(merged, v), {}));
    }
    if (Array.isArray(s["anyOf"]) || Array.isArray(s["oneOf"])) {
      const members = (s["anyOf"] ?? s["oneOf"]) as Schema[];
      const usable = depth > 0 ? members : members.filter((m) => !isRecursive(m));
      return fc.oneof(...(usable.length > 0 ? usable : members).map((m) => of(m, depth)));
    }
    const type = s["type"];
    if (Array.isArray(type)) return fc.oneof(...type.map((t) => of({ ...s, type: t }, depth)));
    switch (type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
      case "number": {
        const min = typeof s["minimum"] === "number" ? s["minimum"] : -1000;
        const max = typeof s["maximum"] === "number" ? s["maximum"] : 1000;
        const whole = fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
        // The bounds themselves, and near misses just outside them (or beside an integer).
        const edges = [
          ...(typeof s["minimum"] === "number" ? [min, min - 1, min - 0.5] : []),
          ...(typeof s["maximum"] === "number" ? [max, max + 1, max + 0.5] : []),
          ...(type === "integer" ? [min + 0.5, 2.5] : []),
        ];
        const inRange =
          type === "integer"
            ? whole
            : fc.oneof(
                whole,
                fc
                  .double({ min, max, noNaN: true, noDefaultInfinity: true })
                  .map((x) => (Object.is(x, -0) ? 0 : x)),
              );
        return edges.length > 0
          ? fc.oneof(
              { weight: 5, arbitrary: inRange },
              { weight: 1, arbitrary: fc.constantFrom(...edges) },
            )
          : inRange;
      }
      case "string": {
        const format = s["format"];
        if (typeof format === "string") {
          const samples = FORMAT_SAMPLES[format];
          if (!samples) throw new Error(`no samples for format ${format}`);
          return fc.oneof(
            { weight: 18, arbitrary: fc.constantFrom(...samples.valid) },
            { weight: 1, arbitrary: fc.constantFrom(...samples.invalid) },
            { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
          );
        }
        return fc.oneof(fc.constantFrom("x", "hello", ""), fc.string({ maxLength: 6 }));
      }
      case "array": {
        if (depth <= 0) return fc.constant([]);
        const items = of(s["items"], depth - 1);
        const short = fc.array(items, { maxLength: 3 });
        const maxItems = s["maxItems"];
        if (typeof maxItems !== "number") return short;
        // Arrays at the limit and one past it.
        const limit = (length: number) => fc.array(items, { minLength: length, maxLength: length });
        return fc.oneof(
          { weight: 6, arbitrary: short },
          { weight: 1, arbitrary: limit(maxItems) },
          { weight: 1, arbitrary: limit(maxItems + 1) },
        );
      }
      case "object":
      case undefined:
        return objectOf(s, depth);
      default:
        throw new Error(`unsupported type ${JSON.stringify(type)}`);
    }
  };

  const objectOf = (s: Schema, depth: number): fc.Arbitrary<Json> => {
    const properties = (s["properties"] ?? {}) as Record<string, Schema>;
    const required = new Set((s["required"] ?? []) as string[]);
    const record: Record<string, fc.Arbitrary<Json>> = {};
    for (const [name, property] of Object.entries(properties)) {
      if (!required.has(name) && depth <= 0) continue;
      record[name] = of(property, required.has(name) ? depth : depth - 1);
    }
    const base = fc.record(record, {
      requiredKeys: Object.keys(record).filter((name) => required.has(name)),
    });
    const additional = s["additionalProperties"];
    if (depth <= 0 || additional === false || additional === undefined)
      return base.map(toJsonObject);
    const extra = fc.dictionary(fc.constantFrom("k", "other", "a/b"), of(additional, depth - 1), {
      maxKeys: 2,
    });
    return fc.tuple(base, extra).map(([known, more]) => toJsonObject({ ...more, ...known }));
  };

  return (name) => {
    if (!(name in defs)) throw new Error(`no definition ${name}`);
    return of({ $ref: `${prefix}${name}` }, maxDepth + 1);
  };
}

function toJsonObject(record: Record<string, unknown>): Json {
  const object: { [key: string]: Json } = {};
  for (const key of Object.keys(record)) setKey(object, key, record[key] as Json);
  return object;
}

function mergeObjects(a: Json, b: Json): Json {
  if (!isPlainObject(a) || !isPlainObject(b)) return b;
  const merged = clone(a) as { [key: string]: Json };
  for (const key of Object.keys(b))
    setKey(merged, key, key in merged ? mergeObjects(merged[key]!, b[key]!) : b[key]!);
  return merged;
}

function isPlainObject(value: Json): value is { [key: string]: Json } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------------------------

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
