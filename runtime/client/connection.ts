/**
 * Connecting and version negotiation: which era the server speaks and which protocol version both
 * sides use. A stateful revision runs the initialize handshake; a stateless one probes with its
 * discovery request when the transport probes (stdio) or the client also speaks initialize-era
 * revisions (remembering each server's era by the transport's `eraKey`), and falls back to the
 * newest legacy handshake when the server is not modern. Holds what connecting settled: the version
 * requests carry and the legacy session. Revision-independent; copied verbatim into generated
 * output.
 */
import { checkResult } from "./check.js";
import {
  HeaderMismatchError,
  InvalidResultError,
  LegacyServerError,
  McpError,
  MethodNotInEraError,
  MissingRequiredClientCapabilityError,
  SessionExpiredError,
  TimeoutError,
  TransportError,
  UnsupportedProtocolVersionError,
} from "./errors.js";
import { eraOf, type LegacyEra, type LegacySession } from "./legacy.js";
import { put, type CallOptions, type ConnectOutcome, type CoreOptions } from "./options.js";
import type { ClientProtocol } from "./protocol.js";
import { ErrorCode } from "../shared/jsonrpc.js";
import type { HandshakeDescription } from "../shared/protocol.js";

/** The implementation-defined error legacy servers commonly refuse a request outside a session with. */
const LEGACY_SESSION_REFUSAL = -32000;

/** How connecting sends its handshake or probe: the core's call (`probeTimeoutMs` bounds a probe). */
export type Call = (
  method: string,
  params: Record<string, unknown> | undefined,
  options: CallOptions,
  probeTimeoutMs?: number,
) => Promise<Record<string, unknown>>;

export class Connection {
  /** The protocol version requests carry now (after any renegotiation). */
  version: string;
  /** Versions this client speaks, preferred first. */
  readonly supportedVersions: string[];
  /** The legacy session, once the server turned out to be of the initialize era. */
  session: LegacySession | null = null;
  /** The era whose handshake is being sent (its request carries no version header yet). */
  handshaking: LegacyEra | null = null;
  /**
   * The log level asked for (`setLogLevel`); `null`: none. A modern server gets it in every later
   * request's metadata; a legacy session by its era's request, sent again on each session opened
   * after (a server that ended the session forgot it).
   */
  logLevel: string | null = null;
  /** The era of the server was taken from `eraCache`: a failure re-probes instead of trusting it. */
  eraFromCache = false;
  /**
   * The server answered a call. A client that speaks no initialize-era revision sends over HTTP
   * without connecting first (nothing to probe for): an answer is what tells it the server is modern.
   */
  answered = false;
  private ready: Promise<ConnectOutcome | null> | null = null;
  /** Connecting settled and was not forgotten since: a call need not wait for it. */
  connected = false;
  /** The era each server was found to speak, by the transport's `eraKey` (HTTP: its origin). */
  private static readonly eraCache = new Map<string, "modern" | "legacy">();

  constructor(
    private readonly protocol: ClientProtocol,
    private readonly options: CoreOptions,
    /** The initialize-era revisions this client also speaks (`--legacy`), newest first. */
    readonly eras: readonly LegacyEra[],
    private readonly capabilities: Record<string, unknown>,
    private readonly call: Call,
    private readonly isClosed: () => boolean,
  ) {
    this.version = options.protocolVersion ?? protocol.protocolVersion;
    this.supportedVersions = options.supportedVersions ?? [this.version];
  }

  /** Whether connecting has begun (or settled) and not been forgotten since. */
  get started(): boolean {
    return this.ready !== null;
  }

  /** Runs once; a failure is not kept (a later call starts over). */
  connect(): Promise<ConnectOutcome | null> {
    this.ready ??= this.settle();
    return this.ready;
  }

  /** The server ended the legacy session: connects again; the new session, if one was opened. */
  async reopen(): Promise<LegacySession | null> {
    this.session = null;
    this.ready = null;
    this.connected = false;
    await this.connect();
    return this.session;
  }

  /** Drops what was learnt about the server's era: the next call probes again. */
  forgetEra(): void {
    const key = this.options.transport.eraKey;
    if (key !== undefined) Connection.eraCache.delete(key);
    this.eraFromCache = false;
    this.session = null;
    this.ready = null;
    this.connected = false;
    this.version = this.options.protocolVersion ?? this.protocol.protocolVersion;
  }

  private async settle(): Promise<ConnectOutcome | null> {
    try {
      const outcome = await this.findEra();
      // Unless what it learnt was forgotten meanwhile (then the next call connects again).
      this.connected = this.ready !== null;
      return outcome;
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
      const handshake = this.protocol.handshake;
      if (!handshake)
        throw new Error(
          `mcp-gen client: revision ${this.protocol.revision} describes no handshake fields`,
        );
      const result = await this.call(
        lifecycle.initialize,
        this.handshakeParams(handshake, this.version),
        {},
      );
      const agreed = result[handshake.result.version];
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
          { headers: this.headers(agreed, lifecycle.initialized) },
        );
      await this.options.transport.sessionOpened?.(agreed);
      return { era: "modern", protocolVersion: agreed, discover: result };
    }
    const transport = this.options.transport;
    const eraKey = transport.eraKey;
    const cached = eraKey === undefined ? undefined : Connection.eraCache.get(eraKey);
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
      if (eraKey !== undefined) Connection.eraCache.set(eraKey, "legacy");
      return outcome;
    }
    if (eraKey !== undefined && this.eras.length > 0) Connection.eraCache.set(eraKey, "modern");
    const versionsField = this.protocol.supportedVersionsField;
    const listed = versionsField === null ? undefined : discovered[versionsField];
    const offered = Array.isArray(listed) ? listed : [];
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

  /** The metadata headers of the notification completing a handshake, by the description's names. */
  private headers(version: string, method: string): Record<string, string> {
    const names = this.protocol.headers;
    return { [names.protocolVersion]: version, [names.method]: method };
  }

  /** A handshake's params under the revision's names: the version offered, the capabilities, the identity (where the revision sends one). */
  private handshakeParams(
    handshake: HandshakeDescription,
    version: string,
  ): Record<string, unknown> {
    const { params } = handshake;
    const out: Record<string, unknown> = {
      [params.version]: version,
      [params.capabilities]: this.capabilities,
    };
    if (params.info !== null) out[params.info] = this.options.info;
    return out;
  }

  /**
   * Whether a failed probe (or a failed call on a cached era) says the server is of the legacy era:
   * any answer that is not a recognised modern one (another JSON-RPC error, a result that is not the
   * modern description, a 4xx without a modern error), or silence on stdio. A transport that failed
   * (a process that cannot start or died, a network error, a 5xx) says nothing about the era.
   */
  private legacyVerdict(error: unknown): boolean {
    if (this.isClosed()) return false;
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
        this.handshakeParams(offered.handshake, offered.protocolVersion),
        {},
      );
    } finally {
      this.handshaking = null;
    }
    // The server answers in the version it chose: the offered era's name is the one known yet.
    const chosen = result[offered.handshake.result.version];
    const era = eraOf(this.eras, chosen);
    if (!era) {
      const supported = [...this.supportedVersions, ...this.eras.map((e) => e.protocolVersion)];
      await this.options.transport.endSession?.();
      await this.options.transport.close();
      throw new UnsupportedProtocolVersionError(
        this.protocol.errors.unsupportedVersion ?? ErrorCode.InvalidParams,
        `the server chose protocol version ${JSON.stringify(chosen)}, which this client does not speak (it speaks ${supported.join(", ")})`,
        { supported, requested: chosen },
      );
    }
    if (this.options.validate !== false) checkResult(era.initialize, era.initializeResult, result);
    this.session = { era, handshake: result };
    this.version = era.protocolVersion;
    if (era.initialized)
      await this.options.transport.notify(
        { jsonrpc: "2.0", method: era.initialized },
        { headers: this.headers(era.protocolVersion, era.initialized) },
      );
    await this.options.transport.sessionOpened?.(era.protocolVersion);
    const level = this.logLevel;
    const setLevel = era.setLevel;
    if (level !== null && setLevel) {
      const params: Record<string, unknown> = {};
      put(params, setLevel.param, level);
      // The session works without it: a refusal is told, not thrown.
      await this.call(setLevel.method, params, {}).catch((error: unknown) =>
        this.options.log?.(
          `mcp client: the new session did not take the log level ${level}: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
    return {
      era: "legacy",
      protocolVersion: era.protocolVersion,
      revision: era.revision,
      initialize: result,
    };
  }
}

/**
 * Whether a modern request was refused without being served, the way a legacy server refuses a
 * request outside a session: a 4xx without a JSON-RPC answer, or an invalid-request, unknown-method
 * or server error before any handler ran. (Any other error may come from a handler that ran: the
 * request is not sent twice.)
 */
export function refusedUnread(error: unknown): boolean {
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
