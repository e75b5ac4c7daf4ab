/**
 * The lifecycle checks a request passes before the dispatcher serves it: on a stateless revision
 * its `_meta` (present, with the keys the revision requires and the client's capabilities), its
 * envelope (the dispatcher's envelope stage) and the protocol version, in that order; on a stateful
 * one the envelope, and the handshake's version negotiation. Each check says why a request is refused, or `null`; the
 * dispatcher turns a refusal into the error answer. Keys, methods and error codes come from the
 * generated `Protocol`. Revision-independent; copied verbatim into generated output.
 */
import {
  ErrorCode,
  isRecord,
  type JsonRpcErrorObject,
  type JsonRpcRequest,
} from "../shared/jsonrpc.js";
import type { Delivery } from "./transport.js";
import type { EnvelopeStage } from "./envelope.js";
import type { Protocol } from "./protocol.js";

/** The lifecycle of a revision that carries the protocol version and capabilities in every request's `_meta`. */
export type StatelessLifecycle = Extract<Protocol["lifecycle"], { kind: "stateless" }>;

/** The part of the protocol naming the metadata field (`_meta`) the checks read. */
type MetaField = { envelope: Pick<Protocol["envelope"], "meta"> };

/** The lifecycle of a revision whose clients open a session with a handshake. */
export type StatefulLifecycle = Extract<Protocol["lifecycle"], { kind: "stateful" }>;

/**
 * Why a stateless revision's request is refused, or `null` when it may be served (its version is
 * then `meta[protocolVersionKey]`, its client capabilities the object at `clientCapabilitiesKey`).
 */
export function refusedStateless(
  protocol: Pick<Protocol, "handshakeVersionParam" | "errors"> & MetaField,
  lifecycle: StatelessLifecycle,
  supportedVersions: readonly string[],
  request: JsonRpcRequest,
  params: Record<string, unknown>,
  delivery: Delivery,
  /** The dispatcher's envelope stage: the request's envelope (its HTTP headers) against the body. */
  envelope: Pick<EnvelopeStage, "refused">,
): JsonRpcErrorObject | null {
  const field = protocol.envelope.meta;
  const meta = params[field];
  if (!isRecord(meta)) {
    const handshake = initializeEraVersion(protocol, params);
    // An initialize-era client has no way forward but the message it shows its user: name the
    // versions this server speaks (versioning: a modern-only server SHOULD).
    if (handshake !== null)
      return {
        code: protocol.errors.unsupportedVersion,
        message: `Unsupported protocol version ${handshake}: this server supports ${supportedVersions.join(", ")}, which carry the protocol version and client capabilities in every request's ${field}`,
        data: { supported: [...supportedVersions], requested: handshake },
      };
    return {
      code: ErrorCode.InvalidParams,
      message: `Invalid params: ${field} is required on every request`,
    };
  }
  for (const key of lifecycle.requiredMetaKeys) {
    if (meta[key] === undefined)
      return {
        code: ErrorCode.InvalidParams,
        message: `Invalid params: ${field} is missing "${key}"`,
      };
  }
  if (!isRecord(meta[lifecycle.clientCapabilitiesKey]))
    return {
      code: ErrorCode.InvalidParams,
      message: `Invalid params: ${field} "${lifecycle.clientCapabilitiesKey}" must be an object`,
    };
  const refused = envelope.refused(request, params, delivery);
  if (refused) return refused;
  const requested = meta[lifecycle.protocolVersionKey];
  if (typeof requested !== "string" || !supportedVersions.includes(requested))
    return {
      code: protocol.errors.unsupportedVersion,
      message: "Unsupported protocol version",
      data: { supported: [...supportedVersions], requested },
    };
  return null;
}

/**
 * The protocol version an initialize-era client asked for, when the request is one (no `_meta`, a
 * handshake version in its params); else `null`.
 */
export function initializeEraVersion(
  protocol: Pick<Protocol, "handshakeVersionParam"> & MetaField,
  params: Record<string, unknown>,
): string | null {
  const handshake = params[protocol.handshakeVersionParam];
  return !isRecord(params[protocol.envelope.meta]) && typeof handshake === "string"
    ? handshake
    : null;
}

/**
 * The stateful handshake's version: the one the client requested (`params[handshakeVersionParam]`)
 * when this server accepts it, else the revision's own.
 */
export function negotiated(
  requested: unknown,
  supportedVersions: readonly string[],
  own: string,
): string {
  return typeof requested === "string" && supportedVersions.includes(requested) ? requested : own;
}
