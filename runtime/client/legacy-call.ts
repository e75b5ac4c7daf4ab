/**
 * The bridge from a modern call to a legacy (initialize-era) session: the request the legacy
 * revision has for it, its answer checked by the legacy revision and made the modern result, and a
 * session the server ended opened again within `sessionReopens`. Also the legacy requests the
 * runtime sends itself (a listen's subscribes). The translations themselves are `legacy.ts`'s.
 * Revision-independent; copied verbatim into generated output.
 */
import { checkResult } from "./check.js";
import type { Connection } from "./connection.js";
import {
  InvalidResultError,
  MethodNotInEraError,
  SessionExpiredError,
  toMcpError,
} from "./errors.js";
import {
  describeSession,
  legacyMetaKey,
  legacyParams,
  modernResult,
  type LegacyEra,
} from "./legacy.js";
import { ReopenBudget } from "./limits.js";
import { DEFAULT_TIMEOUT_MS, type CallOptions, type CoreOptions } from "./options.js";
import type { ClientMethodSpec, ClientProtocol } from "./protocol.js";
import { RunningCall } from "./running-call.js";
import type { Sender } from "./send.js";
import type { ToolResults } from "./tools.js";
import { isRecord, own, type JsonRpcResponse } from "../shared/jsonrpc.js";

const DEFAULT_SESSION_REOPENS = 3;
const DEFAULT_REOPEN_COOLDOWN_MS = 30_000;

export class LegacyCalls {
  /** Sessions the server ended in a row, each reopened (`sessionReopens`). */
  private readonly reopens: ReopenBudget;

  constructor(
    private readonly protocol: ClientProtocol,
    private readonly options: CoreOptions,
    private readonly connection: Connection,
    private readonly sender: Sender,
    private readonly tools: ToolResults,
    private readonly log: (message: string) => void,
  ) {
    this.reopens = new ReopenBudget(
      options.sessionReopens?.max ?? DEFAULT_SESSION_REOPENS,
      options.sessionReopens?.cooldownMs ?? DEFAULT_REOPEN_COOLDOWN_MS,
    );
  }

  /**
   * A modern call on a legacy session: the request the legacy revision has for it (its params
   * without the modern `_meta` keys), its answer checked against the legacy result, then given the
   * fields the modern result requires. A request of the legacy revision's own with no modern form
   * (`ownRequests`) is sent as it is and its answer checked by the legacy revision. Discovery is
   * answered from the handshake; a method the revision lacks is `MethodNotInEraError`. A session the server ended (HTTP 404) is opened again
   * and the request sent once more, once per call and within `sessionReopens`.
   */
  async call(
    era: LegacyEra,
    method: string,
    base: Record<string, unknown>,
    spec: ClientMethodSpec | undefined,
    options: CallOptions,
    call: RunningCall,
    reopened = false,
  ): Promise<Record<string, unknown>> {
    const { connection } = this;
    const metaField = this.protocol.envelope.meta;
    const handshake = method === era.initialize;
    if (!handshake && era.discover && method === era.discover.method && connection.session)
      return describeSession(connection.session, era.discover, metaField);
    // A modern request the era has, else one of the era's own (ping, the log level…), sent as is.
    const legacy = handshake
      ? { result: null, fill: {} }
      : (own(era.methods, method) ?? ownRequest(era, method));
    if (!legacy) throw new MethodNotInEraError(era.revision, method);
    const progressToken =
      options.onProgress && legacyMetaKey(era, "progressToken")
        ? this.sender.progressToken()
        : undefined;
    const params = handshake
      ? base
      : legacyParams(era, base, metaField, this.modernMetaKeys, progressToken);
    let response: JsonRpcResponse;
    try {
      response = await this.sender.send({
        method,
        id: this.sender.id(),
        params,
        spec,
        options,
        call,
        progressToken,
      });
    } catch (error) {
      if (!(error instanceof SessionExpiredError) || handshake || call.aborted || reopened)
        throw error;
      if (!this.reopens.take())
        throw new SessionExpiredError(
          `${error.message}; the server ended ${this.reopens.max} sessions in a row, so no new one is opened for ${this.reopens.waitSeconds()} s`,
        );
      this.log(`mcp client: the server ended the legacy session; opening a new one for ${method}`);
      const again = await connection.reopen();
      if (!again) throw error;
      return this.call(again.era, method, base, spec, options, call, true);
    }
    if (!handshake) this.reopens.served();
    if ("error" in response) throw toMcpError(this.protocol.errors, response.error);
    const result = response.result;
    if (!isRecord(result)) throw new InvalidResultError(method, "", "is not an object", result);
    if (!legacy.result) return result;
    if (this.options.validate !== false) checkResult(method, legacy.result, result);
    const modern = modernResult(legacy.fill, result);
    this.tools.observe(method, base, modern);
    return modern;
  }

  /** A legacy request the runtime sends itself (its answer is empty): within the client's timeout. */
  async request(
    method: string,
    params: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<void> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signals = signal ? [signal] : [];
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) signals.push(AbortSignal.timeout(timeoutMs));
    // Rare (subscriptions of a legacy listen): the signals are followed as they are.
    const call = new RunningCall(method, 0, Infinity);
    const unfollow = call.follow(AbortSignal.any(signals));
    let response: JsonRpcResponse;
    try {
      response = await this.sender.send({
        method,
        id: this.sender.id(),
        params,
        spec: undefined,
        options: {},
        call,
        progressToken: undefined,
      });
    } finally {
      unfollow();
    }
    if ("error" in response) throw toMcpError(this.protocol.errors, response.error);
  }

  /** The `_meta` keys the modern revision gives a protocol role: never sent on a legacy session. */
  private get modernMetaKeys(): ReadonlySet<string> {
    const { lifecycle, meta } = this.protocol;
    const keys = [meta.clientInfo, meta.subscriptionId];
    if (lifecycle.kind === "stateless")
      keys.push(lifecycle.protocolVersionKey, lifecycle.clientCapabilitiesKey);
    return new Set(keys.filter((k): k is string => k !== null));
  }
}

/** A request of the era's own (no modern form), as the bridge sends it: checked, nothing filled in. */
function ownRequest(
  era: LegacyEra,
  method: string,
): { result: LegacyEra["ownRequests"][string]["result"]; fill: Record<string, never> } | undefined {
  const request = own(era.ownRequests, method);
  return request ? { result: request.result, fill: {} } : undefined;
}
