import type { Target } from "../index.js";
import type { GeneratedFile } from "../file.js";
import { key } from "../code.js";
import { render, runtimeFile } from "../file.js";
import { FORMAT_CHECKERS } from "../../ir/formats.js";
import { ValidatorCompiler } from "./compile.js";

/** `validators.ts`: `isN` and `validateN` for every definition, and `runtime/formats.ts` when used. */
export const validatorsTarget: Target = {
  name: "validators",
  emit({ model }) {
    const compiler = new ValidatorCompiler(FORMAT_CHECKERS);
    for (const definition of model.definitions) compiler.addDefinition(definition);
    const formatImports = [...compiler.formats]
      .sort()
      .map((f) => FORMAT_CHECKERS[f])
      .join(", ");
    const definitions = model.definitions.map((d) => ({
      name: d.name,
      key: key(d.name),
      check: ValidatorCompiler.checkName(d.name),
      deprecated: d.deprecated !== null,
    }));
    const helpers = Object.fromEntries(
      (["fail", "missing", "within", "pointer", "union", "isObject"] as const).map((name) => [
        name,
        compiler.helpers.has(name),
      ]),
    );
    const content = render("validators.ts.hbs", {
      functions: compiler.functions,
      definitions,
      formatImports,
      helpers,
    });
    const files: GeneratedFile[] = [
      {
        path: "validators.ts",
        content,
        entry: { platform: "portable" },
        description:
          "`isN(value)` and `validateN(value)` for every definition `N`, and `validators` by name; errors carry JSON pointers",
      },
    ];
    if (formatImports)
      files.push({ path: "runtime/formats.ts", content: runtimeFile("formats.ts") });
    return files;
  },
};
