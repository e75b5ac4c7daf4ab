/**
 * Input the server asks the client for, handed to the user's input handlers (elicitation,
 * sampling…): the input requests of a modern call's input-required rounds, and the requests an
 * initialize-era server sends on the wire (with the liveness check, and their cancellation by the
 * server). Both are bounded by `inputRate`, since each reaches a person or a model.
 * Revision-independent; copied verbatim into generated output.
 */
import type { Connection } from "./connection.js";
import type { Deprecations } from "./deprecations.js";
import { InputRequiredError } from "./errors.js";
import { RateLimit } from "./limits.js";
import { put, type CoreOptions } from "./options.js";
import type { ClientProtocol } from "./protocol.js";
import { ErrorCode, isRecord, own } from "../shared/jsonrpc.js";
import type { JsonRpcId, JsonRpcRequest, JsonRpcResponse } from "../shared/jsonrpc.js";

const DEFAULT_INPUT_BURST = 20;
const DEFAULT_INPUT_PER_SECOND = 2;

type Handler = (params: unknown, context: { signal: AbortSignal }) => unknown;

/** The client capabilities requests declare: the options' own, else one per input handler given. */
export function clientCapabilities(
  protocol: ClientProtocol,
  options: CoreOptions,
): Record<string, unknown> {
  if (options.capabilities) return options.capabilities as Record<string, unknown>;
  const capabilities: Record<string, unknown> = {};
  for (const [method, handler] of Object.entries(options.inputHandlers ?? {})) {
    const capability = protocol.inputRequests[method]?.capability;
    if (handler && capability) capabilities[capability] = {};
  }
  return capabilities;
}

export class InputRequests {
  /** Input requests the handlers may still be given (`inputRate`). */
  private readonly rate: RateLimit;
  /** Whether the last input request was refused for rate: a refusal is logged when one begins. */
  private refusing = false;
  /** Requests the server sent on the wire that a handler is answering, by id (for their cancellation). */
  private readonly serverRequests = new Map<JsonRpcId, AbortController>();

  constructor(
    private readonly protocol: ClientProtocol,
    private readonly options: CoreOptions,
    private readonly capabilities: Record<string, unknown>,
    private readonly connection: Connection,
    private readonly deprecations: Deprecations,
    /** Aborts when the client closes: handlers still running are told. */
    private readonly closing: AbortSignal,
    private readonly log: (message: string) => void,
  ) {
    this.rate = new RateLimit(
      options.inputRate?.burst ?? DEFAULT_INPUT_BURST,
      options.inputRate?.perSecond ?? DEFAULT_INPUT_PER_SECOND,
    );
  }

  /** The server cancelled a request it sent: its handler's signal aborts, and no answer is sent. */
  cancel(id: unknown): void {
    const pending = id === undefined ? undefined : this.serverRequests.get(id as JsonRpcId);
    pending?.abort(new Error(`the server cancelled its request ${String(id)}`));
  }

  /**
   * Answers a request the server sent on the wire. Only an initialize-era session has them (a
   * stateful revision's, or a legacy session of a dual-era client): the liveness check, and what an
   * input handler returns for a capability the client declared. On a modern session, and for
   * anything else, the answer is "method not found".
   */
  async answer(request: JsonRpcRequest): Promise<JsonRpcResponse | null> {
    const notFound = (why: string): JsonRpcResponse => ({
      jsonrpc: "2.0",
      id: request.id,
      error: {
        code: ErrorCode.MethodNotFound,
        message: `Method not found: ${request.method} (${why})`,
      },
    });
    const era = this.connection.session?.era ?? null;
    const stateful = this.protocol.lifecycle.kind === "stateful";
    if (!era && !stateful) return notFound("a modern session takes no requests from the server");
    if (request.method === (era ? era.ping : this.protocol.ping))
      return { jsonrpc: "2.0", id: request.id, result: {} };
    const known = era
      ? own(era.serverRequests, request.method)
      : own(this.protocol.inputRequests, request.method);
    const handler = this.handler(request.method);
    if (!known || !handler) return notFound("the client has no handler for it");
    if (this.capabilities[known.capability] === undefined)
      return notFound(`the client did not declare the ${known.capability} capability`);
    if (!this.take(1, request.method))
      return {
        jsonrpc: "2.0",
        id: request.id,
        error: {
          code: ErrorCode.InternalError,
          message: `Too many input requests: the client takes ${this.rate.burst} at once and ${this.rate.perSecond} a second`,
        },
      };
    this.deprecations.report(own(this.protocol.deprecated.methods, request.method));
    this.deprecations.report(own(this.protocol.deprecated.clientCapabilities, known.capability));
    let result: unknown;
    // The server may cancel its request: the handler's signal aborts, and no answer is sent.
    const cancel = new AbortController();
    this.serverRequests.set(request.id, cancel);
    try {
      const params = isRecord(request.params) ? request.params : {};
      result = await handler(params, {
        signal: AbortSignal.any([this.closing, cancel.signal]),
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

  /**
   * The input responses of an input-required round: the handler of every input request called; a
   * request the client has no handler for, or more than the rate allows, fails the call.
   */
  async gather(
    method: string,
    inputRequests: unknown,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const responses: Record<string, unknown> = {};
    const requests = isRecord(inputRequests) ? Object.entries(inputRequests) : [];
    if (!this.take(requests.length, method))
      throw new InputRequiredError(
        `${method} asked for ${requests.length} inputs, more than the client takes now (${this.rate.burst} at once, ${this.rate.perSecond} a second)`,
        inputRequests,
      );
    // Each input request's method and params, under the names the revision gives them.
    const fields = this.protocol.envelope.inputRequest;
    const answers = await Promise.all(
      requests.map(async ([key, request]) => {
        const inputMethod = isRecord(request) && fields ? request[fields.method] : undefined;
        const handler = typeof inputMethod === "string" ? this.handler(inputMethod) : undefined;
        if (!handler)
          throw new InputRequiredError(
            `${method} asked for ${String(inputMethod)} (key "${key}"), and the client has no handler for it`,
            inputRequests,
          );
        const given = isRecord(request) && fields ? request[fields.params] : undefined;
        const params = isRecord(given) ? given : {};
        const { deprecated, inputRequests: known } = this.protocol;
        this.deprecations.report(own(deprecated.methods, inputMethod as string));
        const capability = own(known, inputMethod as string)?.capability;
        if (capability !== undefined)
          this.deprecations.report(own(deprecated.clientCapabilities, capability));
        return [key, await handler(params, { signal })] as const;
      }),
    );
    for (const [key, answer] of answers) put(responses, key, answer);
    return responses;
  }

  /** The user's handler for an input request method, if any. */
  private handler(method: string): Handler | undefined {
    const handlers = this.options.inputHandlers ?? {};
    return Object.hasOwn(handlers, method) ? (handlers[method] as Handler | undefined) : undefined;
  }

  /** Takes `count` input requests from the rate; a refusal is logged when refusals begin. */
  private take(count: number, method: string): boolean {
    if (count === 0) return true;
    const taken = this.rate.take(count);
    if (!taken && !this.refusing)
      this.log(
        `mcp client: refusing input requests (${method}): the server asks faster than inputRate`,
      );
    this.refusing = !taken;
    return taken;
  }
}
