/**
 * The hooks through which a server dispatcher and a client core report what they do, for a
 * telemetry adapter to record (runtime/telemetry/otel.ts, generated with `--telemetry otel`).
 * Only interfaces: without an adapter nothing here exists at run time, and the dispatcher and the
 * client core skip every hook with one `undefined` check. The facts are plain data read by the
 * protocol description's names, so an adapter needs to know nothing of a revision.
 * Revision-independent; copied verbatim into generated output.
 */
import type { JsonRpcId } from "./jsonrpc.js";

/** How the peer is reached: the transport's share of the facts (`network.*`, `server.*` attributes). */
export interface NetworkFacts {
  /** `pipe` over stdio, `tcp` over HTTP. */
  transport: "pipe" | "tcp";
  /** `http` over Streamable HTTP; absent over stdio. */
  protocol?: "http";
  /** The client's view of the server: host name (or address) and port, when it has a URL. */
  address?: string;
  port?: number;
}

/** What the dispatcher or the client core knows of one request or notification when it starts. */
export interface OperationFacts {
  method: string;
  /** The JSON-RPC id; absent for a notification. */
  id?: JsonRpcId;
  /** The params as sent (the target is read from them by `target`). */
  params: Record<string, unknown>;
  /** The param naming the request's target (the description's `MethodDescription.target`), if any. */
  target: string | null;
  /** The request is the description's tool call (`tools.call`): its target is a tool's name. */
  toolCall: boolean;
  /** The incoming metadata (server side), where a trace context sent by the client is read from. */
  meta?: Record<string, unknown>;
  /** The protocol version the request is served or sent under, when known. */
  protocolVersion?: string;
  /** The transport's session id (HTTP `Mcp-Session-Id`), when the request belongs to one. */
  sessionId?: string;
  /** How the peer is reached, when the transport says (a transport of the user's may not). */
  network?: NetworkFacts;
}

/** How an operation ended, as the JSON-RPC response (or its absence) tells. */
export interface OperationEnd {
  /** The JSON-RPC error answered or received. */
  error?: { code: number; message: string };
  /** The result says the tool failed (its `isError` field, by the description's name). */
  toolError?: boolean;
  /** It ended without a response: `timeout`, `cancelled`, a transport failure's class. */
  failure?: string;
}

/** One request or notification being recorded. */
export interface Operation {
  /** Runs `fn` with this operation as the active context, so that what it calls out is its child. */
  run<T>(fn: () => T): T;
  /** Writes this operation's trace context into an outgoing `_meta` (a copy the caller owns). */
  inject(meta: Record<string, unknown>): void;
  /** Something within it: a round of input requests, a request bridged to the client. */
  event(name: string, attributes: Record<string, string | number>): void;
  end(outcome: OperationEnd): void;
}

/** What a telemetry adapter offers one side (the server's dispatcher, or a client core). */
export interface Telemetry {
  /** A request or notification starts (received by a server, sent by a client). */
  operation(facts: OperationFacts): Operation;
  /** A session's first request: it starts counting its duration (once per `session` object). */
  sessionSeen(session: object, facts: OperationFacts): void;
  /** The session ended: its duration is recorded. */
  sessionEnded(session: object): void;
}
