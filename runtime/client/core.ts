/**
 * The client core: every protocol rule a generated client follows, driven by a `ClientProtocol`
 * description that the generator derives from the revision's schema (as `Protocol` drives the
 * server dispatcher). Revision-independent; copied verbatim into generated output. Transports
 * (`http.ts`, `stdio.ts`) only move messages.
 *
 * What it does for every call: a fresh id; the request `_meta` (protocol version, client
 * capabilities, client info, progress token) on stateless revisions, the initialize handshake on
 * stateful ones; result validation; typed errors; multi round-trip retries (`input_required`);
 * one protocol-version renegotiation; an opt-in cache honouring `ttlMs`/`cacheScope`.
 *
 * `ClientCore` is the facade the generated client holds; each concern is a module of its own:
 * connecting and negotiation (`connection.ts`), one call (`call.ts`), the modern rounds
 * (`rounds.ts`), the legacy bridge (`legacy-call.ts`), the wire (`send.ts`), input requests
 * (`input.ts`), notification routing (`routing.ts`), listen streams (`listen.ts`), tool listings
 * and results (`tools.ts`), the cache (`cache.ts`) and paging (`paginate.ts`).
 */
import { clientCache, type Cache } from "./cache.js";
import { Caller } from "./call.js";
import { Connection } from "./connection.js";
import { Deprecations } from "./deprecations.js";
import { MethodNotInEraError, TransportError } from "./errors.js";
import { clientCapabilities, InputRequests } from "./input.js";
import type { LegacyEra } from "./legacy.js";
import { LegacyCalls } from "./legacy-call.js";
import { Listens, type ListenStream } from "./listen.js";
import { put, type CallOptions, type ConnectOutcome, type CoreOptions } from "./options.js";
import { paginate } from "./paginate.js";
import type { ClientProtocol } from "./protocol.js";
import { Rounds } from "./rounds.js";
import { Router } from "./routing.js";
import { Sender } from "./send.js";
import { ToolResults } from "./tools.js";
import type { JsonRpcNotification } from "../shared/jsonrpc.js";

export class ClientCore {
  private readonly capabilities: Record<string, unknown>;
  private readonly cache: Cache | null;
  private readonly connection: Connection;
  private readonly router: Router;
  private readonly caller: Caller;
  private readonly listens: Listens;
  private closed = false;
  private readonly closing = new AbortController();

  constructor(
    readonly protocol: ClientProtocol,
    private readonly options: CoreOptions,
    /** The initialize-era revisions this client also speaks (`--legacy`), newest first. */
    readonly eras: readonly LegacyEra[] = [],
  ) {
    const log = (message: string) => this.log(message);
    const isClosed = () => this.closed;
    const closing = this.closing.signal;
    this.capabilities = clientCapabilities(protocol, options);
    this.cache = clientCache(
      options.cache,
      options.transport.cacheKey,
      protocol.envelope.cacheHints,
    );
    const deprecations = new Deprecations(
      options.onDeprecated,
      log,
      () => this.connection.session !== null,
    );
    // Connecting sends its handshake or probe as a call: the caller exists by the time it does.
    const connection = new Connection(
      protocol,
      options,
      eras,
      this.capabilities,
      (method, params, callOptions, probeTimeoutMs) =>
        this.caller.call(method, params, callOptions, probeTimeoutMs),
      isClosed,
    );
    this.connection = connection;
    const inputs = new InputRequests(
      protocol,
      options,
      this.capabilities,
      connection,
      deprecations,
      closing,
      log,
    );
    const router = new Router(protocol, connection, inputs, deprecations);
    this.router = router;
    if (options.onNotification) router.onNotification(options.onNotification);
    const tools = new ToolResults(protocol, options, log);
    const sender = new Sender(
      protocol,
      options.transport,
      connection,
      tools,
      (n) => router.route(n),
      options.telemetry,
    );
    const legacy = new LegacyCalls(protocol, options, connection, sender, tools, log);
    const rounds = new Rounds(
      protocol,
      options,
      connection,
      this.capabilities,
      sender,
      inputs,
      tools,
      deprecations,
    );
    this.caller = new Caller(
      protocol,
      options,
      connection,
      this.cache,
      rounds,
      legacy,
      deprecations,
      closing,
      isClosed,
    );
    this.listens = new Listens(
      protocol,
      connection,
      router,
      legacy,
      (method, params, callOptions) => this.caller.request(method, params, callOptions),
      closing,
      log,
    );
    options.transport.attach?.({
      log,
      notification: (n) => router.route(n),
      request: (r) => inputs.answer(r),
    });
  }

  /** The protocol version requests carry now (after any renegotiation). */
  get protocolVersion(): string {
    return this.connection.version;
  }

  /** The client capabilities requests declare. */
  get clientCapabilities(): Record<string, unknown> {
    return this.capabilities;
  }

  /**
   * The era of the server, once connected (or, for a client that speaks only the modern era, once
   * the server answered a call): `"legacy"` on an initialize-era session.
   */
  get era(): "modern" | "legacy" | null {
    const { session, started, eras, answered } = this.connection;
    if (session) return "legacy";
    return started || (eras.length === 0 && answered) ? "modern" : null;
  }

  log(message: string): void {
    this.options.log?.(message);
  }

  /** Adds a listener for server notifications that belong to no call; returns its remover. */
  onNotification(listener: (notification: JsonRpcNotification) => void): () => void {
    return this.router.onNotification(listener);
  }

  /**
   * Stateless revisions: probes with the discovery request and settles the version (stdio backward
   * compatibility); stateful ones: runs the initialize handshake. Runs once; every call waits for it
   * when the transport probes (stdio) or the revision needs a handshake.
   */
  connect(): Promise<ConnectOutcome | null> {
    return this.connection.connect();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.listens.unsubscribeAll();
    this.closing.abort(new TransportError("the client was closed"));
    this.connection.session = null;
    await this.options.transport.endSession?.();
    await this.options.transport.close();
    this.options.telemetry?.sessionEnded(this.connection);
  }

  clearCache(): void {
    this.cache?.clear();
  }

  /** Every item of every page of a paginated list method, within the client's page limit. */
  pages<I>(
    method: string,
    params: Record<string, unknown> | undefined,
    items: string,
    options?: CallOptions,
  ): AsyncGenerator<I, void, undefined> {
    // The cursor param and the result's next cursor, as the revision names them.
    const fields = this.protocol.cursor;
    return paginate<I>(
      (cursor) => {
        const page: Record<string, unknown> = { ...params };
        if (cursor !== undefined && fields) put(page, fields.param, cursor);
        return this.request(method, page, options);
      },
      items,
      fields?.result ?? null,
      {
        ...(this.options.maxPages === undefined ? {} : { maxPages: this.options.maxPages }),
        log: (message) => this.log(message),
      },
    );
  }

  /** Sends one request (with retries for input and version negotiation) and returns its complete, validated result. */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    return this.caller.request(method, params, options);
  }

  /**
   * Asks the server to send log messages at `level` and above, as the revision in use says: on a
   * legacy session, the era's own request (`logging/setLevel`); with a modern server, the level in
   * the metadata of every later request (the revision's `logLevel` key). A server era with neither
   * is `MethodNotInEraError`.
   */
  async setLogLevel(level: string, options: CallOptions = {}): Promise<void> {
    await this.connection.connect();
    const era = this.connection.session?.era;
    if (era) {
      if (!era.setLevel) throw new MethodNotInEraError(era.revision, "setting the log level");
      const params: Record<string, unknown> = {};
      put(params, era.setLevel.param, level);
      await this.request(era.setLevel.method, params, options);
      this.connection.logLevel = level;
      return;
    }
    if (!this.protocol.meta.logLevel)
      throw new MethodNotInEraError(this.protocol.revision, "setting the log level");
    this.connection.logLevel = level;
  }

  /**
   * A long-lived listen request as an async iterable of the notifications it delivers (the
   * acknowledgement excluded: see `acknowledged`). Ends when the server ends the subscription;
   * leaving the loop early cancels it.
   */
  listen(params: Record<string, unknown>, options: CallOptions = {}): ListenStream {
    return this.listens.listen(params, options);
  }
}
