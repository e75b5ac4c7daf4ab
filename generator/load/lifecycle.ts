import type { Lifecycle, Method, TypeNode } from "../ir/model.js";
import { methodRoles, type ModelIndex } from "../ir/query.js";
import { CAPABILITY_TYPES, PROTOCOL_VERSION_FIELD } from "../ir/conventions.js";

const refersTo = (type: TypeNode, name: string): boolean =>
  type.kind === "ref" && type.name === name;

/**
 * Tells the lifecycle from where the client's capabilities travel. The request whose result carries
 * the server's capabilities describes the server; if its params carry the client's capabilities it
 * is a handshake (stateful), and if instead every request's `_meta` must carry them, that request is
 * a discovery call and the protocol is stateless.
 */
export function readLifecycle(index: ModelIndex, surface: Method[]): Lifecycle {
  const methods = methodRoles(surface);
  const clientRequests = methods.filter((m) => m.kind === "request" && m.sender !== "server");
  const describesServer = clientRequests.find((m) =>
    m.results.some((result) =>
      index
        .objectOf({ kind: "ref", name: result })
        ?.properties.some((p) => refersTo(p.type, CAPABILITY_TYPES.server)),
    ),
  );
  if (!describesServer) return { kind: "unknown" };

  const params = index.objectOf(describesServer.params);
  if (params?.properties.some((p) => refersTo(p.type, CAPABILITY_TYPES.client))) {
    const stem = describesServer.method.split("/").pop()!;
    // The completing notification is named after the handshake (`initialize` → `…/initialized`).
    const initialized = methods.find(
      (m) =>
        m.kind === "notification" &&
        m.sender !== "server" &&
        m.method.split("/").pop()!.startsWith(stem),
    );
    return {
      kind: "stateful",
      initialize: describesServer.method,
      initialized: initialized?.method ?? null,
    };
  }

  const meta = params?.properties.find((p) => p.name === "_meta" && !p.optional);
  const metaObject = index.objectOf(meta?.type);
  if (!meta || meta.type.kind !== "ref" || !metaObject) return { kind: "unknown" };
  const required = metaObject.properties.filter((p) => !p.optional);
  const capabilities = required.find((p) => refersTo(p.type, CAPABILITY_TYPES.client));
  const version = required.find((p) => p.name.split("/").pop() === PROTOCOL_VERSION_FIELD);
  if (!capabilities || !version) return { kind: "unknown" };
  return {
    kind: "stateless",
    discover: describesServer.method,
    requestMeta: meta.type.name,
    protocolVersionKey: version.name,
    clientCapabilitiesKey: capabilities.name,
    requiredMetaKeys: required.map((p) => p.name),
  };
}
