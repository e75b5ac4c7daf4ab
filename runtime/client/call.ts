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
import { own } from "../shared/jsonrpc.js";

export class Caller {
  /**
   * The controllers of the calls running now: the client's close aborts them from here, through one
   * listener the caller holds, instead of each call adding and removing a listener of its own.
   */
  private readonly running = new Set<AbortController>();

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
        for (const controller of this.running) controller.abort(closing.reason);
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
    // legacy session it is answered from the handshake).
    if (
      connection.eras.length > 0 ||
      (!isLifecycle && (lifecycle.kind === "stateful" || this.options.transport.probes))
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
    for (const [key, value] of Object.entries(params ?? {})) {
      // A caller's `_meta` is merged later; the retry's fields are the client's own business.
      if (key === envelope.inputResponses || key === envelope.requestState) continue;
      put(base, key, value);
    }
    const cacheKey =
      this.cache && spec?.cacheable
        ? `${method}\n${stableKey({ ...base, [envelope.meta]: undefined })}`
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
    if (this.closing.aborted) abort(this.closing.reason);
    this.running.add(controller);
    const timeoutMs =
      options.timeoutMs ?? probeTimeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      const timer = setTimeout(() => abort(new TimeoutError(method, timeoutMs)), timeoutMs);
      cleanups.push(() => clearTimeout(timer));
    }
    try {
      const era = this.connection.handshaking ?? this.connection.session?.era;
      const result = era
        ? await this.legacy.call(era, method, base, spec, options, controller.signal)
        : await this.rounds.run(method, base, spec, options, controller.signal);
      if (cacheKey !== null) this.cache!.set(cacheKey, result);
      return result;
    } finally {
      this.running.delete(controller);
      for (const cleanup of cleanups) cleanup();
    }
  }
}
