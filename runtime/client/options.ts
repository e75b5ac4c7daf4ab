/**
 * What a client core is configured with and what its calls accept: the options the generated
 * client passes through, the per-call options, and what connecting reports. Types and defaults
 * only. Revision-independent; copied verbatim into generated output.
 */
import type { ClientTransport } from "./transport.js";
import type { JsonSchemaEngine } from "../schema/json-schema.js";
import type { JsonRpcId, JsonRpcNotification } from "../shared/jsonrpc.js";
import type { Telemetry } from "../shared/telemetry.js";

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Record<string, unknown>) => void;
  /** Overrides the client's `timeoutMs` for this call; 0 waits for ever. */
  timeoutMs?: number;
}

/** Call options the core passes to itself: `onId` learns the id each round is sent with. */
export interface InternalCallOptions extends CallOptions {
  onId?: (id: JsonRpcId) => void;
}

export type InputHandler = (params: never, context: { signal: AbortSignal }) => unknown;

export interface CoreOptions {
  transport: ClientTransport;
  info: object;
  /** Default: `{}` plus one entry per input handler given (`{ elicitation: {} }` for `onElicit`…). */
  capabilities?: object;
  protocolVersion?: string;
  /** Versions this client speaks, preferred first; default `[protocolVersion]`. */
  supportedVersions?: string[];
  /** Input request method → handler. */
  inputHandlers?: Readonly<Record<string, InputHandler | undefined>>;
  /** Called once per deprecated feature the first time it is used on the wire; default: a line on `log`. */
  onDeprecated?: (notice: string) => void;
  /** Input-required rounds allowed per call before giving up; default 8. */
  maxRounds?: number;
  /**
   * How long a call waits for its answer (all its rounds) before it fails with `TimeoutError`, in
   * ms; default 60,000; 0 waits for ever. `listen` streams wait for ever unless their own options
   * say otherwise.
   */
  timeoutMs?: number;
  /** Pages an `…All()` iterator fetches at most before it stops (with a log line); default 1000. */
  maxPages?: number;
  /** In-memory cache of cacheable results (off by default). */
  cache?: boolean | { maxEntries?: number };
  /**
   * Records every request sent and the session's duration (runtime/telemetry/otel.ts, generated
   * with `--telemetry otel`, passes one by default). Default: none, and no hook runs.
   */
  telemetry?: Telemetry | undefined;
  /** Diagnostics (dropped tools, garbage from the server); default: none. */
  log?: (message: string) => void;
  /** Validate every result against the schema (default true). */
  validate?: boolean;
  /** Compiles tools' output schemas, so that `structuredContent` is checked against them. */
  jsonSchema?: JsonSchemaEngine;
  /** Check `structuredContent` against the tool's `outputSchema` from the last listing (default: true when `jsonSchema` is given). */
  checkToolOutput?: boolean;
  /** Stdio probe: how long to wait for `server/discover` before deciding the server is legacy; default 5000 ms. */
  probeTimeoutMs?: number;
  /** Server notifications that belong to no call. */
  onNotification?: (notification: JsonRpcNotification) => void;
  /**
   * How fast the server may ask for input: the input requests handed to the handlers (a legacy
   * server's own requests such as `elicitation/create`, a modern round's input requests), at most
   * `burst` at once and then `perSecond`; default 20 and 2. Beyond it a legacy server's request is
   * answered with an error, and a modern call fails with `InputRequiredError`.
   */
  inputRate?: { burst?: number; perSecond?: number };
  /**
   * Legacy sessions the server may end (HTTP 404) in a row, each reopened by the client, before it
   * stops reopening for `cooldownMs` (calls then fail with `SessionExpiredError`); default 3 and
   * 30,000 ms. A call reopens at most once.
   */
  sessionReopens?: { max?: number; cooldownMs?: number };
}

/**
 * What connecting found: a modern server (and its description, when it was asked for one), or a
 * legacy one and the session opened with it (the revision it speaks and its handshake's answer).
 */
export type ConnectOutcome =
  | { era: "modern"; protocolVersion: string; discover: Record<string, unknown> | null }
  | {
      era: "legacy";
      protocolVersion: string;
      revision: string;
      initialize: Record<string, unknown>;
    };

/** How long a call waits for its answer when neither it nor the client says (`timeoutMs`). */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Defines a data property, so that a key such as `__proto__` stays data. */
export function put(target: Record<string, unknown>, key: string, value: unknown): void {
  // Only `__proto__` is an accessor of a plain object's prototype: any other key is assigned as a
  // data property (defining one costs several times an assignment, on every call's params).
  if (key !== "__proto__") {
    target[key] = value;
    return;
  }
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
