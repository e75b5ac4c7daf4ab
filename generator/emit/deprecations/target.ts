import type { GeneratedFile } from "../file.js";
import { render } from "../file.js";
import type { Target } from "../index.js";
import { str } from "../code.js";
import type { RegistryEntry } from "../../registry/index.js";
import { registryOf } from "./registry-of.js";

/**
 * `deprecations.json` and `deprecations.ts`: the revision's deprecation registry (see
 * `generator/registry`), as data and as a typed constant with lookups by method, capability and
 * definition. A schema without `@deprecated` tags gets an empty registry.
 */
export const deprecationsTarget: Target = {
  name: "deprecations",
  emit(ctx): GeneratedFile[] {
    const registry = registryOf(ctx);
    return [
      {
        path: "deprecations.json",
        content: `${JSON.stringify(registry, null, 2)}\n`,
        description: "the deprecation registry as data: one entry per `@deprecated` tag",
      },
      {
        path: "deprecations.ts",
        content: render("deprecations.ts.hbs", { entries: valueCode(registry) }),
        entry: { platform: "portable" },
        description:
          "the deprecation registry as a typed constant, with lookups by method, capability and definition",
      },
    ];
  },
};

/** A registry as a JavaScript literal: every string through `str`, every key a fixed identifier. */
function valueCode(
  value: RegistryEntry[] | RegistryEntry | object | string | number | boolean | null,
): string {
  if (value === null) return "null";
  if (typeof value === "string") return str(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => valueCode(v as object)).join(", ")}]`;
  // Keys are the registry's own field names (identifiers), never schema data.
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${k}: ${valueCode(v as object)}`)
    .join(", ")} }`;
}
