/**
 * JSON-RPC 2.0 framing shared by every transport: message shapes, classification of incoming
 * values, and error responses. Revision-independent; copied verbatim into generated output.
 */

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: Record<string, unknown>;
}

export interface JsonRpcFailure {
  jsonrpc: "2.0";
  /** Absent only when the request's id could not be read. */
  id?: JsonRpcId;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The error codes JSON-RPC 2.0 itself defines. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** What an incoming value turned out to be. */
export type Incoming =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse }
  /** Not a JSON-RPC message: answer with `error` (carrying the id when one could be read). */
  | { kind: "invalid"; error: JsonRpcFailure };

/** Thrown by handlers (or the dispatcher) to answer with a specific JSON-RPC error. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }

  toObject(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export function failure(id: JsonRpcId | undefined, error: JsonRpcErrorObject): JsonRpcFailure {
  return id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}

export function success(id: JsonRpcId, result: Record<string, unknown>): JsonRpcSuccess {
  return { jsonrpc: "2.0", id, result };
}

/**
 * `table[key]` for a key that came off the wire, looking at the table's own properties only: a
 * method named `constructor`, `toString` or `__proto__` must find nothing, not what every object
 * inherits.
 */
export function own<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A JSON object (not an array, not null): what every message and params must be. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is JsonRpcId =>
  typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

/**
 * The answer to a request refused because the server is at its limit of requests or bytes in
 * flight: the first of the codes JSON-RPC 2.0 leaves to implementations for server errors.
 */
export const SERVER_BUSY = -32000;

/** The answer to a framed message that is not JSON. */
export function parseError(): JsonRpcFailure {
  return failure(undefined, { code: ErrorCode.ParseError, message: "Parse error: not valid JSON" });
}

/**
 * The deepest nesting of arrays and objects a message may have, by default. Real messages stay
 * within a few dozen levels; a thousand leaves room for any JSON Schema a tool declares.
 */
export const DEFAULT_MAX_DEPTH = 1000;

/** The answer to a framed message nested deeper than the limit. */
export function tooDeepError(maxDepth: number): JsonRpcFailure {
  return failure(undefined, {
    code: ErrorCode.ParseError,
    message: `Parse error: nested more than ${maxDepth} levels deep`,
  });
}

/**
 * The most arrays and objects an HTTP request body may hold, by default. Parsing costs by the
 * container, not by the byte: a 4 MiB body of `[{},{},…]` is 1.4 million objects, seconds of
 * `JSON.parse` and garbage collection on the one thread every client shares, and some 75 MiB of
 * heap. Ten thousand is about 30 ms and under 1 MiB of heap, and more than a request a model writes.
 */
export const DEFAULT_MAX_CONTAINERS = 10_000;

/** The answer to a framed message holding more arrays and objects than the limit. */
export function tooManyContainersError(maxContainers: number): JsonRpcFailure {
  return failure(undefined, {
    code: ErrorCode.ParseError,
    message: `Parse error: more than ${maxContainers} arrays and objects`,
  });
}

/**
 * Whether JSON text nests arrays and objects more than `maxDepth` levels deep, found in one pass
 * without recursion, so that a message built to cost `JSON.parse` (and every recursive walk after
 * it) seconds is refused in microseconds: the scan stops at the first bracket past the limit.
 * Brackets inside strings do not count; malformed text is left for `JSON.parse` to refuse.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  return shapeOf(text, maxDepth, Infinity) === "too-deep";
}

/**
 * What of JSON text is past its bounds, in the same one pass as `nestsDeeperThan`: nested more
 * than `maxDepth` levels, or holding more than `maxContainers` arrays and objects (`undefined`
 * when neither), so that a body is refused for either before `JSON.parse` pays for it.
 */
export function shapeOf(
  text: string,
  maxDepth: number,
  maxContainers: number,
): "too-deep" | "too-many" | undefined {
  // Each level takes at least one character, each container two.
  if (text.length <= maxDepth && text.length <= 2 * maxContainers) return undefined;
  let depth = 0;
  let containers = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: jump to its closing quote, one not escaped by an odd run of backslashes.
      for (;;) {
        const quote = text.indexOf('"', i + 1);
        if (quote < 0) return undefined;
        let slashes = 0;
        while (text.charCodeAt(quote - 1 - slashes) === 0x5c) slashes++;
        i = quote;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return "too-deep";
      if (++containers > maxContainers) return "too-many";
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}

/**
 * Parses one framed message (a stdio line, an HTTP body). Invalid JSON is a parse error; valid JSON
 * that is not a JSON-RPC 2.0 message is an invalid request, answered with its id when it has a
 * usable one. Batches (arrays) are not part of MCP and are invalid requests.
 */
export function parseMessage(text: string, maxDepth = DEFAULT_MAX_DEPTH): Incoming {
  if (nestsDeeperThan(text, maxDepth)) return { kind: "invalid", error: tooDeepError(maxDepth) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "invalid", error: parseError() };
  }
  return classify(value);
}

/**
 * What an already-parsed value is, as `classify` would name it, without allocating: the transports'
 * path for every message. `invalidRequest` gives an invalid value's error response.
 */
export function kindOf(value: unknown): Incoming["kind"] {
  if (!isRecord(value) || value.jsonrpc !== "2.0") return "invalid";
  const rawId = value.id;
  const id = isId(rawId) ? rawId : undefined;
  if (rawId !== undefined && id === undefined) return "invalid";
  if ("method" in value) {
    if (typeof value.method !== "string") return "invalid";
    if ("params" in value && !isRecord(value.params)) return "invalid";
    return id === undefined ? "notification" : "request";
  }
  return id !== undefined && ("result" in value || "error" in value) ? "response" : "invalid";
}

/** Classifies an already-parsed value, as `parseMessage` does. */
export function classify(value: unknown): Incoming {
  const kind = kindOf(value);
  return kind === "invalid"
    ? { kind, error: invalidRequest(value) }
    : ({ kind, message: value } as Incoming);
}

/** The answer to a value `kindOf` finds invalid: what is wrong with it, with its id when it has a usable one. */
export function invalidRequest(value: unknown): JsonRpcFailure {
  const invalid = (message: string, id?: JsonRpcId): JsonRpcFailure =>
    failure(id, { code: ErrorCode.InvalidRequest, message: `Invalid request: ${message}` });
  if (!isRecord(value))
    return invalid(Array.isArray(value) ? "batches are not supported" : "not an object");
  const id = isId(value.id) ? value.id : undefined;
  if (value.jsonrpc !== "2.0") return invalid('"jsonrpc" must be "2.0"', id);
  if ("id" in value && value.id !== undefined && !isId(value.id))
    return invalid('"id" must be a string or a number');
  if ("method" in value) {
    if (typeof value.method !== "string") return invalid('"method" must be a string', id);
    return invalid('"params" must be an object', id);
  }
  return invalid('a message needs "method", or "result"/"error" with an "id"', id);
}
