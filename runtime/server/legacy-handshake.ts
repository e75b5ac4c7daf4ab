/**
 * The initialize-era handshake on a stateless server: the legacy revisions' initialize requests,
 * the version a session agrees on (the client's when this server has it, else the newest it has),
 * and the handshake's result, checked against the legacy schema, that opens the session.
 * Revision-independent; copied verbatim into generated output.
 */
import { ErrorCode, isRecord, success, type JsonRpcRequest } from "../shared/jsonrpc.js";
import type { Delivery, Outcome } from "./transport.js";
import type { LegacyEra } from "../shared/protocol.js";
import { LegacySession, sessionOf } from "./legacy-session.js";
import type { LegacyHost } from "./legacy-host.js";

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
    const requested = params.protocolVersion;
    const capabilities = params.capabilities;
    if (typeof requested !== "string" || !isRecord(capabilities))
      return host.error(
        request.id,
        ErrorCode.InvalidParams,
        "Invalid params: protocolVersion (a string) and capabilities (an object) are required",
      );
    // The client's version when this server has it, else the newest it has (the client decides whether to go on).
    const candidates = this.byInitialize.get(request.method)!;
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
    const result: Record<string, unknown> = {
      protocolVersion: protocol.protocolVersion,
      capabilities: host.serverCapabilities,
      serverInfo: host.identity(),
    };
    if (host.instructions !== undefined) result.instructions = host.instructions;
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
    const session = new LegacySession(protocol, capabilities, params.clientInfo, record);
    this.opened(session);
    return { response: success(request.id, result), httpStatus: 200 };
  }
}
