/**
 * A request on its way to its handler, once the dispatcher's lifecycle checks passed: its params
 * checked, the earlier round of a retried request resumed, the handler invoked with its context,
 * and its answer concluded (a result finished and checked, an `input_required` answer asked of the
 * client, in a result or, on a legacy session, in requests of the server's own). Whatever fails
 * becomes the request's error answer. Revision-independent; copied verbatim into generated output.
 */
import { ErrorCode, isRecord, own, RpcError } from "../shared/jsonrpc.js";
import type { JsonRpcErrorObject, JsonRpcRequest } from "../shared/jsonrpc.js";
import { checkInput } from "../schema/checks.js";
import type { MethodSpec } from "../shared/protocol.js";
import { Context, type Handler } from "./context.js";
import {
  isInputRequired,
  type Asked,
  type InputRequiredAnswer,
  type InputRounds,
  type Resumed,
} from "./input-required.js";
import { bridgeInput } from "./legacy-input.js";
import type { LegacyCall, LegacySessions } from "./legacy.js";
import type { Protocol } from "./protocol.js";
import type { Results } from "./results.js";
import { isThenable, type Delivery, type Outcome } from "./transport.js";

/** The deprecation reporter of a legacy session's handlers: the modern revision's notices do not apply. */
const NOT_REPORTED = (): void => undefined;

/** A request on its way to its handler: what serving, resuming and invoking it read. */
interface Call {
  request: JsonRpcRequest;
  spec: MethodSpec;
  handler: Handler;
  params: Record<string, unknown>;
  meta: Record<string, unknown>;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  delivery: Delivery;
  /** A legacy session's request: its era; else `null`. */
  era: LegacyCall | null;
}

/** Serves requests through their handlers: the dispatcher's one instance, for every transport. */
export class Calls {
  constructor(
    private readonly protocol: Protocol,
    private readonly handlers: Readonly<Record<string, Handler | undefined>>,
    /** The server's declared capabilities: a method whose capability is undeclared does not exist. */
    private readonly capabilities: Record<string, unknown>,
    /** Multi round-trip: sealing and opening `requestState`, checking the retry's responses. */
    private readonly rounds: InputRounds,
    /** The initialize-era sessions, whose requests' `input_required` answers are bridged. */
    private readonly legacy: LegacySessions | null,
    private readonly results: Results,
    private readonly reportDeprecated: (notice: string) => void,
    private readonly log: (message: string) => void,
  ) {}

  /** The contract is never to throw: whatever escaped (a state that cannot be sealed, say) is an internal error. */
  escaped(request: JsonRpcRequest, error: unknown): Outcome {
    this.log(
      `mcp-gen server: ${request.method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return this.results.error(request.id, ErrorCode.InternalError, "Internal error");
  }

  /**
   * Serves a request whose lifecycle checks passed through its handler: params checked, the earlier
   * round resumed, the handler invoked, its answer concluded. `era` describes a legacy session's request.
   */
  serve(
    request: JsonRpcRequest,
    params: Record<string, unknown>,
    meta: Record<string, unknown>,
    protocolVersion: string,
    clientCapabilities: Record<string, unknown>,
    delivery: Delivery,
    era: LegacyCall | null,
  ): Outcome | Promise<Outcome> {
    const { protocol } = this;
    const spec = own(protocol.methods, request.method);
    const handler = own(this.handlers, request.method);
    if (
      !spec ||
      !handler ||
      (spec.capability !== null && this.capabilities[spec.capability] === undefined)
    ) {
      return this.results.error(
        request.id,
        ErrorCode.MethodNotFound,
        `Method not found: ${request.method}`,
      );
    }
    const checked = checkInput(spec.checkParams, params);
    if (!checked.ok) return this.results.invalidParams(request.id, checked);

    const call: Call = {
      request,
      spec,
      handler,
      params,
      meta,
      protocolVersion,
      clientCapabilities,
      delivery,
      era,
    };
    if (spec.inputRequired && era === null) {
      const resumed = this.rounds.resume(request, spec, params, delivery.principal);
      // A promise only when single use is kept in the shared store.
      if (isThenable(resumed))
        return this.settle(request, Promise.resolve(resumed), (value) =>
          this.resumed(call, value as Resumed | { error: JsonRpcErrorObject } | null),
        );
      return this.resumed(call, resumed);
    }
    return this.invoke(call, undefined, {});
  }

  /** Goes on with a retried round (or refuses it): the handler invoked with its state and responses. */
  private resumed(
    call: Call,
    resumed: Resumed | { error: JsonRpcErrorObject } | null,
  ): Outcome | Promise<Outcome> {
    if (resumed !== null && "error" in resumed)
      return this.results.refuse(call.request.id, resumed.error);
    return this.invoke(call, resumed?.state, resumed?.inputResponses ?? {});
  }

  /** The handler invoked, its answer concluded. */
  private invoke(
    call: Call,
    state: unknown,
    inputResponses: Record<string, unknown>,
  ): Outcome | Promise<Outcome> {
    const {
      request,
      spec,
      handler,
      params,
      meta,
      protocolVersion,
      clientCapabilities,
      delivery,
      era,
    } = call;
    const ctx = new Context(
      this.protocol,
      request,
      meta,
      protocolVersion,
      clientCapabilities,
      delivery,
      inputResponses,
      state,
      // What the modern revision deprecates is not deprecated in a legacy session's revision.
      era === null ? this.reportDeprecated : NOT_REPORTED,
    );
    let answer: unknown;
    try {
      answer = handler(params, ctx);
    } catch (error) {
      return this.handlerFailed(request, error);
    }
    // A synchronous answer is checked and returned at once; only a handler that returns a promise
    // costs the request promises of its own.
    if (!isThenable(answer))
      return this.conclude(
        request,
        spec,
        params,
        clientCapabilities,
        answer,
        delivery.principal,
        era,
        handler,
        ctx,
      );
    return this.settle(request, Promise.resolve(answer), (value) =>
      this.conclude(
        request,
        spec,
        params,
        clientCapabilities,
        value,
        delivery.principal,
        era,
        handler,
        ctx,
      ),
    );
  }

  /** Goes on with `next` once `pending` settles; whatever fails or escapes becomes the request's error answer. */
  private settle(
    request: JsonRpcRequest,
    pending: Promise<unknown>,
    next: (value: unknown) => Outcome | Promise<Outcome>,
  ): Promise<Outcome> {
    return pending.then(
      (value) => {
        try {
          return next(value);
        } catch (error) {
          return this.escaped(request, error);
        }
      },
      (error: unknown) => this.handlerFailed(request, error),
    );
  }

  /**
   * A legacy session's request answered `input_required`: the input requests go to the client as
   * requests of their own, and the handler runs again with the responses, until it has a result.
   */
  private legacyRounds(
    request: JsonRpcRequest,
    spec: MethodSpec,
    params: Record<string, unknown>,
    clientCapabilities: Record<string, unknown>,
    era: LegacyCall,
    handler: Handler,
    ctx: Context,
    answer: InputRequiredAnswer,
  ): Promise<Outcome> {
    const invoke = async (
      inputResponses: Record<string, unknown>,
      state: unknown,
      inputError: RpcError | undefined,
    ): Promise<unknown> => handler(params, ctx.again(inputResponses, state, inputError));
    const rounds = bridgeInput(
      this.legacy!,
      era,
      ctx.delivery,
      answer,
      invoke,
      isInputRequired,
      (missing) =>
        new RpcError(this.protocol.errors.missingCapability, "Missing required client capability", {
          requiredCapabilities: missing,
        }),
      (method) => own(this.protocol.inputRequests, method)?.capability ?? null,
    );
    return this.settle(request, rounds, (final) =>
      this.conclude(
        request,
        spec,
        params,
        clientCapabilities,
        final,
        ctx.delivery.principal,
        era,
        handler,
        ctx,
      ),
    );
  }

  /** A handler threw (or its promise rejected): its RpcError is the error answered, anything else an internal error. */
  private handlerFailed(request: JsonRpcRequest, error: unknown): Outcome {
    if (error instanceof RpcError)
      return this.results.error(request.id, error.code, error.message, error.data);
    this.log(
      `mcp-gen server: handler for ${request.method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return this.results.error(request.id, ErrorCode.InternalError, "Internal error");
  }

  /**
   * The handler's answer concludes the request: a result is responded (finished and checked); an
   * `input_required` answer asks the client, in a result (modern) or in requests of the server's
   * own until the handler has a result (a legacy session).
   */
  private conclude(
    request: JsonRpcRequest,
    spec: MethodSpec,
    params: Record<string, unknown>,
    clientCapabilities: Record<string, unknown>,
    answer: unknown,
    principal: string | undefined,
    era: LegacyCall | null = null,
    handler?: Handler,
    ctx?: Context,
  ): Outcome | Promise<Outcome> {
    if (isInputRequired(answer)) {
      if (!spec.inputRequired) {
        this.log(`mcp-gen server: ${request.method} may not answer input_required`);
        return this.results.error(request.id, ErrorCode.InternalError, "Internal error");
      }
      if (era && handler && ctx)
        return this.legacyRounds(
          request,
          spec,
          params,
          clientCapabilities,
          era,
          handler,
          ctx,
          answer,
        );
      const asked = this.rounds.ask(request, spec, params, clientCapabilities, answer, principal);
      // A promise where the runtime seals with Web Crypto.
      if (isThenable(asked))
        return this.settle(request, Promise.resolve(asked), (value) =>
          this.asked(request, value as Asked),
        );
      return this.asked(request, asked);
    }
    if (!isRecord(answer)) {
      this.log(
        `mcp-gen server: handler for ${request.method} returned ${answer === null ? "null" : typeof answer}, not a result object`,
      );
      return this.results.error(request.id, ErrorCode.InternalError, "Internal error");
    }
    if (era) return this.results.respondLegacy(request, answer, era);
    return this.results.respond(request, answer, spec.cacheable, spec.result);
  }

  /** The `input_required` result of a round, or the error refusing it. */
  private asked(request: JsonRpcRequest, asked: Asked): Outcome {
    if ("error" in asked) return this.results.refuse(request.id, asked.error);
    return this.results.respond(
      request,
      asked.result,
      false,
      this.protocol.inputRequiredResult ?? undefined,
    );
  }
}
