/**
 * What the dispatcher and the legacy side hand each other: the host the dispatcher lends (the
 * modern serving path and the server's description) and one legacy request as the modern path
 * serves it. Types only, so the legacy modules can share them without importing each other.
 * Revision-independent; copied verbatim into generated output.
 */
import type { JsonRpcId, JsonRpcRequest } from "../shared/jsonrpc.js";
import type { Delivery, Outcome } from "./transport.js";
import type { Validate } from "../schema/checks.js";
import type { DescribeSource, LegacyEra } from "../shared/protocol.js";
import type { LegacySession } from "./legacy-session.js";

/** What the dispatcher lends the legacy side: the modern serving path and the server's description. */
export interface LegacyHost {
  readonly protocolVersion: string;
  readonly requestMeta: { protocolVersionKey: string; clientCapabilitiesKey: string };
  readonly logLevels: readonly string[];
  readonly serverCapabilities: Record<string, unknown>;
  identity(): Record<string, unknown>;
  readonly instructions: string | undefined;
  /** The modern description of the server (`protocol.describe`): where an era's handshake carries each part of it. */
  readonly describe: Readonly<Record<string, DescribeSource>>;
  /** Serves a request through the modern handler, as `era` describes, and answers in the legacy shape. */
  serve(
    request: JsonRpcRequest,
    params: Record<string, unknown>,
    meta: Record<string, unknown>,
    clientCapabilities: Record<string, unknown>,
    delivery: Delivery,
    era: LegacyCall,
  ): Outcome | Promise<Outcome>;
  error(id: JsonRpcId, code: number, message: string, data?: unknown): Outcome;
  log(message: string): void;
  /** The field of params and results holding metadata (`protocol.envelope.meta`), the same in every era. */
  readonly metaField: string;
}

/** What the modern serving path needs to answer one legacy request. */
export interface LegacyCall {
  protocol: LegacyEra;
  session: LegacySession;
  method: { result: Validate; drop: readonly string[] };
}
