import type { ProtocolModel, TypeNode } from "../ir/model.js";
import { methodRoles, ModelIndex } from "../ir/query.js";
import { wireFacts, type WireFacts } from "../ir/wire.js";
import { diffModels } from "../diff/index.js";
import { WIRE_CONVENTIONS } from "../ir/conventions.js";

/**
 * How a stateless (per-request `_meta`) revision is spoken to a peer of an initialize-era revision:
 * the data a dual-era server (and, later, a dual-era client) needs, derived from the two models and
 * the diff between them. Nothing here names a method: each entry is found by the role the schemas
 * give it, so that another pair of revisions yields its own bridge with no new code.
 */
export interface EraBridge {
  /** The legacy revision's folder name and the protocol version its handshake negotiates. */
  revision: string;
  protocolVersion: string;
  /** The legacy handshake: the request that opens a session and the notification completing it. */
  initialize: string;
  initialized: string | null;
  /** The legacy handshake's result definition (validated on the way out). */
  initializeResult: string;
  /**
   * Client requests both revisions have: a legacy request is served by the modern handler of the same
   * method. `results` are the legacy result definitions; `drop` the top-level result fields the modern
   * revision adds that no legacy result has (`resultType`, caching hints), removed on the way out.
   */
  shared: Array<{ method: string; results: string[]; drop: string[] }>;
  /** Legacy client requests with no modern counterpart and no role below: answered "method not found". */
  unserved: string[];
  /** The legacy liveness request, answered by the runtime. */
  ping: string | null;
  /** The legacy request setting the session's log level, and its level param. */
  setLevel: { method: string; param: string; capability: string } | null;
  /**
   * Per-resource subscriptions of the legacy revision: the requests opening and closing one (found by
   * the capability flag the modern listen filter names), and the notification they opt into.
   */
  subscribe: {
    method: string;
    unsubscribe: string;
    notification: string;
    capability: [string, string];
  } | null;
  /**
   * What a modern `input_required` answer becomes on a legacy session: each modern input request that
   * the legacy revision sends as a request of its own (the diff's `method-kind-changed`), the client
   * capability it needs, and the legacy result definitions its answer is validated against.
   */
  serverRequests: Array<{ method: string; capability: string; results: string[] }>;
  /** Server notifications the legacy revision has; a modern one it lacks is not sent on a legacy session. */
  notifications: string[];
  /** `_meta` keys by role: the modern key, and the legacy one (`null`: the legacy revision has no such key). */
  metaKeys: Array<{ role: keyof WireFacts["meta"]; modern: string; legacy: string | null }>;
  /** The legacy revision's cancellation and log notifications (the runtime reads their params). */
  cancelled: string | null;
  message: string | null;
  progress: string | null;
}

/** Bridges from `modern` to each legacy model, newest protocol version first. */
export function eraBridges(modern: ProtocolModel, legacies: readonly ProtocolModel[]): EraBridge[] {
  return legacies
    .map((legacy) => eraBridge(modern, legacy))
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

export function eraBridge(modern: ProtocolModel, legacy: ProtocolModel): EraBridge {
  const problem = bridgeProblem(modern, legacy);
  const lifecycle = legacy.lifecycle;
  if (problem || lifecycle.kind !== "stateful")
    throw new Error(problem ?? "not an initialize-era revision");
  const wire = { modern: wireFacts(modern), legacy: wireFacts(legacy) };
  const index = { modern: new ModelIndex(modern), legacy: new ModelIndex(legacy) };
  const changes = diffModels(legacy, modern);
  // Requests the legacy revision sends from the server that the modern one carries inside results.
  const becameInput = new Set(
    changes.filter((c) => c.ruleId === "method-kind-changed").map((c) => c.location),
  );
  const modernRequests = new Map(wire.modern.requests.map((r) => [r.method.method, r]));
  const topLevel = (index: ModelIndex, results: string[]): Set<string> =>
    new Set(
      results.flatMap(
        (name) => index.objectOf({ kind: "ref", name })?.properties.map((p) => p.name) ?? [],
      ),
    );

  const setLevelRequest = wire.legacy.requests.find((r) =>
    (index.legacy.objectOf(r.method.params)?.properties ?? []).some((p) =>
      refersTo(p.type, WIRE_CONVENTIONS.logLevelType),
    ),
  );
  const setLevel = setLevelRequest
    ? {
        method: setLevelRequest.method.method,
        capability: setLevelRequest.capability ?? setLevelRequest.method.method,
        param: index.legacy
          .objectOf(setLevelRequest.method.params)!
          .properties.find((p) => refersTo(p.type, WIRE_CONVENTIONS.logLevelType))!.name,
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
  const shared: EraBridge["shared"] = [];
  const unserved: string[] = [];
  for (const request of wire.legacy.requests) {
    const method = request.method.method;
    if (roles.has(method)) continue;
    const counterpart = modernRequests.get(method);
    if (!counterpart || counterpart.builtIn) {
      unserved.push(method);
      continue;
    }
    const legacyFields = topLevel(index.legacy, request.method.results);
    const modernFields = topLevel(
      index.modern,
      counterpart.method.results.filter((r) => r !== wire.modern.inputRequiredResult),
    );
    shared.push({
      method,
      results: request.method.results,
      drop: [...modernFields].filter((f) => !legacyFields.has(f)),
    });
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
    initializeResult: initializeRequest?.method.results[0] ?? "",
    shared,
    unserved,
    ping: wire.legacy.ping,
    setLevel,
    subscribe,
    serverRequests: wire.legacy.inputRequests
      .filter((i) => becameInput.has(i.method) && modernInputs.has(i.method))
      .map((i) => ({ method: i.method, capability: i.capability, results: i.results })),
    notifications: methodRoles(legacy.methods)
      .filter((m) => m.kind === "notification" && m.sender !== "client")
      .map((m) => m.method),
    metaKeys,
    cancelled: wire.legacy.notifications.cancelled,
    message: wire.legacy.notifications.message,
    progress: wire.legacy.notifications.progress,
  };
}

/**
 * The legacy subscribe/unsubscribe pair: for each notification the modern listen filter opts into
 * per target (a capability flag such as `resources.subscribe`), the legacy requests named
 * `<capability>/<flag>` and `<capability>/un<flag>` with a target param.
 */
function subscriptionRequests(
  wire: { modern: WireFacts; legacy: WireFacts },
  legacy: ProtocolModel,
): EraBridge["subscribe"] {
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
        notification: entry.notification,
        capability: [capability, flag],
      };
  }
  return null;
}

function refersTo(type: TypeNode, name: string): boolean {
  return type.kind === "ref" && type.name === name;
}
