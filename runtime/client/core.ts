/**
 * The client core: every protocol rule a generated client follows, driven by a `ClientProtocol`
 * description that the generator derives from the revision's schema (as `Protocol` drives the
 * server dispatcher). Revision-independent; copied verbatim into generated output. Transports
 * (`client-http.ts`, `client-stdio.ts`) only move messages.
 *
 * What it does for every call: a fresh id; the request `_meta` (protocol version, client
 * capabilities, client info, progress token) on stateless revisions, the initialize handshake on
 * stateful ones; result validation; typed errors; multi round-trip retries (`input_required`);
 * one protocol-version renegotiation; an opt-in cache honouring `ttlMs`/`cacheScope`.
 */
import { Cache, stableKey } from "./cache.js";
import {
  HeaderMismatchError,
  InputRequiredError,
  InvalidParamsError,
  InvalidResultError,
  LegacyServerError,
  McpError,
  MethodNotFoundError,
  MethodNotInEraError,
  MissingRequiredClientCapabilityError,
  SessionExpiredError,
  TimeoutError,
  TransportError,
  UnsupportedProtocolVersionError,
} from "./errors.js";
import {
  describeSession,
  eraOf,
  legacyListen,
  legacyMetaKey,
  legacyParams,
  modernResult,
  type LegacyEra,
  type LegacySession,
} from "./legacy.js";
import { RateLimit, ReopenBudget } from "./limits.js";
import type { ClientMethodSpec, ClientProtocol, Validate } from "./protocol.js";
import { ToolOutputChecks } from "./tool-output.js";
import type { ClientTransport, TransportRequestOptions } from "./transport.js";
import type { JsonSchemaEngine } from "../schema/json-schema.js";
import { ErrorCode, isRecord, own } from "../shared/jsonrpc.js";
import type {
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "../shared/jsonrpc.js";
import {
  encodeHeaderValue,
  headerAnnotations,
  paramHeaders,
  type HeaderAnnotation,
} from "../shared/param-headers.js";

// ---------------------------------------------------------------------------------------------
// Options

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Record<string, unknown>) => void;
  /** Overrides the client's `timeoutMs` for this call; 0 waits for ever. */
  timeoutMs?: number;
}

/** Call options the core passes to itself: `onId` learns the id each round is sent with. */
interface InternalCallOptions extends CallOptions {
  onId?: (id: JsonRpcId) => void;
}

export type InputHandler = (params: never, context: { signal: AbortSignal }) => unknown;

export interface CoreOptions {
  transport: ClientTransport;
  info: object;
  /** Default: `{}` plus one entry per input handler given (`{ elicitation: {} }` for `onElicit`…). */
  capabilities?: object;
  protocolVersion?: string;
  /** Versions this client speaks, preferred first; default `[protocolVersion]`. */
  supportedVersions?: string[];
  /** Input request method → handler. */
  inputHandlers?: Readonly<Record<string, InputHandler | undefined>>;
  /** Called once per deprecated feature the first time it is used on the wire; default: a line on `log`. */
  onDeprecated?: (notice: string) => void;
  /** Input-required rounds allowed per call before giving up; default 8. */
  maxRounds?: number;
  /**
   * How long a call waits for its answer (all its rounds) before it fails with `TimeoutError`, in
   * ms; default 60,000; 0 waits for ever. `listen` streams wait for ever unless their own options
   * say otherwise.
   */
  timeoutMs?: number;
  /** Pages an `…All()` iterator fetches at most before it stops (with a log line); default 1000. */
  maxPages?: number;
  /** In-memory cache of cacheable results (off by default). */
  cache?: boolean | { maxEntries?: number };
  /** Diagnostics (dropped tools, garbage from the server); default: none. */
  log?: (message: string) => void;
  /** Validate every result against the schema (default true). */
  validate?: boolean;
  /** Compiles tools' output schemas, so that `structuredContent` is checked against them. */
  jsonSchema?: JsonSchemaEngine;
  /** Check `structuredContent` against the tool's `outputSchema` from the last listing (default: true when `jsonSchema` is given). */
  checkToolOutput?: boolean;
  /** Stdio probe: how long to wait for `server/discover` before deciding the server is legacy; default 5000 ms. */
  probeTimeoutMs?: number;
  /** Server notifications that belong to no call. */
  onNotification?: (notification: JsonRpcNotification) => void;
  /**
   * How fast the server may ask for input: the input requests handed to the handlers (a legacy
   * server's own requests such as `elicitation/create`, a modern round's input requests), at most
   * `burst` at once and then `perSecond`; default 20 and 2. Beyond it a legacy server's request is
   * answered with an error, and a modern call fails with `InputRequiredError`.
   */
  inputRate?: { burst?: number; perSecond?: number };
  /**
   * Legacy sessions the server may end (HTTP 404) in a row, each reopened by the client, before it
   * stops reopening for `cooldownMs` (calls then fail with `SessionExpiredError`); default 3 and
   * 30,000 ms. A call reopens at most once.
   */
  sessionReopens?: { max?: number; cooldownMs?: number };
}

/**
 * What connecting found: a modern server (and its description, when it was asked for one), or a
 * legacy one and the session opened with it (the revision it speaks and its handshake's answer).
 */
export type ConnectOutcome =
  | { era: "modern"; protocolVersion: string; discover: Record<string, unknown> | null }
  | {
      era: "legacy";
      protocolVersion: string;
      revision: string;
      initialize: Record<string, unknown>;
    };

// ---------------------------------------------------------------------------------------------
// Helpers

const DEFAULT_TIMEOUT_MS = 60_000;
/** The implementation-defined error legacy servers commonly refuse a request outside a session with. */
const LEGACY_SESSION_REFUSAL = -32000;
const DEFAULT_MAX_PAGES = 1000;
const DEFAULT_INPUT_BURST = 20;
const DEFAULT_INPUT_PER_SECOND = 2;
const DEFAULT_SESSION_REOPENS = 3;
const DEFAULT_REOPEN_COOLDOWN_MS = 30_000;

/** Defines a data property, so that a key such as `__proto__` stays data. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

// ---------------------------------------------------------------------------------------------
// The core

interface ActiveListen {
  /** The listen request's id, once sent. */
  id: JsonRpcId | null;
  onNotification: (notification: JsonRpcNotification) => void;
}

export class ClientCore {
  private nextId = 1;
  private nextToken = 1;
  private version: string;
  private readonly supportedVersions: string[];
  private readonly capabilities: Record<string, unknown>;
  private readonly cache: Cache | null;
  private readonly listeners = new Set<(notification: JsonRpcNotification) => void>();
  /** Tool name → its `x-mcp-header` annotations, learned from tool listings. */
  private readonly toolHeaders = new Map<string, HeaderAnnotation[]>();
  private readonly listens = new Set<ActiveListen>();
  /** Per open listen on a legacy session: sends its legacy unsubscribes (once). */
  private readonly unsubscribes = new Set<() => Promise<void>>();
  private readonly toolOutputs: ToolOutputChecks | null;
  private ready: Promise<ConnectOutcome | null> | null = null;
  private closed = false;
  private readonly closing = new AbortController();
  /** Requests the server sent on the wire that a handler is answering, by id (for their cancellation). */
  private readonly serverRequests = new Map<JsonRpcId, AbortController>();
  /** The legacy session, once the server turned out to be of the initialize era. */
  private session: LegacySession | null = null;
  /** The era whose handshake is being sent (its request carries no version header yet). */
  private handshaking: LegacyEra | null = null;
  /** Input requests the handlers may still be given (`inputRate`). */
  private readonly inputRate: RateLimit;
  /** Whether the last input request was refused for rate: a refusal is logged when one begins. */
  private refusingInput = false;
  /** Sessions the server ended in a row, each reopened (`sessionReopens`). */
  private readonly reopens: ReopenBudget;
  /** The era of the server was taken from `eraCache`: a failure re-probes instead of trusting it. */
  private eraFromCache = false;
  /** The era each server was found to speak, by the transport's `eraKey` (HTTP: its origin). */
  private static readonly eraCache = new Map<string, "modern" | "legacy">();

  constructor(
    readonly protocol: ClientProtocol,
    private readonly options: CoreOptions,
    /** The initialize-era revisions this client also speaks (`--legacy`), newest first. */
    readonly eras: readonly LegacyEra[] = [],
  ) {
    this.version = options.protocolVersion ?? protocol.protocolVersion;
    this.inputRate = new RateLimit(
      options.inputRate?.burst ?? DEFAULT_INPUT_BURST,
      options.inputRate?.perSecond ?? DEFAULT_INPUT_PER_SECOND,
    );
    this.reopens = new ReopenBudget(
      options.sessionReopens?.max ?? DEFAULT_SESSION_REOPENS,
      options.sessionReopens?.cooldownMs ?? DEFAULT_REOPEN_COOLDOWN_MS,
    );
    this.supportedVersions = options.supportedVersions ?? [this.version];
    if (options.capabilities) this.capabilities = options.capabilities as Record<string, unknown>;
    else {
      this.capabilities = {};
      for (const [method, handler] of Object.entries(options.inputHandlers ?? {})) {
        const capability = protocol.inputRequests[method]?.capability;
        if (handler && capability) this.capabilities[capability] = {};
      }
    }
    const cache = options.cache;
    // A revision without caching hints has nothing cacheable.
    const hints = protocol.envelope.cacheHints;
    this.cache =
      cache && hints
        ? new Cache(
            typeof cache === "object" ? (cache.maxEntries ?? 256) : 256,
            options.transport.cacheKey,
            hints,
          )
        : null;
    if (options.onNotification) this.listeners.add(options.onNotification);
    const tools = protocol.tools;
    // Without an engine nothing can be checked: said once when the check was asked for explicitly.
    if (tools?.output && options.checkToolOutput === true && !options.jsonSchema)
      this.log(
        "mcp client: checkToolOutput needs a jsonSchema engine: structured results are not checked",
      );
    this.toolOutputs =
      tools?.output && options.checkToolOutput !== false && options.jsonSchema
        ? new ToolOutputChecks(
            {
              list: tools.list,
              call: tools.call,
              items: tools.items,
              name: tools.name,
              outputSchema: tools.output.schema,
              structuredContent: tools.output.structuredContent,
              isError: tools.output.isError,
              cursor: tools.output.cursor,
            },
            options.jsonSchema,
          )
        : null;
    options.transport.attach?.({
      log: (message) => this.log(message),
      notification: (n) => this.route(n),
      request: (r) => this.answerServer(r),
    });
  }

  /** The protocol version requests carry now (after any renegotiation). */
  get protocolVersion(): string {
    return this.version;
  }

  /** The client capabilities requests declare. */
  get clientCapabilities(): Record<string, unknown> {
    return this.capabilities;
  }

  /** The era of the server, once connected: `"legacy"` on an initialize-era session. */
  get era(): "modern" | "legacy" | null {
    return this.session ? "legacy" : this.ready ? "modern" : null;
  }

  log(message: string): void {
    this.options.log?.(message);
  }

  /** Deprecation notices already reported by this client. */
  private readonly reported = new Set<string>();

  private reportDeprecated(notice: string | undefined): void {
    if (notice === undefined || this.reported.has(notice)) return;
    this.reported.add(notice);
    if (this.options.onDeprecated) this.options.onDeprecated(notice);
    else this.log(`mcp client: deprecated feature used: ${notice}`);
  }

  /** Adds a listener for server notifications that belong to no call; returns its remover. */
  onNotification(listener: (notification: JsonRpcNotification) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Stateless revisions: probes with the discovery request and settles the version (stdio backward
   * compatibility); stateful ones: runs the initialize handshake. Runs once; every call waits for it
   * when the transport probes (stdio) or the revision needs a handshake.
   */
  connect(): Promise<ConnectOutcome | null> {
    this.ready ??= this.settle();
    return this.ready;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Listens on a legacy session end their subscriptions while the session is still there.
    await Promise.allSettled([...this.unsubscribes].map((unsubscribe) => unsubscribe()));
    this.closing.abort(new TransportError("the client was closed"));
    this.session = null;
    await this.options.transport.endSession?.();
    await this.options.transport.close();
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
  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    if (this.closed) throw new TransportError("the client is closed");
    const { lifecycle } = this.protocol;
    const isLifecycle =
      lifecycle.kind === "stateless"
        ? method === lifecycle.discover
        : method === lifecycle.initialize;
    // A dual-era client learns the server's era before anything else (discovery included: on a
    // legacy session it is answered from the handshake).
    if (
      this.eras.length > 0 ||
      (!isLifecycle && (lifecycle.kind === "stateful" || this.options.transport.probes))
    )
      await this.connect();
    try {
      return await this.call(method, params, options);
    } catch (error) {
      // A modern era taken from the cache that the server no longer bears out: probe again and
      // send the request once more (it was refused, not served).
      if (!this.eraFromCache || this.session || !this.refusedUnread(error) || this.closed)
        throw error;
      this.forgetEra();
      await this.connect();
      return this.call(method, params, options);
    }
  }

  /**
   * Whether a modern request was refused without being served, the way a legacy server refuses a
   * request outside a session: a 4xx without a JSON-RPC answer, or an invalid-request, unknown-method
   * or server error before any handler ran. (Any other error may come from a handler that ran: the
   * request is not sent twice.)
   */
  private refusedUnread(error: unknown): boolean {
    if (error instanceof McpError)
      return (
        error.code === ErrorCode.InvalidRequest ||
        error.code === ErrorCode.MethodNotFound ||
        error.code === LEGACY_SESSION_REFUSAL
      );
    return (
      error instanceof TransportError &&
      !(error instanceof SessionExpiredError) &&
      error.status !== undefined &&
      error.status >= 400 &&
      error.status < 500
    );
  }

  /** Drops what was learnt about the server's era: the next call probes again. */
  private forgetEra(): void {
    const key = this.options.transport.eraKey;
    if (key !== undefined) ClientCore.eraCache.delete(key);
    this.eraFromCache = false;
    this.session = null;
    this.ready = null;
    this.version = this.options.protocolVersion ?? this.protocol.protocolVersion;
  }

  private async call(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
    probeTimeoutMs?: number,
  ): Promise<Record<string, unknown>> {
    const spec = own(this.protocol.methods, method);
    const { envelope } = this.protocol;
    this.reportDeprecated(own(this.protocol.deprecated.methods, method));
    const base: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(params ?? {})) {
      // A caller's `_meta` is merged below; the retry's fields are the client's own business.
      if (key === envelope.inputResponses || key === envelope.requestState) continue;
      put(base, key, value);
    }
    const cacheKey =
      this.cache && spec?.cacheable
        ? `${method}\n${stableKey({ ...base, _meta: undefined })}`
        : null;
    if (cacheKey !== null) {
      const hit = this.cache!.get(cacheKey);
      if (hit) return hit;
    }

    const controller = new AbortController();
    const abort = (reason: unknown) => controller.abort(reason);
    const cleanups: Array<() => void> = [];
    const follow = (signal: AbortSignal | undefined) => {
      if (!signal) return;
      if (signal.aborted) abort(signal.reason);
      else {
        const listener = () => abort(signal.reason);
        signal.addEventListener("abort", listener, { once: true });
        cleanups.push(() => signal.removeEventListener("abort", listener));
      }
    };
    follow(options.signal);
    follow(this.closing.signal);
    const timeoutMs =
      options.timeoutMs ?? probeTimeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      const timer = setTimeout(() => abort(new TimeoutError(method, timeoutMs)), timeoutMs);
      cleanups.push(() => clearTimeout(timer));
    }
    try {
      const era = this.handshaking ?? this.session?.era;
      const result = era
        ? await this.legacyCall(era, method, base, spec, options, controller.signal)
        : await this.rounds(method, base, spec, options, controller.signal);
      if (cacheKey !== null) this.cache!.set(cacheKey, result);
      return result;
    } finally {
      for (const cleanup of cleanups) cleanup();
    }
  }

  private async rounds(
    method: string,
    base: Record<string, unknown>,
    spec: ClientMethodSpec | undefined,
    options: CallOptions,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const { protocol } = this;
    const { envelope } = protocol;
    const progressToken =
      options.onProgress && protocol.meta.progressToken ? `p${this.nextToken++}` : undefined;
    let retry: {
      inputResponses: Record<string, unknown>;
      requestState: string | undefined;
    } | null = null;
    let renegotiated = false;
    const maxRounds = this.options.maxRounds ?? 8;
    for (let round = 0; ;) {
      // Object.assign, not spread: a spread copy that then gains properties is slow in V8.
      const params: Record<string, unknown> = Object.assign({}, base);
      const meta: Record<string, unknown> = isRecord(base._meta)
        ? Object.assign({}, base._meta)
        : {};
      for (const key in protocol.deprecated.metaKeys) {
        if (meta[key] !== undefined) this.reportDeprecated(protocol.deprecated.metaKeys[key]);
      }
      if (protocol.lifecycle.kind === "stateless") {
        meta[protocol.lifecycle.protocolVersionKey] = this.version;
        meta[protocol.lifecycle.clientCapabilitiesKey] = this.capabilities;
        if (protocol.meta.clientInfo) meta[protocol.meta.clientInfo] = this.options.info;
      }
      if (progressToken !== undefined) meta[protocol.meta.progressToken!] = progressToken;
      if (Object.keys(meta).length > 0) params._meta = meta;
      else delete params._meta;
      if (retry) {
        if (envelope.inputResponses !== null)
          put(params, envelope.inputResponses, retry.inputResponses);
        if (retry.requestState !== undefined && envelope.requestState !== null)
          put(params, envelope.requestState, retry.requestState);
      }
      const id = this.nextId++;
      const response = await this.send(method, id, params, spec, options, signal, progressToken);

      if ("error" in response) {
        const error = this.toError(response.error);
        if (error instanceof UnsupportedProtocolVersionError && !renegotiated) {
          const version = this.supportedVersions.find((v) => error.supported.includes(v));
          if (version !== undefined) {
            renegotiated = true;
            this.version = version;
            continue;
          }
        }
        throw error;
      }

      const result = response.result;
      if (!isRecord(result)) throw new InvalidResultError(method, "", "is not an object", result);
      const typeField = envelope.resultType;
      const resultType = typeField === null ? undefined : result[typeField];
      if (protocol.resultTypes && resultType === protocol.resultTypes.inputRequired) {
        if (!spec?.inputRequired)
          throw new InvalidResultError(
            method,
            `/${typeField}`,
            `${method} may not ask for input`,
            result,
          );
        if (this.options.validate !== false && protocol.inputRequiredResult)
          this.check(method, protocol.inputRequiredResult, result);
        const inputRequests =
          envelope.inputRequests === null ? undefined : result[envelope.inputRequests];
        if (++round >= maxRounds)
          throw new InputRequiredError(
            `${method} still asked for input after ${maxRounds} rounds`,
            inputRequests,
          );
        const state = envelope.requestState === null ? undefined : result[envelope.requestState];
        retry = {
          inputResponses: await this.gather(method, inputRequests, signal),
          requestState: typeof state === "string" ? state : undefined,
        };
        continue;
      }
      if (
        resultType !== undefined &&
        (protocol.resultTypes === null || resultType !== protocol.resultTypes.complete)
      ) {
        throw new InvalidResultError(
          method,
          `/${typeField}`,
          `unknown ${typeField} ${JSON.stringify(resultType)}`,
          result,
        );
      }
      // An absent result type means complete (servers of earlier versions send none).
      if (protocol.resultTypes && typeField !== null && resultType === undefined)
        put(result, typeField, protocol.resultTypes.complete);
      if (spec && this.options.validate !== false) this.check(method, spec.result, result);
      this.learnTools(method, result);
      const failure = this.toolOutputs?.observe(method, base, result);
      if (failure) throw new InvalidResultError(method, failure.pointer, failure.message, result);
      return result;
    }
  }

  /**
   * A modern call on a legacy session: the request the legacy revision has for it (its params
   * without the modern `_meta` keys), its answer checked against the legacy result, then given the
   * fields the modern result requires. Discovery is answered from the handshake; a method the
   * revision lacks is `MethodNotInEraError`. A session the server ended (HTTP 404) is opened again
   * and the request sent once more, once per call and within `sessionReopens`.
   */
  private async legacyCall(
    era: LegacyEra,
    method: string,
    base: Record<string, unknown>,
    spec: ClientMethodSpec | undefined,
    options: CallOptions,
    signal: AbortSignal,
    reopened = false,
  ): Promise<Record<string, unknown>> {
    const handshake = method === era.initialize;
    if (!handshake && era.discover && method === era.discover.method && this.session)
      return describeSession(this.session, era.discover);
    const legacy = handshake ? { result: null, fill: {} } : own(era.methods, method);
    if (!legacy) throw new MethodNotInEraError(era.revision, method);
    const progressToken =
      options.onProgress && legacyMetaKey(era, "progressToken")
        ? `p${this.nextToken++}`
        : undefined;
    const params = handshake ? base : legacyParams(era, base, this.modernMetaKeys, progressToken);
    let response: JsonRpcResponse;
    try {
      response = await this.send(
        method,
        this.nextId++,
        params,
        spec,
        options,
        signal,
        progressToken,
      );
    } catch (error) {
      if (!(error instanceof SessionExpiredError) || handshake || signal.aborted || reopened)
        throw error;
      if (!this.reopens.take())
        throw new SessionExpiredError(
          `${error.message}; the server ended ${this.reopens.max} sessions in a row, so no new one is opened for ${this.reopens.waitSeconds()} s`,
        );
      this.log(`mcp client: the server ended the legacy session; opening a new one for ${method}`);
      this.session = null;
      this.ready = null;
      await this.connect();
      const again = this.session as LegacySession | null;
      if (!again) throw error;
      return this.legacyCall(again.era, method, base, spec, options, signal, true);
    }
    if (!handshake) this.reopens.served();
    if ("error" in response) throw this.toError(response.error);
    const result = response.result;
    if (!isRecord(result)) throw new InvalidResultError(method, "", "is not an object", result);
    if (!legacy.result) return result;
    if (this.options.validate !== false) this.check(method, legacy.result, result);
    const modern = modernResult(legacy.fill, result);
    this.learnTools(method, modern);
    const failure = this.toolOutputs?.observe(method, base, modern);
    if (failure) throw new InvalidResultError(method, failure.pointer, failure.message, modern);
    return modern;
  }

  /** The `_meta` keys the modern revision gives a protocol role: never sent on a legacy session. */
  private get modernMetaKeys(): ReadonlySet<string> {
    const { lifecycle, meta } = this.protocol;
    const keys = [meta.clientInfo, meta.subscriptionId];
    if (lifecycle.kind === "stateless")
      keys.push(lifecycle.protocolVersionKey, lifecycle.clientCapabilitiesKey);
    return new Set(keys.filter((k): k is string => k !== null));
  }

  /**
   * Whether a failed probe (or a failed call on a cached era) says the server is of the legacy era:
   * any answer that is not a recognised modern one (another JSON-RPC error, a result that is not the
   * modern description, a 4xx without a modern error), or silence on stdio. A transport that failed
   * (a process that cannot start or died, a network error, a 5xx) says nothing about the era.
   */
  private legacyVerdict(error: unknown): boolean {
    if (this.closed) return false;
    if (
      error instanceof UnsupportedProtocolVersionError ||
      error instanceof MissingRequiredClientCapabilityError ||
      error instanceof HeaderMismatchError ||
      error instanceof MethodNotInEraError
    )
      return false;
    if (error instanceof McpError || error instanceof InvalidResultError) return true;
    if (error instanceof TimeoutError) return this.options.transport.probes === true;
    if (error instanceof SessionExpiredError) return false;
    if (error instanceof TransportError)
      return error.status !== undefined && error.status >= 400 && error.status < 500;
    return false;
  }

  /**
   * Opens a legacy session: the handshake offering the newest legacy version, the server's choice
   * checked against every legacy revision the client was generated for, then the completing
   * notification and the transport's session mechanics (HTTP: its GET stream). A version the client
   * does not speak ends the connection, as the legacy lifecycle says.
   */
  private async openLegacy(): Promise<ConnectOutcome> {
    const offered = this.eras[0]!;
    this.options.transport.beginSession?.();
    let result: Record<string, unknown>;
    this.handshaking = offered;
    try {
      result = await this.call(
        offered.initialize,
        {
          protocolVersion: offered.protocolVersion,
          capabilities: this.capabilities,
          clientInfo: this.options.info,
        },
        {},
      );
    } finally {
      this.handshaking = null;
    }
    const era = eraOf(this.eras, result.protocolVersion);
    if (!era) {
      const supported = [...this.supportedVersions, ...this.eras.map((e) => e.protocolVersion)];
      await this.options.transport.endSession?.();
      await this.options.transport.close();
      throw new UnsupportedProtocolVersionError(
        this.protocol.errors.unsupportedVersion ?? ErrorCode.InvalidParams,
        `the server chose protocol version ${JSON.stringify(result.protocolVersion)}, which this client does not speak (it speaks ${supported.join(", ")})`,
        { supported, requested: result.protocolVersion },
      );
    }
    if (this.options.validate !== false) this.check(era.initialize, era.initializeResult, result);
    this.session = { era, handshake: result };
    this.version = era.protocolVersion;
    if (era.initialized)
      await this.options.transport.notify(
        { jsonrpc: "2.0", method: era.initialized },
        { headers: { "MCP-Protocol-Version": era.protocolVersion, "Mcp-Method": era.initialized } },
      );
    await this.options.transport.sessionOpened?.(era.protocolVersion);
    return {
      era: "legacy",
      protocolVersion: era.protocolVersion,
      revision: era.revision,
      initialize: result,
    };
  }

  private check(method: string, validate: Validate, result: Record<string, unknown>): void {
    let checked: ReturnType<Validate>;
    try {
      checked = validate(result);
    } catch (error) {
      if (error instanceof RangeError)
        throw new InvalidResultError(method, "", "is nested too deeply to validate", result);
      throw error;
    }
    if (!checked.ok) {
      const first = checked.errors?.[0];
      throw new InvalidResultError(
        method,
        first?.path ?? "",
        first?.message ?? "is invalid",
        result,
      );
    }
  }

  private async send(
    method: string,
    id: JsonRpcId,
    params: Record<string, unknown>,
    spec: ClientMethodSpec | undefined,
    options: CallOptions,
    signal: AbortSignal,
    progressToken: string | undefined,
  ): Promise<JsonRpcResponse> {
    if (signal.aborted) throw signal.reason;
    const { protocol } = this;
    const message: JsonRpcRequest = { jsonrpc: "2.0", id, method, params };
    const headers: Record<string, string> = { "Mcp-Method": method };
    // A handshake carries its version in its params only.
    const initialize =
      this.handshaking?.initialize ??
      (protocol.lifecycle.kind === "stateful" ? protocol.lifecycle.initialize : null);
    if (method !== initialize) headers["MCP-Protocol-Version"] = this.version;
    const target = spec?.target ? params[spec.target] : undefined;
    if (typeof target === "string") headers["Mcp-Name"] = encodeHeaderValue(target) ?? target;
    if (
      this.options.transport.mirrorsHeaders &&
      protocol.tools &&
      method === protocol.tools.call &&
      typeof params[protocol.tools.name] === "string"
    ) {
      const annotations = this.toolHeaders.get(params[protocol.tools.name] as string);
      if (annotations)
        Object.assign(headers, paramHeaders(annotations, params[protocol.tools.arguments]));
    }
    const onNotification = (notification: JsonRpcNotification) => {
      if (notification.method === protocol.notifications.progress) {
        if (progressToken !== undefined && notification.params?.progressToken === progressToken)
          options.onProgress?.(notification.params);
        return;
      }
      this.route(notification);
    };
    const transportOptions: TransportRequestOptions =
      progressToken === undefined
        ? { signal, onNotification, headers }
        : { signal, onNotification, headers, progressToken };
    (options as InternalCallOptions).onId?.(id);
    const sent = this.options.transport.request(message, transportOptions);
    // On a legacy session every transport cancels by notification (a closed stream is not a
    // cancellation there); otherwise only those that say so (stdio).
    const cancelled = this.session
      ? this.session.era.cancelled
      : this.options.transport.cancelsByNotification
        ? protocol.notifications.cancelled
        : null;
    if (cancelled) {
      const onAbort = () => {
        this.options.transport
          .notify({
            jsonrpc: "2.0",
            method: cancelled,
            params: { requestId: id, reason: String(signal.reason) },
          })
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

  /**
   * Answers a request the server sent on the wire. Only an initialize-era session has them (a
   * stateful revision's, or a legacy session of a dual-era client): the liveness check, and what an
   * input handler returns for a capability the client declared. On a modern session, and for
   * anything else, the answer is "method not found".
   */
  private async answerServer(request: JsonRpcRequest): Promise<JsonRpcResponse | null> {
    const notFound = (why: string): JsonRpcResponse => ({
      jsonrpc: "2.0",
      id: request.id,
      error: {
        code: ErrorCode.MethodNotFound,
        message: `Method not found: ${request.method} (${why})`,
      },
    });
    const era = this.session?.era ?? null;
    const stateful = this.protocol.lifecycle.kind === "stateful";
    if (!era && !stateful) return notFound("a modern session takes no requests from the server");
    if (request.method === (era ? era.ping : this.protocol.ping))
      return { jsonrpc: "2.0", id: request.id, result: {} };
    const known = era
      ? own(era.serverRequests, request.method)
      : own(this.protocol.inputRequests, request.method);
    const handler = Object.hasOwn(this.options.inputHandlers ?? {}, request.method)
      ? this.options.inputHandlers![request.method]
      : undefined;
    if (!known || !handler) return notFound("the client has no handler for it");
    if (this.capabilities[known.capability] === undefined)
      return notFound(`the client did not declare the ${known.capability} capability`);
    if (!this.takeInput(1, request.method))
      return {
        jsonrpc: "2.0",
        id: request.id,
        error: {
          code: ErrorCode.InternalError,
          message: `Too many input requests: the client takes ${this.inputRate.burst} at once and ${this.inputRate.perSecond} a second`,
        },
      };
    this.reportDeprecated(own(this.protocol.deprecated.methods, request.method));
    this.reportDeprecated(own(this.protocol.deprecated.clientCapabilities, known.capability));
    let result: unknown;
    // The server may cancel its request: the handler's signal aborts, and no answer is sent.
    const cancel = new AbortController();
    this.serverRequests.set(request.id, cancel);
    try {
      const params = isRecord(request.params) ? request.params : {};
      result = await (handler as (p: unknown, c: { signal: AbortSignal }) => unknown)(params, {
        signal: AbortSignal.any([this.closing.signal, cancel.signal]),
      });
      if (cancel.signal.aborted) return null;
    } catch (error) {
      if (cancel.signal.aborted) return null;
      this.log(
        `mcp client: the ${request.method} handler failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return {
        jsonrpc: "2.0",
        id: request.id,
        error: { code: ErrorCode.InternalError, message: "Internal error" },
      };
    } finally {
      this.serverRequests.delete(request.id);
    }
    const answer = isRecord(result) ? result : {};
    // A legacy server reads the answer by its own revision: one its validators would refuse is
    // still the user's answer (the schema's JSON form is narrower than its TypeScript in places,
    // integers for numbers), so it is sent, and the mismatch reported.
    if (era && this.options.validate !== false) {
      const checked = era.serverRequests[request.method]!.response(answer);
      if (!checked.ok) {
        const first = checked.errors?.[0];
        this.log(
          `mcp client: the ${request.method} handler's answer is not a valid ${era.revision} result at ${first?.path || "/"}: ${first?.message ?? "invalid"}`,
        );
      }
    }
    return { jsonrpc: "2.0", id: request.id, result: answer };
  }

  /** Routes a notification outside any call's own stream: to the listen call it is tagged for, else to the listeners. */
  private route(notification: JsonRpcNotification): void {
    this.reportDeprecated(own(this.protocol.deprecated.methods, notification.method));
    const cancelled =
      this.session?.era.cancelled ??
      (this.protocol.lifecycle.kind === "stateful" ? this.protocol.notifications.cancelled : null);
    if (cancelled !== null && notification.method === cancelled) {
      const id = notification.params?.requestId;
      const pending = id === undefined ? undefined : this.serverRequests.get(id as JsonRpcId);
      pending?.abort(new Error(`the server cancelled its request ${String(id)}`));
    }
    const key = this.protocol.meta.subscriptionId;
    const meta = notification.params?._meta;
    if (key && isRecord(meta) && meta[key] !== undefined) {
      for (const listen of this.listens) {
        if (listen.id === meta[key]) {
          listen.onNotification(notification);
          return;
        }
      }
    }
    for (const listener of this.listeners) listener(notification);
  }

  /** Calls the handler of every input request; a request the client has no handler for is an error. */
  private async gather(
    method: string,
    inputRequests: unknown,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const responses: Record<string, unknown> = {};
    const requests = isRecord(inputRequests) ? Object.entries(inputRequests) : [];
    if (!this.takeInput(requests.length, method))
      throw new InputRequiredError(
        `${method} asked for ${requests.length} inputs, more than the client takes now (${this.inputRate.burst} at once, ${this.inputRate.perSecond} a second)`,
        inputRequests,
      );
    // Each input request's method and params, under the names the revision gives them.
    const fields = this.protocol.envelope.inputRequest;
    const answers = await Promise.all(
      requests.map(async ([key, request]) => {
        const inputMethod = isRecord(request) && fields ? request[fields.method] : undefined;
        const handler =
          typeof inputMethod === "string" &&
          Object.hasOwn(this.options.inputHandlers ?? {}, inputMethod)
            ? this.options.inputHandlers![inputMethod]
            : undefined;
        if (!handler)
          throw new InputRequiredError(
            `${method} asked for ${String(inputMethod)} (key "${key}"), and the client has no handler for it`,
            inputRequests,
          );
        const given = isRecord(request) && fields ? request[fields.params] : undefined;
        const params = isRecord(given) ? given : {};
        const { deprecated, inputRequests: known } = this.protocol;
        this.reportDeprecated(own(deprecated.methods, inputMethod as string));
        const capability = own(known, inputMethod as string)?.capability;
        if (capability !== undefined)
          this.reportDeprecated(own(deprecated.clientCapabilities, capability));
        return [
          key,
          await (handler as (p: unknown, c: { signal: AbortSignal }) => unknown)(params, {
            signal,
          }),
        ] as const;
      }),
    );
    for (const [key, answer] of answers) put(responses, key, answer);
    return responses;
  }

  /** Takes `count` input requests from the rate; a refusal is logged when refusals begin. */
  private takeInput(count: number, method: string): boolean {
    if (count === 0) return true;
    const taken = this.inputRate.take(count);
    if (!taken && !this.refusingInput)
      this.log(
        `mcp client: refusing input requests (${method}): the server asks faster than inputRate`,
      );
    this.refusingInput = !taken;
    return taken;
  }

  private toError(error: { code: number; message: string; data?: unknown }): McpError {
    const { errors } = this.protocol;
    const code = error.code;
    const message = typeof error.message === "string" ? error.message : "error";
    if (errors.unsupportedVersion !== null && code === errors.unsupportedVersion)
      return new UnsupportedProtocolVersionError(code, message, error.data);
    if (errors.missingCapability !== null && code === errors.missingCapability)
      return new MissingRequiredClientCapabilityError(code, message, error.data);
    if (errors.headerMismatch !== null && code === errors.headerMismatch)
      return new HeaderMismatchError(code, message, error.data);
    if (code === ErrorCode.MethodNotFound)
      return new MethodNotFoundError(code, message, error.data);
    if (code === ErrorCode.InvalidParams) return new InvalidParamsError(code, message, error.data);
    return new McpError(code, message, error.data);
  }

  /** Tool listings: remembers each tool's header annotations; over HTTP, drops tools whose annotations are invalid. */
  private learnTools(method: string, result: Record<string, unknown>): void {
    const tools = this.protocol.tools;
    if (!tools || method !== tools.list || !this.options.transport.mirrorsHeaders) return;
    const items = result[tools.items];
    if (!Array.isArray(items)) return;
    result[tools.items] = items.filter((tool: unknown) => {
      if (!isRecord(tool)) return true;
      const name = String(tool[tools.name]);
      let found: ReturnType<typeof headerAnnotations>;
      try {
        found = headerAnnotations(tool[tools.schema]);
      } catch (error) {
        // Whatever one tool's schema does, it costs that tool, never the list.
        found = { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
      if (!found.ok) {
        this.log(`mcp client: dropped tool "${name}": ${found.reason}`);
        this.toolHeaders.delete(name);
        return false;
      }
      this.toolHeaders.set(name, found.annotations);
      return true;
    });
  }

  private async settle(): Promise<ConnectOutcome | null> {
    try {
      return await this.findEra();
    } catch (error) {
      // A later call starts over rather than inherit the failure.
      this.ready = null;
      throw error;
    }
  }

  private async findEra(): Promise<ConnectOutcome | null> {
    const { lifecycle } = this.protocol;
    if (lifecycle.kind === "stateful") {
      this.options.transport.beginSession?.();
      const result = await this.call(
        lifecycle.initialize,
        {
          protocolVersion: this.version,
          capabilities: this.capabilities,
          clientInfo: this.options.info,
        },
        {},
      );
      const agreed = result.protocolVersion;
      if (typeof agreed !== "string" || !this.supportedVersions.includes(agreed)) {
        throw new UnsupportedProtocolVersionError(
          ErrorCode.InvalidParams,
          `the server chose protocol version ${String(agreed)}, which this client does not support`,
          {
            supported: this.supportedVersions,
            requested: agreed,
          },
        );
      }
      this.version = agreed;
      if (lifecycle.initialized)
        await this.options.transport.notify(
          { jsonrpc: "2.0", method: lifecycle.initialized },
          { headers: { "MCP-Protocol-Version": agreed, "Mcp-Method": lifecycle.initialized } },
        );
      await this.options.transport.sessionOpened?.(agreed);
      return { era: "modern", protocolVersion: agreed, discover: result };
    }
    const transport = this.options.transport;
    const eraKey = transport.eraKey;
    const cached = eraKey === undefined ? undefined : ClientCore.eraCache.get(eraKey);
    if (this.eras.length > 0 && cached !== undefined) {
      this.eraFromCache = true;
      if (cached === "modern")
        return { era: "modern", protocolVersion: this.version, discover: null };
      try {
        return await this.openLegacy();
      } catch (error) {
        if (!this.legacyVerdict(error)) throw error;
        this.forgetEra();
      }
    }
    // A modern-only client over HTTP sends its requests as they come (no probe).
    if (this.eras.length === 0 && !transport.probes) return null;
    let discovered: Record<string, unknown>;
    try {
      discovered = await this.call(
        lifecycle.discover,
        {},
        {},
        transport.probes ? (this.options.probeTimeoutMs ?? 5000) : undefined,
      );
    } catch (error) {
      // A recognised modern error: the server is modern (an unsupported version was already
      // renegotiated once); a transport that failed says nothing about the era.
      if (!this.legacyVerdict(error)) throw error;
      if (this.eras.length === 0) {
        // The process (or connection) is of no use to this client: nothing is left running.
        await transport.close();
        throw new LegacyServerError(
          `the server did not answer ${lifecycle.discover} as a modern server does (${error instanceof Error ? error.message : String(error)}); ` +
            "it may speak a legacy, initialize-era version: this client was generated with --legacy none; regenerate it without (the default speaks every released initialize-era revision) to speak it too",
          error,
        );
      }
      let outcome: ConnectOutcome;
      try {
        outcome = await this.openLegacy();
      } catch (failure) {
        // Neither era answered: nothing is left running for a server the client cannot speak to.
        if (!(failure instanceof UnsupportedProtocolVersionError)) {
          await transport.endSession?.();
          await transport.close();
        }
        throw failure;
      }
      if (eraKey !== undefined) ClientCore.eraCache.set(eraKey, "legacy");
      return outcome;
    }
    if (eraKey !== undefined && this.eras.length > 0) ClientCore.eraCache.set(eraKey, "modern");
    const offered = Array.isArray(discovered.supportedVersions) ? discovered.supportedVersions : [];
    if (!offered.includes(this.version)) {
      const version = this.supportedVersions.find((v) => offered.includes(v));
      if (version === undefined) {
        throw new UnsupportedProtocolVersionError(
          this.protocol.errors.unsupportedVersion ?? ErrorCode.InvalidParams,
          "no protocol version both sides support",
          {
            supported: offered,
            requested: this.version,
          },
        );
      }
      this.version = version;
    }
    return { era: "modern", protocolVersion: this.version, discover: discovered };
  }

  /**
   * A listen on a legacy session, which has no listen request: the legacy subscribe for each
   * resource the filter names, then the session's notifications the filter asks for, until the
   * stream is left or the client closes; then the legacy unsubscribe for each. The acknowledgement
   * reports what the session honours, as a modern server's does.
   */
  private async legacyListen(
    session: LegacySession,
    listen: NonNullable<ClientProtocol["listen"]>,
    params: Record<string, unknown>,
    push: (notification: JsonRpcNotification) => void,
    acknowledge: (value: Record<string, unknown>) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const given = params[listen.filterParam];
    const plan = legacyListen(session, listen, isRecord(given) ? given : {});
    const subscribe = session.era.subscribe;
    const remove = this.onNotification((notification) => {
      if (plan.wants(notification)) push(notification);
    });
    const subscribed: string[] = [];
    const unsubscribe = async (): Promise<void> => {
      for (const uri of subscribed.splice(0))
        await this.legacyRequest(subscribe!.unsubscribe, { [subscribe!.param]: uri }).catch(
          (error: unknown) =>
            this.log(
              `mcp client: ${subscribe!.unsubscribe} ${uri} failed: ${error instanceof Error ? error.message : String(error)}`,
            ),
        );
    };
    this.unsubscribes.add(unsubscribe);
    try {
      const ended = AbortSignal.any([signal, this.closing.signal]);
      for (const uri of plan.resources) {
        await this.legacyRequest(subscribe!.method, { [subscribe!.param]: uri }, ended);
        subscribed.push(uri);
      }
      acknowledge({ [listen.filterParam]: plan.honoured });
      if (!ended.aborted)
        await new Promise<void>((resolve) =>
          ended.addEventListener("abort", () => resolve(), { once: true }),
        );
    } finally {
      remove();
      await unsubscribe();
      this.unsubscribes.delete(unsubscribe);
    }
  }

  /** A legacy request the runtime sends itself (its answer is empty): within the client's timeout. */
  private async legacyRequest(
    method: string,
    params: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<void> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signals = signal ? [signal] : [];
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) signals.push(AbortSignal.timeout(timeoutMs));
    const response = await this.send(
      method,
      this.nextId++,
      params,
      undefined,
      {},
      AbortSignal.any(signals),
      undefined,
    );
    if ("error" in response) throw this.toError(response.error);
  }

  /**
   * A long-lived listen request as an async iterable of the notifications it delivers (the
   * acknowledgement excluded: see `acknowledged`). Ends when the server ends the subscription;
   * leaving the loop early cancels it.
   */
  listen(params: Record<string, unknown>, options: CallOptions = {}): ListenStream {
    const listen = this.protocol.listen;
    if (!listen)
      throw new MethodNotFoundError(ErrorCode.MethodNotFound, "this revision has no subscriptions");
    const queue: JsonRpcNotification[] = [];
    let wake: (() => void) | null = null;
    let done = false;
    let failure: { error: unknown } | null = null;
    let acknowledge: (value: Record<string, unknown>) => void = () => {};
    const acknowledged = new Promise<Record<string, unknown>>((resolve) => (acknowledge = resolve));
    const controller = new AbortController();
    const entry: ActiveListen = { id: null, onNotification: () => {} };
    const push = (notification: JsonRpcNotification) => {
      if (notification.method === this.protocol.notifications.acknowledged) {
        acknowledge(isRecord(notification.params) ? notification.params : {});
        return;
      }
      queue.push(notification);
      wake?.();
    };
    entry.onNotification = push;
    // Over HTTP the events arrive on the request's own stream and go through the routing of
    // `send`, which hands tagged notifications to `route`, which finds this entry.
    this.listens.add(entry);
    const signal = options.signal
      ? AbortSignal.any([options.signal, controller.signal])
      : controller.signal;
    const internal: InternalCallOptions = {
      timeoutMs: 0,
      ...options,
      signal,
      onId: (id) => (entry.id = id),
    };
    const run = async (): Promise<void> => {
      // A dual-era client learns the era first: a legacy session has no listen request.
      if (this.eras.length > 0) await this.connect();
      const session = this.session;
      if (session) return this.legacyListen(session, listen, params, push, acknowledge, signal);
      await this.request(listen.method, params, internal);
    };
    const finished = run()
      .then(
        () => {},
        (error: unknown) => {
          if (!controller.signal.aborted) failure = { error };
        },
      )
      .finally(() => {
        done = true;
        this.listens.delete(entry);
        wake?.();
      });
    const iterator: AsyncIterableIterator<JsonRpcNotification> = {
      next: async (): Promise<IteratorResult<JsonRpcNotification>> => {
        for (;;) {
          if (queue.length > 0) return { value: queue.shift()!, done: false };
          if (failure) throw failure.error;
          if (done) return { value: undefined, done: true };
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
      },
      return: async (): Promise<IteratorResult<JsonRpcNotification>> => {
        controller.abort(new Error("listen ended by the client"));
        await finished;
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return Object.assign(iterator, { acknowledged, finished });
  }
}

/** A listen call: iterate it for notifications; `acknowledged` resolves with what the server honours. */
export interface ListenStream extends AsyncIterableIterator<JsonRpcNotification> {
  acknowledged: Promise<Record<string, unknown>>;
  /** Settles when the subscription has ended. */
  finished: Promise<void>;
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

/**
 * Walks the pages of a paginated list method and yields the items of each, following the cursor
 * each page gives in its `next` field (`null`: one page). A hostile or broken server could issue
 * cursors for ever: the walk stops (with a line on `log`) at a cursor it has already seen and
 * after `maxPages` pages.
 */
export async function* paginate<I>(
  fetchPage: (cursor: string | undefined) => Promise<Record<string, unknown>>,
  items: string,
  next: string | null,
  limits: { maxPages?: number; log?: (message: string) => void } = {},
): AsyncGenerator<I, void, undefined> {
  const maxPages = limits.maxPages ?? DEFAULT_MAX_PAGES;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await fetchPage(cursor);
    const list = page[items];
    if (Array.isArray(list)) yield* list as I[];
    const following = next === null ? undefined : page[next];
    if (typeof following !== "string") return;
    if (seen.has(following)) {
      limits.log?.(`mcp client: stopped paging ${items}: the server repeated a cursor`);
      return;
    }
    if (pages >= maxPages) {
      limits.log?.(`mcp client: stopped paging ${items} after ${maxPages} pages`);
      return;
    }
    seen.add(following);
    cursor = following;
  }
}
