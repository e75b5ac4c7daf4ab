import type { Target } from "../file.js";
import { RUNTIME_ADAPTERS, runtimeCopy } from "../runtime.js";

/**
 * The JSON Schema engine adapter asked for at generation, beside the runtime's engine interface
 * (`runtime/schema/json-schema.ts`, which the server always has). Nothing without `--json-schema`: the
 * output then takes no dependency.
 */
export const jsonSchemaTarget: Target = {
  name: "json-schema",
  emit({ jsonSchema }) {
    if (!jsonSchema) return [];
    return [runtimeCopy(RUNTIME_ADAPTERS[jsonSchema])];
  },
};
