/**
 * Streamable HTTP server transport (the stateless shape: one POST endpoint, one response per
 * request, no GET stream, no sessions) on `node:http`. It frames HTTP bodies into messages,
 * enforces the HTTP-level rules (DNS-rebinding protection, method, media types, body size) and
 * delivers what the dispatcher produces, as one JSON body or as an SSE stream scoped to the
 * request. Every protocol rule, and the HTTP status of every answer, is the dispatcher's.
 * Revision-independent; copied verbatim into generated output.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode, classify, failure } from "./jsonrpc.js";
import type {
  JsonRpcErrorObject,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "./jsonrpc.js";
import { LazyAbort, type Delivery, type MessageHandler, type Outcome } from "./transport.js";

// ---------------------------------------------------------------------------
// Revision data: which request fields the HTTP headers mirror.
// ---------------------------------------------------------------------------

/** Which body fields the request metadata headers mirror. Revision data; override per server. */
export interface HeaderRules {
  /** Methods whose request is named by a param, which `Mcp-Name` mirrors: method → param. */
  readonly nameParams: Readonly<Record<string, string>>;
  /**
   * The `params._meta` key that `MCP-Protocol-Version` mirrors. A request that carries it belongs
   * to the per-request-metadata era, where the mirrored headers are required; a request without it
   * (initialize era) is checked only against the headers it does carry.
   */
  readonly protocolVersionMetaKey: string;
  /** The JSON-RPC error code for headers that are missing, malformed or disagree with the body. */
  readonly mismatchCode: number;
}

export const DEFAULT_HEADER_RULES: HeaderRules = {
  nameParams: { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" },
  protocolVersionMetaKey: "io.modelcontextprotocol/protocolVersion",
  mismatchCode: -32020,
};

/** Header names as `node:http` exposes them (lower case: header names are case-insensitive). */
const HEADER = {
  protocolVersion: "mcp-protocol-version",
  method: "mcp-method",
  name: "mcp-name",
} as const;

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

export interface HttpOptions {
  /** The MCP endpoint's path; default `/mcp`. The query string is ignored. */
  path?: string;
  /**
   * Values the `Host` header may take: a host name (any port) or `host:port`; IPv6 literals in
   * brackets; `"*"` allows any. Default: `localhost`, `127.0.0.1` and `[::1]` on any port.
   */
  allowedHosts?: readonly string[];
  /**
   * Values the `Origin` header may take when present: a full origin (`https://app.example:8443`,
   * compared exactly) or a host entry as in `allowedHosts` (any scheme); `"*"` allows any.
   * Default: `allowedHosts`.
   */
  allowedOrigins?: readonly string[];
  /** Largest accepted request body; default 4 MiB. */
  maxBodyBytes?: number;
  /** Overrides of `DEFAULT_HEADER_RULES`. */
  headerRules?: Partial<HeaderRules>;
  /** Interval of SSE keep-alive comments on open streams, in ms; default 15 000, 0 disables. */
  keepAliveMs?: number;
  /** Sessions kept for stateful revisions (initialize handshake) before the oldest is forgotten. Default 10,000. */
  maxSessions?: number;
}

export interface ServeHttpOptions extends HttpOptions {
  /** 0 picks a free port. */
  port: number;
  /** Interface to bind; default `127.0.0.1` (loopback only). */
  host?: string;
}

export interface HttpServerHandle {
  /** The MCP endpoint's URL. */
  url: string;
  port: number;
  /**
   * Stops listening, lets answers in flight finish for up to `graceMs` (default 1000), then drops
   * every connection still open, which aborts its request. End open subscriptions first (the
   * dispatcher's `close()`) for a graceful shutdown.
   */
  close(graceMs?: number): Promise<void>;
}

const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];
const DEFAULT_PATH = "/mcp";
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_MAX_SESSIONS = 10_000;
const DEFAULT_CLOSE_GRACE_MS = 1000;

const SSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  // Asks reverse proxies (nginx) not to buffer the stream.
  "X-Accel-Buffering": "no",
} as const;

// ---------------------------------------------------------------------------
// Serving
// ---------------------------------------------------------------------------

/** Listens on `host:port` (default 127.0.0.1) and serves the MCP endpoint. */
export async function serveHttp(
  handler: MessageHandler,
  options: ServeHttpOptions,
): Promise<HttpServerHandle> {
  const { port, host = "127.0.0.1", ...httpOptions } = options;
  const listener = createHttpHandler(handler, httpOptions);
  const open = new Set<ServerResponse>();
  let drained: (() => void) | undefined;
  const server = createServer((req, res) => {
    open.add(res);
    res.on("close", () => {
      open.delete(res);
      if (open.size === 0) drained?.();
    });
    listener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const actualPort = typeof address === "object" && address !== null ? address.port : port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${actualPort}${httpOptions.path ?? DEFAULT_PATH}`,
    port: actualPort,
    close(graceMs = DEFAULT_CLOSE_GRACE_MS) {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve, reject) =>
          server.close((error) => (error === undefined ? resolve() : reject(error))),
        );
        server.closeIdleConnections();
        // Answers in flight (streams the dispatcher is ending gracefully) get a moment to finish.
        if (open.size > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, graceMs);
            drained = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        // Streams still open are dropped, which aborts their requests' signals.
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

/** A `node:http` request listener serving the MCP endpoint with `handler`. */
export function createHttpHandler(
  handler: MessageHandler,
  options: HttpOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const config: Config = {
    handler,
    path: options.path ?? DEFAULT_PATH,
    allowedHosts: options.allowedHosts ?? LOOPBACK_HOSTS,
    allowedOrigins: options.allowedOrigins ?? options.allowedHosts ?? LOOPBACK_HOSTS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    rules: { ...DEFAULT_HEADER_RULES, ...options.headerRules },
    keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    sessions: new SessionStore(options.maxSessions ?? DEFAULT_MAX_SESSIONS),
    log: (message) => {
      if (handler.log !== undefined) handler.log(message);
      else console.error(message);
    },
  };
  return (req, res) => {
    serve(config, req, res).catch((error: unknown) => {
      config.log(
        `mcp http: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      if (!res.headersSent) reject(res, 500, ErrorCode.InternalError, "Internal error");
      else res.destroy();
    });
  };
}

interface Config {
  handler: MessageHandler;
  path: string;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  maxBodyBytes: number;
  rules: HeaderRules;
  keepAliveMs: number;
  sessions: SessionStore;
  log(message: string): void;
}

async function serve(config: Config, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // DNS-rebinding protection comes before anything else.
  const host = req.headers.host;
  if (host === undefined || !hostAllowed(host, config.allowedHosts)) {
    return reject(res, 403, ErrorCode.InvalidRequest, "Forbidden: Host header not allowed");
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, config.allowedOrigins)) {
    return reject(res, 403, ErrorCode.InvalidRequest, "Forbidden: Origin header not allowed");
  }
  if (pathOf(req.url) !== config.path)
    return reject(res, 404, ErrorCode.InvalidRequest, "Not found");
  if (req.method !== "POST") {
    return reject(
      res,
      405,
      ErrorCode.InvalidRequest,
      "Method not allowed: the MCP endpoint accepts POST only",
      { Allow: "POST" },
    );
  }
  const accepts = acceptance(req.headers.accept);
  if (!accepts.json && !accepts.sse) {
    return reject(
      res,
      406,
      ErrorCode.InvalidRequest,
      "Not acceptable: Accept must allow application/json or text/event-stream",
    );
  }
  if (
    !isJsonContentType(req.headers["content-type"]) ||
    !isIdentityEncoding(req.headers["content-encoding"])
  ) {
    return reject(
      res,
      415,
      ErrorCode.InvalidRequest,
      "Unsupported media type: the body must be application/json (UTF-8)",
    );
  }

  // A session exists only once a dispatcher kept something in it (a stateful revision's handshake);
  // an id the server does not know (any more) is answered 404, so the client starts a new one.
  const sessionId = req.headers["mcp-session-id"];
  let session: Record<string, unknown> = {};
  if (typeof sessionId === "string") {
    const known = config.sessions.get(sessionId);
    if (!known) return reject(res, 404, ErrorCode.InvalidRequest, "Session not found");
    session = known;
  }

  const body = await readBody(req, config.maxBodyBytes);
  if (body === "aborted") return;
  if (body === "too-large") {
    return reject(
      res,
      413,
      ErrorCode.InvalidRequest,
      `Payload too large: the limit is ${config.maxBodyBytes} bytes`,
      { Connection: "close" },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return reject(res, 400, ErrorCode.ParseError, "Parse error: not valid JSON");
  }
  const incoming = classify(value);
  switch (incoming.kind) {
    case "invalid":
      return sendJson(res, 400, incoming.error);
    case "request":
      return answerRequest(
        config,
        req,
        res,
        incoming.message,
        accepts,
        session,
        typeof sessionId === "string",
      );
    case "notification":
    case "response":
      return acceptOneWay(config, res, incoming.message, session);
  }
}

/** Notifications and responses: the dispatcher acts on them; accepted ones get 202 and no body. */
async function acceptOneWay(
  config: Config,
  res: ServerResponse,
  message: JsonRpcNotification | JsonRpcResponse,
  session: Record<string, unknown>,
): Promise<void> {
  const controller = new LazyAbort();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort(new Error("client disconnected"));
  });
  let warned = false;
  const delivery: Delivery = {
    notify(notification) {
      if (warned) return;
      warned = true;
      config.log(
        `mcp http: dropped ${notification.method}: a notification POST has no response stream`,
      );
    },
    get signal() {
      return controller.signal;
    },
    session,
  };
  const outcome = await handleSafely(config, message, delivery, undefined);
  if (res.destroyed) return;
  if (outcome.response !== null) return sendJson(res, outcome.httpStatus, outcome.response);
  res.writeHead(outcome.httpStatus >= 200 && outcome.httpStatus < 300 ? 202 : outcome.httpStatus);
  res.end();
}

/**
 * Requests: one JSON body, unless the dispatcher notifies before its outcome is ready and the
 * client accepts SSE; then an SSE stream carrying the notifications and finally the response.
 */
async function answerRequest(
  config: Config,
  req: IncomingMessage,
  res: ServerResponse,
  message: JsonRpcRequest,
  accepts: Acceptance,
  session: Record<string, unknown>,
  inSession: boolean,
): Promise<void> {
  const controller = new LazyAbort();
  // Written by the closures below; the cast keeps TypeScript from narrowing it to "pending".
  let state = "pending" as "pending" | "streaming" | "done";
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let warned = false;
  const stop = (): void => {
    if (keepAlive !== undefined) clearInterval(keepAlive);
    keepAlive = undefined;
  };
  res.on("close", () => {
    stop();
    // Closing the response stream is the client's cancellation of the request.
    if (!res.writableFinished) controller.abort(new Error("client disconnected"));
  });
  const startStream = (): void => {
    state = "streaming";
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    if (config.keepAliveMs > 0) {
      keepAlive = setInterval(() => res.write(": keep-alive\n\n"), config.keepAliveMs);
      keepAlive.unref();
    }
  };

  const delivery: Delivery = {
    notify(notification) {
      // Nothing may follow the response, or anything once the client has gone.
      if (state === "done" || controller.aborted || res.destroyed) return;
      if (state === "pending") {
        if (!accepts.sse) {
          if (!warned)
            config.log(
              `mcp http: dropped ${notification.method} (and any later notifications): the client accepts only application/json`,
            );
          warned = true;
          return;
        }
        startStream();
      }
      const line = serialize(notification);
      if (line === undefined)
        config.log(`mcp http: dropped ${notification.method}: not serializable as JSON`);
      else res.write(sseEvent(line));
    },
    get signal() {
      return controller.signal;
    },
    session,
    checkEnvelope: (request) => checkHeaders(req.headers, request, config.rules),
  };

  const outcome = await handleSafely(config, message, delivery, message);
  const streamed = state === "streaming";
  state = "done";
  stop();
  if (controller.aborted || res.destroyed) return;

  let response = outcome.response;
  let line = response === null ? undefined : serialize(response);
  let status = outcome.httpStatus;
  if (response !== null && line === undefined) {
    config.log(`mcp http: the response to ${message.method} is not serializable as JSON`);
    response = failure(message.id, {
      code: ErrorCode.InternalError,
      message: "Internal error: unserializable response",
    });
    line = serialize(response);
    status = 500;
  }
  if (streamed) {
    if (line !== undefined) res.write(sseEvent(line));
    res.end();
    return;
  }
  // A client that takes only SSE gets its successes as a stream; error statuses always go out as
  // JSON, since their status code carries the meaning.
  if (!accepts.json && status >= 200 && status < 300) {
    res.writeHead(status, SSE_HEADERS);
    res.end(line === undefined ? "" : sseEvent(line));
    return;
  }
  if (line === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const headers: Record<string, string | number> = {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(line),
  };
  if (!inSession && Object.keys(session).length > 0)
    headers["Mcp-Session-Id"] = config.sessions.add(session);
  res.writeHead(status, headers);
  res.end(line);
}

/** The dispatcher never throws by contract; should it, the answer is an internal error. */
async function handleSafely(
  config: Config,
  message: unknown,
  delivery: Delivery,
  request: JsonRpcRequest | undefined,
): Promise<Outcome> {
  try {
    return await config.handler.handle(message, delivery);
  } catch (error) {
    config.log(
      `mcp http: the handler threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return {
      response:
        request === undefined
          ? null
          : failure(request.id, { code: ErrorCode.InternalError, message: "Internal error" }),
      httpStatus: 500,
    };
  }
}

// ---------------------------------------------------------------------------
// Framing helpers
// ---------------------------------------------------------------------------

/** One line of JSON, or undefined when the value cannot be serialized. */
function serialize(message: unknown): string | undefined {
  try {
    const text: unknown = JSON.stringify(message);
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}

/** JSON.stringify never emits CR or LF, so one `data:` line always holds one whole message. */
const sseEvent = (line: string): string => `event: message\ndata: ${line}\n\n`;

function sendJson(
  res: ServerResponse,
  status: number,
  message: JsonRpcResponse,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(message);
  res.writeHead(status, {
    ...headers,
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

/** A transport-level rejection: the status, and a JSON-RPC error response without an id. */
function reject(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, failure(undefined, { code, message }), headers);
}

/**
 * Reads the body up to `limit` bytes. Past the limit it stops keeping bytes but goes on draining
 * them, so that the 413 can be delivered to a client still uploading.
 */
function readBody(
  req: IncomingMessage,
  limit: number,
): Promise<Uint8Array | "too-large" | "aborted"> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve("too-large");
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: Uint8Array | "too-large" | "aborted"): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle("too-large");
      } else {
        chunks.push(chunk);
      }
    });
    req.on("end", () => settle(Buffer.concat(chunks)));
    req.on("error", () => settle("aborted"));
    req.on("close", () => settle(req.complete ? Buffer.concat(chunks) : "aborted"));
  });
}

function pathOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return undefined;
  }
}

interface Acceptance {
  json: boolean;
  sse: boolean;
}

/** Which of the two response media types `Accept` allows (q-values honoured; absent: any). */
function acceptance(header: string | undefined): Acceptance {
  if (header === undefined) return { json: true, sse: true };
  const ranges: Array<{ type: string; subtype: string; q: number }> = [];
  for (const part of header.split(",")) {
    const [range = "", ...params] = part.split(";");
    const [type, subtype, extra] = range.trim().toLowerCase().split("/");
    if (
      type === undefined ||
      subtype === undefined ||
      extra !== undefined ||
      type === "" ||
      subtype === ""
    )
      continue;
    let q = 1;
    for (const param of params) {
      const [key, raw] = param.split("=");
      if (key?.trim().toLowerCase() === "q" && raw !== undefined) {
        const parsed = Number(raw.trim());
        if (Number.isFinite(parsed)) q = parsed;
      }
    }
    ranges.push({ type, subtype, q });
  }
  /** The q of the most specific range matching `type/subtype`. */
  const allows = (type: string, subtype: string): boolean => {
    let best = -1;
    let q = 0;
    for (const r of ranges) {
      const specificity =
        r.type === type && r.subtype === subtype
          ? 2
          : r.type === type && r.subtype === "*"
            ? 1
            : r.type === "*" && r.subtype === "*"
              ? 0
              : -1;
      if (specificity > best) {
        best = specificity;
        q = r.q;
      }
    }
    return best >= 0 && q > 0;
  };
  return { json: allows("application", "json"), sse: allows("text", "event-stream") };
}

function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [type = "", ...params] = header.split(";");
  if (type.trim().toLowerCase() !== "application/json") return false;
  return params.every((param) => {
    const [key = "", value = ""] = param.split("=");
    if (key.trim().toLowerCase() !== "charset") return true;
    const charset = value
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase();
    return charset === "utf-8" || charset === "utf8";
  });
}

const isIdentityEncoding = (header: string | undefined): boolean =>
  header === undefined || header.trim() === "" || header.trim().toLowerCase() === "identity";

// ---------------------------------------------------------------------------
// DNS-rebinding protection
// ---------------------------------------------------------------------------

/** `name[:port]` split and lower-cased; IPv6 names keep their brackets. Null when malformed. */
function splitHost(value: string): { name: string; port: string | undefined } | null {
  const text = value.trim().toLowerCase();
  let name: string;
  let rest: string;
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    if (end < 0) return null;
    name = text.slice(0, end + 1);
    rest = text.slice(end + 1);
  } else {
    const colon = text.indexOf(":");
    name = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? "" : text.slice(colon);
  }
  if (name === "" || name === "[]") return null;
  if (rest === "") return { name, port: undefined };
  return /^:\d{1,5}$/.test(rest) ? { name, port: rest.slice(1) } : null;
}

function hostAllowed(value: string, allowed: readonly string[]): boolean {
  const host = splitHost(value);
  if (host === null) return allowed.includes("*");
  return allowed.some((entry) => {
    if (entry === "*") return true;
    const rule = splitHost(entry);
    return (
      rule !== null &&
      rule.name === host.name &&
      (rule.port === undefined || rule.port === host.port)
    );
  });
}

function originAllowed(value: string, allowed: readonly string[]): boolean {
  if (allowed.includes("*")) return true;
  let origin: URL;
  try {
    origin = new URL(value);
  } catch {
    return false;
  }
  // Opaque origins (`Origin: null`, sandboxed documents) cannot be vouched for.
  if (origin.origin === "null") return false;
  return allowed.some((entry) => {
    if (!entry.includes("://")) return hostAllowed(origin.host, [entry]);
    try {
      return new URL(entry).origin === origin.origin;
    } catch {
      return false;
    }
  });
}

// ---------------------------------------------------------------------------
// Request metadata headers against the body (Delivery.checkEnvelope)
// ---------------------------------------------------------------------------

/** Visible ASCII, space and tab: what a header value may hold. */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;
const BASE64_PREFIX = "=?base64?";
const BASE64_SUFFIX = "?=";

/**
 * A mirrored header value as the client meant it: the Base64 sentinel form (`=?base64?…?=`)
 * decoded from UTF-8, plain values as they are. Null when the value is malformed.
 */
export function decodeHeaderValue(raw: string): string | null {
  if (!HEADER_SAFE.test(raw)) return null;
  if (!(
    raw.startsWith(BASE64_PREFIX) &&
    raw.endsWith(BASE64_SUFFIX) &&
    raw.length >= BASE64_PREFIX.length + BASE64_SUFFIX.length
  )) {
    return raw;
  }
  const encoded = raw.slice(BASE64_PREFIX.length, raw.length - BASE64_SUFFIX.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.replace(/=+$/, "").length % 4 === 1)
    return null;
  if (encoded.includes("=") && encoded.length % 4 !== 0) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(encoded, "base64"));
  } catch {
    return null;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keeps echoed values short in error messages. */
const shown = (value: unknown): string => {
  const text = typeof value === "string" ? value : (serialize(value) ?? String(value));
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
};

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` against the request body. */
function checkHeaders(
  headers: IncomingHttpHeaders,
  request: { method: string; params: Record<string, unknown> },
  rules: HeaderRules,
): JsonRpcErrorObject | null {
  const mismatch = (message: string): JsonRpcErrorObject => ({
    code: rules.mismatchCode,
    message: `Header mismatch: ${message}`,
  });
  const meta = request.params["_meta"];
  const bodyVersion = isRecord(meta) ? meta[rules.protocolVersionMetaKey] : undefined;
  // Only requests that carry their version in `_meta` come from clients that must mirror headers.
  const required = bodyVersion !== undefined;

  const version = headerValue(headers, HEADER.protocolVersion);
  if (version === undefined) {
    if (required) return mismatch("the required MCP-Protocol-Version header is missing");
  } else {
    if (!HEADER_SAFE.test(version))
      return mismatch("the MCP-Protocol-Version header contains invalid characters");
    if (required && bodyVersion !== version) {
      return mismatch(
        `MCP-Protocol-Version header value '${shown(version)}' does not match body value '${shown(bodyVersion)}'`,
      );
    }
  }

  const method = headerValue(headers, HEADER.method);
  if (method === undefined) {
    if (required) return mismatch("the required Mcp-Method header is missing");
  } else {
    if (!HEADER_SAFE.test(method))
      return mismatch("the Mcp-Method header contains invalid characters");
    if (method !== request.method) {
      return mismatch(
        `Mcp-Method header value '${shown(method)}' does not match body value '${shown(request.method)}'`,
      );
    }
  }

  const param = Object.hasOwn(rules.nameParams, request.method)
    ? rules.nameParams[request.method]
    : undefined;
  if (param !== undefined) {
    const raw = headerValue(headers, HEADER.name);
    const bodyName = request.params[param];
    if (raw === undefined) {
      // Without a name in the body either, the dispatcher's params check reports the request.
      if (required && bodyName !== undefined)
        return mismatch("the required Mcp-Name header is missing");
    } else {
      const name = decodeHeaderValue(raw);
      if (name === null) return mismatch("the Mcp-Name header value is malformed");
      if (name !== bodyName)
        return mismatch(
          `Mcp-Name header value '${shown(name)}' does not match body value '${shown(bodyName)}'`,
        );
    }
  }
  return null;
}

/**
 * Sessions of stateful revisions, by id; the oldest are forgotten past a bound, so that clients
 * that never come back cannot grow the server without limit (a forgotten client gets 404 and
 * starts over, as the transport document prescribes).
 */
class SessionStore {
  private readonly sessions = new Map<string, Record<string, unknown>>();

  constructor(private readonly max: number) {}

  get(id: string): Record<string, unknown> | undefined {
    return this.sessions.get(id);
  }

  add(session: Record<string, unknown>): string {
    const id = randomUUID();
    this.sessions.set(id, session);
    if (this.sessions.size > this.max) this.sessions.delete(this.sessions.keys().next().value!);
    return id;
  }
}
