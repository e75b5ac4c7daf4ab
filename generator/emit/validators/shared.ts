import type { ProtocolModel } from "../../ir/model.js";
import { code, ident, type Code } from "../code.js";
import { sharedNames, typeReferences, typeShape, type Shareable } from "../sharing.js";
import { ValidatorCompiler } from "./compile.js";

/**
 * Which validators of a legacy revision are taken from a newer revision's `validators.ts` (see
 * ../sharing.ts): those whose check functions are emitted the same, whose guard narrows to the same
 * type (the definition's shape) and says the same about deprecation, with every reference shared.
 */
export function sharedValidators(model: ProtocolModel, newer: ProtocolModel): Set<string> {
  const newerTexts = new Map(validatorShareables(newer).map((item) => [item.name, item.text]));
  return sharedNames(validatorShareables(model), newerTexts);
}

/**
 * A shared validator as a check function of this module, for the checks emitted here that call it.
 * The newer module records a failure in its own error state, so the failing value is validated
 * again there and its error taken as this module's (`adopt`); a value that passes costs one call.
 */
export function sharedCheck(name: string, isFn: Code, validateFn: Code): Code {
  return code`function ${ValidatorCompiler.checkName(name)}(v: any): boolean {\nreturn ${isFn}(v) || adopt(${validateFn}(v));\n}`;
}

/** Each model's validators compiled once for comparison, however many legacy modules compare with it. */
const compiled = new WeakMap<ProtocolModel, Shareable[]>();

function validatorShareables(model: ProtocolModel): Shareable[] {
  let items = compiled.get(model);
  if (!items) {
    // Format checkers are named by their runtime export; the import is the real compile's business.
    const compiler = new ValidatorCompiler((format) =>
      ident(`format_${format.replace(/\W/g, "_")}`),
    );
    items = model.definitions.map((definition) => ({
      name: definition.name,
      text: [
        ...compiler.addDefinition(definition).map(String),
        definition.deprecated !== null ? "deprecated" : "",
        typeShape(definition.type),
      ].join("\n"),
      references: typeReferences(definition.type),
    }));
    compiled.set(model, items);
  }
  return items;
}
