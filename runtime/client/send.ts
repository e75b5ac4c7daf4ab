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
import type { RunningCall, WireAbort } from "./running-call.js";
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

/** One request to put on the wire, and what it is sent for. */
export interface Outgoing {
  method: string;
  id: JsonRpcId;
  params: Record<string, unknown>;
  /** The method's entry in the description (`undefined`: a request the runtime sends itself). */
  spec: ClientMethodSpec | undefined;
  options: CallOptions;
  call: RunningCall;
  /** The progress token the params carry, if the caller asked for progress. */
  progressToken: string | undefined;
}

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

  send(request: Outgoing): Promise<JsonRpcResponse> {
    const { telemetry } = this;
    if (telemetry === undefined) return this.sendUntraced(request);
    return this.sendTraced(telemetry, request);
  }

  /**
   * One request as an operation of the client's telemetry: its trace context written into the
   * request's metadata (by the description's name for it), ended with the response or the failure.
   */
  private async sendTraced(telemetry: Telemetry, request: Outgoing): Promise<JsonRpcResponse> {
    const { protocol, connection, transport } = this;
    const { method, id, params, spec } = request;
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
      response = await operation.run(() => this.sendUntraced({ ...request, params: traced }));
    } catch (error) {
      operation.end({ failure: failureOf(error) });
      throw error;
    }
    endOperation(operation, protocol, response);
    return response;
  }

  private async sendUntraced({
    method,
    id,
    params,
    spec,
    options,
    call,
    progressToken,
  }: Outgoing): Promise<JsonRpcResponse> {
    if (call.aborted) throw call.reason;
    const { protocol, connection, transport } = this;
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
    // On a legacy session every transport cancels by notification (a closed stream is not a
    // cancellation there); otherwise only those that say so (stdio).
    const cancelled = connection.session
      ? connection.session.era.cancelled
      : transport.cancelsByNotification
        ? protocol.notifications.cancelled
        : null;
    const cancelledParams = notificationParams.cancelled;
    const request = new WireRequest(
      this,
      call,
      id,
      headers,
      progressToken !== undefined && progressParam !== undefined
        ? { token: progressToken, param: progressParam, onProgress: options.onProgress }
        : null,
      cancelled && cancelledParams ? { method: cancelled, params: cancelledParams } : null,
    );
    (options as InternalCallOptions).onId?.(id);
    const sent = transport.request(message, request);
    // The call fails as soon as it is given up, whatever the transport does with its request.
    call.wire = request;
    try {
      return await new Promise<JsonRpcResponse>((resolve, reject) => {
        request.reject = reject;
        sent.then(resolve, reject);
      });
    } finally {
      call.wire = null;
    }
  }

  /** Progress for the request that asked for it; any other notification is routed. */
  receive(notification: JsonRpcNotification, progress: WireProgress | null): void {
    if (notification.method === this.protocol.notifications.progress) {
      if (progress !== null && notification.params?.[progress.param] === progress.token)
        progress.onProgress?.(notification.params);
      return;
    }
    this.route(notification);
  }

  /** The call of request `id` was given up: the transport drops it, and the server is told where that is how. */
  abandon(id: JsonRpcId, reason: unknown, cancel: WireCancel | null): void {
    const { transport } = this;
    transport.cancel?.(id, reason);
    if (cancel === null) return;
    const params: Record<string, unknown> = { [cancel.params.requestId]: id };
    if (cancel.params.reason !== null) params[cancel.params.reason] = String(reason);
    transport
      .notify(
        { jsonrpc: "2.0", method: cancel.method, params },
        { headers: { [this.protocol.headers.method]: cancel.method } },
      )
      .catch(() => {});
  }
}

interface WireProgress {
  token: string;
  param: string;
  onProgress: CallOptions["onProgress"];
}

/** The cancellation notification of a request, as the session's era or the revision names it. */
interface WireCancel {
  method: string;
  params: { requestId: string; reason: string | null };
}

/**
 * One request on the wire, as the transport is given it (`TransportRequestOptions`) and as its
 * call tells it that it was given up: one object for both, with the call's signal made only if
 * the transport asks for it.
 */
class WireRequest implements TransportRequestOptions, WireAbort {
  readonly progressToken: string | undefined;
  readonly progressParam: string | undefined;
  /** A closure, not a method: a transport may call it detached from this object. */
  readonly onNotification: (notification: JsonRpcNotification) => void;
  /** Fails the call's wait for the answer. */
  reject: ((reason: unknown) => void) | null = null;

  constructor(
    private readonly sender: Sender,
    private readonly call: RunningCall,
    private readonly id: JsonRpcId,
    readonly headers: Readonly<Record<string, string>>,
    progress: WireProgress | null,
    private readonly cancel: WireCancel | null,
  ) {
    this.progressToken = progress?.token;
    this.progressParam = progress?.param;
    this.onNotification = (notification) => sender.receive(notification, progress);
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }

  abort(reason: unknown): void {
    this.reject?.(reason);
    this.sender.abandon(this.id, reason, this.cancel);
  }
}

/** A request that got no response, as `error.type`: its error's class name (low in cardinality), else `_OTHER`. */
function failureOf(error: unknown): string {
  return error instanceof Error ? error.name : "_OTHER";
}
