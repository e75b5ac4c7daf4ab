import type { ProtocolModel } from "../ir/model.js";
import { methodRoles, ModelIndex } from "../ir/query.js";
import { wireFacts } from "../ir/wire.js";
import { eraDescriptions } from "./eras.js";
import { featureFacts } from "../ir/features.js";
import { HTTP_HEADERS, PROTOCOL_VERSION_FIELD } from "../ir/conventions.js";
import type { RegistryEntry } from "../registry/index.js";
import { GeneratorError } from "../errors.js";
import type {
  EraDescription,
  MethodDescription,
  ProtocolDescription,
  ToolsDescription,
} from "../../runtime/shared/protocol.js";

export type { ProtocolDescription };

/**
 * The one description of a revision's protocol that the generated server and client both read,
 * as plain JSON (`runtime/shared/protocol.ts` is its type): the wire facts of `ir/wire.ts`,
 * the tool facts of `ir/features.ts` and, from the deprecation registry, the notices of what is
 * deprecated on the wire. It is derived here, after the IR, because it is a view for the runtimes
 * that also needs the registry (release dates are a project fact, not the schema's); the IR stays
 * what the schema says. Emitted as the output's `protocol.ts`, printed by `mcp-gen ir --protocol`.
 *
 * `null` for a schema that describes no protocol to serve or call (no requests, no recognised
 * lifecycle or no protocol version: the small fixture schemas).
 */
export function protocolDescription(
  model: ProtocolModel,
  registry: readonly RegistryEntry[],
  legacies: readonly ProtocolModel[] = [],
): ProtocolDescription | null {
  const wire = wireFacts(model);
  const { lifecycle, protocolVersion } = model;
  if (wire.requests.length === 0 || lifecycle.kind === "unknown" || protocolVersion === null)
    return null;
  // Object.fromEntries: a method name is data, even `__proto__`.
  const methods = Object.fromEntries(
    wire.requests.map((request): [string, MethodDescription] => {
      const { method, params, message, results } = request.method;
      return [
        method,
        {
          params:
            params?.kind === "ref"
              ? { definition: params.name, inMessage: false }
              : { definition: message, inMessage: true },
          results: results.filter((name) => name !== wire.inputRequiredResult),
          capability: request.capability,
          inputRequired: request.method.acceptsInputResponses,
          cacheable: request.cacheable,
          target: request.target,
        },
      ];
    }),
  );
  const description: ProtocolDescription = {
    revision: model.revision,
    protocolVersion,
    lifecycle:
      lifecycle.kind === "stateless"
        ? { ...lifecycle, requiredMetaKeys: [...lifecycle.requiredMetaKeys] }
        : { ...lifecycle },
    methods,
    inputRequests: Object.fromEntries(
      wire.inputRequests.map((i) => [i.method, { capability: i.capability, results: i.results }]),
    ),
    inputResponseUnion: wire.inputResponseUnion,
    inputRequiredResult: wire.inputRequiredResult,
    resultTypes: wire.resultTypes,
    envelope: { ...wire.envelope.fields },
    errors: { ...wire.errors },
    meta: { ...wire.meta },
    notifications: { ...wire.notifications },
    notificationParams: wire.notificationParams,
    logLevels: wire.logLevels,
    ping: wire.ping,
    describe: wire.describe.fields,
    handshakeVersionParam: PROTOCOL_VERSION_FIELD,
    handshake: wire.handshake,
    supportedVersionsField: wire.supportedVersionsField,
    headers: { ...HTTP_HEADERS },
    listen: wire.listen
      ? {
          method: wire.listen.method,
          filterParam: wire.listen.filterParam,
          filter: Object.fromEntries(
            wire.listen.filter.map((f) => [
              f.key,
              { notification: f.notification, capability: f.capability, target: f.target },
            ]),
          ),
        }
      : null,
    deprecated: deprecatedOnTheWire(model, registry),
    tools: toolsDescription(model),
    cursor: featureFacts(model).cursor,
    eras: eraDescriptions(model, legacies),
  };
  checkDescription(model, description, legacies);
  return description;
}

/** The tool listing and calling methods and fields, with the output facts where the revision has them. */
function toolsDescription(model: ProtocolModel): ToolsDescription | null {
  const features = featureFacts(model);
  const tools = features.tools;
  if (!tools) return null;
  return {
    list: tools.list,
    call: tools.call,
    items: tools.items,
    name: tools.name,
    arguments: tools.arguments,
    schema: tools.inputSchema,
    output:
      tools.outputSchema && tools.structuredContent
        ? {
            schema: tools.outputSchema,
            structuredContent: tools.structuredContent,
            isError: tools.isError,
            cursor: features.cursor?.param ?? null,
          }
        : null,
  };
}

/**
 * Where a deprecated feature shows on the wire, from the registry: a method whose message is
 * deprecated, a deprecated `_meta` key, a deprecated client capability; each with its notice.
 */
function deprecatedOnTheWire(
  model: ProtocolModel,
  registry: readonly RegistryEntry[],
): ProtocolDescription["deprecated"] {
  const notice = (entry: RegistryEntry): string => {
    const removal = entry.earliestRemoval
      ? `; earliest removal: first revision released on or after ${entry.earliestRemoval.date}`
      : "";
    const why = [entry.asOf && `as of ${entry.asOf}`, entry.sep].filter(Boolean).join(", ");
    const migration = entry.migration.sentence ? ` ${entry.migration.sentence}` : "";
    return `${entry.location.text} is deprecated${why ? ` (${why})` : ""}${removal}.${migration}`;
  };
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
  return {
    methods: Object.fromEntries(methods),
    metaKeys: Object.fromEntries(metaKeys),
    clientCapabilities: Object.fromEntries(clientCapabilities),
  };
}

/**
 * The description is data the runtimes trust: every definition it names for a validator exists,
 * every method it names is one of the revision's (an era's: of its legacy revision, `legacies`),
 * and it is JSON (what is emitted is what was derived). A failure is a generator bug, reported as a
 * generation error rather than as output that fails when it loads.
 */
export function checkDescription(
  model: ProtocolModel,
  description: ProtocolDescription,
  legacies: readonly ProtocolModel[] = [],
): void {
  const index = new ModelIndex(model);
  const methods = new Set(model.methods.map((m) => m.method));
  const fail = (what: string): never => {
    throw new GeneratorError(`protocol description: ${what}`, model.source.file);
  };
  for (const era of description.eras) {
    const legacy = legacies.find((l) => l.revision === era.revision);
    if (!legacy) fail(`era ${era.revision} has no legacy revision`);
    else checkEra(legacy, era, fail);
  }
  const definitions = [
    ...Object.values(description.methods).flatMap((m) => [m.params.definition, ...m.results]),
    ...Object.values(description.inputRequests).flatMap((i) => i.results),
    description.inputResponseUnion,
    description.inputRequiredResult,
  ];
  for (const name of definitions)
    if (name !== null && !index.get(name)) fail(`names unknown definition \`${name}\``);
  const named = [
    ...Object.keys(description.methods),
    ...Object.keys(description.inputRequests),
    ...Object.values(description.notifications),
    ...Object.values(description.listen?.filter ?? {}).map((f) => f.notification),
    description.listen?.method ?? null,
    description.ping,
  ];
  for (const method of named)
    if (method !== null && !methods.has(method)) fail(`names unknown method \`${method}\``);
  const where = notJson(description, "");
  if (where !== null) fail(`holds a value JSON cannot carry at ${where || "/"}`);
}

/** An era names only definitions and methods of its legacy revision (the modern ones it maps them to excepted). */
function checkEra(legacy: ProtocolModel, era: EraDescription, fail: (what: string) => never): void {
  const index = new ModelIndex(legacy);
  const methods = new Set(legacy.methods.map((m) => m.method));
  const definitions = [
    era.initializeResult,
    ...Object.values(era.methods).flatMap((m) => m.results),
    ...Object.values(era.serverRequests).flatMap((r) => r.results),
    ...Object.values(era.ownRequests).flatMap((r) => r.results),
  ];
  for (const name of definitions)
    if (name !== null && !index.get(name))
      fail(`era ${era.revision} names unknown definition \`${name}\``);
  const named = [
    era.initialize,
    era.initialized,
    era.ping,
    era.setLevel?.method ?? null,
    era.subscribe?.method ?? null,
    era.subscribe?.unsubscribe ?? null,
    era.subscribe?.notification ?? null,
    era.cancelled,
    era.message,
    era.progress,
    ...Object.keys(era.methods),
    ...Object.keys(era.serverRequests),
    ...Object.keys(era.ownRequests),
    ...era.notifications,
  ];
  for (const method of named)
    if (method !== null && !methods.has(method))
      fail(`era ${era.revision} names unknown method \`${method}\``);
}

/** The pointer of the first value that does not survive JSON unchanged (`undefined`, a function, NaN…), or `null`. */
function notJson(value: unknown, path: string): string | null {
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? null : path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = notJson(item, `${path}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      const found = notJson(item, `${path}/${key}`);
      if (found !== null) return found;
    }
    return null;
  }
  return path;
}
