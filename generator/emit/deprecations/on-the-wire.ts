import type { EmitContext } from "../file.js";
import type { RegistryEntry } from "../../registry/index.js";
import { registryOf } from "./registry-of.js";
import { code, join, type Code } from "../code.js";
import { methodRoles } from "../../ir/query.js";

/**
 * Where a deprecated feature shows on the wire, from the registry: a method whose message is
 * deprecated, a deprecated `_meta` key, a deprecated client capability; each with its notice.
 */
export function deprecatedOnTheWire(ctx: EmitContext): Code {
  const { model } = ctx;
  const registry = registryOf(ctx);
  const notice = (entry: RegistryEntry): string => {
    const removal = entry.earliestRemoval
      ? `; earliest removal: first revision released on or after ${entry.earliestRemoval.date}`
      : "";
    const why = [entry.asOf && `as of ${entry.asOf}`, entry.sep].filter(Boolean).join(", ");
    const migration = entry.migration.sentence ? ` ${entry.migration.sentence}` : "";
    return `${entry.location.text} is deprecated${why ? ` (${why})` : ""}${removal}.${migration}`;
  };
  const table = (pairs: Array<[string, string]>): Code =>
    code`{ ${join(pairs.map(([k, v]) => code`${k}: ${v}`))} }`;
  const byDefinition = new Map(
    registry.filter((e) => e.kind === "definition").map((e) => [e.location.definition, notice(e)]),
  );
  const methods = methodRoles(model.methods).flatMap((m): Array<[string, string]> => {
    const found = byDefinition.get(m.message);
    return found ? [[m.method, found]] : [];
  });
  const metaKeys = registry
    .filter((e) => e.kind === "metaKey")
    .map((e): [string, string] => [e.location.path[0]!, notice(e)]);
  const clientCapabilities = registry.flatMap((e) =>
    e.capabilities
      .filter((c) => c.party === "client")
      .map((c): [string, string] => [c.name, notice(e)]),
  );
  return code`{ methods: ${table(methods)}, metaKeys: ${table(metaKeys)}, clientCapabilities: ${table(clientCapabilities)} }`;
}
