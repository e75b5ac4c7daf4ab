/**
 * Streamable HTTP server transport (the stateless shape: one POST endpoint, one response per
 * request, no GET stream, no sessions) on `node:http`. It frames HTTP bodies into messages,
 * enforces the HTTP-level rules (DNS-rebinding protection, method, media types, body size) and
 * delivers what the dispatcher produces, as one JSON body or as an SSE stream scoped to the
 * request. Every protocol rule, and the HTTP status of every response, is the dispatcher's.
 * Revision-independent; copied verbatim into generated output.
 */
import type * as NodeCrypto from "node:crypto";
import type * as NodeHttp from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import {
  DEFAULT_MAX_DEPTH,
  ErrorCode,
  failure,
  invalidRequest,
  kindOf,
  nestsDeeperThan,
  SERVER_BUSY,
  tooDeepError,
} from "../shared/jsonrpc.js";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../shared/jsonrpc.js";
import {
  isThenable,
  LazyAbort,
  SESSION_SEND,
  type Delivery,
  type MessageHandler,
  type Outcome,
} from "./transport.js";
import {
  ACCEPTS_ANY,
  acceptance,
  bodyPending,
  NO_HEADER_RULES,
  hostAllowed,
  isIdentityEncoding,
  isJsonContentType,
  originAllowed,
  type Acceptance,
  type HeaderRules,
} from "../shared/http-headers.js";
import { admissionLimits, Budget, ClientBudgets, type AdmissionLimits } from "./admission.js";

export { DEFAULT_ADMISSION, type AdmissionLimits } from "./admission.js";
export { headerRulesOf, NO_HEADER_RULES, type HeaderRules } from "../shared/http-headers.js";
export { decodeHeaderValue } from "../shared/param-headers.js";
import { principalOf, sendRefusal, type HttpGuard, type Principal } from "../auth/http-auth.js";
import { SharedSessions } from "./http-shared.js";

/**
 * Node's modules this transport needs only sometimes, loaded on first use: `node:http` when it
 * listens (not when it is mounted on a server of its own, nor in a process that serves stdio),
 * `node:crypto` when it opens a session. Through `require`: an ESM `import` of a built-in module
 * evaluates every export (for `node:crypto`, all of Web Crypto), start-up heap for nothing.
 */
const requireBuiltin = createRequire("/");
let http: typeof NodeHttp | undefined;
let crypto: typeof NodeCrypto | undefined;
const nodeHttp = (): typeof NodeHttp => (http ??= requireBuiltin("node:http") as typeof NodeHttp);
const nodeCrypto = (): typeof NodeCrypto =>
  (crypto ??= requireBuiltin("node:crypto") as typeof NodeCrypto);

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

export interface HttpOptions extends AdmissionLimits {
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
   * Default: the entries of `allowedHosts` other than `"*"`, or the loopback hosts when that
   * leaves none: a server open to any `Host` still refuses cross-origin browser requests unless
   * this option names the origins (or `"*"`) itself.
   */
  allowedOrigins?: readonly string[];
  /** Largest accepted request body; default 4 MiB. */
  maxBodyBytes?: number;
  /** Deepest nesting of arrays and objects accepted in a body (checked before parsing); default 1000. */
  maxDepth?: number;
  /** Seconds a refused client is told to wait (`Retry-After` of 503 and 429 responses); default 1. */
  retryAfterSeconds?: number;
  /** The revision's header rules (the generated server passes `headerRulesOf` its description); default `NO_HEADER_RULES`. */
  headerRules?: Partial<HeaderRules>;
  /** Interval of SSE keep-alive comments on open streams, in ms; default 15 000, 0 disables. */
  keepAliveMs?: number;
  /**
   * Sessions kept for stateful revisions (initialize handshake) before the least recently used is
   * forgotten. Default 10,000. With the handler's shared `store`, the copies one process keeps (the
   * sessions themselves live in the store).
   */
  maxSessions?: number;
  /**
   * Sessions one client (its principal when authenticated, else its address) keeps; past it the
   * client's own least recently used session is forgotten, never another client's. Default 1,000.
   * With the handler's shared `store`, counted there, over every process.
   */
  maxSessionsPerClient?: number;
  /** How long a request's body may take to arrive, in ms; past it 408 and the connection closed. Default 60 000, 0 disables. */
  bodyTimeoutMs?: number;
  /** How long a session may go without a request before it is forgotten, in ms (in a shared store: its time to live). Default 30 minutes. */
  sessionIdleMs?: number;
  /** Events of a session's GET stream kept for a client resuming it with `Last-Event-ID`. Default 100. */
  sessionReplayEvents?: number;
  /**
   * Requires credentials of every request (`bearerAuth` of runtime/http-auth.ts: OAuth bearer
   * tokens, with the Protected Resource Metadata it publishes); the principal it admits a request
   * as reaches the dispatcher with the request.
   */
  auth?: HttpGuard;
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
   * Stops listening, lets responses in flight finish for up to `graceMs` (default 1000), then drops
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
const DEFAULT_MAX_SESSIONS_PER_CLIENT = 1_000;
const DEFAULT_BODY_TIMEOUT_MS = 60_000;
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
const DEFAULT_REPLAY_EVENTS = 100;
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
  // Answers still open, counted (`close` waits for them); a counter costs a request nothing.
  let open = 0;
  let drained: (() => void) | undefined;
  const onResponseClose = (): void => {
    if (--open === 0) drained?.();
  };
  const server = nodeHttp().createServer((req, res) => {
    open++;
    res.on("close", onResponseClose);
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
        if (open > 0) {
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
  const path = options.path ?? DEFAULT_PATH;
  const allowedHosts = options.allowedHosts ?? LOOPBACK_HOSTS;
  const allowedOrigins = options.allowedOrigins ?? defaultOrigins(allowedHosts);
  const limits = admissionLimits(options);
  const config: Config = {
    handler,
    path,
    pathIsCanonical: pathOf(path) === path,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    budget: new Budget(limits.maxRequestsInFlight, limits.maxBytesInFlight),
    clients: new ClientBudgets(limits.maxRequestsPerClient, limits.maxBytesPerClient),
    maxRequestsPerConnection: limits.maxRequestsPerConnection,
    maxBytesPerConnection: limits.maxBytesPerConnection,
    retryAfter: String(options.retryAfterSeconds ?? 1),
    rules: { ...NO_HEADER_RULES, ...options.headerRules },
    keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    shared: handler.store
      ? new SharedSessions(handler.store, handler, {
          max: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
          maxPerClient: options.maxSessionsPerClient ?? DEFAULT_MAX_SESSIONS_PER_CLIENT,
          idleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
          replay: options.sessionReplayEvents ?? DEFAULT_REPLAY_EVENTS,
          sseHeaders: SSE_HEADERS,
          log: (message) => config.log(message),
        })
      : undefined,
    sessions: new SessionStore(
      options.maxSessions ?? DEFAULT_MAX_SESSIONS,
      options.maxSessionsPerClient ?? DEFAULT_MAX_SESSIONS_PER_CLIENT,
      options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
      options.sessionReplayEvents ?? DEFAULT_REPLAY_EVENTS,
      (record) => handler.endSession?.(record),
    ),
    auth: options.auth,
    log: (message) => {
      if (handler.log !== undefined) handler.log(message);
      else console.error(message);
    },
    hostAllowed: new LastValue((host) => hostAllowed(host, allowedHosts)),
    originAllowed: new LastValue((origin) => originAllowed(origin, allowedOrigins)),
    acceptance: new LastValue(acceptance),
    isJsonContentType: new LastValue(isJsonContentType),
  };
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    try {
      serve(config, req, res);
    } catch (error) {
      failed(config, res, error);
    }
  };
  return options.auth ? options.auth.guard(listener) : listener;
}

/**
 * Origins allowed by default: the hosts allowed, but never a wildcard: `allowedHosts: ["*"]`
 * opens the server to any host name, not to every web page a browser shows.
 */
function defaultOrigins(allowedHosts: readonly string[]): readonly string[] {
  const named = allowedHosts.filter((entry) => entry !== "*");
  return named.length > 0 ? named : LOOPBACK_HOSTS;
}

interface Config {
  handler: MessageHandler;
  path: string;
  /** Whether `path` is its own normal form, so that a request URL equal to it is the endpoint. */
  pathIsCanonical: boolean;
  maxBodyBytes: number;
  maxDepth: number;
  /** Requests and body bytes this server holds. */
  budget: Budget;
  /** Requests and body bytes each client holds (`clientOf`). */
  clients: ClientBudgets;
  maxRequestsPerConnection: number;
  maxBytesPerConnection: number;
  /** The `Retry-After` value of refusals for load. */
  retryAfter: string;
  rules: HeaderRules;
  keepAliveMs: number;
  bodyTimeoutMs: number;
  sessions: SessionStore;
  /** The sessions, when the handler shares them with other processes through its store. */
  shared: SharedSessions | undefined;
  /** The guard `HttpOptions.auth` put in front of the endpoint, asked again once a body is read. */
  auth: HttpGuard | undefined;
  log(message: string): void;
  // The checks of header values, each remembering its last value: a client's requests repeat the
  // same headers, and parsing them anew cost every request a dozen objects.
  hostAllowed: LastValue<boolean>;
  originAllowed: LastValue<boolean>;
  acceptance: LastValue<Acceptance>;
  isJsonContentType: LastValue<boolean>;
}

/** A pure function of a header value, remembering what it gave for the last value it was given. */
class LastValue<T> {
  private value: string | undefined = undefined;
  private computed: T | undefined = undefined;

  constructor(private readonly compute: (value: string) => T) {}

  of(value: string): T {
    if (value !== this.value || this.computed === undefined) {
      this.computed = this.compute(value);
      this.value = value;
    }
    return this.computed;
  }
}

/** Whatever escaped while serving a request: logged, and answered 500 when nothing was sent yet. */
function failed(config: Config, res: ServerResponse, error: unknown): void {
  config.log(
    `mcp http: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  if (!res.headersSent) sendError(res, 500, ErrorCode.InternalError, "Internal error");
  else res.destroy();
}

function serve(config: Config, req: IncomingMessage, res: ServerResponse): void {
  // DNS-rebinding protection comes before anything else.
  const host = req.headers.host;
  if (host === undefined || !config.hostAllowed.of(host)) {
    return refuse(req, res, 403, ErrorCode.InvalidRequest, "Forbidden: Host header not allowed");
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !config.originAllowed.of(origin)) {
    return refuse(req, res, 403, ErrorCode.InvalidRequest, "Forbidden: Origin header not allowed");
  }
  if (!(config.pathIsCanonical && req.url === config.path) && pathOf(req.url) !== config.path)
    return refuse(req, res, 404, ErrorCode.InvalidRequest, "Not found");
  // A session's own requests: GET opens its stream of server-initiated messages, DELETE ends it.
  if (
    (req.method === "GET" || req.method === "DELETE") &&
    req.headers["mcp-session-id"] !== undefined
  )
    return sessionRequest(config, req, res);
  if (req.method !== "POST") {
    return refuse(
      req,
      res,
      405,
      ErrorCode.InvalidRequest,
      "Method not allowed: the MCP endpoint accepts POST only",
      { Allow: "POST" },
    );
  }
  const accept = req.headers.accept;
  const accepts = accept === undefined ? ACCEPTS_ANY : config.acceptance.of(accept);
  if (!accepts.json && !accepts.sse) {
    return refuse(
      req,
      res,
      406,
      ErrorCode.InvalidRequest,
      "Not acceptable: Accept must allow application/json or text/event-stream",
    );
  }
  const contentType = req.headers["content-type"];
  if (
    contentType === undefined ||
    !config.isJsonContentType.of(contentType) ||
    !isIdentityEncoding(req.headers["content-encoding"])
  ) {
    return refuse(
      req,
      res,
      415,
      ErrorCode.InvalidRequest,
      "Unsupported media type: the body must be application/json (UTF-8)",
    );
  }

  // A session exists only once a dispatcher kept something in it (a stateful revision's handshake);
  // an id the server does not know (any more) is answered 404, so the client starts a new one.
  const sessionId = req.headers["mcp-session-id"];
  let session: Record<string, unknown> | undefined;
  if (sessionId !== undefined) {
    // Sessions shared between processes are read from the store first (see http-shared.ts).
    if (config.shared && typeof sessionId === "string") {
      config.shared
        .resolve(sessionId, ownerOf(req))
        .then((shared) =>
          shared
            ? admit(config, req, res, accepts, shared)
            : refuse(req, res, 404, ErrorCode.InvalidRequest, "Session not found"),
        )
        .catch((error: unknown) => failed(config, res, error));
      return;
    }
    session =
      typeof sessionId === "string" ? config.sessions.get(sessionId, ownerOf(req)) : undefined;
    if (!session) return refuse(req, res, 404, ErrorCode.InvalidRequest, "Session not found");
  }
  admit(config, req, res, accepts, session);
}

/** A request past the checks of its headers, in its session if it names one: admitted (or refused for load), its body read. */
function admit(
  config: Config,
  req: IncomingMessage,
  res: ServerResponse,
  accepts: Acceptance,
  session: Record<string, unknown> | undefined,
): void {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > config.maxBodyBytes) {
    return refuse(
      req,
      res,
      413,
      ErrorCode.InvalidRequest,
      `Payload too large: the limit is ${config.maxBodyBytes} bytes`,
    );
  }
  // Admission: a declared body is reserved whole; a chunked one as it arrives.
  const reserve = Number.isFinite(declared) ? declared : 0;
  if (!config.budget.admits(reserve)) return busy(config, req, res, 503, "the server");
  const client = clientOf(req);
  const clientBudget = config.clients.of(client);
  if (!clientBudget.admits(reserve)) {
    config.clients.settle(client, clientBudget);
    return busy(config, req, res, 429, "this client");
  }
  const connection = connectionBudget(config, req);
  if (!connection.admits(reserve)) {
    config.clients.settle(client, clientBudget);
    return busy(config, req, res, 429, "this connection");
  }
  const exchange = new Exchange(config, req, res, accepts, session, connection, reserve, {
    key: client,
    budget: clientBudget,
  });
  // The body is read, and the response's end watched, by listeners shared by every request, which
  // find their exchange on `req` and `res`.
  (req as Carrier)[EXCHANGE] = exchange;
  (res as Carrier)[EXCHANGE] = exchange;
  res.on("close", onResponseClose);
  req.on("data", onBodyData);
  req.on("end", onBodyEnd);
  req.on("error", onBodyError);
  req.on("close", onBodyClose);
}

/**
 * Who a request's client is, for its quotas (requests in flight, sessions): the principal the
 * guard admitted it as, else the address it came from (one address may be many users behind a
 * proxy: raise the per-client limits there, or authenticate).
 */
function clientOf(req: IncomingMessage): string {
  const principal = principalOf(req);
  return principal !== undefined
    ? `principal ${principal.id}`
    : `address ${req.socket.remoteAddress ?? ""}`;
}

/** The budget of the connection `req` came on, made with its first request. */
function connectionBudget(config: Config, req: IncomingMessage): Budget {
  const socket = req.socket as typeof req.socket & { [BUDGET]?: Budget };
  return (socket[BUDGET] ??= new Budget(
    config.maxRequestsPerConnection,
    config.maxBytesPerConnection,
  ));
}

const BUDGET: unique symbol = Symbol("mcp connection budget");

/** Refuses a request for load: at once, with `Retry-After`, without reading its body. */
function busy(
  config: Config,
  req: IncomingMessage,
  res: ServerResponse,
  status: 503 | 429,
  who: string,
): void {
  refuse(
    req,
    res,
    status,
    SERVER_BUSY,
    `Server busy: ${who} has too many requests in flight; retry later`,
    { "Retry-After": config.retryAfter },
  );
}

/**
 * A refusal sent before the body is read. Node would otherwise read and discard the body after
 * the response (however long it is) to keep the connection: a request that still has a body to send
 * gets `Connection: close`, and the connection is closed once the response is out.
 */
function refuse(
  req: IncomingMessage,
  ...[res, status, code, message, headers = {}]: Parameters<typeof sendError>
): void {
  const close = bodyPending(req);
  sendError(res, status, code, message, close ? { ...headers, Connection: "close" } : headers);
}

// ---------------------------------------------------------------------------
// One exchange: a request's body, its delivery, its response
// ---------------------------------------------------------------------------

const EXCHANGE: unique symbol = Symbol("mcp exchange");
type Carrier = { [EXCHANGE]?: Exchange };

function onBodyData(this: IncomingMessage, chunk: Buffer): void {
  (this as Carrier)[EXCHANGE]?.bodyChunk(chunk);
}

function onBodyEnd(this: IncomingMessage): void {
  (this as Carrier)[EXCHANGE]?.bodyEnd(true);
}

function onBodyError(this: IncomingMessage): void {
  (this as Carrier)[EXCHANGE]?.received("aborted");
}

function onBodyClose(this: IncomingMessage): void {
  (this as Carrier)[EXCHANGE]?.bodyEnd(this.complete);
}

function onResponseClose(this: ServerResponse): void {
  (this as Carrier)[EXCHANGE]?.closed();
}

/**
 * One HTTP request from its headers to its response: it reads the body, then is the delivery the
 * handler gets (a class with its getter and methods on the prototype: see `Delivery`), and delivers
 * the outcome, as one JSON body, or as an SSE stream once the handler notifies before its outcome
 * is ready and the client accepts SSE. An outcome ready at once is delivered at once, with no promise.
 */
class Exchange extends LazyAbort implements Delivery {
  /** The body so far: its first chunk, and all of them once there are more. */
  private first: Buffer | null = null;
  private chunks: Buffer[] | null = null;
  private size = 0;
  private reading = true;
  /** The request being answered; `null` for a notification or response (a one-way message). */
  private request: JsonRpcRequest | null = null;
  private state: "pending" | "streaming" | "done" = "pending";
  private keepAlive: ReturnType<typeof setInterval> | undefined = undefined;
  private warned = false;
  /** Whether the request named its session (`Mcp-Session-Id`). */
  private readonly inSession: boolean;
  /** Ends a body that takes longer than `bodyTimeoutMs` to arrive. */
  private bodyTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** The id of the session this request opened, once it is in the shared store. */
  private sharedId: string | undefined = undefined;

  constructor(
    private readonly config: Config,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly accepts: Acceptance,
    /** The session the request named; else one made when the dispatcher first asks for it. */
    private sessionRecord: Record<string, unknown> | undefined,
    /** The connection's budget; the request holds one request and `reserved` bytes of it and of the server's. */
    private readonly connection: Budget,
    private reserved: number,
    /** Who the client is (`clientOf`), and its budget, which the request holds one request and `reserved` bytes of too. */
    private readonly client: { key: string; budget: Budget },
  ) {
    super();
    this.inSession = sessionRecord !== undefined;
    config.budget.requests++;
    config.budget.bytes += reserved;
    client.budget.requests++;
    client.budget.bytes += reserved;
    connection.requests++;
    connection.bytes += reserved;
    if (config.bodyTimeoutMs > 0) {
      this.bodyTimer = setTimeout(() => this.bodyTimedOut(), config.bodyTimeoutMs);
      this.bodyTimer.unref();
    }
  }

  /** Gives back what the request held: once, when its response has gone (or the client has). */
  private release(): void {
    if (this.reserved < 0) return;
    const { budget, clients } = this.config;
    budget.requests--;
    budget.bytes -= this.reserved;
    this.client.budget.requests--;
    this.client.budget.bytes -= this.reserved;
    clients.settle(this.client.key, this.client.budget);
    this.connection.requests--;
    this.connection.bytes -= this.reserved;
    this.reserved = -1;
  }

  /** The body did not arrive in time: 408, and the connection closed (what is still coming is never read). */
  private bodyTimedOut(): void {
    this.bodyTimer = undefined;
    if (!this.reading) return;
    this.first = null;
    this.chunks = null;
    this.reading = false;
    sendError(
      this.res,
      408,
      ErrorCode.InvalidRequest,
      `Request timeout: the body did not arrive within ${this.config.bodyTimeoutMs} ms`,
      { Connection: "close" },
    );
  }

  get session(): Record<string, unknown> {
    return (this.sessionRecord ??= {});
  }

  /** Who `HttpOptions.auth` admitted the request as (its identity; `undefined` without auth). */
  get principal(): string | undefined {
    return principalOf(this.req)?.id;
  }

  get auth(): Principal | undefined {
    return principalOf(this.req);
  }

  bodyChunk(chunk: Buffer): void {
    if (!this.reading) return;
    this.size += chunk.length;
    // A body of undeclared length is admitted as it arrives.
    const more = this.size - this.reserved;
    if (more > 0) {
      const { budget } = this.config;
      const client = this.client.budget;
      if (!budget.fits(more) || !client.fits(more) || !this.connection.fits(more)) {
        this.first = null;
        this.chunks = null;
        this.reading = false;
        this.stopBodyTimer();
        return busy(
          this.config,
          this.req,
          this.res,
          budget.fits(more) ? 429 : 503,
          !budget.fits(more)
            ? "the server"
            : !client.fits(more)
              ? "this client"
              : "this connection",
        );
      }
      budget.bytes += more;
      client.bytes += more;
      this.connection.bytes += more;
      this.reserved = this.size;
    }
    if (this.size > this.config.maxBodyBytes) {
      this.first = null;
      this.chunks = null;
      // Past the limit, bytes are no longer kept but still drained, so that a client still
      // uploading gets its 413.
      this.received("too-large");
    } else if (this.first === null) this.first = chunk;
    else (this.chunks ??= [this.first]).push(chunk);
  }

  bodyEnd(complete: boolean): void {
    if (!this.reading) return;
    if (!complete) return this.received("aborted");
    const body =
      this.chunks !== null ? Buffer.concat(this.chunks, this.size) : (this.first ?? EMPTY);
    this.first = null;
    this.chunks = null;
    this.received(body);
  }

  private stopBodyTimer(): void {
    if (this.bodyTimer !== undefined) clearTimeout(this.bodyTimer);
    this.bodyTimer = undefined;
  }

  /** The body has been read (or could not be): handle it. Runs once. */
  received(body: Buffer | "too-large" | "aborted"): void {
    if (!this.reading) return;
    this.reading = false;
    this.stopBodyTimer();
    try {
      this.handleBody(body);
    } catch (error) {
      failed(this.config, this.res, error);
    }
  }

  private handleBody(body: Buffer | "too-large" | "aborted"): void {
    const { config, res } = this;
    if (body === "aborted") return;
    if (body === "too-large") {
      return sendError(
        res,
        413,
        ErrorCode.InvalidRequest,
        `Payload too large: the limit is ${config.maxBodyBytes} bytes`,
        { Connection: "close" },
      );
    }
    let value: unknown;
    try {
      const text = decodeUtf8(body);
      if (nestsDeeperThan(text, config.maxDepth))
        return sendJson(res, 400, tooDeepError(config.maxDepth));
      value = JSON.parse(text);
    } catch {
      return sendError(res, 400, ErrorCode.ParseError, "Parse error: not valid JSON");
    }
    const kind = kindOf(value);
    if (kind === "invalid") return sendJson(res, 400, invalidRequest(value));
    if (kind === "request") {
      const request = value as JsonRpcRequest;
      const refusal = config.auth?.authorize?.(this.req, request.method, targetOf(config, request));
      if (refusal) return sendRefusal(this.req, res, refusal);
      this.request = request;
      this.dispatch(request);
    } else {
      let outcome: unknown;
      try {
        outcome = config.handler.handle(value, new OneWayDelivery(this));
      } catch (error) {
        outcome = this.handlerThrew(error);
      }
      this.settle(outcome);
    }
  }

  private dispatch(request: JsonRpcRequest): void {
    const { handler } = this.config;
    let outcome: unknown;
    try {
      outcome = handler.handleRequest
        ? handler.handleRequest(request, this)
        : handler.handle(request, this);
    } catch (error) {
      outcome = this.handlerThrew(error);
    }
    this.settle(outcome);
  }

  /** The dispatcher never throws by contract; should it, the outcome is an internal error. */
  private handlerThrew(error: unknown): Outcome {
    this.config.log(
      `mcp http: the handler threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return {
      response:
        this.request === null
          ? null
          : failure(this.request.id, { code: ErrorCode.InternalError, message: "Internal error" }),
      httpStatus: 500,
    };
  }

  /** Delivers the outcome now if it is ready, else once it is. */
  private settle(outcome: unknown): void {
    const { shared } = this.config;
    if (shared && this.sessionRecord !== undefined) return this.settleShared(shared, outcome);
    if (!isThenable(outcome)) return this.deliver(outcome as Outcome);
    Promise.resolve(outcome as PromiseLike<Outcome>)
      .then(
        (settled) => this.deliver(settled),
        (error: unknown) => this.deliver(this.handlerThrew(error)),
      )
      .catch((error: unknown) => failed(this.config, this.res, error));
  }

  /** A session shared through a store is written there (new, or changed) before the client hears back. */
  private settleShared(shared: SharedSessions, outcome: unknown): void {
    Promise.resolve(outcome as PromiseLike<Outcome>)
      .then(
        (settled) => settled,
        (error: unknown) => this.handlerThrew(error),
      )
      .then(async (settled) => {
        const record = this.sessionRecord!;
        const owner = ownerOf(this.req);
        if (this.inSession) await shared.save(record, owner);
        else if (hasKeys(record))
          this.sharedId = await shared.create(record, owner, this.client.key);
        this.deliver(settled);
      })
      .catch((error: unknown) => failed(this.config, this.res, error));
  }

  /** The response's stream closed: the client's cancellation, when it came before the response. */
  closed(): void {
    this.release();
    this.stopBodyTimer();
    this.stopKeepAlive();
    if (!this.res.writableFinished) this.abort(new Error("client disconnected"));
  }

  private stopKeepAlive(): void {
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }

  /** The request's headers, for the dispatcher's envelope stage. */
  get headers(): IncomingMessage["headers"] {
    return this.req.headers;
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  /** A notification POST has no response stream: what it notifies is dropped, with one warning. */
  dropNotification(notification: JsonRpcNotification): void {
    if (this.warned) return;
    this.warned = true;
    this.config.log(
      `mcp http: dropped ${notification.method}: a notification POST has no response stream`,
    );
  }

  notify(notification: JsonRpcNotification): void {
    const { config, res } = this;
    // Nothing may follow the response, or anything once the client has gone.
    if (this.state === "done" || this.aborted || res.destroyed) return;
    if (this.state === "pending") {
      if (!this.accepts.sse) {
        if (!this.warned)
          config.log(
            `mcp http: dropped ${notification.method} (and any later notifications): the client accepts only application/json`,
          );
        this.warned = true;
        return;
      }
      this.startStream();
    }
    const line = serialize(notification);
    if (line === undefined)
      config.log(`mcp http: dropped ${notification.method}: not serializable as JSON`);
    else writeEvent(res, line);
  }

  private startStream(): void {
    const { res } = this;
    this.state = "streaming";
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    if (this.config.keepAliveMs > 0) {
      this.keepAlive = setInterval(() => res.write(": keep-alive\n\n"), this.config.keepAliveMs);
      this.keepAlive.unref();
    }
  }

  /** Writes the outcome: the last event of a stream, one JSON body, or a status alone (202 for a one-way message). */
  private deliver(outcome: Outcome): void {
    const { res, request } = this;
    if (request === null) {
      // Notifications and responses: the dispatcher acts on them; accepted ones get 202 and no body.
      if (res.destroyed) return;
      if (outcome.response !== null) return sendJson(res, outcome.httpStatus, outcome.response);
      res.writeHead(
        outcome.httpStatus >= 200 && outcome.httpStatus < 300 ? 202 : outcome.httpStatus,
      );
      res.end();
      return;
    }
    const streamed = this.state === "streaming";
    this.state = "done";
    this.stopKeepAlive();
    if (this.aborted || res.destroyed) return;

    let response = outcome.response;
    let line = response === null ? undefined : serialize(response);
    let status = outcome.httpStatus;
    if (response !== null && line === undefined) {
      this.config.log(`mcp http: the response to ${request.method} is not serializable as JSON`);
      response = failure(request.id, {
        code: ErrorCode.InternalError,
        message: "Internal error: unserializable response",
      });
      line = serialize(response);
      status = 500;
    }
    if (streamed) {
      if (line !== undefined) writeEvent(res, line);
      res.end();
      return;
    }
    // A client that takes only SSE gets its successes as a stream; error statuses always go out as
    // JSON, since their status code carries the meaning.
    if (!this.accepts.json && status >= 200 && status < 300) {
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
    // A new session, once the dispatcher has kept something in it.
    if (!this.inSession && this.sessionRecord !== undefined && hasKeys(this.sessionRecord))
      headers["Mcp-Session-Id"] =
        this.sharedId ??
        this.config.sessions.add(this.sessionRecord, ownerOf(this.req), this.client.key);
    res.writeHead(status, headers);
    res.end(line);
  }
}

/** The delivery of a notification or response: the exchange's signal and session, no stream. */
class OneWayDelivery implements Delivery {
  constructor(private readonly exchange: Exchange) {}

  get signal(): AbortSignal {
    return this.exchange.signal;
  }

  get session(): Record<string, unknown> {
    return this.exchange.session;
  }

  notify(notification: JsonRpcNotification): void {
    this.exchange.dropNotification(notification);
  }
}

const EMPTY = Buffer.alloc(0);

/** `Object.keys(record).length > 0`, without the array. */
function hasKeys(record: Record<string, unknown>): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}

// ---------------------------------------------------------------------------
// Framing helpers
// ---------------------------------------------------------------------------

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body as text, as a strict UTF-8 decoder gives it (throwing on invalid UTF-8, dropping a
 * leading byte order mark). Invalid UTF-8 always decodes to some U+FFFD, so only a body showing
 * one goes through the strict decoder.
 */
function decodeUtf8(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  if (text.includes("\uFFFD")) return utf8.decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

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

/** Writes one message as an event on an open stream. */
function writeEvent(res: ServerResponse, line: string): void {
  // A long message goes out without being copied into the event around it.
  if (line.length > LONG_EVENT) {
    res.write("event: message\ndata: ");
    res.write(line);
    res.write("\n\n");
  } else res.write(sseEvent(line));
}

/** Messages longer than this (in UTF-16 units) are written apart from their event's framing. */
const LONG_EVENT = 64 * 1024;

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

/** A transport-level refusal: the status, and a JSON-RPC error response without an id. */
function sendError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, failure(undefined, { code, message }), headers);
}

function pathOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return undefined;
  }
}

/**
 * `GET` with `Mcp-Session-Id`: the session's stream of server-initiated messages (replaying what the
 * client missed after `Last-Event-ID`); `DELETE`: the end of the session. An unknown id is 404.
 */
function sessionRequest(config: Config, req: IncomingMessage, res: ServerResponse): void {
  const id = req.headers["mcp-session-id"];
  if (config.shared) return sharedSessionRequest(config, config.shared, req, res);
  const entry = typeof id === "string" ? config.sessions.entry(id, ownerOf(req)) : undefined;
  if (!entry || typeof id !== "string")
    return refuse(req, res, 404, ErrorCode.InvalidRequest, "Session not found");
  req.resume();
  if (req.method === "DELETE") {
    config.sessions.delete(id);
    res.writeHead(204);
    res.end();
    return;
  }
  if (refusedStream(config, req, res)) return;
  const lastEventId = req.headers["last-event-id"];
  entry.open(res, typeof lastEventId === "string" ? lastEventId : undefined, config.keepAliveMs);
}

/** Refuses (406) a session's GET stream whose `Accept` rules out SSE; true when it did. */
function refusedStream(config: Config, req: IncomingMessage, res: ServerResponse): boolean {
  const accept = req.headers.accept;
  if (accept === undefined || config.acceptance.of(accept).sse) return false;
  refuse(
    req,
    res,
    406,
    ErrorCode.InvalidRequest,
    "Not acceptable: Accept must allow text/event-stream",
  );
  return true;
}

/** `sessionRequest` for sessions shared through a store: the same answers, the stream held here. */
function sharedSessionRequest(
  config: Config,
  shared: SharedSessions,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const id = req.headers["mcp-session-id"];
  if (typeof id !== "string")
    return refuse(req, res, 404, ErrorCode.InvalidRequest, "Session not found");
  const lastEventId = req.headers["last-event-id"];
  shared
    .resolve(id, ownerOf(req))
    .then(async (record) => {
      if (!record) return refuse(req, res, 404, ErrorCode.InvalidRequest, "Session not found");
      req.resume();
      if (req.method === "DELETE") {
        await shared.delete(id);
        res.writeHead(204);
        res.end();
        return;
      }
      if (refusedStream(config, req, res)) return;
      await shared.open(
        id,
        res,
        typeof lastEventId === "string" ? lastEventId : undefined,
        config.keepAliveMs,
      );
    })
    .catch((error: unknown) => failed(config, res, error));
}

/**
 * Whose a session is: the principal the guard admitted the request that opened it as, and the
 * client its token was issued to (`undefined` on a server without `auth`). A session answers only
 * to the same owner: another user's valid token with its id gets what an unknown id gets, 404 (not
 * 403, which would confirm to a guesser, or to someone who saw the id in a log, that the session
 * exists; 404 also sends a client of its own back to a handshake, as the transport prescribes).
 */
function ownerOf(req: IncomingMessage): string | undefined {
  const principal = principalOf(req);
  return principal === undefined
    ? undefined
    : JSON.stringify([principal.id, principal.clientId ?? null]);
}

/** The request's target, as its `Mcp-Name` header would mirror it (the tool, prompt or resource). */
function targetOf(config: Config, request: JsonRpcRequest): string | undefined {
  const { nameParams } = config.rules;
  if (!Object.hasOwn(nameParams, request.method)) return undefined;
  const target = request.params?.[nameParams[request.method]!];
  return typeof target === "string" ? target : undefined;
}

/** One session: the dispatcher's record, when it was last used, its GET stream and the events kept for resumption. */
class SessionEntry {
  lastSeen = Date.now();
  private stream: ServerResponse | null = null;
  private keepAlive: ReturnType<typeof setInterval> | undefined = undefined;
  /** The last events sent (or meant) for the GET stream, oldest first: bounded, for `Last-Event-ID`. */
  private readonly events: Array<{ id: number; line: string }> = [];
  private nextEvent = 1;

  constructor(
    readonly id: string,
    readonly record: Record<string, unknown>,
    private readonly replay: number,
    /** Who opened it (`ownerOf`); only they reach it. */
    readonly owner: string | undefined,
    /** The client it counts against (`clientOf`). */
    readonly client: string,
  ) {
    (record as Record<symbol, unknown>)[SESSION_SEND] = (message: unknown) => this.send(message);
  }

  /** A server-initiated message: on the GET stream when one is open, and kept for a resuming client. */
  send(message: unknown): void {
    const line = serialize(message);
    if (line === undefined) return;
    const event = { id: this.nextEvent++, line };
    this.events.push(event);
    if (this.events.length > this.replay) this.events.shift();
    if (this.stream && !this.stream.destroyed) this.write(this.stream, event);
  }

  open(res: ServerResponse, lastEventId: string | undefined, keepAliveMs: number): void {
    // One stream per session: a new one replaces the old, which is ended.
    this.close();
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    this.stream = res;
    res.on("close", () => {
      if (this.stream === res) this.close();
    });
    if (keepAliveMs > 0) {
      this.keepAlive = setInterval(() => res.write(": keep-alive\n\n"), keepAliveMs);
      this.keepAlive.unref();
    }
    const after = lastEventId === undefined ? NaN : Number(lastEventId);
    if (Number.isSafeInteger(after))
      for (const event of this.events) if (event.id > after) this.write(res, event);
  }

  private write(res: ServerResponse, event: { id: number; line: string }): void {
    res.write(`id: ${event.id}\n`);
    writeEvent(res, event.line);
  }

  close(): void {
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    const stream = this.stream;
    this.stream = null;
    if (stream && !stream.writableEnded) stream.end();
  }
}

/**
 * Sessions of stateful (and dual-era) servers, by id, least recently used first; one past the
 * bound, or idle for too long, is forgotten, so that clients that never come back cannot grow the
 * server without limit (a forgotten client gets 404 and starts over, as the transport document
 * prescribes). One client past its own bound loses its own least recently used session: a client
 * opening sessions in a loop cannot push everyone else's out. The dispatcher is told of each
 * session that ends.
 */
class SessionStore {
  private readonly sessions = new Map<string, SessionEntry>();
  /** Each client's session ids, least recently used first. */
  private readonly byClient = new Map<string, Set<string>>();

  constructor(
    private readonly max: number,
    private readonly maxPerClient: number,
    private readonly idleMs: number,
    private readonly replay: number,
    private readonly ended: (record: Record<string, unknown>) => void,
  ) {}

  /** The session `id` names, when `owner` opened it; another's is as unknown as a missing one. */
  get(id: string, owner: string | undefined): Record<string, unknown> | undefined {
    return this.entry(id, owner)?.record;
  }

  entry(id: string, owner: string | undefined): SessionEntry | undefined {
    this.sweep();
    const entry = this.sessions.get(id);
    // Not even its last use is updated: a stranger's requests must not keep it alive.
    if (!entry || entry.owner !== owner) return undefined;
    entry.lastSeen = Date.now();
    // Re-inserted: the maps stay in order of last use, so the idle ones are first.
    this.sessions.delete(id);
    this.sessions.set(id, entry);
    const own = this.byClient.get(entry.client);
    own?.delete(id);
    own?.add(id);
    return entry;
  }

  add(session: Record<string, unknown>, owner: string | undefined, client: string): string {
    this.sweep();
    const id = nodeCrypto().randomUUID();
    this.sessions.set(id, new SessionEntry(id, session, this.replay, owner, client));
    let own = this.byClient.get(client);
    if (own === undefined) this.byClient.set(client, (own = new Set()));
    own.add(id);
    if (own.size > this.maxPerClient) this.delete(own.values().next().value!);
    if (this.sessions.size > this.max) this.delete(this.sessions.keys().next().value!);
    return id;
  }

  delete(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.sessions.delete(id);
    const own = this.byClient.get(entry.client);
    if (own !== undefined && own.delete(id) && own.size === 0) this.byClient.delete(entry.client);
    entry.close();
    this.ended(entry.record);
  }

  /** Forgets the sessions idle for longer than the limit (the oldest-used come first). */
  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const entry of this.sessions.values()) {
      if (entry.lastSeen >= cutoff) break;
      this.delete(entry.id);
    }
  }
}
