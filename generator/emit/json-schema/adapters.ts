/** The JSON Schema engines an adapter can be emitted for (`--json-schema`). No imports: the CLI reads it before loading any emitter. */
export const JSON_SCHEMA_ADAPTERS = ["ajv", "cfworker"] as const;
export type JsonSchemaAdapter = (typeof JSON_SCHEMA_ADAPTERS)[number];
