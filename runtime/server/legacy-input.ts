/**
 * A modern handler's `input_required` answers, served to a legacy client: the initialize era has no
 * such result, so each input request goes to the client as a request of its own on the session,
 * and the handler runs again with the responses. Revision-independent; copied verbatim into
 * generated output.
 */
import { ErrorCode, RpcError } from "../shared/jsonrpc.js";
import type { Delivery } from "./transport.js";
import { LegacyDelivery } from "./legacy-messages.js";
import type { LegacyCall, LegacySessions } from "./legacy.js";

/**
 * Serves a modern handler's `input_required` answers to a legacy client: each input request is sent
 * as a request of its own on the session, and the handler is invoked again with the client's
 * responses and its state, until it answers with a result. A request the client does not answer (an
 * error, a timeout, cancellation) is handed to the handler as `inputError`, with the responses that
 * did come; a handler that asks again for what failed gets that error as its request's answer.
 *
 * A round the client cannot be asked at all (a capability it did not declare, or an input request
 * its revision has no request for, such as elicitation before 2025-06-18) sends nothing: the
 * handler gets the missing-capability error (`missingCapability`, naming the modern capability of
 * a request its era lacks, `capabilityOf`) as `inputError`, the same in every era, so that it can
 * fall back; asking again answers the request with that error.
 */
export async function bridgeInput(
  sessions: LegacySessions,
  call: LegacyCall,
  delivery: Delivery,
  first: {
    inputRequests: Record<string, { method: string; params?: Record<string, unknown> }>;
    state: unknown;
  },
  invoke: (
    inputResponses: Record<string, unknown>,
    state: unknown,
    inputError: RpcError | undefined,
  ) => Promise<unknown>,
  isInputRequired: (answer: unknown) => answer is typeof first,
  missingCapability: (missing: Record<string, unknown>) => RpcError,
  /** The modern client capability an input request needs (`null`: not a modern input request). */
  capabilityOf: (method: string) => string | null,
): Promise<unknown> {
  const { session } = call;
  const raw = delivery instanceof LegacyDelivery ? delivery.raw : delivery;
  let asked = first;
  let failed: { error: RpcError; keys: Set<string> } | undefined;
  for (let round = 0; round < sessions.maxInputRounds; round++) {
    if (failed && Object.keys(asked.inputRequests).some((key) => failed!.keys.has(key)))
      throw failed.error;
    const missing = unanswerable(call, asked.inputRequests, capabilityOf);
    if (Object.keys(missing).length > 0) {
      const error = missingCapability(missing);
      failed = { error, keys: new Set(Object.keys(asked.inputRequests)) };
      const answer = await invoke({}, asked.state, error);
      if (!isInputRequired(answer)) return answer;
      asked = answer;
      continue;
    }
    const responses: Record<string, unknown> = {};
    let error: RpcError | undefined;
    const keys = new Set<string>();
    await Promise.all(
      Object.entries(asked.inputRequests).map(async ([key, input]) => {
        try {
          sessions.bridged?.(raw, input.method);
          const response = await session.request(
            input.method,
            input.params ?? {},
            raw,
            sessions.inputTimeoutMs,
            delivery.signal,
          );
          const check = call.protocol.serverRequests[input.method]!.response(response);
          if (!check.ok) {
            const first = check.errors?.[0];
            throw new RpcError(
              ErrorCode.InvalidParams,
              `The client's answer to ${input.method} is invalid at ${first?.path || "/"}: ${first?.message ?? "invalid"}`,
            );
          }
          Object.defineProperty(responses, key, {
            value: response,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } catch (caught) {
          error ??=
            caught instanceof RpcError
              ? caught
              : new RpcError(ErrorCode.InternalError, String(caught));
          keys.add(key);
        }
      }),
    );
    failed = error ? { error, keys } : undefined;
    const answer = await invoke(responses, asked.state, error);
    if (!isInputRequired(answer)) return answer;
    asked = answer;
  }
  throw new RpcError(
    ErrorCode.InternalError,
    `Internal error: the handler asked for input more than ${sessions.maxInputRounds} times`,
  );
}

/**
 * The capabilities the session's client lacks for a round: each input request's capability as its
 * era names it, when not declared; or, where the era has no request for it, the modern capability
 * it needs (a client of that revision cannot have it). An input request no revision knows is the
 * handler's mistake: an internal error.
 */
function unanswerable(
  call: LegacyCall,
  inputRequests: Record<string, { method: string }>,
  capabilityOf: (method: string) => string | null,
): Record<string, unknown> {
  const missing: Record<string, unknown> = {};
  for (const input of Object.values(inputRequests)) {
    const known = call.protocol.serverRequests[input.method];
    if (known) {
      if (call.session.clientCapabilities[known.capability] === undefined)
        missing[known.capability] = {};
      continue;
    }
    const capability = capabilityOf(input.method);
    if (capability === null)
      throw new RpcError(
        ErrorCode.InternalError,
        `Internal error: ${input.method} is not an input request of protocol ${call.protocol.protocolVersion}`,
      );
    missing[capability] = {};
  }
  return missing;
}
