/**
 * Streamable HTTP server transport on `node:http`: its options, `serveHttp` and
 * `createHttpHandler`. It frames HTTP bodies into messages, enforces the HTTP-level rules
 * (DNS-rebinding protection, method, media types, body size, load) and delivers what the
 * dispatcher produces, as one JSON body or as an SSE stream scoped to the request; it hands the
 * dispatcher what it received with each message (headers, session, principal). Every protocol rule
 * (the headers against the body included), and the HTTP status of every response, is the
 * dispatcher's. The parts: admission of a request before its body is read (http-request.ts), one
 * exchange from body to response (http-exchange.ts), sessions and their resumable GET streams
 * (http-sessions.ts; shared through a store: http-shared.ts), writing to the wire (http-framing.ts).
 * Revision-independent; copied verbatim into generated output.
 */
import type * as NodeHttp from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { DEFAULT_MAX_DEPTH } from "../shared/jsonrpc.js";
import type { MessageHandler } from "./transport.js";
import {
  acceptance,
  NO_HEADER_RULES,
  hostAllowed,
  isJsonContentType,
  originAllowed,
  type HeaderRules,
} from "../shared/http-headers.js";
import { admissionLimits, Budget, ClientBudgets, type AdmissionLimits } from "./admission.js";

export { DEFAULT_ADMISSION, type AdmissionLimits } from "./admission.js";
export { headerRulesOf, NO_HEADER_RULES, type HeaderRules } from "../shared/http-headers.js";
export { decodeHeaderValue } from "../shared/param-headers.js";
import type { HttpGuard } from "../auth/http-auth.js";
import { SharedSessions } from "./http-shared.js";
import { LastValue, type Config } from "./http-config.js";
import { failed, SSE_HEADERS } from "./http-framing.js";
import { pathOf, serve } from "./http-request.js";
import { SessionStore } from "./http-sessions.js";

/**
 * `node:http`, loaded when the transport listens (not when it is mounted on a server of its own,
 * nor in a process that serves stdio). Through `require`: an ESM `import` of a built-in module
 * evaluates every export, start-up heap for nothing.
 */
const requireBuiltin = createRequire("/");
let http: typeof NodeHttp | undefined;
const nodeHttp = (): typeof NodeHttp => (http ??= requireBuiltin("node:http") as typeof NodeHttp);

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
  /**
   * The revision's header rules (the generated server passes `headerRulesOf` its description);
   * default `NO_HEADER_RULES`. The transport reads only which param names a request's target (for
   * `auth.authorize`); the dispatcher checks the headers against the body by its own description.
   */
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
