import type { ProtocolModel, TypeNode } from "../ir/model.js";
import { methodRoles, ModelIndex } from "../ir/query.js";
import { describeFacts, wireFacts, type DescribeSource, type WireFacts } from "../ir/wire.js";
import { methodsOfChangedKind } from "../diff/methods.js";
import { featureFacts } from "../ir/features.js";
import { WIRE_CONVENTIONS } from "../ir/conventions.js";
import type { EraDescription } from "../../runtime/shared/protocol.js";

export type { EraDescription };

/**
 * How a stateless (per-request `_meta`) revision is spoken to a peer of an initialize-era revision,
 * by a dual-era server and a dual-era client alike: derived from the two models and the diff between
 * them, carried in the modern revision's protocol description (`eras`) and typed by the runtime
 * (`EraDescription`, `runtime/shared/protocol.ts`). Nothing here names a method: each entry is
 * found by the role the schemas give it, so that another pair of revisions yields its own era with
 * no new code.
 *
 * The eras from `modern` to each legacy model, newest protocol version first.
 */
export function eraDescriptions(
  modern: ProtocolModel,
  legacies: readonly ProtocolModel[],
): EraDescription[] {
  return legacies
    .map((legacy) => eraDescription(modern, legacy))
    .sort((a, b) =>
      a.protocolVersion < b.protocolVersion ? 1 : a.protocolVersion > b.protocolVersion ? -1 : 0,
    );
}

/** Why a pair of revisions cannot be bridged, or `null` when it can. */
export function bridgeProblem(modern: ProtocolModel, legacy: ProtocolModel): string | null {
  if (modern.lifecycle.kind !== "stateless")
    return `revision ${modern.revision} has no per-request _meta lifecycle to serve initialize-era clients from`;
  if (legacy.lifecycle.kind !== "stateful")
    return `--legacy ${legacy.revision}: not an initialize-era revision (its lifecycle is ${legacy.lifecycle.kind})`;
  if (legacy.protocolVersion === null)
    return `--legacy ${legacy.revision}: the schema names no protocol version`;
  return null;
}

export function eraDescription(modern: ProtocolModel, legacy: ProtocolModel): EraDescription {
  const problem = bridgeProblem(modern, legacy);
  const lifecycle = legacy.lifecycle;
  if (problem || lifecycle.kind !== "stateful")
    throw new Error(problem ?? "not an initialize-era revision");
  const wire = { modern: wireFacts(modern), legacy: wireFacts(legacy) };
  if (!wire.legacy.handshake)
    throw new Error(
      `--legacy ${legacy.revision}: its handshake's params name no protocol version or client capabilities, or its result no chosen version`,
    );
  const index = { modern: new ModelIndex(modern), legacy: new ModelIndex(legacy) };
  // Requests the legacy revision sends from the server that the modern one carries inside results.
  const becameInput = methodsOfChangedKind(legacy, modern);
  const modernRequests = new Map(wire.modern.requests.map((r) => [r.method.method, r]));
  const fields = (index: ModelIndex, results: readonly string[], required = false): Set<string> =>
    new Set(
      results.flatMap(
        (name) =>
          index
            .objectOf({ kind: "ref", name })
            ?.properties.filter((p) => !required || !p.optional)
            .map((p) => p.name) ?? [],
      ),
    );
  const legacyValue = uncachedValue(wire.modern);

  const setLevelRequest = wire.legacy.requests.find((r) =>
    (index.legacy.objectOf(r.method.params)?.properties ?? []).some((p) =>
      refersTo(p.type, WIRE_CONVENTIONS.logLevelType),
    ),
  );
  const setLevel = setLevelRequest
    ? {
        method: setLevelRequest.method.method,
        param: index.legacy
          .objectOf(setLevelRequest.method.params)!
          .properties.find((p) => refersTo(p.type, WIRE_CONVENTIONS.logLevelType))!.name,
        capability: setLevelRequest.capability ?? setLevelRequest.method.method,
      }
    : null;
  const subscribe = subscriptionRequests(wire, legacy);

  const roles = new Set<string>(
    [
      lifecycle.initialize,
      wire.legacy.ping,
      setLevel?.method,
      subscribe?.method,
      subscribe?.unsubscribe,
    ].filter((m): m is string => !!m),
  );
  // Legacy requests with no modern counterpart and no role above are in no table: "method not found".
  const methods: Record<string, EraDescription["methods"][string]> = {};
  for (const request of wire.legacy.requests) {
    const method = request.method.method;
    const counterpart = modernRequests.get(method);
    if (roles.has(method) || !counterpart || counterpart.builtIn) continue;
    const legacyFields = fields(index.legacy, request.method.results);
    const modernResults = counterpart.method.results.filter(
      (r) => r !== wire.modern.inputRequiredResult,
    );
    const drop = [...fields(index.modern, modernResults)].filter((f) => !legacyFields.has(f));
    const required = fields(index.modern, modernResults, true);
    const fill: Record<string, unknown> = {};
    for (const field of drop) {
      const value = required.has(field) ? legacyValue(field) : null;
      if (value) fill[field] = value.value;
    }
    methods[method] = { results: request.method.results, drop, fill };
  }
  // Every other request of the legacy revision a client may send, the handshake aside: the
  // client sends it as it is (the server answers those it has a role for itself).
  const ownRequests: Record<string, EraDescription["ownRequests"][string]> = {};
  for (const request of wire.legacy.requests) {
    const method = request.method.method;
    if (method === lifecycle.initialize || Object.hasOwn(methods, method)) continue;
    ownRequests[method] = { results: request.method.results };
  }

  const initializeRequest = wire.legacy.requests.find(
    (r) => r.method.method === lifecycle.initialize,
  );
  const metaKeys = (Object.keys(wire.modern.meta) as Array<keyof WireFacts["meta"]>).flatMap(
    (role) => {
      const modernKey = wire.modern.meta[role];
      return modernKey ? [{ role, modern: modernKey, legacy: wire.legacy.meta[role] }] : [];
    },
  );
  const modernInputs = new Set(wire.modern.inputRequests.map((i) => i.method));
  return {
    revision: legacy.revision,
    protocolVersion: legacy.protocolVersion!,
    initialize: lifecycle.initialize,
    initialized: lifecycle.initialized,
    handshake: wire.legacy.handshake,
    initializeResult: initializeRequest?.method.results[0] ?? null,
    methods,
    discover: discoverFromHandshake(modern, legacy, legacyValue),
    ping: wire.legacy.ping,
    setLevel,
    subscribe,
    serverRequests: Object.fromEntries(
      wire.legacy.inputRequests
        .filter((i) => becameInput.has(i.method) && modernInputs.has(i.method))
        .map((i) => [i.method, { capability: i.capability, results: i.results }]),
    ),
    notifications: methodRoles(legacy.methods)
      .filter((m) => m.kind === "notification" && m.sender !== "client")
      .map((m) => m.method),
    metaKeys,
    cancelled: wire.legacy.notifications.cancelled,
    message: wire.legacy.notifications.message,
    progress: wire.legacy.notifications.progress,
    notificationParams: wire.legacy.notificationParams,
    serverCapabilities:
      Object.entries(describeFacts(legacy).fields).find(
        ([, source]) => source === "capabilities",
      )?.[0] ?? null,
    toolSchemaKeywords: toolSchemaKeywords(modern, legacy),
    ownRequests,
  };
}

/**
 * The protocol's own JSON Schema keywords (`WIRE_CONVENTIONS.schemaKeyword`) the modern revision's
 * tool input schema documents and the legacy one's does not: what a legacy tool listing must not
 * carry. `null` when there are none, or either revision has no tools.
 */
function toolSchemaKeywords(
  modern: ProtocolModel,
  legacy: ProtocolModel,
): EraDescription["toolSchemaKeywords"] {
  const tools = featureFacts(modern).tools;
  if (!tools || !featureFacts(legacy).tools) return null;
  const known = new Set(documentedKeywords(legacy));
  const drop = documentedKeywords(modern).filter((keyword) => !known.has(keyword));
  if (drop.length === 0) return null;
  return { list: tools.list, items: tools.items, schema: tools.inputSchema, drop };
}

/** The keywords of the protocol's own a revision's tool input schema documents, in order. */
function documentedKeywords(model: ProtocolModel): string[] {
  const tools = featureFacts(model).tools;
  if (!tools) return [];
  const index = new ModelIndex(model);
  const list = methodRoles(model.methods).find(
    (m) => m.kind === "request" && m.method === tools.list,
  );
  const items = index.property(
    list?.results[0] ? { kind: "ref", name: list.results[0] } : null,
    tools.items,
  )?.type;
  const tool = items?.kind === "array" ? items.items : null;
  const doc = index.property(tool, tools.inputSchema)?.doc.text ?? "";
  const found = [...doc.matchAll(WIRE_CONVENTIONS.schemaKeyword)].map((match) => match[1]!);
  return [...new Set(found)];
}

/** What a modern-only field is for a legacy answer: complete, and not cacheable; `null` for any other field. */
function uncachedValue(wire: WireFacts): (field: string) => { value: unknown } | null {
  return (field) => {
    if (field === wire.envelope.fields.resultType && wire.resultTypes)
      return { value: wire.resultTypes.complete };
    const hints = wire.envelope.fields.cacheHints;
    if (field === hints?.ttl) return { value: hints.uncached.ttl };
    if (field === hints?.scope) return { value: hints.uncached.scope };
    return null;
  };
}

/**
 * The modern server description built from the legacy handshake's result: both are "describe"
 * results of their revision (`describeFacts`), so each modern field is matched to the handshake
 * field of the same source; the list of versions is the one negotiated. A required modern field
 * with no source makes the description unavailable.
 */
function discoverFromHandshake(
  modern: ProtocolModel,
  legacy: ProtocolModel,
  legacyValue: (field: string) => { value: unknown } | null,
): EraDescription["discover"] {
  if (modern.lifecycle.kind !== "stateless") return null;
  const modernFields = describeFacts(modern).fields;
  const bySource = new Map<DescribeSource, string>();
  for (const [field, source] of Object.entries(describeFacts(legacy).fields))
    bySource.set(source, field);
  const fields: Record<string, { version: true } | { field: string } | { value: unknown }> = {};
  const wire = wireFacts(modern);
  const resultType = wire.envelope.fields.resultType;
  if (resultType) {
    const value = legacyValue(resultType);
    if (value) fields[resultType] = value;
  }
  for (const [field, source] of Object.entries(modernFields)) {
    if (source === "supportedVersions") fields[field] = { version: true };
    else if (bySource.has(source)) fields[field] = { field: bySource.get(source)! };
    else {
      const value = legacyValue(field);
      if (value) fields[field] = value;
    }
  }
  const infoField = bySource.get("info");
  const info =
    wire.meta.serverInfo && infoField && !Object.values(modernFields).includes("info")
      ? { metaKey: wire.meta.serverInfo, field: infoField }
      : null;
  return { method: modern.lifecycle.discover, fields, info };
}

/**
 * The legacy subscribe/unsubscribe pair: for each notification the modern listen filter opts into
 * per target (a capability flag such as `resources.subscribe`), the legacy requests named
 * `<capability>/<flag>` and `<capability>/un<flag>` with a target param.
 */
function subscriptionRequests(
  wire: { modern: WireFacts; legacy: WireFacts },
  legacy: ProtocolModel,
): EraDescription["subscribe"] {
  const legacyRequests = new Map(wire.legacy.requests.map((r) => [r.method.method, r]));
  for (const entry of wire.modern.listen?.filter ?? []) {
    const [capability, flag] = entry.capability;
    const open = legacyRequests.get(`${capability}/${flag}`);
    const close = legacyRequests.get(`${capability}/un${flag}`);
    const notified = methodRoles(legacy.methods).some(
      (m) => m.kind === "notification" && m.method === entry.notification,
    );
    if (open?.target && close?.target && notified)
      return {
        method: open.method.method,
        unsubscribe: close.method.method,
        param: open.target,
        notification: entry.notification,
        capability: [capability, flag],
      };
  }
  return null;
}

function refersTo(type: TypeNode, name: string): boolean {
  return type.kind === "ref" && type.name === name;
}
