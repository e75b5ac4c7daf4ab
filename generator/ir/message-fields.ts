import type { ProtocolModel, Property, TypeNode } from "./model.js";
import type {
  DescribeSource,
  HandshakeDescription,
  NotificationParamsDescription,
} from "../../runtime/shared/protocol.js";
import type { MethodInRole, ModelIndex } from "./query.js";
import { CAPABILITY_TYPES, PROTOCOL_VERSION_FIELD, WIRE_CONVENTIONS } from "./conventions.js";

/**
 * The names of the fields the runtime writes into messages no handler writes, beyond the envelope
 * (`wire.ts`): the initialize handshake's params and the version its result names, the progress,
 * cancellation and log notifications' params. Each is found by its type in the revision's own
 * definitions (the client's capabilities, an implementation, a progress token, a request id, a log
 * level), so that a revision renaming one is followed with no new code.
 */

/** The handshake's fields, or `null` when the revision has no handshake (stateless) or it lacks a version or capabilities. */
export function handshakeFields(
  model: ProtocolModel,
  index: ModelIndex,
  roles: readonly MethodInRole[],
  describe: Readonly<Record<string, DescribeSource>>,
): HandshakeDescription | null {
  const { lifecycle } = model;
  if (lifecycle.kind !== "stateful") return null;
  const request = roles.find((m) => m.kind === "request" && m.method === lifecycle.initialize);
  const params = index.objectOf(request?.params)?.properties ?? [];
  // The offered version goes by the name a stateless server also recognises a handshake by.
  const version = params.find(
    (p) => p.name === PROTOCOL_VERSION_FIELD && p.type.kind === "string",
  )?.name;
  const capabilities = params.find((p) => refersTo(p.type, CAPABILITY_TYPES.client))?.name;
  const info =
    params.find((p) => refersTo(p.type, WIRE_CONVENTIONS.implementationType))?.name ?? null;
  const chosen = Object.entries(describe).find(([, source]) => source === "protocolVersion")?.[0];
  if (!version || !capabilities || !chosen) return null;
  return { params: { version, capabilities, info }, result: { version: chosen } };
}

/** The param of a progress notification typed as a progress token, or `null` when the notification has none. */
export function progressTokenParam(index: ModelIndex, notification: MethodInRole): string | null {
  return paramTyped(index, notification, WIRE_CONVENTIONS.progressTokenType)?.name ?? null;
}

/** The param of a cancellation typed as a request id, or `null` when the notification has none. */
export function cancelledRequestParam(
  index: ModelIndex,
  notification: MethodInRole,
): string | null {
  return paramTyped(index, notification, WIRE_CONVENTIONS.requestIdType)?.name ?? null;
}

/** The param of a log notification typed as a log level, or `null` when the notification has none. */
export function logLevelParam(index: ModelIndex, notification: MethodInRole): string | null {
  return paramTyped(index, notification, WIRE_CONVENTIONS.logLevelType)?.name ?? null;
}

/** The progress, cancellation and log notifications' params (any of them may be missing). */
export function notificationParams(
  index: ModelIndex,
  progress: MethodInRole | undefined,
  cancelled: MethodInRole | undefined,
  message: MethodInRole | undefined,
): NotificationParamsDescription {
  const paramsOf = (n: MethodInRole | undefined) => index.objectOf(n?.params)?.properties ?? [];
  const progressParams = paramsOf(progress);
  const cancelledParams = paramsOf(cancelled);
  const token = progress ? progressTokenParam(index, progress) : null;
  const requestId = cancelled ? cancelledRequestParam(index, cancelled) : null;
  const messageParams = paramsOf(message);
  const level = message ? logLevelParam(index, message) : null;
  const number = (p: Property) => p.type.kind === "number";
  const text = (p: Property) => p.type.kind === "string";
  return {
    progress: token
      ? {
          token,
          progress: only(progressParams.filter((p) => number(p) && !p.optional)),
          total: only(progressParams.filter((p) => number(p) && p.optional)),
          message: only(progressParams.filter(text)),
        }
      : null,
    cancelled: requestId ? { requestId, reason: only(cancelledParams.filter(text)) } : null,
    // The logger is the optional string, the data the one param of any type (`unknown`).
    message: level
      ? {
          level,
          logger: only(messageParams.filter((p) => text(p) && p.optional)),
          data: only(
            messageParams.filter((p) => p.type.kind === "unknown" || p.type.kind === "any"),
          ),
        }
      : null,
  };
}

function paramTyped(index: ModelIndex, method: MethodInRole, type: string): Property | null {
  return index.objectOf(method.params)?.properties.find((p) => refersTo(p.type, type)) ?? null;
}

/** The name of the one property that fits, or `null` when none or several do. */
function only(properties: Property[]): string | null {
  return properties.length === 1 ? properties[0]!.name : null;
}

function refersTo(type: TypeNode, name: string): boolean {
  return type.kind === "ref" && type.name === name;
}
