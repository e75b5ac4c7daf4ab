/**
 * The client transport contract: what the client core asks of a transport (`http.ts`,
 * `stdio.ts`, or one of the user's), and what a transport may tell the client outside any
 * request. Transports only move messages; every protocol rule is the core's. Browser-safe.
 * Revision-independent; copied verbatim into generated output.
 */
import type {
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "../shared/jsonrpc.js";
import type { NetworkFacts } from "../shared/telemetry.js";

export interface TransportRequestOptions {
  /**
   * Aborted when the caller gives up (abort, timeout, close). The core makes it when it is first
   * read: a transport with `cancel` need not read it.
   */
  readonly signal: AbortSignal;
  /** Notifications that belong to this request (progress, subscription events). */
  onNotification: (notification: JsonRpcNotification) => void;
  /** Headers an HTTP transport sends with the request; other transports ignore them. */
  headers: Readonly<Record<string, string>>;
  /** The request's progress token, for transports that route notifications themselves (stdio). */
  progressToken?: string | number | undefined;
  /** The progress notification's param carrying the token, as the revision names it (with `progressToken`). */
  progressParam?: string | undefined;
}

/** What a transport may tell the client outside any request. */
export interface TransportPeer {
  log(message: string): void;
  /** A notification that belongs to no pending request. */
  notification(notification: JsonRpcNotification): void;
  /** A request the server sends on the wire (stateful revisions): the client's answer to write back. */
  /** `null`: no answer is sent (the server cancelled the request). */
  request(request: JsonRpcRequest): Promise<JsonRpcResponse | null>;
}

export interface ClientTransport {
  /** Sends one request and resolves with its response; rejects with `TransportError` when none can come. */
  request(message: JsonRpcRequest, options: TransportRequestOptions): Promise<JsonRpcResponse>;
  /**
   * The caller gave up on the request with this id (abort, timeout, close): nothing more is waited
   * for or read for it (the call has failed already; the promise may reject with `reason`). Called
   * before `signal` aborts; a transport with it need not read `signal`, so that a call nobody
   * gives up costs no AbortSignal.
   */
  cancel?(id: JsonRpcId, reason: unknown): void;
  notify(
    message: JsonRpcNotification,
    options?: { headers?: Readonly<Record<string, string>> },
  ): Promise<void>;
  close(): Promise<void>;
  /** Called once by the client that uses the transport. */
  attach?(peer: TransportPeer): void;
  /** Stdio: probe `server/discover` before the first request (backward compatibility with legacy servers). */
  readonly probes?: boolean;
  /** Stdio: cancellation is a `notifications/cancelled` message (HTTP cancels by closing the stream). */
  readonly cancelsByNotification?: boolean;
  /** HTTP: tool arguments annotated with `x-mcp-header` are mirrored into `Mcp-Param-*` headers. */
  readonly mirrorsHeaders?: boolean;
  /** Names the server (URL, command line): public cache entries are shared between clients with the same key. */
  readonly cacheKey?: string;
  /**
   * Names what the server's era is a property of (HTTP: its origin): a dual-era client probes once
   * per key. Without one (stdio) the era is learnt per client, that is per server process.
   */
  readonly eraKey?: string;
  /** How the server is reached, for telemetry (`network.transport`, `server.address`…). */
  readonly network?: NetworkFacts;
  /** The session's id while one is open (HTTP `Mcp-Session-Id`), for telemetry. */
  readonly sessionId?: string | undefined;
  /**
   * Initialize-era sessions, for transports with session mechanics (HTTP): a handshake is about to
   * be sent (the session it opens is kept from its answer), it completed with `version` (the GET
   * stream opens), and the session ends (DELETE).
   */
  beginSession?(): void;
  sessionOpened?(version: string): Promise<void>;
  endSession?(): Promise<void>;
}
