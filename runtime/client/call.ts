/**
 * One call from the caller's side: connecting first where the revision or the transport needs it,
 * the cache of cacheable results, the call's deadline and cancellation, then the modern rounds or
 * the legacy bridge, whichever the session speaks; a call refused by a server whose era was only
 * remembered probes again and is sent once more. Revision-independent; copied verbatim into
 * generated output.
 */
import { stableKey, type Cache } from "./cache.js";
import { refusedUnread, type Connection } from "./connection.js";
import type { Deprecations } from "./deprecations.js";
import { TimeoutError, TransportError } from "./errors.js";
import type { LegacyCalls } from "./legacy-call.js";
import { DEFAULT_TIMEOUT_MS, put, type CallOptions, type CoreOptions } from "./options.js";
import type { ClientProtocol } from "./protocol.js";
import type { Rounds } from "./rounds.js";
import { Deadlines } from "./deadlines.js";
import { RunningCall } from "./running-call.js";
import { own } from "../shared/jsonrpc.js";

export class Caller {
  /**
   * The calls running now, with one timer for their deadlines: the client's close aborts them from
   * here, through one listener the caller holds, instead of each call adding and removing a
   * listener and a timer of its own.
   */
  private readonly running = new Deadlines((call) =>
    call.abort(new TimeoutError(call.method, call.timeoutMs)),
  );

  constructor(
    private readonly protocol: ClientProtocol,
    private readonly options: CoreOptions,
    private readonly connection: Connection,
    private readonly cache: Cache | null,
    private readonly rounds: Rounds,
    private readonly legacy: LegacyCalls,
    private readonly deprecations: Deprecations,
    /** Aborts when the client closes: every call still running fails. */
    private readonly closing: AbortSignal,
    private readonly isClosed: () => boolean,
  ) {
    closing.addEventListener(
      "abort",
      () => {
        for (const call of this.running.all()) call.abort(closing.reason);
      },
      { once: true },
    );
  }

  /** Sends one request (with retries for input and version negotiation) and returns its complete, validated result. */
  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    if (this.isClosed()) throw new TransportError("the client is closed");
    const { connection } = this;
    const { lifecycle } = this.protocol;
    const isLifecycle =
      lifecycle.kind === "stateless"
        ? method === lifecycle.discover
        : method === lifecycle.initialize;
    // A dual-era client learns the server's era before anything else (discovery included: on a
    // legacy session it is answered from the handshake). Once it has, nothing is awaited.
    if (
      !connection.connected &&
      (connection.eras.length > 0 ||
        (!isLifecycle && (lifecycle.kind === "stateful" || this.options.transport.probes)))
    )
      await connection.connect();
    try {
      const result = await this.call(method, params, options);
      connection.answered = true;
      return result;
    } catch (error) {
      // A modern era taken from the cache that the server no longer bears out: probe again and
      // send the request once more (it was refused, not served).
      if (
        !connection.eraFromCache ||
        connection.session ||
        !refusedUnread(error) ||
        this.isClosed()
      )
        throw error;
      connection.forgetEra();
      await connection.connect();
      return this.call(method, params, options);
    }
  }

  /** One call, connected or not: what connecting itself sends goes through here too. */
  async call(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
    probeTimeoutMs?: number,
  ): Promise<Record<string, unknown>> {
    const spec = own(this.protocol.methods, method);
    const { envelope } = this.protocol;
    this.deprecations.report(own(this.protocol.deprecated.methods, method));
    const base: Record<string, unknown> = {};
    if (params !== undefined)
      for (const key of Object.keys(params)) {
        // A caller's `_meta` is merged later; the retry's fields are the client's own business.
        if (key === envelope.inputResponses || key === envelope.requestState) continue;
        put(base, key, params[key]);
      }
    const cacheKey =
      this.cache && spec?.cacheable
        ? `${method}\n${stableKey({ ...base, [envelope.meta]: undefined })}`
        : null;
    if (cacheKey !== null) {
      const hit = this.cache!.get(cacheKey);
      if (hit) return hit;
    }

    const given =
      options.timeoutMs ?? probeTimeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeoutMs = given > 0 && Number.isFinite(given) ? given : 0;
    const call = new RunningCall(
      method,
      timeoutMs,
      timeoutMs === 0 ? Infinity : performance.now() + timeoutMs,
    );
    const unfollow = options.signal ? call.follow(options.signal) : null;
    if (this.closing.aborted) call.abort(this.closing.reason);
    this.running.add(call);
    try {
      const era = this.connection.handshaking ?? this.connection.session?.era;
      const result = era
        ? await this.legacy.call(era, method, base, spec, options, call)
        : await this.rounds.run(method, base, spec, options, call);
      if (cacheKey !== null) this.cache!.set(cacheKey, result);
      return result;
    } finally {
      this.running.delete(call);
      unfollow?.();
    }
  }
}
