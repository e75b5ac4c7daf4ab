import type { ProtocolModel } from "../ir/model.js";
import { ModelIndex } from "../ir/query.js";
import { describeFacts, wireFacts, type DescribeSource } from "../ir/wire.js";
import { WIRE_CONVENTIONS } from "../ir/conventions.js";
import { eraBridge, type EraBridge } from "./eras.js";

/**
 * How a client of a stateless revision speaks to a server of an initialize-era one: the server's
 * bridge (`eraBridge`) read the other way round. The server drops the modern-only fields of a result
 * on the way out; the client, having checked a legacy result against the legacy revision's
 * validators, puts back the ones the modern type requires, with the value that says what the legacy
 * result meant (complete, not cacheable). Nothing here names a method.
 */
export interface ClientEraBridge {
  revision: string;
  protocolVersion: string;
  initialize: string;
  initialized: string | null;
  /** The legacy handshake's result definition: the answer to `initialize` is checked against it. */
  initializeResult: string;
  /**
   * Modern requests the legacy revision has: the legacy result definitions, and the modern-only
   * fields the modern result requires, each with the value it takes for a legacy answer.
   */
  methods: Array<{ method: string; results: string[]; fill: Record<string, unknown> }>;
  /**
   * The modern discovery request, answered from the handshake's result: each field of the modern
   * description and where its value comes from (the negotiated version, a field of the handshake's
   * result, or a fixed value). `null` when either revision lacks what that needs.
   */
  discover: {
    method: string;
    fields: Record<string, { version: true } | { field: string } | { value: unknown }>;
    /** The modern `_meta` key naming the server, and the handshake field holding its identity. */
    info: { metaKey: string; field: string } | null;
  } | null;
  /** The legacy liveness request (the client answers it, and it is the same method both ways). */
  ping: string | null;
  /** Requests a legacy server sends on the wire that a modern input handler answers, with the capability each needs. */
  serverRequests: EraBridge["serverRequests"];
  /** The legacy progress token `_meta` key, and the cancellation notification. */
  progressTokenKey: string | null;
  cancelled: string | null;
  /**
   * What a modern listen becomes on a legacy session: the per-resource subscribe/unsubscribe pair
   * (the server's bridge's, with the param naming the resource), and the server notifications the
   * legacy revision has (a filter key whose notification it lacks is not honoured).
   */
  subscribe: (NonNullable<EraBridge["subscribe"]> & { param: string }) | null;
  notifications: string[];
  /** The handshake result's field holding the server's capabilities (what a listen can be honoured for). */
  serverCapabilities: string | null;
}

/** The client's bridges from `modern` to each legacy model, newest protocol version first. */
export function clientEraBridges(
  modern: ProtocolModel,
  legacies: readonly ProtocolModel[],
): ClientEraBridge[] {
  return legacies
    .map((legacy) => clientEraBridge(modern, legacy))
    .sort((a, b) =>
      a.protocolVersion < b.protocolVersion ? 1 : a.protocolVersion > b.protocolVersion ? -1 : 0,
    );
}

export function clientEraBridge(modern: ProtocolModel, legacy: ProtocolModel): ClientEraBridge {
  const bridge = eraBridge(modern, legacy);
  const wire = wireFacts(modern);
  const index = new ModelIndex(modern);
  const requests = new Map(wire.requests.map((r) => [r.method.method, r]));
  /** What a modern-only field is for a legacy answer: complete, and not cacheable. */
  const legacyValue = (field: string): { value: unknown } | null => {
    if (field === wire.envelope.fields.resultType && wire.resultTypes)
      return { value: wire.resultTypes.complete };
    const hints = wire.envelope.fields.cacheHints;
    if (field === hints?.ttl) return { value: WIRE_CONVENTIONS.uncached.ttl };
    if (field === hints?.scope) return { value: WIRE_CONVENTIONS.uncached.scope };
    return null;
  };
  const required = (results: string[]): Set<string> =>
    new Set(
      results.flatMap(
        (name) =>
          index
            .objectOf({ kind: "ref", name })
            ?.properties.filter((p) => !p.optional)
            .map((p) => p.name) ?? [],
      ),
    );
  const methods = bridge.shared.map((shared) => {
    const modernResults = (requests.get(shared.method)?.method.results ?? []).filter(
      (r) => r !== wire.inputRequiredResult,
    );
    const needed = required(modernResults);
    const fill: Record<string, unknown> = {};
    for (const field of shared.drop) {
      const value = needed.has(field) ? legacyValue(field) : null;
      if (value) fill[field] = value.value;
    }
    return { method: shared.method, results: shared.results, fill };
  });
  return {
    revision: bridge.revision,
    protocolVersion: bridge.protocolVersion,
    initialize: bridge.initialize,
    initialized: bridge.initialized,
    initializeResult: bridge.initializeResult,
    methods,
    discover: discoverFromHandshake(modern, legacy, legacyValue),
    ping: bridge.ping,
    serverRequests: bridge.serverRequests,
    progressTokenKey: bridge.metaKeys.find((k) => k.role === "progressToken")?.legacy ?? null,
    cancelled: bridge.cancelled,
    subscribe: subscribeOf(bridge, legacy),
    notifications: bridge.notifications,
    serverCapabilities:
      Object.entries(describeFacts(legacy).fields).find(
        ([, source]) => source === "capabilities",
      )?.[0] ?? null,
  };
}

/** The bridge's subscribe pair with the legacy request's target param (the resource it names). */
function subscribeOf(bridge: EraBridge, legacy: ProtocolModel): ClientEraBridge["subscribe"] {
  const subscribe = bridge.subscribe;
  if (!subscribe) return null;
  const param = wireFacts(legacy).requests.find(
    (r) => r.method.method === subscribe.method,
  )?.target;
  return param ? { ...subscribe, param } : null;
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
): ClientEraBridge["discover"] {
  if (modern.lifecycle.kind !== "stateless") return null;
  const modernFields = describeFacts(modern).fields;
  const bySource = new Map<DescribeSource, string>();
  for (const [field, source] of Object.entries(describeFacts(legacy).fields))
    bySource.set(source, field);
  const fields: NonNullable<ClientEraBridge["discover"]>["fields"] = {};
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
