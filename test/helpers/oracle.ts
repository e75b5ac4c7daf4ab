import AjvModule from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { officialSchema } from "./spec.js";

/*
 * The oracle of the differential tests: Ajv + ajv-formats compiled from a revision's official
 * `schema.json`, with every definition reached through one shared root schema
 * (`root#/<defsKey>/<Name>`), so `$ref`s between definitions resolve exactly as they do for a
 * consumer of `schema.json`.
 *
 * `schema.json` is produced from `schema.ts` by typescript-json-schema and loses some of what
 * `schema.ts` says. Our validators follow `schema.ts`, so the oracle the tests compare against is
 * `schema.json` with the defects of KNOWN_DEFECTS repaired. Each entry is kept honest by the tests:
 * its witness must make the unpatched oracle disagree with our validators (or the entry is stale),
 * and the patched oracle must agree with them.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonSchema = { [key: string]: unknown };
type DefsKey = "$defs" | "definitions";

// Both packages are CommonJS; depending on the loader the default import is either the export
// itself or a namespace with `.default`.
const interop = <T>(m: unknown): T => ((m as { default?: unknown }).default ?? m) as T;
const Ajv = interop<typeof AjvModule.default>(AjvModule);
const Ajv2020 = interop<typeof Ajv2020Module.default>(Ajv2020Module);
const addFormats = interop<typeof addFormatsModule.default>(addFormatsModule);

// ---------------------------------------------------------------------------------------------
// Known defects of schema.json
// ---------------------------------------------------------------------------------------------

export interface KnownDefect {
  /** A short stable name. */
  id: string;
  /** What schema.ts says, what schema.json says instead, and why schema.ts wins. */
  summary: string;
  /** The revisions whose schema.json has the defect. */
  revisions: readonly string[];
  /**
   * Rewrites a deep copy of the revision's schema.json to what schema.ts says. Throws when the
   * schema does not have the expected (defective) shape, so a fixed or moved defect is noticed.
   */
  patch(schema: JsonSchema, defsKey: DefsKey, revision: string): void;
  /** A value schema.ts accepts (or rejects) for the definition, on which the unpatched oracle is wrong. */
  witness: { definition: string; value: Json; valid: boolean };
}

export const KNOWN_DEFECTS: readonly KnownDefect[] = [
  {
    id: "json-value-null",
    summary:
      "schema.ts: `type JSONValue = string | number | boolean | null | JSONObject | JSONArray` (no tags). " +
      "schema.json keeps `null` only where schema.ts tags `@nullable` (2025-11-25: `ttl: number | null` becomes " +
      "`type: [integer, null]`); JSONValue's untagged `null` is dropped: `anyOf: [JSONObject, JSONValue[], " +
      "{type: [string, integer, boolean]}]`. So `null`, and every JSONObject/JSONArray holding one (capabilities, " +
      "`_meta` values, …), is valid by schema.ts and invalid by schema.json. `number` stays `integer` (the schema's " +
      "number convention, which our validators share). The patch adds `null` to the primitive member.",
    revisions: ["2026-07-28", "draft"],
    patch(schema, defsKey, revision) {
      const jsonValue = definition(schema, defsKey, "JSONValue", revision);
      const members = jsonValue["anyOf"];
      const primitives = Array.isArray(members)
        ? (members as JsonSchema[]).find((m) =>
            sameJson(m, { type: ["string", "integer", "boolean"] }),
          )
        : undefined;
      if (!primitives) {
        throw new Error(
          `${revision}: JSONValue no longer has the {type: [string, integer, boolean]} member: ${JSON.stringify(jsonValue)}`,
        );
      }
      primitives["type"] = ["string", "integer", "boolean", "null"];
    },
    witness: { definition: "JSONValue", value: null, valid: true },
  },
];

function definition(
  schema: JsonSchema,
  defsKey: DefsKey,
  name: string,
  revision: string,
): JsonSchema {
  const found = (schema[defsKey] as Record<string, JsonSchema> | undefined)?.[name];
  if (!found) throw new Error(`${revision}: schema.json has no definition ${name}`);
  return found;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The defects of one revision's schema.json. */
export function defectsOf(revision: string): KnownDefect[] {
  return KNOWN_DEFECTS.filter((defect) => defect.revisions.includes(revision));
}

// ---------------------------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------------------------

export interface Oracle {
  revision: string;
  defsKey: DefsKey;
  /** The (patched, unless asked otherwise) schema.json the oracle was compiled from. */
  schema: JsonSchema;
  /** Every definition of schema.json, in its order. */
  names: string[];
  /** Ajv's verdict for a definition; compiled on first use. */
  validator(name: string): (value: unknown) => boolean;
  /** Ajv's errors for a value, as text (for failure messages). */
  explain(name: string, value: unknown): string;
}

/**
 * Ajv compiled from a revision's schema.json (`strict: false`, ajv-formats in full mode; the
 * 2020-12 dialect when the schema declares it, draft-07 otherwise). `patched` (the default) repairs
 * the revision's KNOWN_DEFECTS first.
 */
export function createOracle(revision: string, options: { patched?: boolean } = {}): Oracle {
  const { schema: original, defsKey } = officialSchema(revision);
  const schema = structuredClone(original) as JsonSchema;
  if (options.patched ?? true)
    for (const defect of defectsOf(revision)) defect.patch(schema, defsKey, revision);
  const is2020 = String(schema["$schema"] ?? "").includes("2020-12");
  const ajv = is2020 ? new Ajv2020({ strict: false }) : new Ajv({ strict: false });
  addFormats(ajv);
  ajv.addSchema(schema, "root");
  const names = Object.keys(schema[defsKey] as JsonSchema);
  const known = new Set(names);
  const compiled = (name: string) => {
    if (!known.has(name)) throw new Error(`${revision}: schema.json has no definition ${name}`);
    const validate = ajv.getSchema(`root#/${defsKey}/${name}`);
    if (!validate) throw new Error(`${revision}: Ajv cannot compile ${name}`);
    return validate;
  };
  const cache = new Map<string, (value: unknown) => boolean>();
  return {
    revision,
    defsKey,
    schema,
    names,
    validator(name) {
      let verdict = cache.get(name);
      if (!verdict) {
        const validate = compiled(name);
        verdict = (value) => validate(value) === true;
        cache.set(name, verdict);
      }
      return verdict;
    },
    explain(name, value) {
      const validate = compiled(name);
      return validate(value) === true ? "valid" : ajv.errorsText(validate.errors);
    },
  };
}
