/**
 * Putting one request on the wire: its id, the request metadata headers (`Mcp-Method`,
 * `MCP-Protocol-Version`, `Mcp-Name`, a tool call's `Mcp-Param-*`), its progress notifications
 * handed to the caller and every other notification routed, and its cancellation when the caller
 * gives up (by notification where the transport or the legacy session says so). Revision-independent;
 * copied verbatim into generated output.
 */
import type { Connection } from "./connection.js";
import type { CallOptions, InternalCallOptions } from "./options.js";
import type { ClientMethodSpec, ClientProtocol } from "./protocol.js";
import type { ToolResults } from "./tools.js";
import type { ClientTransport, TransportRequestOptions } from "./transport.js";
import type {
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "../shared/jsonrpc.js";
import { encodeHeaderValue } from "../shared/param-headers.js";

export class Sender {
  private nextId = 1;
  private nextToken = 1;

  constructor(
    private readonly protocol: ClientProtocol,
    private readonly transport: ClientTransport,
    private readonly connection: Connection,
    private readonly tools: ToolResults,
    /** Where a notification that is not this request's progress goes. */
    private readonly route: (notification: JsonRpcNotification) => void,
  ) {}

  /** A fresh request id. */
  id(): number {
    return this.nextId++;
  }

  /** A fresh progress token. */
  progressToken(): string {
    return `p${this.nextToken++}`;
  }

  async send(
    method: string,
    id: JsonRpcId,
    params: Record<string, unknown>,
    spec: ClientMethodSpec | undefined,
    options: CallOptions,
    signal: AbortSignal,
    progressToken: string | undefined,
  ): Promise<JsonRpcResponse> {
    if (signal.aborted) throw signal.reason;
    const { protocol, connection } = this;
    const message: JsonRpcRequest = { jsonrpc: "2.0", id, method, params };
    const names = protocol.headers;
    const headers: Record<string, string> = { [names.method]: method };
    // A handshake carries its version in its params only.
    const initialize =
      connection.handshaking?.initialize ??
      (protocol.lifecycle.kind === "stateful" ? protocol.lifecycle.initialize : null);
    if (method !== initialize) headers[names.protocolVersion] = connection.version;
    const target = spec?.target ? params[spec.target] : undefined;
    if (typeof target === "string") headers[names.name] = encodeHeaderValue(target) ?? target;
    const mirrored = this.tools.headers(method, params);
    if (mirrored) Object.assign(headers, mirrored);
    // The notifications' params as the session's era names them, else as the revision does.
    const notificationParams =
      connection.session?.era.notificationParams ?? protocol.notificationParams;
    const progressParam = notificationParams.progress?.token;
    const onNotification = (notification: JsonRpcNotification) => {
      if (notification.method === protocol.notifications.progress) {
        if (
          progressToken !== undefined &&
          progressParam !== undefined &&
          notification.params?.[progressParam] === progressToken
        )
          options.onProgress?.(notification.params);
        return;
      }
      this.route(notification);
    };
    const transportOptions: TransportRequestOptions =
      progressToken === undefined || progressParam === undefined
        ? { signal, onNotification, headers }
        : { signal, onNotification, headers, progressToken, progressParam };
    (options as InternalCallOptions).onId?.(id);
    const sent = this.transport.request(message, transportOptions);
    // On a legacy session every transport cancels by notification (a closed stream is not a
    // cancellation there); otherwise only those that say so (stdio).
    const cancelled = connection.session
      ? connection.session.era.cancelled
      : this.transport.cancelsByNotification
        ? protocol.notifications.cancelled
        : null;
    const cancelledParams = notificationParams.cancelled;
    if (cancelled && cancelledParams) {
      const onAbort = () => {
        const params: Record<string, unknown> = { [cancelledParams.requestId]: id };
        if (cancelledParams.reason !== null) params[cancelledParams.reason] = String(signal.reason);
        this.transport
          .notify(
            { jsonrpc: "2.0", method: cancelled, params },
            { headers: { [names.method]: cancelled } },
          )
          .catch(() => {});
      };
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        return await raceAbort(sent, signal);
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    }
    return raceAbort(sent, signal);
  }
}

function raceAbort<R>(promise: Promise<R>, signal: AbortSignal): Promise<R> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<R>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
