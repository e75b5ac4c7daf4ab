import type { ProtocolModel } from "../../ir/model.js";
import { code, type Code } from "../code.js";
import { sharedNames, typeReferences, typeShape, type Shareable } from "../sharing.js";
import { ValidatorCompiler } from "./compile.js";

/**
 * Which validators of a legacy revision are taken from a newer revision's `validators.ts` (see
 * ../sharing.ts): those whose guard narrows to the same type (the definition's shape), that say the
 * same about deprecation, and whose every reference is shared. The check functions of two such
 * definitions are emitted the same: the compiler reads a definition's name and shape, nothing that
 * only documents it (test/generator/emit/legacy-sharing.test.ts holds this for every revision), so
 * comparing shapes spares compiling each revision a second time.
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

/** Each model's shareables built once, however many legacy modules compare with it. */
const shareables = new WeakMap<ProtocolModel, Shareable[]>();

function validatorShareables(model: ProtocolModel): Shareable[] {
  let items = shareables.get(model);
  if (!items) {
    items = model.definitions.map((definition) => ({
      name: definition.name,
      text: `${definition.deprecated !== null ? "deprecated" : ""}\n${typeShape(definition.type)}`,
      references: typeReferences(definition.type),
    }));
    shareables.set(model, items);
  }
  return items;
}
