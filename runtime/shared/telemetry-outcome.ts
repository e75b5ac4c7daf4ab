/**
 * How an operation ends, as its JSON-RPC response tells, for the server's and the client's
 * telemetry hooks alike: an error with its code; a result whose tool failed (`isError`); a result
 * asking for input, whose round of input requests becomes an event. Read by the protocol
 * description's names. Revision-independent; copied verbatim into generated output.
 */
import { isRecord, type JsonRpcResponse } from "./jsonrpc.js";
import type { Protocol } from "./protocol.js";
import type { Operation } from "./telemetry.js";

/** What of the description ending an operation reads. */
export type OutcomeFields = Pick<Protocol, "envelope" | "resultTypes" | "tools">;

/** The event a round of input requests is recorded as, with the methods asked for. */
export const INPUT_ROUND_EVENT = "mcp.input_required";

/** Ends `operation` with `response` (`null`: none is due, a notification's). */
export function endOperation(
  operation: Operation,
  protocol: OutcomeFields,
  response: JsonRpcResponse | null,
): void {
  if (response === null) return operation.end({});
  if ("error" in response) return operation.end({ error: response.error });
  const result = response.result;
  if (!isRecord(result)) return operation.end({});
  const { envelope, resultTypes } = protocol;
  if (
    resultTypes !== null &&
    envelope.resultType !== null &&
    result[envelope.resultType] === resultTypes.inputRequired
  ) {
    const asked = envelope.inputRequests === null ? null : result[envelope.inputRequests];
    const field = envelope.inputRequest?.method;
    const methods: string[] = [];
    if (isRecord(asked) && field)
      for (const request of Object.values(asked))
        if (isRecord(request) && typeof request[field] === "string")
          methods.push(request[field] as string);
    operation.event(INPUT_ROUND_EVENT, { "mcp.input_requests": methods.join(",") });
  }
  const isError = protocol.tools?.output?.isError;
  operation.end({ toolError: isError !== undefined && result[isError] === true });
}
