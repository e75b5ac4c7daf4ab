/**
 * The server dispatcher: every protocol rule a generated server enforces, driven by a `Protocol`
 * description that the generator derives from the revision's schema. Revision-independent; copied
 * verbatim into generated output. Transports (stdio, HTTP) only frame messages and deliver outcomes.
 * Here: routing a request through the lifecycle checks (stateless, stateful, an initialize-era
 * session's), and the server's sessions and notifications as transports see them. The stages a
 * request passes are modules of their own: the handler's call (call.ts) and context (context.ts),
 * answers and finished results (results.ts), the server's description (describe.ts), deprecation
 * reports (deprecations.ts), publishing (publish.ts).
 */
import { classify, ErrorCode, isRecord, own, parseMessage, success } from "../shared/jsonrpc.js";
import type {
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
} from "../shared/jsonrpc.js";
import { checkSecret } from "./state.js";
import { LegacySessions, type LegacyOptions } from "./legacy.js";
import {
  cancellationOf,
  type Cancellation,
  type Delivery,
  type MessageHandler,
  type Outcome,
} from "./transport.js";
import {
  InputRounds,
  isInputRequired,
  type InputRequiredAnswer,
  type RoundsOptions,
} from "./input-required.js";
import { serverProtocol, type Protocol } from "./protocol.js";
import {
  negotiated,
  initializeEraVersion,
  refusedStateless,
  type StatefulLifecycle,
  type StatelessLifecycle,
} from "./lifecycle.js";
import { Subscriptions, type Published } from "./subscriptions.js";
import { EnvelopeStage } from "./envelope.js";
import type { Store } from "./store.js";
import { checkInput } from "../schema/checks.js";
import type { Handler } from "./context.js";
import { Calls } from "./call.js";
import { Results } from "./results.js";
import { Deprecations } from "./deprecations.js";
import { describeServer } from "./describe.js";
import { Publisher } from "./publish.js";
import { DEFAULT_MAX_HANDSHAKE_BYTES, exceedsJsonBytes } from "./session-budget.js";
import { ServerTelemetry, type Telemetry } from "./telemetry.js";

export type { Validate } from "../schema/checks.js";
export type { MethodSpec } from "../shared/protocol.js";
export type { Handler, RequestContext } from "./context.js";
export { isInputRequired, serverProtocol, type InputRequiredAnswer, type Protocol };

export interface ServerIdentity {
  name: string;
  version: string;
  [key: string]: unknown;
}

export interface DispatcherOptions extends RoundsOptions {
  info: ServerIdentity;
  capabilities: Record<string, unknown>;
  instructions?: string;
  /** Versions accepted in `_meta`; default: the revision's own. */
  supportedVersions?: readonly string[];
  /** Caching hints added to cacheable results that have none. */
  cache?: { ttlMs: number; cacheScope: "public" | "private" };
  /** Where diagnostics go; default stderr. */
  log?: (message: string) => void;
  /** Called once per deprecated feature the first time it is used on the wire; default: a line on `log`. */
  onDeprecated?: (notice: string) => void;
  /** Limits of the initialize-era sessions, for a server generated with legacy revisions. */
  legacy?: LegacyOptions;
  /**
   * Bytes (JSON) the client capabilities of a stateful revision's handshake may hold: the session
   * keeps them for its life, so past it the handshake is refused (-32602). Default 64 KiB. (The
   * initialize-era sessions of a dual-era server: `legacy.maxHandshakeBytes`.)
   */
  maxHandshakeBytes?: number;
  /**
   * State shared with the other processes behind one load balancer (runtime/store.ts; Redis:
   * runtime/store-redis.ts, generated with `--store redis`): initialize-era sessions and their
   * event logs, notifications published for every process's streams, the client's answers to
   * requests another process waits on, and single-use `requestState`. Default: none, all of it
   * in this process.
   */
  store?: Store;
  /**
   * Records every request and notification, and every session's duration (runtime/telemetry/otel.ts,
   * generated with `--telemetry otel`, passes one by default). Default: none, and no hook runs.
   */
  telemetry?: Telemetry | undefined;
}

export class Dispatcher implements MessageHandler {
  /** The open `subscriptions/listen` streams. */
  private readonly subscriptions: Subscriptions;
  /** The legacy hint was logged (hintLegacy). */
  private hinted = false;
  /** Deprecated features reported once each. */
  private readonly deprecations: Deprecations;
  /** Error answers and finished results. */
  private readonly results: Results;
  /** Requests served through their handlers. */
  private readonly calls: Calls;
  /** Notifications to this process's streams and, through the store, the others'. */
  private readonly publisher: Publisher;
  readonly supportedVersions: readonly string[];
  /** The initialize-era sessions, when the server was generated with legacy revisions. */
  readonly legacy: LegacySessions | null;
  /** Shared with other processes (`DispatcherOptions.store`); transports keep their sessions there. */
  readonly store: Store | undefined;
  /** The request's envelope (over HTTP, its headers) against its body. */
  private readonly envelope: EnvelopeStage;
  /** The telemetry hook, only when `DispatcherOptions.telemetry` asks for one. */
  private readonly telemetry: ServerTelemetry | undefined;

  constructor(
    private readonly protocol: Protocol,
    private readonly handlers: Readonly<Record<string, Handler | undefined>>,
    private readonly options: DispatcherOptions,
  ) {
    this.supportedVersions = options.supportedVersions ?? [protocol.protocolVersion];
    // A bad secret or time to live fails here, with its reason, not on every input_required later.
    if (options.secret !== undefined) checkSecret(options.secret);
    const ttl = options.requestStateTtlMs;
    if (ttl !== undefined && !(Number.isFinite(ttl) && ttl > 0))
      throw new RangeError(
        `requestStateTtlMs must be a positive number of milliseconds, not ${ttl}`,
      );
    const log = (message: string): void => this.log(message);
    this.deprecations = new Deprecations(protocol.deprecated, options, log);
    this.results = new Results(protocol, options, this.identity(), log);
    this.subscriptions = new Subscriptions(
      protocol,
      (capability, flag) => this.declares(capability, flag),
      (id) => ({ response: success(id, this.results.finish({}, false, id)), httpStatus: 200 }),
    );
    const rounds = new InputRounds(protocol, options, {
      reportDeprecated: this.deprecations.report,
      log,
    });
    const lifecycle = protocol.lifecycle;
    this.legacy =
      protocol.eras.length > 0 && lifecycle.kind === "stateless"
        ? new LegacySessions(
            protocol.eras,
            {
              protocolVersion: protocol.protocolVersion,
              requestMeta: lifecycle,
              metaField: protocol.envelope.meta,
              logLevels: protocol.logLevels,
              serverCapabilities: options.capabilities,
              instructions: options.instructions,
              describe: protocol.describe,
              identity: () => this.identity(),
              serve: (request, params, meta, clientCapabilities, delivery, era) =>
                this.calls.serve(
                  request,
                  params,
                  meta,
                  protocol.protocolVersion,
                  clientCapabilities,
                  delivery,
                  era,
                ),
              error: (id, code, message, data) => this.results.error(id, code, message, data),
              log,
            },
            options.legacy,
          )
        : null;
    this.calls = new Calls(
      protocol,
      handlers,
      options.capabilities,
      rounds,
      this.legacy,
      this.results,
      this.deprecations.report,
      log,
    );
    this.envelope = new EnvelopeStage(
      protocol,
      handlers,
      // The server's own listing of its tools is no client's request: not recorded.
      async (request, delivery) => this.handleUntraced(request, delivery),
      log,
    );
    this.store = options.store;
    this.publisher = new Publisher(this.store, this.subscriptions, this.legacy, log);
    this.telemetry = options.telemetry && new ServerTelemetry(protocol, options.telemetry);
    const { telemetry } = this;
    if (telemetry && this.legacy)
      this.legacy.bridged = (delivery, method) => telemetry.bridged(delivery, method);
  }

  /** A transport forgot a session: its legacy state goes too. */
  endSession(session: Record<string, unknown>): void {
    this.legacy?.end(session);
    this.telemetry?.sessionEnded(session);
  }

  /** What a session record holds, as JSON: the handshake of a stateful revision, a legacy session. */
  snapshotSession(session: Record<string, unknown>): unknown {
    const snapshot: Record<string, unknown> = {};
    for (const key of Object.keys(session)) if (key !== "legacy") snapshot[key] = session[key];
    const legacy = this.legacy?.snapshot(session);
    if (legacy) snapshot.legacy = legacy;
    return snapshot;
  }

  restoreSession(session: Record<string, unknown>, snapshot: unknown): void {
    if (!isRecord(snapshot)) return;
    // Key by key, not a rest copy and Object.assign: this runs on every request of a shared
    // session, and a `__proto__` key (a stored snapshot is JSON) must not become the record's prototype.
    for (const key of Object.keys(snapshot))
      if (key !== "legacy" && key !== "__proto__") session[key] = snapshot[key];
    const { legacy } = snapshot;
    if (this.legacy && isRecord(legacy))
      this.legacy.restore(session, legacy as unknown as Parameters<LegacySessions["restore"]>[1]);
  }

  sessionOpened(session: Record<string, unknown>): Promise<void> {
    return this.legacy?.opened(session) ?? Promise.resolve();
  }

  shareSessions(
    send: (sessionId: string, message: JsonRpcNotification) => Promise<void>,
    sessionTtlMs: number,
  ): void {
    if (this.store) this.legacy?.share(this.store, send, sessionTtlMs);
  }

  /** A cancellation's request and reason, by the param names of the era the session speaks. */
  cancelledRequest(
    params: unknown,
    session: Record<string, unknown> | undefined,
  ): Cancellation | null {
    const era = LegacySessions.of(session)?.protocol ?? this.protocol;
    return cancellationOf(params, era.notificationParams.cancelled);
  }

  log(message: string): void {
    if (this.options.log) this.options.log(message);
    else process.stderr.write(`${message}\n`);
  }

  async handle(message: unknown, delivery: Delivery): Promise<Outcome> {
    const incoming = typeof message === "string" ? parseMessage(message) : classify(message);
    switch (incoming.kind) {
      case "invalid":
        return { response: incoming.error, httpStatus: 400 };
      case "notification":
      case "response": {
        // Nothing to answer: cancellation reaches handlers through the transport's signal; a legacy
        // session takes its handshake's completion and the client's responses to the server's requests.
        const operation =
          incoming.kind === "notification"
            ? this.telemetry?.notification(incoming.message, delivery)
            : undefined;
        await this.legacy?.message(
          incoming.message as unknown as Record<string, unknown>,
          delivery,
        );
        operation?.end({});
        return { response: null, httpStatus: 202 };
      }
      case "request":
        return this.handleRequest(incoming.message, delivery);
    }
  }

  /**
   * Answers a message already classified as a request: at once, with no promise, when the handler
   * answers synchronously (and the method holds no stream open). Never throws, and the promise it
   * may return never rejects.
   */
  handleRequest(request: JsonRpcRequest, delivery: Delivery): Outcome | Promise<Outcome> {
    // Without telemetry configured, this one check is all it costs.
    if (this.telemetry === undefined) return this.handleUntraced(request, delivery);
    return this.telemetry.request(request, delivery, () => this.handleUntraced(request, delivery));
  }

  private handleUntraced(request: JsonRpcRequest, delivery: Delivery): Outcome | Promise<Outcome> {
    const pending = this.envelope.pending(request, delivery);
    if (pending !== null) return pending.then(() => this.handleUntraced(request, delivery));
    try {
      return this.envelope.sent(request, delivery, this.request(request, delivery));
    } catch (error) {
      return this.calls.escaped(request, error);
    }
  }

  /** Sends a notification to every open `subscriptions/listen` stream that opted into it. */
  publish(notification: Published): number {
    return this.publisher.publish(notification);
  }

  /** Ends every open subscription gracefully (each gets its result) and stops accepting new ones. */
  close(): void {
    this.publisher.close();
    this.legacy?.close();
    this.subscriptions.close();
  }

  /**
   * The request's outcome: at once when it is ready, else a promise that never rejects.
   * On a dual-era server an initialize-era request goes to its session; a modern one has its
   * deprecated features reported; then the lifecycle checks, what the runtime answers itself (discovery, a
   * subscription), and the handler.
   */
  private request(request: JsonRpcRequest, delivery: Delivery): Outcome | Promise<Outcome> {
    const { lifecycle } = this.protocol;
    const params = request.params ?? {};
    const sent = params[this.protocol.envelope.meta];
    const meta = isRecord(sent) ? sent : {};
    if (lifecycle.kind === "stateful") {
      this.deprecations.reportUse(request.method, meta);
      return this.requestStateful(lifecycle, request, params, meta, delivery);
    }
    if (this.legacy) {
      // An initialize-era request is reported by its own revision, which deprecates none of this
      // revision's features: only a modern request's use is reported.
      const legacy = this.routeLegacy(this.legacy, lifecycle, request, params, delivery);
      if (legacy !== null) return legacy;
    }
    this.deprecations.reportUse(request.method, meta);
    const refused = refusedStateless(
      this.protocol,
      lifecycle,
      this.supportedVersions,
      request,
      params,
      delivery,
      this.envelope,
    );
    if (refused) {
      if (!this.legacy) this.hintLegacy(params);
      return this.refuse(request.id, refused);
    }
    const protocolVersion = meta[lifecycle.protocolVersionKey] as string;
    if (request.method === lifecycle.discover)
      return this.results.respond(request, this.describe(protocolVersion), false);
    if (this.subscriptions.opens(request.method)) return this.subscribe(request, params, delivery);
    const clientCapabilities = meta[lifecycle.clientCapabilitiesKey] as Record<string, unknown>;
    return this.calls.serve(
      request,
      params,
      meta,
      protocolVersion,
      clientCapabilities,
      delivery,
      null,
    );
  }

  /**
   * The first initialize-era client refused by a server generated without legacy revisions tells
   * the operator, once, how to serve it: the client only shows its user the refusal.
   */
  private hintLegacy(params: Record<string, unknown>): void {
    const requested = initializeEraVersion(this.protocol, params);
    if (requested === null || this.hinted) return;
    this.hinted = true;
    this.log(
      `mcp-gen server: refused an initialize-era client (protocol version ${requested}): this server was generated with --legacy none and speaks only ${this.supportedVersions.join(", ")}; regenerate it without --legacy none (or with --legacy naming that revision) to serve such clients`,
    );
  }

  /**
   * Dual-era: a request without the modern version in `_meta` belongs to the initialize era when
   * it is the handshake or comes on a legacy session, and is served there; a modern request on a
   * legacy session is refused. `null` for any other request: a modern one (perhaps missing its `_meta`).
   */
  private routeLegacy(
    legacy: LegacySessions,
    lifecycle: StatelessLifecycle,
    request: JsonRpcRequest,
    params: Record<string, unknown>,
    delivery: Delivery,
  ): Outcome | Promise<Outcome> | null {
    const field = this.protocol.envelope.meta;
    const sent = params[field];
    const modern = isRecord(sent) && sent[lifecycle.protocolVersionKey] !== undefined;
    if (!modern && legacy.claims(request, delivery)) {
      // The headers a legacy client does send (Mcp-Method, Mcp-Name…) must agree with the body too.
      const refused = this.envelope.refused(request, params, delivery);
      if (refused) return this.refuse(request.id, refused);
      return legacy.request(request, params, delivery);
    }
    if (LegacySessions.of(delivery.session))
      return this.results.error(
        request.id,
        ErrorCode.InvalidRequest,
        `Invalid request: a request carrying its protocol version in ${field} cannot use a session opened with initialize`,
      );
    return null;
  }

  /**
   * A stateful revision's request: the envelope checked, the handshake answered here (what the
   * client declares in it holds for the connection's later requests), ping answered unless a
   * handler takes it, anything else served with the session's client capabilities.
   */
  private requestStateful(
    lifecycle: StatefulLifecycle,
    request: JsonRpcRequest,
    params: Record<string, unknown>,
    meta: Record<string, unknown>,
    delivery: Delivery,
  ): Outcome | Promise<Outcome> {
    const { protocol } = this;
    const refused = this.envelope.refused(request, params, delivery);
    if (refused) return this.refuse(request.id, refused);
    if (request.method === lifecycle.initialize) {
      // One connection is one session: what the client declares here holds for its later requests.
      const capabilities = protocol.handshake
        ? params[protocol.handshake.params.capabilities]
        : undefined;
      if (delivery.session && isRecord(capabilities)) {
        const max = this.options.maxHandshakeBytes ?? DEFAULT_MAX_HANDSHAKE_BYTES;
        // Refused before it is kept: the session holds them for its life.
        if (exceedsJsonBytes([capabilities], max))
          return this.results.error(
            request.id,
            ErrorCode.InvalidParams,
            `Invalid params: ${protocol.handshake!.params.capabilities} may hold at most ${max} bytes of JSON`,
          );
        delivery.session.clientCapabilities = capabilities;
      }
      const version = negotiated(
        params[protocol.handshakeVersionParam],
        this.supportedVersions,
        protocol.protocolVersion,
      );
      return this.results.respond(request, this.describe(version), false);
    }
    const declared = delivery.session?.clientCapabilities;
    const clientCapabilities = isRecord(declared) ? declared : {};
    if (request.method === protocol.ping && !own(this.handlers, request.method))
      return this.results.respond(request, {}, false);
    return this.calls.serve(
      request,
      params,
      meta,
      protocol.protocolVersion,
      clientCapabilities,
      delivery,
      null,
    );
  }

  /** Opens a `subscriptions/listen` stream once its params are checked. */
  private subscribe(
    request: JsonRpcRequest,
    params: Record<string, unknown>,
    delivery: Delivery,
  ): Outcome | Promise<Outcome> {
    const validate = own(this.protocol.methods, request.method)?.checkParams;
    const check = validate ? checkInput(validate, params) : undefined;
    if (check && !check.ok) return this.results.invalidParams(request.id, check);
    return this.subscriptions.listen(request, params, delivery);
  }

  /** Answers with the error a lifecycle check refused the request with. */
  private refuse(id: JsonRpcId, refused: JsonRpcErrorObject): Outcome {
    return this.results.refuse(id, refused);
  }

  private identity(): Record<string, unknown> {
    return { ...this.options.info };
  }

  /** The server's description, for discovery or the handshake, as the revision's result type lays it out. */
  private describe(protocolVersion: string): Record<string, unknown> {
    return describeServer(
      {
        protocol: this.protocol,
        options: this.options,
        supportedVersions: this.supportedVersions,
        identity: () => this.identity(),
      },
      protocolVersion,
    );
  }

  private declares(capability: string, flag: string): boolean {
    const declared = this.options.capabilities[capability];
    return isRecord(declared) && declared[flag] === true;
  }
}
