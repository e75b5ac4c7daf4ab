import type { GeneratedFile } from "../file.js";
import type { Target } from "../file.js";
import { code, ident, join, type Code } from "../code.js";
import { CodeFile } from "../code-file.js";
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
        content: new CodeFile("deprecations.ts").render("deprecations.ts.hbs", {
          entries: valueCode(registry),
        }),
        entry: { platform: "portable" },
        description:
          "the deprecation registry as a typed constant, with lookups by method, capability and definition",
      },
    ];
  },
};

/** A registry as a JavaScript literal: every string quoted, every key one of the registry's own fields. */
function valueCode(
  value: RegistryEntry[] | RegistryEntry | object | string | number | boolean | null,
): Code {
  if (value === null || typeof value !== "object") return code`${value}`;
  if (Array.isArray(value)) return code`[${join(value.map((v) => valueCode(v as object)))}]`;
  // Keys are the registry's own field names (identifiers), never schema data.
  return code`{ ${join(Object.entries(value).map(([k, v]) => code`${ident(k)}: ${valueCode(v as object)}`))} }`;
}
