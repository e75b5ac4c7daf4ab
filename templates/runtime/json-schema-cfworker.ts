/**
 * A JSON Schema engine over `@cfworker/json-schema`, which runs where code generation at run time
 * is not allowed (edge runtimes): the 2020-12 dialect by default, and the drafts the library knows
 * for schemas naming them. Emitted only when generation was asked for it
 * (`--json-schema cfworker`); the project then depends on `@cfworker/json-schema`.
 *
 * Nothing is ever fetched: the library resolves a `$ref` only inside the schema, and an
 * unresolvable one fails the check (the schema is refused, never treated as permissive).
 */
import { Validator, type Schema, type SchemaDraft } from "@cfworker/json-schema";
import type { JsonSchemaEngine, SchemaCheck } from "./json-schema.js";

const DIALECTS: ReadonlyArray<[RegExp, SchemaDraft]> = [
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, "2019-09"],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, "7"],
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, "4"],
];

export function cfworkerEngine(): JsonSchemaEngine {
  return {
    compile(schema): SchemaCheck {
      const dialect = schema.$schema;
      const draft =
        dialect === undefined
          ? "2020-12"
          : DIALECTS.find(([uri]) => typeof dialect === "string" && uri.test(dialect))?.[1];
      if (!draft) throw new Error(`unsupported JSON Schema dialect ${JSON.stringify(dialect)}`);
      const validator = new Validator(schema as Schema, draft, true);
      return (value) => {
        const result = validator.validate(value);
        if (result.valid) return { ok: true };
        // Errors run from the outermost ("a subschema had errors") inwards: the last is the cause.
        const cause = result.errors.at(-1);
        return {
          ok: false,
          errors: [
            {
              path: decodeURI((cause?.instanceLocation ?? "#").replace(/^#/, "")),
              message: cause?.error ?? "is invalid",
            },
          ],
        };
      };
    },
  };
}
