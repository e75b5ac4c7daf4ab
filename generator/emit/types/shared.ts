import type { ProtocolModel } from "../../ir/model.js";
import { sharedNames, typeReferences, type Shareable } from "../sharing.js";
import { constantText, definitionText } from "./print.js";

/**
 * Which declarations of a legacy revision's `types.ts` are taken from a newer revision's (see
 * ../sharing.ts): definitions printed the same, JSDoc included, whose every reference (types, bases,
 * `typeof` constants) is shared too. Constants stay declared in each module (they are values, and
 * `types.ts` imports none); a definition's `typeof C` counts as shared when both modules print `C`
 * the same, since the re-exported declaration then names a constant of the same value.
 */
export function sharedTypes(model: ProtocolModel, newer: ProtocolModel): Set<string> {
  const newerTexts = new Map(typeShareables(newer).map((item) => [item.name, item.text]));
  const shared = sharedNames(typeShareables(model), newerTexts);
  for (const constant of model.constants) shared.delete(constant.name);
  return shared;
}

/** Each model's declarations printed once for comparison, however many legacy modules compare with it. */
const printed = new WeakMap<ProtocolModel, Shareable[]>();

function typeShareables(model: ProtocolModel): Shareable[] {
  let items = printed.get(model);
  if (!items) {
    const constants = new Set(model.constants.map((c) => c.name));
    items = [
      ...model.definitions.map((definition) => ({
        // A name that is also a constant is a value too: `export type { N }` would lose it.
        name: definition.name,
        text: constants.has(definition.name) ? "" : String(definitionText(definition)),
        references: [
          ...typeReferences(definition.type, true),
          ...definition.heritage.map((base) => base.name),
        ],
      })),
      ...model.constants.map((constant) => ({
        name: constant.name,
        text: String(constantText(constant)),
        references: [],
      })),
    ];
    printed.set(model, items);
  }
  return items;
}
