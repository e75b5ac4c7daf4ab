/**
 * A modern call, round after round: the request's `_meta` (protocol version, client capabilities,
 * client info, progress token) on stateless revisions; an input-required result answered by the
 * input handlers and the request sent again with their responses and the server's state, up to
 * `maxRounds`; one renegotiation of the protocol version; then the complete result checked by its
 * result type, the schema and the tool checks. Revision-independent; copied verbatim into
 * generated output.
 */
import { checkResult } from "./check.js";
import type { Connection } from "./connection.js";
import type { Deprecations } from "./deprecations.js";
import {
  InputRequiredError,
  InvalidResultError,
  toMcpError,
  UnsupportedProtocolVersionError,
} from "./errors.js";
import type { InputRequests } from "./input.js";
import { put, type CallOptions, type CoreOptions } from "./options.js";
import type { ClientMethodSpec, ClientProtocol } from "./protocol.js";
import type { RunningCall } from "./running-call.js";
import type { Sender } from "./send.js";
import type { ToolResults } from "./tools.js";
import { isRecord } from "../shared/jsonrpc.js";

const DEFAULT_MAX_ROUNDS = 8;

export class Rounds {
  constructor(
    private readonly protocol: ClientProtocol,
    private readonly options: CoreOptions,
    private readonly connection: Connection,
    private readonly capabilities: Record<string, unknown>,
    private readonly sender: Sender,
    private readonly inputs: InputRequests,
    private readonly tools: ToolResults,
    private readonly deprecations: Deprecations,
  ) {}

  /** Sends `method` with the caller's params (`base`) until a complete result comes; returns it. */
  async run(
    method: string,
    base: Record<string, unknown>,
    spec: ClientMethodSpec | undefined,
    options: CallOptions,
    call: RunningCall,
  ): Promise<Record<string, unknown>> {
    const { protocol, connection } = this;
    const { envelope } = protocol;
    const metaField = envelope.meta;
    const progressToken =
      options.onProgress && protocol.meta.progressToken ? this.sender.progressToken() : undefined;
    let retry: {
      inputResponses: Record<string, unknown>;
      requestState: string | undefined;
    } | null = null;
    let renegotiated = false;
    const maxRounds = this.options.maxRounds ?? DEFAULT_MAX_ROUNDS;
    for (let round = 0; ;) {
      // Object.assign, not spread: a spread copy that then gains properties is slow in V8.
      const params: Record<string, unknown> = Object.assign({}, base);
      const given = base[metaField];
      const meta: Record<string, unknown> = isRecord(given) ? Object.assign({}, given) : {};
      // The level `setLogLevel` asked for, unless the caller's own metadata names one.
      const logLevelKey = protocol.meta.logLevel;
      if (logLevelKey && connection.logLevel !== null && meta[logLevelKey] === undefined)
        meta[logLevelKey] = connection.logLevel;
      for (const key in protocol.deprecated.metaKeys) {
        if (meta[key] !== undefined) this.deprecations.report(protocol.deprecated.metaKeys[key]);
      }
      if (protocol.lifecycle.kind === "stateless") {
        meta[protocol.lifecycle.protocolVersionKey] = connection.version;
        meta[protocol.lifecycle.clientCapabilitiesKey] = this.capabilities;
        if (protocol.meta.clientInfo) meta[protocol.meta.clientInfo] = this.options.info;
      }
      if (progressToken !== undefined) meta[protocol.meta.progressToken!] = progressToken;
      if (Object.keys(meta).length > 0) params[metaField] = meta;
      else delete params[metaField];
      if (retry) {
        if (envelope.inputResponses !== null)
          put(params, envelope.inputResponses, retry.inputResponses);
        if (retry.requestState !== undefined && envelope.requestState !== null)
          put(params, envelope.requestState, retry.requestState);
      }
      const response = await this.sender.send({
        method,
        id: this.sender.id(),
        params,
        spec,
        options,
        call,
        progressToken,
      });

      if ("error" in response) {
        const error = toMcpError(protocol.errors, response.error);
        if (error instanceof UnsupportedProtocolVersionError && !renegotiated) {
          const version = connection.supportedVersions.find((v) => error.supported.includes(v));
          if (version !== undefined) {
            renegotiated = true;
            connection.version = version;
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
          checkResult(method, protocol.inputRequiredResult, result);
        const inputRequests =
          envelope.inputRequests === null ? undefined : result[envelope.inputRequests];
        if (++round >= maxRounds)
          throw new InputRequiredError(
            `${method} still asked for input after ${maxRounds} rounds`,
            inputRequests,
          );
        const state = envelope.requestState === null ? undefined : result[envelope.requestState];
        retry = {
          inputResponses: await this.inputs.gather(method, inputRequests, call.signal),
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
      if (spec && this.options.validate !== false) checkResult(method, spec.result, result);
      this.tools.observe(method, base, result);
      return result;
    }
  }
}
