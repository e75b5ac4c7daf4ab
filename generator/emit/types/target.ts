import type { GeneratedFile } from "../file.js";
import { CodeFile } from "../code-file.js";
import type { Target } from "../file.js";
import { join, type Code } from "../code.js";
import { typesModule } from "../modules.js";
import { declarationsText } from "./print.js";
import { sharedTypes } from "./shared.js";

/**
 * `types.ts`: the schema's definitions and constants as TypeScript, declared as the schema declares
 * them (interfaces with their `extends` clauses, aliases, constants) with their JSDoc, in source order.
 * The file stands alone: it imports nothing, except that a legacy revision's re-exports from a newer
 * revision's `types.ts` in the same output (`ctx.newer`) the definitions it would print the same
 * (./shared.ts).
 */
export const typesTarget: Target = {
  name: "types",
  emit(ctx): GeneratedFile[] {
    const { definitions, constants } = ctx.model;
    const path = `${ctx.dir ?? ""}types.ts`;
    const file = new CodeFile(path);
    const newer = ctx.newer;
    const shared = newer ? sharedTypes(ctx.model, newer.model) : new Set<string>();
    const own = definitions.filter((d) => !shared.has(d.name));
    const declarations = declarationsText(own, constants);
    const from = newer ? typesModule(newer.dir).from : path;
    const reexports: Code[] = definitions
      .filter((d) => shared.has(d.name))
      .map((d) => file.use({ name: d.name, from, kind: "type" }));
    return [
      {
        path,
        content: file.render("types.ts.hbs", {
          declarations,
          reexports: reexports.length > 0 ? join(reexports) : null,
        }),
        entry: { platform: "portable" },
        description: "every type and constant of the schema, with its JSDoc",
      },
    ];
  },
};
