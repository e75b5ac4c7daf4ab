import type { GeneratedFile } from "../file.js";
import { CodeFile } from "../code-file.js";
import type { Target } from "../file.js";
import { declarationsText } from "./print.js";

/**
 * `types.ts`: the schema's definitions and constants as TypeScript, declared as the schema declares
 * them (interfaces with their `extends` clauses, aliases, constants) with their JSDoc, in source order.
 * The file stands alone: it imports nothing.
 */
export const typesTarget: Target = {
  name: "types",
  emit(ctx): GeneratedFile[] {
    const { definitions, constants } = ctx.model;
    const path = `${ctx.dir ?? ""}types.ts`;
    const file = new CodeFile(path);
    const declarations = declarationsText(definitions, constants);
    return [
      {
        path,
        content: file.render("types.ts.hbs", { declarations }),
        entry: { platform: "portable" },
        description: "every type and constant of the schema, with its JSDoc",
      },
    ];
  },
};
