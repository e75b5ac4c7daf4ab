/**
 * A JSON Schema engine over Ajv 8: the 2020-12 dialect by default (and for schemas naming it),
 * draft-07 for schemas naming that, formats from ajv-formats. Emitted only when generation was asked
 * for it (`--json-schema ajv`); the project then depends on `ajv` and `ajv-formats`.
 *
 * Nothing is ever fetched: Ajv compiles synchronously and resolves a `$ref` only among the schemas
 * it holds, so a reference outside the schema fails to compile and the schema is refused.
 */
import AjvModule from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonSchemaEngine, SchemaCheck } from "./json-schema.js";

// Both packages are CommonJS: depending on the loader, the default import is the export itself or
// a namespace holding it as `default`.
function interop<T>(m: unknown): T {
  return ((m as { default?: unknown }).default ?? m) as T;
}
const Ajv = interop<typeof AjvModule.default>(AjvModule);
const Ajv2020 = interop<typeof Ajv2020Module.default>(Ajv2020Module);
const addFormats = interop<typeof addFormatsModule.default>(addFormatsModule);

type AjvInstance = InstanceType<typeof Ajv> | InstanceType<typeof Ajv2020>;

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

export function ajvEngine(): JsonSchemaEngine {
  // `addUsedSchema: false`: schemas from different tools (or servers) may reuse an `$id`.
  const options = { strict: false, allErrors: false, addUsedSchema: false } as const;
  let modern: AjvInstance | undefined;
  let draft07: AjvInstance | undefined;
  const instanceFor = (dialect: unknown): AjvInstance => {
    if (dialect === undefined || (typeof dialect === "string" && DRAFT_2020_12.test(dialect)))
      return (modern ??= withFormats(new Ajv2020(options)));
    if (typeof dialect === "string" && DRAFT_07.test(dialect))
      return (draft07 ??= withFormats(new Ajv(options)));
    throw new Error(`unsupported JSON Schema dialect ${JSON.stringify(dialect)}`);
  };
  return {
    compile(schema): SchemaCheck {
      const validate = instanceFor(schema.$schema).compile(schema);
      return (value) => {
        if (validate(value)) return { ok: true };
        const first = validate.errors?.[0];
        return {
          ok: false,
          errors: [{ path: first?.instancePath ?? "", message: first?.message ?? "is invalid" }],
        };
      };
    },
  };
}

function withFormats<A extends AjvInstance>(ajv: A): A {
  addFormats(ajv);
  return ajv;
}
