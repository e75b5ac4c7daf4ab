import fc from "fast-check";
import { clone, isPlainObject, setKey, type Json } from "./json-value.js";
import { schemaFacts } from "./mutation-pools.js";

/*
 * Seeds for the differential tests: values generated from a JSON Schema, mostly valid, with near
 * misses at the leaves (test/helpers/mutate.ts then mutates them).
 */

type Schema = { [key: string]: unknown };

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
