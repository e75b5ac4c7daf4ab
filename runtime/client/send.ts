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
import { isRecord } from "../shared/jsonrpc.js";
import type { OperationFacts, Telemetry } from "../shared/telemetry.js";
import { endOperation } from "../shared/telemetry-outcome.js";

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
    /** Records each request sent (`CoreOptions.telemetry`); `undefined`: nothing runs. */
    private readonly telemetry: Telemetry | undefined = undefined,
  ) {}

  /** A fresh request id. */
  id(): number {
    return this.nextId++;
  }

  /** A fresh progress token. */
  progressToken(): string {
    return `p${this.nextToken++}`;
  }

  send(
    method: string,
    id: JsonRpcId,
    params: Record<string, unknown>,
    spec: ClientMethodSpec | undefined,
    options: CallOptions,
    signal: AbortSignal,
    progressToken: string | undefined,
  ): Promise<JsonRpcResponse> {
    const { telemetry } = this;
    if (telemetry === undefined)
      return this.sendUntraced(method, id, params, spec, options, signal, progressToken);
    return this.sendTraced(telemetry, method, id, params, spec, options, signal, progressToken);
  }

  /**
   * One request as an operation of the client's telemetry: its trace context written into the
   * request's metadata (by the description's name for it), ended with the response or the failure.
   */
  private async sendTraced(
    telemetry: Telemetry,
    method: string,
    id: JsonRpcId,
    params: Record<string, unknown>,
    spec: ClientMethodSpec | undefined,
    options: CallOptions,
    signal: AbortSignal,
    progressToken: string | undefined,
  ): Promise<JsonRpcResponse> {
    const { protocol, connection, transport } = this;
    const facts: OperationFacts = {
      method,
      id,
      params,
      target: spec?.target ?? null,
      toolCall: protocol.tools !== null && method === protocol.tools.call,
      protocolVersion: connection.version,
    };
    if (transport.network) facts.network = transport.network;
    const sessionId = transport.sessionId;
    if (sessionId !== undefined) facts.sessionId = sessionId;
    telemetry.sessionSeen(connection, facts);
    const operation = telemetry.operation(facts);
    const field = protocol.envelope.meta;
    const given = params[field];
    const meta: Record<string, unknown> = isRecord(given) ? { ...given } : {};
    operation.inject(meta);
    const traced = Object.keys(meta).length > 0 ? { ...params, [field]: meta } : params;
    let response: JsonRpcResponse;
    try {
      response = await operation.run(() =>
        this.sendUntraced(method, id, traced, spec, options, signal, progressToken),
      );
    } catch (error) {
      operation.end({ failure: failureOf(error) });
      throw error;
    }
    endOperation(operation, protocol, response);
    return response;
  }

  private async sendUntraced(
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

/** A request that got no response, as `error.type`: its error's class name (low in cardinality), else `_OTHER`. */
function failureOf(error: unknown): string {
  return error instanceof Error ? error.name : "_OTHER";
}
