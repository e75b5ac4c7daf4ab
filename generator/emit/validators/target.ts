import type { Target } from "../index.js";
import { jsdoc, key } from "../code.js";
import { render, runtimeFile } from "../file.js";
import { GeneratorError } from "../../errors.js";
import { ValidatorCompiler } from "./compile.js";

/** The JSON Schema formats the runtime can check, and the function of `runtime/formats.ts` for each. */
const FORMAT_CHECKERS: Readonly<Record<string, string>> = {
  uri: "isUri",
  "uri-template": "isUriTemplate",
  byte: "isByte",
};

/** `validators.ts`: `isN` and `validateN` for every definition, and `runtime/formats.ts` when used. */
export const validatorsTarget: Target = {
  name: "validators",
  emit({ model }) {
    const compiler = new ValidatorCompiler(FORMAT_CHECKERS);
    for (const definition of model.definitions) {
      try {
        compiler.addDefinition(definition);
      } catch (error) {
        throw new GeneratorError(`cannot build a validator for \`${definition.name}\`: ${(error as Error).message}`, model.source.file, definition.line);
      }
    }
    const formatImports = [...compiler.formats].sort().map((f) => FORMAT_CHECKERS[f]).join(", ");
    const definitions = model.definitions.map((d) => ({
      name: d.name,
      key: key(d.name),
      check: ValidatorCompiler.checkName(d.name),
      doc: jsdoc([`Whether a value is a valid \`${d.name}\`${d.deprecated ? " (deprecated)" : ""}.`]),
    }));
    const files = [{ path: "validators.ts", content: render("validators.ts.hbs", { functions: compiler.functions, definitions, formatImports }) }];
    if (formatImports) files.push({ path: "runtime/formats.ts", content: runtimeFile("formats.ts") });
    return files;
  },
};
