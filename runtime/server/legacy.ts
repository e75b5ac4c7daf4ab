/**
 * The initialize era, served by a stateless (per-request `_meta`) server: a legacy client opens a
 * session with its handshake, and its requests are then answered by the same handlers as modern
 * ones, their params given the `_meta` the session stands for and their results put back into the
 * legacy shape. Everything revision-specific comes from the era (`LegacyEra`, `runtime/protocol.ts`)
 * the generator derives from the legacy revision's schema and the diff between the two. Revision-independent; copied
 * verbatim into generated output.
 */
import { ErrorCode, isRecord, RpcError, SERVER_BUSY, success } from "../shared/jsonrpc.js";
import type {
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
} from "../shared/jsonrpc.js";
import { isThenable, LazyAbort, SESSION_SEND, type Delivery, type Outcome } from "./transport.js";
import type { Validate } from "../schema/checks.js";
import type { Principal } from "../auth/http-auth.js";
import type { LegacyEra } from "../shared/protocol.js";
import type { Store } from "./store.js";
import { SharedLegacy, sharedId } from "./legacy-shared.js";

export interface LegacyOptions {
  /** Legacy sessions kept at once; past it the least recently used one is ended. Default 10,000. */
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
}

const MiB = 1024 * 1024;

/** What the dispatcher lends the legacy side: the modern serving path and the server's description. */
export interface LegacyHost {
  readonly protocolVersion: string;
  readonly requestMeta: { protocolVersionKey: string; clientCapabilitiesKey: string };
  readonly logLevels: readonly string[];
  readonly serverCapabilities: Record<string, unknown>;
  identity(): Record<string, unknown>;
  readonly instructions: string | undefined;
  /** Serves a request through the modern handler, as `era` describes, and answers in the legacy shape. */
  serve(
    request: JsonRpcRequest,
    params: Record<string, unknown>,
    meta: Record<string, unknown>,
    clientCapabilities: Record<string, unknown>,
    delivery: Delivery,
    era: LegacyCall,
  ): Outcome | Promise<Outcome>;
  error(id: JsonRpcId, code: number, message: string, data?: unknown): Outcome;
  log(message: string): void;
}

/** What the modern serving path needs to answer one legacy request. */
export interface LegacyCall {
  protocol: LegacyEra;
  session: LegacySession;
  method: { result: Validate; drop: readonly string[] };
}

/** Where a legacy session lives in the transport's session record. */
const SESSION_KEY = "legacy";

/** What another process needs to serve a legacy session: all of it but the requests in flight here. */
interface LegacySnapshot {
  version: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo: unknown;
  initialized: boolean;
  logLevel: string | null;
  subscriptions: string[];
}

/** Who waits for the client's response to a request of the server's, or for why there is none. */
type Pending = {
  resolve(value: unknown): void;
  reject(error: RpcError): void;
};

/** One legacy client's session: what it declared in its handshake and what it asked for since. */
export class LegacySession {
  initialized = false;
  logLevel: string | null = null;
  readonly subscriptions = new Set<string>();
  /** Bytes of the URIs in `subscriptions` (a subscription is held for the session's life: each is counted). */
  subscriptionBytes = 0;
  /** Requests sent to the client, by id, until answered. */
  readonly pending = new Map<JsonRpcId, Pending>();
  /** The client's requests being served, by id, for its cancellation notifications. */
  readonly inflight = new Map<JsonRpcId, LazyAbort>();
  private nextId = 0;
  ended = false;

  constructor(
    readonly protocol: LegacyEra,
    readonly clientCapabilities: Record<string, unknown>,
    readonly clientInfo: unknown,
    /** The transport's session record (its `SESSION_SEND` reaches the client outside any request). */
    readonly record: Record<string | symbol, unknown>,
  ) {}

  snapshot(): LegacySnapshot {
    return {
      version: this.protocol.protocolVersion,
      clientCapabilities: this.clientCapabilities,
      clientInfo: this.clientInfo,
      initialized: this.initialized,
      logLevel: this.logLevel,
      subscriptions: [...this.subscriptions],
    };
  }

  /** Takes what another process changed (its requests in flight here stay). */
  refresh(snapshot: LegacySnapshot): void {
    this.initialized = snapshot.initialized;
    this.logLevel = snapshot.logLevel;
    this.subscriptions.clear();
    this.subscriptionBytes = 0;
    for (const uri of snapshot.subscriptions) {
      this.subscriptions.add(uri);
      this.subscriptionBytes += Buffer.byteLength(uri);
    }
  }

  /** Sends a message outside any request (list changes, resource updates); false when there is nowhere to send it. */
  push(message: JsonRpcNotification): boolean {
    const send = this.record[SESSION_SEND];
    if (typeof send !== "function") return false;
    (send as (message: JsonRpcNotification) => void)(message);
    return true;
  }

  /**
   * Sends a request to the client on `delivery` (over HTTP, the stream of the request being
   * answered) and waits for its response, at most `timeoutMs`, or until `signal` aborts.
   */
  request(
    method: string,
    params: Record<string, unknown>,
    delivery: Delivery,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<unknown> {
    if (this.ended)
      return Promise.reject(new RpcError(ErrorCode.InternalError, "The session ended"));
    const id = `mcp-gen-${++this.nextId}`;
    return new Promise<unknown>((resolve, reject) => {
      const stopWaiting = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.pending.delete(id);
      };
      const onAbort = (): void => {
        stopWaiting();
        this.cancel(id, delivery, "The request was cancelled");
        reject(
          new RpcError(
            ErrorCode.InternalError,
            `${method}: the request was cancelled before the client answered`,
          ),
        );
      };
      const timer = setTimeout(() => {
        stopWaiting();
        this.cancel(id, delivery, "Timed out");
        reject(
          new RpcError(
            ErrorCode.InternalError,
            `${method}: the client did not answer within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      timer.unref?.();
      this.pending.set(id, {
        resolve: (value) => {
          stopWaiting();
          resolve(value);
        },
        reject: (error) => {
          stopWaiting();
          reject(error);
        },
      });
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      // A request rides the same channel as the request's notifications (stdout, or its SSE stream).
      delivery.notify({ jsonrpc: "2.0", id, method, params } as unknown as JsonRpcNotification);
    });
  }

  /** Takes the client's response to one of the server's requests; false when none waits for it. */
  takeResponse(message: Record<string, unknown>): boolean {
    const id = message.id as JsonRpcId;
    const pending = this.pending.get(id);
    if (!pending) return false;
    if (isRecord(message.error)) {
      const error = message.error as unknown as JsonRpcErrorObject;
      pending.reject(
        new RpcError(
          typeof error.code === "number" ? error.code : ErrorCode.InternalError,
          `The client answered with an error: ${String(error.message)}`,
          error.data,
        ),
      );
    } else pending.resolve(message.result);
    return true;
  }

  private cancel(id: JsonRpcId, delivery: Delivery, reason: string): void {
    if (!this.protocol.cancelled) return;
    delivery.notify({
      jsonrpc: "2.0",
      method: this.protocol.cancelled,
      params: { requestId: id, reason },
    });
  }

  /** Ends the session: requests still waiting for the client fail. */
  end(): void {
    this.ended = true;
    for (const pending of [...this.pending.values()])
      pending.reject(
        new RpcError(ErrorCode.InternalError, "The session ended before the client answered"),
      );
    this.pending.clear();
    this.subscriptions.clear();
    this.subscriptionBytes = 0;
  }
}

/** The legacy sessions of one server, and how a message without modern `_meta` is served. */
export class LegacySessions {
  /** Open sessions, least recently used first (a Map keeps insertion order; use re-inserts). */
  private readonly sessions = new Map<LegacySession, true>();
  private readonly byInitialize = new Map<string, LegacyEra[]>();
  /** A handshake asked for a version this server was not generated for, and the operator was told (once). */
  private hinted = false;
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

  constructor(
    /** Newest protocol version first. */
    readonly protocols: readonly LegacyEra[],
    private readonly host: LegacyHost,
    options: LegacyOptions = {},
  ) {
    for (const protocol of protocols) {
      const list = this.byInitialize.get(protocol.initialize) ?? [];
      list.push(protocol);
      this.byInitialize.set(protocol.initialize, list);
    }
    this.maxSessions = options.maxSessions ?? 10_000;
    this.inputTimeoutMs = options.inputTimeoutMs ?? 60_000;
    this.maxInputRounds = options.maxInputRounds ?? 8;
    this.maxSubscriptions = options.maxSubscriptions ?? 1_000;
    this.maxSubscriptionBytes = options.maxSubscriptionBytes ?? MiB;
    this.maxSubscriptionBytesTotal = options.maxSubscriptionBytesTotal ?? 64 * MiB;
  }

  /**
   * Shares sessions with other processes through `store` (a transport that keeps its sessions
   * there calls this): `send` reaches a session by id, whichever process holds its stream.
   */
  share(store: Store, send: (id: string, message: JsonRpcNotification) => Promise<void>): void {
    this.shared?.close();
    this.shared = new SharedLegacy<LegacySession>(store, send, {
      find: (id) => {
        for (const session of this.sessions.keys()) if (sharedId(session) === id) return session;
        return undefined;
      },
      received: (session, message) => this.received(session, message),
      log: (message) => this.host.log(message),
    });
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

  /** Puts a snapshot into a record: a session this process already has is brought up to date, in place. */
  restore(record: Record<string, unknown>, snapshot: LegacySnapshot): void {
    const known = LegacySessions.of(record);
    if (known) {
      // The server's byte count follows what the copy holds now (another process may have subscribed).
      const before = known.subscriptionBytes;
      known.refresh(snapshot);
      this.subscriptionBytes += known.subscriptionBytes - before;
      this.touch(known);
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
  }

  /** The protocol versions a legacy handshake may agree on, newest first. */
  get versions(): string[] {
    return this.protocols.map((p) => p.protocolVersion);
  }

  /** How many sessions are open. */
  get size(): number {
    return this.sessions.size;
  }

  static of(record: Record<string, unknown> | undefined): LegacySession | undefined {
    const session = record?.[SESSION_KEY];
    return session instanceof LegacySession ? session : undefined;
  }

  /** Whether a request without modern `_meta` is the legacy side's: a handshake, or a request on a legacy session. */
  claims(request: JsonRpcRequest, delivery: Delivery): boolean {
    return (
      this.byInitialize.has(request.method) || LegacySessions.of(delivery.session) !== undefined
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
    if (this.byInitialize.has(request.method)) return this.initialize(request, params, delivery);
    if (!session || session.ended)
      return host.error(
        request.id,
        ErrorCode.InvalidRequest,
        `Invalid request: no session; send ${[...this.byInitialize.keys()].join(" or ")} first, or carry the protocol version in params._meta`,
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
        return this.shared.subscribed(session, uri, on).then(() => ok(request.id));
      return ok(request.id);
    }
    const method = protocol.methods[request.method];
    if (!method) return notFound(host, request);
    const meta = this.modernMeta(session, params._meta);
    const served = new LegacyDelivery(delivery, session);
    session.inflight.set(request.id, served);
    const outcome = host.serve(
      request,
      { ...params, _meta: meta },
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
      const id = message.params.requestId as JsonRpcId;
      const reason =
        typeof message.params.reason === "string"
          ? message.params.reason
          : "The request was cancelled";
      const inflight = session.inflight.get(id);
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
      this.shared
        .left(session)
        .catch((error: unknown) => this.host.log(`mcp-gen server: the store: ${String(error)}`));
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
            ? this.legacyMessage(protocol, notification)
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
      if (session.push(this.legacyMessage(protocol, notification))) sent++;
    }
    return sent;
  }

  /** A modern notification as a legacy revision sends it. */
  private legacyMessage(
    protocol: LegacyEra,
    notification: { method: string; params?: Record<string, unknown> },
  ): JsonRpcNotification {
    const params = this.legacyParams(protocol, notification.params);
    return params
      ? { jsonrpc: "2.0", method: notification.method, params }
      : { jsonrpc: "2.0", method: notification.method };
  }

  /** A modern notification's params with the `_meta` keys the legacy revision lacks removed. */
  legacyParams(
    protocol: LegacyEra,
    params: Record<string, unknown> | undefined,
  ): Record<string, unknown> | undefined {
    if (!params || !isRecord(params._meta)) return params;
    return { ...params, _meta: legacyMeta(protocol, params._meta) };
  }

  private initialize(
    request: JsonRpcRequest,
    params: Record<string, unknown>,
    delivery: Delivery,
  ): Outcome {
    const { host } = this;
    const record = delivery.session;
    if (!record)
      return host.error(
        request.id,
        ErrorCode.InvalidRequest,
        "Invalid request: this transport keeps no sessions",
      );
    if (LegacySessions.of(record))
      return host.error(
        request.id,
        ErrorCode.InvalidRequest,
        "Invalid request: the session is already initialized",
      );
    const requested = params.protocolVersion;
    const capabilities = params.capabilities;
    if (typeof requested !== "string" || !isRecord(capabilities))
      return host.error(
        request.id,
        ErrorCode.InvalidParams,
        "Invalid params: protocolVersion (a string) and capabilities (an object) are required",
      );
    // The client's version when this server has it, else the newest it has (the client decides whether to go on).
    const candidates = this.byInitialize.get(request.method)!;
    const protocol = candidates.find((p) => p.protocolVersion === requested) ?? candidates[0]!;
    if (
      protocol.protocolVersion !== requested &&
      requested !== host.protocolVersion &&
      !this.hinted
    ) {
      // The client will most likely hang up on the version offered instead: say once how to serve it.
      this.hinted = true;
      host.log(
        `mcp-gen server: an initialize-era client asked for protocol version ${requested}, which this server was not generated for (it speaks ${this.versions.join(", ")}); it was offered ${protocol.protocolVersion}. To serve it, regenerate with --legacy naming that revision, or without --legacy (the default serves every released initialize-era revision)`,
      );
    }
    const result: Record<string, unknown> = {
      protocolVersion: protocol.protocolVersion,
      capabilities: host.serverCapabilities,
      serverInfo: host.identity(),
    };
    if (host.instructions !== undefined) result.instructions = host.instructions;
    const check = protocol.initializeResult(result);
    if (!check.ok) {
      const first = check.errors?.[0];
      host.log(
        `mcp-gen server: the ${protocol.revision} handshake result is invalid at ${first?.path || "/"}: ${first?.message ?? "invalid"}`,
      );
      return host.error(
        request.id,
        ErrorCode.InternalError,
        "Internal error: the server produced an invalid result",
      );
    }
    const session = new LegacySession(protocol, capabilities, params.clientInfo, record);
    record[SESSION_KEY] = session;
    this.remember(session);
    return { response: success(request.id, result), httpStatus: 200 };
  }

  /** Keeps a session, bounded: past the limit the least recently used one is ended (its client gets "no session" and starts over). */
  private remember(session: LegacySession): void {
    this.sessions.set(session, true);
    if (this.sessions.size > this.maxSessions) {
      const oldest = this.sessions.keys().next().value!;
      this.sessions.delete(oldest);
      this.endSession(oldest);
      delete oldest.record[SESSION_KEY];
    }
  }

  private touch(session: LegacySession): void {
    this.sessions.delete(session);
    this.sessions.set(session, true);
  }

  /** The modern `_meta` a legacy request stands for: the session's version, capabilities and log level, and the request's own keys renamed. */
  private modernMeta(session: LegacySession, sent: unknown): Record<string, unknown> {
    const { host } = this;
    const meta: Record<string, unknown> = {};
    const legacy = isRecord(sent) ? sent : {};
    for (const key of session.protocol.metaKeys) {
      if (key.legacy !== null && legacy[key.legacy] !== undefined)
        meta[key.modern] = legacy[key.legacy];
      else if (key.role === "clientInfo" && session.clientInfo !== undefined)
        meta[key.modern] = session.clientInfo;
      else if (key.role === "logLevel" && session.logLevel !== null)
        meta[key.modern] = session.logLevel;
    }
    meta[host.requestMeta.protocolVersionKey] = host.protocolVersion;
    meta[host.requestMeta.clientCapabilitiesKey] = session.clientCapabilities;
    return meta;
  }
}

/** A result's `_meta` with the keys the legacy revision lacks removed (and renamed where it has them under another name). */
export function legacyMeta(
  protocol: LegacyEra,
  meta: Record<string, unknown>,
): Record<string, unknown> {
  const kept: Record<string, unknown> = { ...meta };
  for (const key of protocol.metaKeys) {
    if (!(key.modern in kept)) continue;
    const value = kept[key.modern];
    delete kept[key.modern];
    if (key.legacy !== null) kept[key.legacy] = value;
  }
  return kept;
}

/**
 * A handler's result in the legacy shape: the fields only the modern revision has (`resultType`,
 * caching hints) left out, and the `_meta` keys the legacy revision lacks removed (an empty `_meta`
 * left out). Built key by key: deleting from a copy would turn it into a slow dictionary object.
 */
export function legacyResult(
  call: LegacyCall,
  result: Record<string, unknown>,
): Record<string, unknown> {
  const shaped: Record<string, unknown> = {};
  const drop = call.method.drop;
  for (const key in result) {
    if (!Object.hasOwn(result, key) || drop.includes(key)) continue;
    const value = result[key];
    if (key !== "_meta" || !isRecord(value)) shaped[key] = value;
    else {
      const meta = legacyMeta(call.protocol, value);
      if (Object.keys(meta).length > 0) shaped._meta = meta;
    }
  }
  return shaped;
}

/**
 * What a handler's request sees of its transport on a legacy session: its notifications are those
 * of the legacy revision (others are dropped), with the legacy `_meta` keys.
 */
class LegacyDelivery extends LazyAbort implements Delivery {
  private linked = false;

  constructor(
    private readonly inner: Delivery,
    private readonly legacySession: LegacySession,
  ) {
    super();
  }

  /** Aborted when the transport's is (the client went away) or the client cancels the request by id. */
  override get signal(): AbortSignal {
    if (!this.linked) {
      this.linked = true;
      const inner = this.inner.signal;
      if (inner.aborted) this.abort(inner.reason);
      else inner.addEventListener("abort", () => this.abort(inner.reason), { once: true });
    }
    return super.signal;
  }

  get session(): Record<string, unknown> {
    return this.legacySession.record as Record<string, unknown>;
  }

  /** Who the transport authenticated the request as: a legacy handler is as bound to it as a modern one. */
  get principal(): string | undefined {
    return this.inner.principal;
  }

  get auth(): Principal | undefined {
    return this.inner.auth;
  }

  notify(notification: JsonRpcNotification): void {
    const { protocol } = this.legacySession;
    if (!protocol.notifications.includes(notification.method)) return;
    const params = notification.params;
    if (isRecord(params) && isRecord(params._meta))
      this.inner.notify({
        ...notification,
        params: { ...params, _meta: legacyMeta(protocol, params._meta) },
      });
    else this.inner.notify(notification);
  }

  /** Where a request to the client goes: the underlying transport, as it is. */
  get raw(): Delivery {
    return this.inner;
  }
}

/**
 * Serves a modern handler's `input_required` answers to a legacy client: each input request is sent
 * as a request of its own on the session, and the handler is invoked again with the client's
 * responses and its state, until it answers with a result. A request the client does not answer (an
 * error, a timeout, cancellation) is handed to the handler as `inputError`, with the responses that
 * did come; a handler that asks again for what failed gets that error as its request's answer.
 */
export async function bridgeInput(
  sessions: LegacySessions,
  call: LegacyCall,
  delivery: Delivery,
  first: {
    inputRequests: Record<string, { method: string; params?: Record<string, unknown> }>;
    state: unknown;
  },
  invoke: (
    inputResponses: Record<string, unknown>,
    state: unknown,
    inputError: RpcError | undefined,
  ) => Promise<unknown>,
  isInputRequired: (answer: unknown) => answer is typeof first,
  missingCapability: (missing: Record<string, unknown>) => RpcError,
): Promise<unknown> {
  const { session } = call;
  const raw = delivery instanceof LegacyDelivery ? delivery.raw : delivery;
  let asked = first;
  let failed: { error: RpcError; keys: Set<string> } | undefined;
  for (let round = 0; round < sessions.maxInputRounds; round++) {
    const missing: Record<string, unknown> = {};
    for (const input of Object.values(asked.inputRequests)) {
      const known = call.protocol.serverRequests[input.method];
      if (!known)
        throw new RpcError(
          ErrorCode.InternalError,
          `Internal error: ${input.method} has no form in protocol ${call.protocol.protocolVersion}`,
        );
      if (session.clientCapabilities[known.capability] === undefined)
        missing[known.capability] = {};
    }
    if (Object.keys(missing).length > 0) throw missingCapability(missing);
    if (failed && Object.keys(asked.inputRequests).some((key) => failed!.keys.has(key)))
      throw failed.error;
    const responses: Record<string, unknown> = {};
    let error: RpcError | undefined;
    const keys = new Set<string>();
    await Promise.all(
      Object.entries(asked.inputRequests).map(async ([key, input]) => {
        try {
          const response = await session.request(
            input.method,
            input.params ?? {},
            raw,
            sessions.inputTimeoutMs,
            delivery.signal,
          );
          const check = call.protocol.serverRequests[input.method]!.response(response);
          if (!check.ok) {
            const first = check.errors?.[0];
            throw new RpcError(
              ErrorCode.InvalidParams,
              `The client's answer to ${input.method} is invalid at ${first?.path || "/"}: ${first?.message ?? "invalid"}`,
            );
          }
          Object.defineProperty(responses, key, {
            value: response,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } catch (caught) {
          error ??=
            caught instanceof RpcError
              ? caught
              : new RpcError(ErrorCode.InternalError, String(caught));
          keys.add(key);
        }
      }),
    );
    failed = error ? { error, keys } : undefined;
    const answer = await invoke(responses, asked.state, error);
    if (!isInputRequired(answer)) return answer;
    asked = answer;
  }
  throw new RpcError(
    ErrorCode.InternalError,
    `Internal error: the handler asked for input more than ${sessions.maxInputRounds} times`,
  );
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
