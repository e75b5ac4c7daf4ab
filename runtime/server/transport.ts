/**
 * The contract between a server transport (stdio, Streamable HTTP) and the dispatcher. Transports
 * frame bytes into messages and deliver what the dispatcher produces; every protocol rule lives in
 * the dispatcher. Revision-independent; copied verbatim into generated output.
 *
 * The server runtime's verbs, one meaning each (here, in dispatch.ts and the modules it uses, and in
 * the transports):
 * - answer: what a handler gives for a request, a result or an `input_required` answer, maybe as
 *   a promise.
 * - refuse: answer a request with an error before its handler runs (a lifecycle check, its params,
 *   a round that does not resume; over HTTP also before its body is read).
 * - conclude: turn a handler's answer into what the request gets (a response, or another round).
 * - finish: add to a result the fields every result carries (its result type, caching hints, the
 *   server's `_meta`).
 * - respond: make the JSON-RPC response to a request from a result: finished, then checked.
 * - outcome: what the dispatcher makes of one message (`Outcome`): the response, if any, and the
 *   HTTP status.
 * - settle: go on once what may be a promise (an answer, an outcome) is ready; at once when it
 *   already is.
 * - deliver: a transport writes an outcome to its peer (one JSON body, the last SSE event, a line).
 * - end: stop one long-lived thing (a subscription, a session, a stream); close: stop accepting and
 *   end everything still open (a dispatcher, a transport, a server).
 * - complete, completion: the protocol's words only (the result type that is not `input_required`;
 *   argument completion).
 */
import type {
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "../shared/jsonrpc.js";
import type { RequestHeaders } from "../shared/http-headers.js";
import type { Principal } from "../auth/http-auth.js";
import type { Store } from "./store.js";

/**
 * What a transport knows about one incoming message, beyond the message itself.
 *
 * Transports make one of these per request: make it an instance of a class, with `signal` as a
 * getter on the prototype. An object literal with a getter gets a hidden class of its own, which
 * V8 allocates in the old generation; through it the getter's closure, and everything the request
 * holds, survives every young-generation collection until the next full one, and the young
 * generation grows to make room.
 */
export interface Delivery {
  /**
   * Sends a notification that belongs to this request (progress, log messages, subscription
   * events). Over HTTP it goes on the request's own SSE stream; over stdio, to stdout.
   */
  notify(notification: JsonRpcNotification): void;
  /** Aborted when the peer cancels the request or the connection goes away. */
  signal: AbortSignal;
  /**
   * State shared by the messages of one session: a stdio connection, or over HTTP the messages
   * carrying one `Mcp-Session-Id` (the transport names a new session in that header once the
   * dispatcher has stored something in it). Stateful revisions keep their handshake here; stateless
   * ones never touch it.
   */
  session?: Record<string, unknown>;
  /**
   * Who the transport authenticated the request as (say, a bearer token's subject), when it
   * authenticates requests; sealed `requestState` is bound to it.
   */
  readonly principal?: string | undefined;
  /**
   * What the transport's authentication established, `principal` included: a bearer token's
   * scopes, subject, client, issuer, expiry and claims (never the token itself).
   */
  readonly auth?: Principal | undefined;
  /**
   * The headers the request came with (HTTP; lower-case names), as received: the envelope the
   * dispatcher checks against the body (envelope.ts). Absent where messages have no envelope (stdio).
   */
  readonly headers?: RequestHeaders | undefined;
  /** A request header's value (HTTP; lower-case name), for the rules that read one directly. */
  header?(name: string): string | undefined;
}

/**
 * Where a transport keeps, in a session record, how to reach the client outside any request: over
 * stdio the output, over HTTP the session's GET stream. A symbol, so that it is never taken for
 * something the dispatcher stored.
 */
export const SESSION_SEND: unique symbol = Symbol("mcp session send");

/**
 * Where a transport that shares its sessions with other processes (through a `Store`) keeps a
 * session's id in its record: what the session's shared state (its snapshot, its event log, the
 * indexes naming it) is found under.
 */
export const SESSION_ID: unique symbol = Symbol("mcp session id");

/** The outcome of one incoming message: what the dispatcher makes of it, for the transport to deliver. */
export interface Outcome {
  /** The response to send; `null` for notifications and responses, which are never answered. */
  response: JsonRpcResponse | null;
  /** The HTTP status the transport document prescribes for this outcome (stdio ignores it). */
  httpStatus: number;
}

/** Anything that can answer messages; the generated server's dispatcher is one. */
export interface MessageHandler {
  /**
   * Handles one framed message (already parsed from JSON, or the raw text when parsing is left to
   * the dispatcher). Never throws: every failure becomes a JSON-RPC error response. Long-lived
   * requests (`subscriptions/listen`) resolve only when their stream ends.
   */
  handle(message: unknown, delivery: Delivery): Promise<Outcome>;
  /**
   * Handles a message the transport has already classified as a request (`kindOf`), with the same
   * contract as `handle`, but returns the outcome at once, without a promise, when every step of it
   * is synchronous. Transports use it when it is there.
   */
  handleRequest?(request: JsonRpcRequest, delivery: Delivery): Outcome | Promise<Outcome>;
  /**
   * The request a cancellation notification (the method `StdioOptions.cancelledMethod` names)
   * cancels, and why, read from its params by the names of the revision the session speaks;
   * `null` when they name none. A transport that tracks requests in flight (stdio) aborts that
   * one; without this method it cancels nothing itself. The transport names no protocol field.
   */
  cancelledRequest?(
    params: unknown,
    session: Record<string, unknown> | undefined,
  ): Cancellation | null;
  /** Called by transports for diagnostics; the default writes to stderr. */
  log?(message: string): void;
  /** Called by transports when a session ends (HTTP DELETE, idle or evicted; the end of a stdio connection). */
  endSession?(session: Record<string, unknown>): void;
  /**
   * The state processes share (runtime/store.ts), when there is one: a transport then keeps its
   * sessions there, so that any process behind the load balancer serves any of them.
   */
  readonly store?: Store | undefined;
  /** What the handler keeps in a session record, as JSON, for another process to restore. */
  snapshotSession?(session: Record<string, unknown>): unknown;
  /** Puts a snapshot (`snapshotSession`, maybe another process's) into a session record, fresh or known. */
  restoreSession?(session: Record<string, unknown>, snapshot: unknown): void;
  /** A shared session was created (it has its `SESSION_ID`): settles once the handler has noted it in the store. */
  sessionOpened?(session: Record<string, unknown>): Promise<void>;
  /**
   * Called once by a transport that shares its sessions: how the handler sends a message to a
   * session by id, whichever process holds its stream (resource updates, list changes), and how
   * long the store keeps a session from its last request (what the handler's own indexes live).
   */
  shareSessions?(
    send: (sessionId: string, message: JsonRpcNotification) => Promise<void>,
    sessionTtlMs: number,
  ): void;
}

/** A request cancelled by the peer: its id, and the reason given (anything; a string when one was). */
export interface Cancellation {
  requestId: JsonRpcId;
  reason: unknown;
}

/**
 * The cancellation that params carry, by the param names of a revision's cancellation
 * notification (`notificationParams.cancelled`); `null` when they name no request (an id is a
 * string or a finite number) or the revision has no such notification.
 */
export function cancellationOf(
  params: unknown,
  names: { requestId: string; reason: string | null } | null,
): Cancellation | null {
  if (!names || typeof params !== "object" || params === null) return null;
  const record = params as Record<string, unknown>;
  const requestId = record[names.requestId];
  if (
    typeof requestId !== "string" &&
    !(typeof requestId === "number" && Number.isFinite(requestId))
  )
    return null;
  return { requestId, reason: names.reason === null ? undefined : record[names.reason] };
}

/** Whether an answer or an outcome is a promise (or another thenable) to settle. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    ((typeof value === "object" && value !== null) || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * An AbortController made only when someone asks for its signal: most requests finish without
 * anyone looking, and a controller costs more than the rest of a small request's bookkeeping.
 */
export class LazyAbort {
  private controller: AbortController | null = null;
  private reason: { value: unknown } | null = null;

  get aborted(): boolean {
    return this.reason !== null;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason.value);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.reason) return;
    this.reason = { value: reason };
    this.controller?.abort(reason);
  }
}

/**
 * Lets the process exit while `timer` is pending (a keep-alive, a deadline). Node, Bun and Deno
 * give timers `unref`; runtimes whose timers are numbers (workerd, browsers) have no process to keep.
 */
export function unrefTimer(
  timer: ReturnType<typeof setTimeout> | ReturnType<typeof setInterval>,
): void {
  (timer as { unref?: () => void }).unref?.();
}
