/**
 * The initialize-era handshake on a stateless server: the legacy revisions' initialize requests,
 * the version a session agrees on (the client's when this server has it, else the newest it has),
 * and the handshake's result, checked against the legacy schema, that opens the session.
 * Revision-independent; copied verbatim into generated output.
 */
import { ErrorCode, isRecord, success, type JsonRpcRequest } from "../shared/jsonrpc.js";
import type { Delivery, Outcome } from "./transport.js";
import type { DescribeSource, LegacyEra } from "../shared/protocol.js";
import { LegacySession, sessionOf } from "./legacy-session.js";
import type { LegacyHost } from "./legacy-host.js";
import { exceedsJsonBytes } from "./session-budget.js";

export class LegacyHandshakes {
  private readonly byInitialize = new Map<string, LegacyEra[]>();
  /** A handshake asked for a version this server was not generated for, and the operator was told (once). */
  private hinted = false;

  constructor(
    /** Newest protocol version first. */
    private readonly protocols: readonly LegacyEra[],
    private readonly host: LegacyHost,
    /** Keeps a session the handshake opened. */
    private readonly opened: (session: LegacySession) => void,
    /** Bytes (JSON) the client's capabilities and identity may hold together: a session keeps them for its life. */
    private readonly maxHandshakeBytes: number,
  ) {
    for (const protocol of protocols) {
      const list = this.byInitialize.get(protocol.initialize) ?? [];
      list.push(protocol);
      this.byInitialize.set(protocol.initialize, list);
    }
  }

  /** Whether `method` opens a legacy session. */
  opens(method: string): boolean {
    return this.byInitialize.has(method);
  }

  /** The requests that open a session, for the error that says there is none. */
  get methods(): string[] {
    return [...this.byInitialize.keys()];
  }

  /** Answers a handshake; the session it opens is in the transport's record and kept. */
  answer(request: JsonRpcRequest, params: Record<string, unknown>, delivery: Delivery): Outcome {
    const { host } = this;
    const record = delivery.session;
    if (!record)
      return host.error(
        request.id,
        ErrorCode.InvalidRequest,
        "Invalid request: this transport keeps no sessions",
      );
    if (sessionOf(record))
      return host.error(
        request.id,
        ErrorCode.InvalidRequest,
        "Invalid request: the session is already initialized",
      );
    // Every era opened by this request names its handshake params alike: the newest one's names.
    const candidates = this.byInitialize.get(request.method)!;
    const names = candidates[0]!.handshake.params;
    const requested = params[names.version];
    const capabilities = params[names.capabilities];
    if (typeof requested !== "string" || !isRecord(capabilities))
      return host.error(
        request.id,
        ErrorCode.InvalidParams,
        `Invalid params: ${names.version} (a string) and ${names.capabilities} (an object) are required`,
      );
    const info = names.info;
    const clientInfo = info === null ? undefined : params[info];
    // Refused before anything is kept: the session would hold both for its whole life.
    if (exceedsJsonBytes([capabilities, clientInfo], this.maxHandshakeBytes))
      return host.error(
        request.id,
        ErrorCode.InvalidParams,
        `Invalid params: ${names.capabilities}${info === null ? "" : ` and ${info}`} may hold at most ${this.maxHandshakeBytes} bytes of JSON together`,
      );
    // The client's version when this server has it, else the newest it has (the client decides whether to go on).
    const protocol = candidates.find((p) => p.protocolVersion === requested) ?? candidates[0]!;
    if (
      protocol.protocolVersion !== requested &&
      requested !== host.protocolVersion &&
      !this.hinted
    ) {
      // The client will most likely hang up on the version offered instead: say once how to serve it.
      this.hinted = true;
      host.log(
        `mcp-gen server: an initialize-era client asked for protocol version ${requested}, which this server was not generated for (it speaks ${this.protocols.map((p) => p.protocolVersion).join(", ")}); it was offered ${protocol.protocolVersion}. To serve it, regenerate with --legacy naming that revision, or without --legacy (the default serves every released initialize-era revision)`,
      );
    }
    const result = handshakeResult(protocol, host);
    const check = protocol.initializeResult(result);
    if (!check.ok) {
      const first = check.errors?.[0];
      host.log(
        `mcp-gen server: the ${protocol.revision} handshake result is invalid at ${first?.path || "/"}: ${first?.message ?? "invalid"}`,
      );
      return host.error(
        request.id,
        ErrorCode.InternalError,
        "Internal error: the server produced an invalid result",
      );
    }
    const session = new LegacySession(protocol, capabilities, clientInfo, record);
    this.opened(session);
    return { response: success(request.id, result), httpStatus: 200 };
  }
}

/**
 * The handshake's result, by the legacy revision's field names: the version chosen, the server's
 * capabilities and identity, and its instructions when it has some. Where the capabilities,
 * identity and instructions go is what the era's discovery mapping says the handshake holds them in.
 */
function handshakeResult(protocol: LegacyEra, host: LegacyHost): Record<string, unknown> {
  const result: Record<string, unknown> = {
    [protocol.handshake.result.version]: protocol.protocolVersion,
  };
  if (protocol.serverCapabilities) result[protocol.serverCapabilities] = host.serverCapabilities;
  const info = protocol.discover?.info?.field;
  if (info) result[info] = host.identity();
  if (host.instructions !== undefined) {
    const instructions = handshakeField(protocol, host, "instructions");
    if (instructions) result[instructions] = host.instructions;
  }
  return result;
}

/** The handshake field holding what fills the modern description's field of `source`, as the era's discovery maps it. */
function handshakeField(
  protocol: LegacyEra,
  host: LegacyHost,
  source: DescribeSource,
): string | null {
  const modern = Object.keys(host.describe).find((field) => host.describe[field] === source);
  const from = modern === undefined ? undefined : protocol.discover?.fields[modern];
  return from && "field" in from ? from.field : null;
}
