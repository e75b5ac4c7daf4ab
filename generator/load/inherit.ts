import type { Definition, ObjectType, Property } from "../ir/model.js";
import { GeneratorError } from "../errors.js";

/**
 * Resolves every interface's `extends` clause, so that each interface's type lists all of its
 * properties. Inherited properties keep their `declaredIn`; an own property replaces the inherited
 * one of the same name in place; `Omit<>` drops keys. A base may be an interface or an alias of an
 * object type (such as `Record<string, unknown>`).
 */
export function resolveInheritance(definitions: Definition[], file: string): void {
  const byName = new Map(definitions.map((d) => [d.name, d] as const));
  const done = new Set<string>();
  const visiting = new Set<string>();

  const resolve = (definition: Definition): ObjectType => {
    const own = definition.type as ObjectType;
    if (definition.declaration !== "interface" || done.has(definition.name)) return own;
    if (visiting.has(definition.name))
      throw new GeneratorError(`\`${definition.name}\` extends itself`, file, definition.line);
    visiting.add(definition.name);
    const properties: Property[] = [];
    let indexSignature: ObjectType["indexSignature"] = null;
    for (const heritage of definition.heritage) {
      const base = byName.get(heritage.name);
      if (!base)
        throw new GeneratorError(
          `\`${definition.name}\` extends unknown \`${heritage.name}\``,
          file,
          definition.line,
        );
      const baseType = base.declaration === "interface" ? resolve(base) : base.type;
      if (baseType.kind !== "object") {
        throw new GeneratorError(
          `\`${definition.name}\` extends \`${heritage.name}\`, which is not an object type`,
          file,
          definition.line,
        );
      }
      for (const property of baseType.properties) {
        if (heritage.omit.includes(property.name)) continue;
        const at = properties.findIndex((p) => p.name === property.name);
        if (at >= 0) properties[at] = property;
        else properties.push(property);
      }
      indexSignature = baseType.indexSignature ?? indexSignature;
    }
    for (const property of own.properties) {
      const at = properties.findIndex((p) => p.name === property.name);
      if (at >= 0) properties[at] = property;
      else properties.push(property);
    }
    definition.type = {
      kind: "object",
      properties,
      indexSignature: own.indexSignature ?? indexSignature,
    };
    visiting.delete(definition.name);
    done.add(definition.name);
    return definition.type;
  };

  for (const definition of definitions) resolve(definition);
}
