/**
 * What a handler is given beside its params: the `RequestContext` API generated servers document,
 * and `Context`, its one-object implementation the dispatcher makes per request. Names of `_meta`
 * keys and notifications come from the generated `Protocol`. Revision-independent; copied verbatim
 * into generated output.
 */
import { own, RpcError, type JsonRpcId, type JsonRpcRequest } from "../shared/jsonrpc.js";
import type { Principal } from "../auth/http-auth.js";
import { inputRequiredAnswer, type InputRequiredAnswer } from "./input-required.js";
import type { Protocol } from "./protocol.js";
import type { Delivery } from "./transport.js";

/** What a handler receives beside its params. */
export interface RequestContext {
  method: string;
  id: JsonRpcId;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo: unknown;
  /** The request's `_meta`, as sent. */
  meta: Record<string, unknown>;
  /** Who the transport authenticated the request as (a token's subject), when it authenticates. */
  principal: string | undefined;
  /** Everything the authentication established (scopes, subject, client, claims), when the transport authenticates. */
  auth: Principal | undefined;
  signal: AbortSignal;
  /** Responses to this request's earlier `inputRequests`, validated; keys the server did not ask for are dropped when state says what was asked. */
  inputResponses: Record<string, unknown>;
  /** The state the handler sealed into its last `input_required` answer, verified; `undefined` on a first round. */
  state: unknown;
  /**
   * Why an input request of the last round got no answer (on an initialize-era session: the client
   * answered with an error, did not answer in time, or the request was cancelled; or it could not
   * be asked, its revision or its declared capabilities lacking the request: the missing-capability
   * error); else `undefined`.
   */
  inputError: RpcError | undefined;
  /** Throws MissingRequiredClientCapability unless the client declared every capability given. */
  requireCapabilities(capabilities: Record<string, unknown>): void;
  /** Sends a progress notification when the request asked for progress; otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends a log notification when the request opted in at this level; otherwise does nothing. */
  log(level: string, data: unknown, logger?: string): void;
  /** An `input_required` answer asking the client for input, with state to get back on the retry. */
  inputRequired(
    inputRequests: Record<string, { method: string; params?: Record<string, unknown> }>,
    state?: unknown,
  ): InputRequiredAnswer;
}

export type Handler = (params: Record<string, unknown>, ctx: RequestContext) => unknown;

/**
 * A handler's view of its request. A class, so that a request costs one object: its functions are
 * made only when a handler reads them (as getters), and work detached (`const { progress } = ctx`).
 */
export class Context implements RequestContext {
  readonly method: string;
  readonly id: JsonRpcId;
  readonly clientInfo: unknown;

  inputError: RpcError | undefined = undefined;

  constructor(
    private readonly protocol: Protocol,
    private readonly request: JsonRpcRequest,
    readonly meta: Record<string, unknown>,
    readonly protocolVersion: string,
    readonly clientCapabilities: Record<string, unknown>,
    readonly delivery: Delivery,
    readonly inputResponses: Record<string, unknown>,
    readonly state: unknown,
    private readonly reportDeprecated: (notice: string) => void,
  ) {
    this.method = request.method;
    this.id = request.id;
    this.clientInfo = protocol.meta.clientInfo ? meta[protocol.meta.clientInfo] : undefined;
  }

  /** The context of the same request's next round (a legacy session's `input_required`, served in process). */
  again(
    inputResponses: Record<string, unknown>,
    state: unknown,
    inputError: RpcError | undefined,
  ): Context {
    const next = new Context(
      this.protocol,
      this.request,
      this.meta,
      this.protocolVersion,
      this.clientCapabilities,
      this.delivery,
      inputResponses,
      state,
      this.reportDeprecated,
    );
    next.inputError = inputError;
    return next;
  }

  /** Read lazily: a transport may make the signal only when someone asks for it. */
  get signal(): AbortSignal {
    return this.delivery.signal;
  }

  get principal(): string | undefined {
    return this.delivery.principal;
  }

  get auth(): Principal | undefined {
    return this.delivery.auth;
  }

  get requireCapabilities(): RequestContext["requireCapabilities"] {
    return (required) => this.require(required);
  }

  get progress(): RequestContext["progress"] {
    return (progress, total, message) => this.sendProgress(progress, total, message);
  }

  get log(): RequestContext["log"] {
    return (level, data, logger) => this.sendLog(level, data, logger);
  }

  get inputRequired(): RequestContext["inputRequired"] {
    return inputRequiredAnswer;
  }

  private require(required: Record<string, unknown>): void {
    const missing = Object.fromEntries(
      Object.entries(required).filter(([name]) => this.clientCapabilities[name] === undefined),
    );
    if (Object.keys(missing).length > 0) {
      throw new RpcError(
        this.protocol.errors.missingCapability,
        "Missing required client capability",
        { requiredCapabilities: missing },
      );
    }
  }

  private sendProgress(progress: number, total?: number, message?: string): void {
    const key = this.protocol.meta.progressToken;
    const progressToken = key ? this.meta[key] : undefined;
    const method = this.protocol.notifications.progress;
    const names = this.protocol.notificationParams.progress;
    if (progressToken === undefined || !method || !names) return;
    // The params by the revision's names; one it lacks is left out.
    const params: Record<string, unknown> = { [names.token]: progressToken };
    if (names.progress) params[names.progress] = progress;
    if (total !== undefined && names.total) params[names.total] = total;
    if (message !== undefined && names.message) params[names.message] = message;
    this.delivery.notify({ jsonrpc: "2.0", method, params });
  }

  private sendLog(level: string, data: unknown, logger?: string): void {
    const { protocol } = this;
    const requested = protocol.meta.logLevel ? this.meta[protocol.meta.logLevel] : undefined;
    const threshold = typeof requested === "string" ? protocol.logLevels.indexOf(requested) : -1;
    const method = protocol.notifications.message;
    const names = protocol.notificationParams.message;
    if (threshold < 0 || !method || !names || protocol.logLevels.indexOf(level) < threshold) return;
    // The params by the revision's names; one it lacks is left out.
    const params: Record<string, unknown> = { [names.level]: level };
    if (names.data) params[names.data] = data;
    if (logger !== undefined && names.logger) params[names.logger] = logger;
    const notice = own(protocol.deprecated.methods, method);
    if (notice) this.reportDeprecated(notice);
    this.delivery.notify({ jsonrpc: "2.0", method, params });
  }
}
