import type { Target } from "../file.js";
import { runtimeFile } from "../file.js";

/**
 * The JSON Schema engine adapter asked for at generation, beside the runtime's engine interface
 * (`runtime/json-schema.ts`, which the server always has). Nothing without `--json-schema`: the
 * output then takes no dependency.
 */
export const jsonSchemaTarget: Target = {
  name: "json-schema",
  emit({ jsonSchema }) {
    if (!jsonSchema) return [];
    const name = `json-schema-${jsonSchema}.ts`;
    return [{ path: `runtime/${name}`, content: runtimeFile(name) }];
  },
};
