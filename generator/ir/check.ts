import type { ProtocolModel, TypeNode } from "./model.js";
import { walkType } from "./query.js";
import { GeneratorError } from "../errors.js";

/**
 * Checks the invariants every emitter relies on, so that they can trust the model: unique names,
 * every ref resolves, every method's message and results exist.
 */
export function checkModel(model: ProtocolModel, file: string): void {
  const names = new Set<string>();
  for (const definition of model.definitions) {
    if (names.has(definition.name))
      throw new GeneratorError(`\`${definition.name}\` is declared twice`, file, definition.line);
    names.add(definition.name);
  }
  for (const definition of model.definitions) {
    // Report at the innermost property holding the bad ref, else at the definition.
    const checkRefs = (type: TypeNode, line: number): void => {
      if (type.kind === "object") {
        for (const property of type.properties) checkRefs(property.type, property.line);
        if (type.indexSignature) checkRefs(type.indexSignature.type, line);
        return;
      }
      walkType(type, (node) => {
        if (node.kind === "object") checkRefs(node, line);
        else if (node.kind === "ref" && !names.has(node.name)) {
          throw new GeneratorError(
            `\`${definition.name}\` refers to unknown type \`${node.name}\``,
            file,
            line,
          );
        }
      });
    };
    checkRefs(definition.type, definition.line);
  }
  for (const method of model.methods) {
    for (const name of method.roles.flatMap((role) => [role.message, ...role.results])) {
      if (!names.has(name))
        throw new GeneratorError(`method \`${method.method}\` refers to unknown \`${name}\``, file);
    }
  }
}
