/**
 * The initialize era, served by a stateless (per-request `_meta`) server: a legacy client opens a
 * session with its handshake, and its requests are then answered by the same handlers as modern
 * ones, their params given the `_meta` the session stands for and their results put back into the
 * legacy shape. Everything revision-specific comes from the era (`LegacyEra`, `runtime/protocol.ts`)
 * the generator derives from the legacy revision's schema and the diff between the two. Here: the
 * server's sessions (kept, bounded, shared, ended) and the requests on them; the handshake
 * (legacy-handshake.ts), one session (legacy-session.ts), translation between the eras
 * (legacy-messages.ts) and `input_required` bridged into requests (legacy-input.ts) are modules of
 * their own. Revision-independent; copied verbatim into generated output.
 */
import { ErrorCode, isRecord, own, SERVER_BUSY, success } from "../shared/jsonrpc.js";
import type {
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
} from "../shared/jsonrpc.js";
import { cancellationOf, isThenable, type Delivery, type Outcome } from "./transport.js";
import type { LegacyEra } from "../shared/protocol.js";
import { isStoreUnavailable, STORE_AWAY_MESSAGE, type Store } from "./store.js";
import { SharedLegacy, sharedId } from "./legacy-shared.js";
import { LegacySession, SESSION_KEY, sessionOf, type LegacySnapshot } from "./legacy-session.js";
import { LegacyHandshakes } from "./legacy-handshake.js";
import { LegacyDelivery, legacyMessage, modernMeta, withField } from "./legacy-messages.js";
import type { LegacyHost } from "./legacy-host.js";
import { DEFAULT_MAX_HANDSHAKE_BYTES } from "./session-budget.js";

export { LegacySession } from "./legacy-session.js";

/** `LegacyOptions.maxSessions` by default (see there). */
export const DEFAULT_LEGACY_MAX_SESSIONS = 16_384;

export interface LegacyOptions {
  /**
   * Legacy sessions kept at once; past it the least recently used one is ended. Default 16,384:
   * above the HTTP transport's `maxSessions` (10,000) and the handshakes it admits at once
   * (`maxRequestsInFlight`, 1,024), so that over HTTP the transport's bound, which knows whose each
   * session is and takes from the client holding the most, acts first; this one backs it up (raise
   * it with `maxSessions`).
   */
  maxSessions?: number;
  /** How long a request to the client (elicitation, sampling, roots) may go unanswered. Default 60 s. */
  inputTimeoutMs?: number;
  /** Rounds of `input_required` one legacy request may take. Default 8. */
  maxInputRounds?: number;
  /** Resources one session may subscribe to. Default 1,000. */
  maxSubscriptions?: number;
  /** Bytes (UTF-8) of the URIs one session's subscriptions hold. Default 1 MiB. */
  maxSubscriptionBytes?: number;
  /** Bytes of subscribed URIs all sessions of the server hold together. Default 64 MiB. */
  maxSubscriptionBytesTotal?: number;
  /**
   * Bytes (JSON) of the capabilities and client identity one handshake declares, together: a
   * session keeps them for its life, so past it the handshake is refused (-32602). Default 64 KiB.
   */
  maxHandshakeBytes?: number;
}

const MiB = 1024 * 1024;

export type { LegacyCall, LegacyHost } from "./legacy-host.js";

/** The legacy sessions of one server, and how a message without modern `_meta` is served. */
export class LegacySessions {
  /** Open sessions, least recently used first (a Map keeps insertion order; use re-inserts). */
  private readonly sessions = new Map<LegacySession, true>();
  /** The session `sessions` lists last (most recently used), when `touch` put it there. */
  private newest: LegacySession | null = null;
  /** The legacy revisions' handshakes, which open sessions. */
  private readonly handshakes: LegacyHandshakes;
  readonly maxSessions: number;
  readonly inputTimeoutMs: number;
  readonly maxInputRounds: number;
  readonly maxSubscriptions: number;
  readonly maxSubscriptionBytes: number;
  readonly maxSubscriptionBytesTotal: number;
  /** Bytes of subscribed URIs every open session holds together. */
  private subscriptionBytes = 0;
  /** The indexes and bus of sessions shared with other processes, once a transport shares them. */
  private shared: SharedLegacy<LegacySession> | null = null;
  /**
   * Told of each request bridged to a client (an input request of a modern handler, sent as a
   * request of its own), with the delivery of the client's request it serves: the dispatcher's
   * telemetry records it. `null`: nothing is told.
   */
  bridged: ((delivery: Delivery, method: string) => void) | null = null;

  constructor(
    /** Newest protocol version first. */
    readonly protocols: readonly LegacyEra[],
    private readonly host: LegacyHost,
    options: LegacyOptions = {},
  ) {
    this.handshakes = new LegacyHandshakes(
      protocols,
      host,
      (session) => {
        session.record[SESSION_KEY] = session;
        this.remember(session);
      },
      options.maxHandshakeBytes ?? DEFAULT_MAX_HANDSHAKE_BYTES,
    );
    this.maxSessions = options.maxSessions ?? DEFAULT_LEGACY_MAX_SESSIONS;
    this.inputTimeoutMs = options.inputTimeoutMs ?? 60_000;
    this.maxInputRounds = options.maxInputRounds ?? 8;
    this.maxSubscriptions = options.maxSubscriptions ?? 1_000;
    this.maxSubscriptionBytes = options.maxSubscriptionBytes ?? MiB;
    this.maxSubscriptionBytesTotal = options.maxSubscriptionBytesTotal ?? 64 * MiB;
  }

  /**
   * Shares sessions with other processes through `store` (a transport that keeps its sessions
   * there calls this): `send` reaches a session by id, whichever process holds its stream;
   * `sessionTtlMs` is how long the store keeps a session from its last request.
   */
  share(
    store: Store,
    send: (id: string, message: JsonRpcNotification) => Promise<void>,
    sessionTtlMs: number,
  ): void {
    this.shared?.close();
    this.shared = new SharedLegacy<LegacySession>(
      store,
      send,
      {
        find: (id) => {
          for (const session of this.sessions.keys()) if (sharedId(session) === id) return session;
          return undefined;
        },
        received: (session, message) => this.received(session, message),
        log: (message) => this.host.log(message),
      },
      this.protocols.map((p) => p.protocolVersion),
      sessionTtlMs,
    );
  }

  /** A session record's legacy part, as JSON (`restore` takes it back, in this process or another). */
  snapshot(record: Record<string, unknown>): LegacySnapshot | undefined {
    return LegacySessions.of(record)?.snapshot();
  }

  /** A shared session was created: in the index of its version, so that list changes reach it. */
  async opened(record: Record<string, unknown>): Promise<void> {
    const session = LegacySessions.of(record);
    if (session && this.shared && sharedId(session)) await this.shared.joined(session);
  }

  /**
   * Puts a snapshot into a record: a session this process already has is brought up to date, in
   * place. A shared session is restored on each of its requests: its indexes are renewed with it.
   */
  restore(record: Record<string, unknown>, snapshot: LegacySnapshot): void {
    const known = LegacySessions.of(record);
    if (known) {
      // The snapshot it was last brought up to date from holds nothing new (the transport keeps
      // one object per stored state): a trusted copy's requests skip the refresh.
      if (known.restoredFrom !== snapshot) {
        // The server's byte count follows what the copy holds now (another process may have subscribed).
        const before = known.subscriptionBytes;
        known.refresh(snapshot);
        this.subscriptionBytes += known.subscriptionBytes - before;
      }
      this.touch(known);
      this.renew(known);
      return;
    }
    const protocol = this.protocols.find((p) => p.protocolVersion === snapshot.version);
    if (!protocol) return;
    const session = new LegacySession(
      protocol,
      snapshot.clientCapabilities,
      snapshot.clientInfo,
      record,
    );
    session.refresh(snapshot);
    this.subscriptionBytes += session.subscriptionBytes;
    record[SESSION_KEY] = session;
    this.remember(session);
    this.renew(session);
  }

  /** Keeps a shared session's indexes as long as the session (in the background: a failure is the store's to say). */
  private renew(session: LegacySession): void {
    this.shared?.renew(session)?.catch((error: unknown) => this.storeFailed(error));
  }

  /** A background store call failed: logged, unless the store is away (it says so itself, once). */
  private storeFailed(error: unknown): void {
    if (!isStoreUnavailable(error)) this.host.log(`mcp-gen server: the store: ${String(error)}`);
  }

  /** How many sessions are open. */
  get size(): number {
    return this.sessions.size;
  }

  static of(record: Record<string, unknown> | undefined): LegacySession | undefined {
    return sessionOf(record);
  }

  /** Whether a request without modern `_meta` is the legacy side's: a handshake, or a request on a legacy session. */
  claims(request: JsonRpcRequest, delivery: Delivery): boolean {
    return (
      this.handshakes.opens(request.method) || LegacySessions.of(delivery.session) !== undefined
    );
  }

  /** A request without modern `_meta`: the handshake, a session's own requests, or one served by a handler. */
  request(
    request: JsonRpcRequest,
    params: Record<string, unknown>,
    delivery: Delivery,
  ): Outcome | Promise<Outcome> {
    const { host } = this;
    const record = delivery.session;
    const session = LegacySessions.of(record);
    if (this.handshakes.opens(request.method))
      return this.handshakes.answer(request, params, delivery);
    if (!session || session.ended)
      return host.error(
        request.id,
        ErrorCode.InvalidRequest,
        `Invalid request: no session; send ${this.handshakes.methods.join(" or ")} first, or carry the protocol version in params.${host.metaField}`,
      );
    this.touch(session);
    const outcome = this.sessionRequest(session, request, params, delivery);
    return isThenable(outcome) ? outcome.then(withSessionStatus) : withSessionStatus(outcome);
  }

  /** A request on an open session: its own requests, or one served by a handler. */
  private sessionRequest(
    session: LegacySession,
    request: JsonRpcRequest,
    params: Record<string, unknown>,
    delivery: Delivery,
  ): Outcome | Promise<Outcome> {
    const { host } = this;
    const protocol = session.protocol;
    const header = delivery.header?.("mcp-protocol-version");
    if (header !== undefined && header !== protocol.protocolVersion)
      return host.error(
        request.id,
        ErrorCode.InvalidRequest,
        `Invalid request: MCP-Protocol-Version header ${header} is not this session's version ${protocol.protocolVersion}`,
      );
    if (request.method === protocol.ping) return ok(request.id);
    if (protocol.setLevel && request.method === protocol.setLevel.method) {
      const level = params[protocol.setLevel.param];
      if (host.serverCapabilities[protocol.setLevel.capability] === undefined)
        return notFound(host, request);
      if (typeof level !== "string" || !host.logLevels.includes(level))
        return host.error(
          request.id,
          ErrorCode.InvalidParams,
          `Invalid params: /${protocol.setLevel.param} must be one of ${host.logLevels.join(", ")}`,
        );
      session.logLevel = level;
      return ok(request.id);
    }
    const subscribe = protocol.subscribe;
    if (
      subscribe &&
      (request.method === subscribe.method || request.method === subscribe.unsubscribe)
    ) {
      const declared = host.serverCapabilities[subscribe.capability[0]];
      if (!isRecord(declared) || declared[subscribe.capability[1]] !== true)
        return notFound(host, request);
      const uri = params[subscribe.param];
      if (typeof uri !== "string")
        return host.error(
          request.id,
          ErrorCode.InvalidParams,
          `Invalid params: /${subscribe.param} must be a string`,
        );
      const on = request.method !== subscribe.unsubscribe;
      if (!on) this.unsubscribe(session, uri);
      else if (!session.subscriptions.has(uri)) {
        const refused = this.subscribe(session, uri);
        if (refused) return host.error(request.id, refused.code, refused.message);
      }
      // Shared: in the index before the answer, so that an update published next reaches it.
      if (this.shared && sharedId(session))
        return this.shared.subscribed(session, uri, on).then(
          () => ok(request.id),
          (error: unknown) => {
            if (!isStoreUnavailable(error)) throw error;
            return host.error(request.id, SERVER_BUSY, STORE_AWAY_MESSAGE);
          },
        );
      return ok(request.id);
    }
    const method = own(protocol.methods, request.method);
    if (!method) return notFound(host, request);
    const meta = modernMeta(session, params[host.metaField], host);
    const served = new LegacyDelivery(delivery, session, host.metaField);
    session.inflight.set(request.id, served);
    const outcome = host.serve(
      request,
      withField(params, host.metaField, meta),
      meta,
      session.clientCapabilities,
      served,
      { protocol, session, method },
    );
    if (!isThenable(outcome)) {
      session.inflight.delete(request.id);
      return outcome;
    }
    return Promise.resolve(outcome).finally(() => {
      if (session.inflight.get(request.id) === served) session.inflight.delete(request.id);
    });
  }

  /**
   * Adds a subscription within the session's bounds (how many, how many bytes of URIs) and the
   * server's (how many bytes all sessions hold): a URI is held as long as the session, so without
   * them one client's subscribes of 3 MiB URIs pin gigabytes. What refuses it, else `null`.
   */
  private subscribe(session: LegacySession, uri: string): { code: number; message: string } | null {
    const bytes = Buffer.byteLength(uri);
    if (session.subscriptions.size >= this.maxSubscriptions)
      return {
        code: ErrorCode.InvalidRequest,
        message: `Invalid request: a session may subscribe to at most ${this.maxSubscriptions} resources`,
      };
    if (session.subscriptionBytes + bytes > this.maxSubscriptionBytes)
      return {
        code: ErrorCode.InvalidRequest,
        message: `Invalid request: a session's subscriptions may hold at most ${this.maxSubscriptionBytes} bytes of URIs`,
      };
    if (this.subscriptionBytes + bytes > this.maxSubscriptionBytesTotal)
      return {
        code: SERVER_BUSY,
        message: `Server busy: the server holds ${this.maxSubscriptionBytesTotal} bytes of subscriptions; retry later`,
      };
    session.subscriptions.add(uri);
    session.subscriptionBytes += bytes;
    this.subscriptionBytes += bytes;
    return null;
  }

  private unsubscribe(session: LegacySession, uri: string): void {
    if (!session.subscriptions.delete(uri)) return;
    const bytes = Buffer.byteLength(uri);
    session.subscriptionBytes -= bytes;
    this.subscriptionBytes -= bytes;
  }

  /** Ends a session: what its subscriptions held is given back to the server's budget. */
  private endSession(session: LegacySession): void {
    this.subscriptionBytes -= session.subscriptionBytes;
    session.end();
  }

  /**
   * A notification or response without modern `_meta`, on a legacy session. On a shared session, a
   * response or cancellation no request of this process waits for goes to the process that has it,
   * and the handshake's completion enters the session in the index; the promise settles once done.
   */
  message(message: Record<string, unknown>, delivery: Delivery): Promise<void> | undefined {
    const session = LegacySessions.of(delivery.session);
    if (!session) return undefined;
    if (message.method === session.protocol.initialized) session.initialized = true;
    if (!this.received(session, message) && this.shared && sharedId(session))
      return this.shared.forward(session, message);
    return undefined;
  }

  /** A response to one of this process's requests, or a cancellation of one it serves: false when it has none such. */
  private received(session: LegacySession, message: Record<string, unknown>): boolean {
    if (typeof message.method !== "string") return session.takeResponse(message);
    if (message.method === session.protocol.cancelled && isRecord(message.params)) {
      // Over stdio the transport cancels by id too; over HTTP the notification comes in a POST of its own.
      const cancelled = cancellationOf(
        message.params,
        session.protocol.notificationParams.cancelled,
      );
      if (!cancelled) return false;
      const reason =
        typeof cancelled.reason === "string" ? cancelled.reason : "The request was cancelled";
      const inflight = session.inflight.get(cancelled.requestId);
      inflight?.abort(new DOMException(reason, "AbortError"));
      return inflight !== undefined;
    }
    return true;
  }

  /** Ends a session the transport forgets (DELETE, idle, eviction, end of input). */
  end(record: Record<string, unknown>): void {
    const session = LegacySessions.of(record);
    if (!session) return;
    if (this.shared && sharedId(session))
      this.shared.left(session).catch((error: unknown) => this.storeFailed(error));
    if (session === this.newest) this.newest = null;
    if (this.sessions.delete(session)) this.endSession(session);
    else session.end();
  }

  /** Ends every session (server shutdown). */
  close(): void {
    this.shared?.close();
    for (const session of this.sessions.keys()) this.endSession(session);
    this.sessions.clear();
  }

  /**
   * Sends a modern notification to the legacy sessions it concerns: a subscribed resource's update
   * to the sessions subscribed to it, other list changes to every session whose revision has them.
   */
  publish(notification: { method: string; params?: Record<string, unknown> }): number {
    let sent = 0;
    // Shared sessions are reached through the store's indexes, whichever process holds them.
    if (this.shared)
      this.shared
        .publish(this.protocols, notification, (protocol) =>
          protocol.notifications.includes(notification.method)
            ? legacyMessage(protocol, notification, this.host.metaField)
            : null,
        )
        .catch((error: unknown) =>
          this.host.log(`mcp-gen server: publishing ${notification.method}: ${String(error)}`),
        );
    for (const session of this.sessions.keys()) {
      if (this.shared && sharedId(session)) continue;
      const { protocol } = session;
      if (!protocol.notifications.includes(notification.method)) continue;
      if (protocol.subscribe?.notification === notification.method) {
        const uri = notification.params?.[protocol.subscribe.param];
        if (typeof uri !== "string" || !session.subscriptions.has(uri)) continue;
      }
      if (session.push(legacyMessage(protocol, notification, this.host.metaField))) sent++;
    }
    return sent;
  }

  /** Keeps a session, bounded: past the limit the least recently used one is ended (its client gets "no session" and starts over). */
  private remember(session: LegacySession): void {
    this.sessions.set(session, true);
    this.newest = session;
    if (this.sessions.size > this.maxSessions) {
      const oldest = this.sessions.keys().next().value!;
      if (oldest === this.newest) this.newest = null;
      this.sessions.delete(oldest);
      this.endSession(oldest);
      delete oldest.record[SESSION_KEY];
    }
  }

  private touch(session: LegacySession): void {
    // A session used again and again (a client calling in turn) is already the most recent.
    if (this.newest === session) return;
    this.sessions.delete(session);
    this.sessions.set(session, true);
    this.newest = session;
  }
}

/**
 * A session's request was accepted: whatever its JSON-RPC response, it travels with HTTP status 200,
 * as the initialize era's HTTP transport has it (its clients take a 4xx for a failed POST, not an
 * error response). The session's own refusals (a wrong version header) keep their 400.
 */
function withSessionStatus(outcome: Outcome): Outcome {
  if (outcome.httpStatus === 200 || outcome.response === null || !("error" in outcome.response))
    return outcome;
  if ((outcome.response.error as JsonRpcErrorObject).code === ErrorCode.InvalidRequest)
    return outcome;
  return { response: outcome.response, httpStatus: 200 };
}

function ok(id: JsonRpcId): Outcome {
  return { response: success(id, {}), httpStatus: 200 };
}

function notFound(host: LegacyHost, request: JsonRpcRequest): Outcome {
  return host.error(request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
}
