/**
 * The Streamable HTTP transport's options, and the configuration every part of it reads, made from
 * them once per handler. Revision-independent; copied verbatim into generated output.
 */
import { DEFAULT_MAX_CONTAINERS, DEFAULT_MAX_DEPTH } from "../../shared/jsonrpc.js";
import type { MessageHandler } from "../transport.js";
import {
  acceptance,
  NO_HEADER_RULES,
  hostAllowed,
  isJsonContentType,
  originAllowed,
  PARAM_HEADER_PREFIX,
  type HeaderRules,
} from "../../shared/http-headers.js";
import { admissionLimits, Budget, ClientBudgets, type AdmissionLimits } from "../admission.js";
import type { HttpGuard } from "../../auth/http-auth.js";
import { SharedSessions } from "./shared.js";
import { LastValue, type Config } from "./config.js";
import { SSE_HEADERS } from "./framing.js";
import { pathOf } from "./request.js";
import { SessionStore } from "./sessions.js";
import { corsOf } from "./cors.js";
import { addressKey, clientPrefixOf, type ClientPrefix } from "./client-key.js";

export interface HttpOptions extends AdmissionLimits {
  /**
   * The MCP endpoint's path; default `/mcp`. The query string is ignored. Mounted in a framework
   * (`app.use("/mcp", …)`), the path before the mount was stripped counts (`req.originalUrl`);
   * `"*"`: every path the host routes here is the endpoint.
   */
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
  /**
   * Arrays and objects a body may hold, counted in the same pass as `maxDepth` before parsing: the
   * parse and its garbage collection cost by the container, on the one thread every client shares.
   * Default 10,000; past it 400 (`-32700`).
   */
  maxContainers?: number;
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
   * Sessions one client (its principal when authenticated, else its address's network, `clientPrefix`) keeps; past it the
   * client's own least recently used session is forgotten, never another client's. Default 1,000.
   * With the handler's shared `store`, counted there, over every process.
   */
  maxSessionsPerClient?: number;
  /**
   * How much of a remote address names its client, for every per-client quota (requests and bytes
   * in flight, sessions) of a request without a principal: the leading bits kept of an IPv4 and of
   * an IPv6 address. Default `{ ipv4: 32, ipv6: 64 }`: one IPv6 host is commonly given a whole /64,
   * so its addresses count as one client; an IPv4-mapped IPv6 address counts as the IPv4 address.
   */
  clientPrefix?: ClientPrefix;
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

const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];
export const DEFAULT_PATH = "/mcp";
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
export const DEFAULT_MAX_SESSIONS = 10_000;
const DEFAULT_MAX_SESSIONS_PER_CLIENT = 1_000;
const DEFAULT_BODY_TIMEOUT_MS = 60_000;
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
const DEFAULT_REPLAY_EVENTS = 100;

/** The configuration of a handler serving the endpoint with `handler`. */
export function configOf(handler: MessageHandler, options: HttpOptions): Config {
  const path = options.path ?? DEFAULT_PATH;
  const allowedHosts = options.allowedHosts ?? LOOPBACK_HOSTS;
  const allowedOrigins = options.allowedOrigins ?? defaultOrigins(allowedHosts);
  const limits = admissionLimits(options);
  const rules = { ...NO_HEADER_RULES, ...options.headerRules };
  const prefix = clientPrefixOf(options.clientPrefix);
  const config: Config = {
    handler,
    path,
    pathIsCanonical: pathOf(path) === path,
    anyPath: path === "*",
    cors: corsOf(rules.requestHeaders, PARAM_HEADER_PREFIX),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxContainers: options.maxContainers ?? DEFAULT_MAX_CONTAINERS,
    budget: new Budget(limits.maxRequestsInFlight, limits.maxBytesInFlight),
    clients: new ClientBudgets(limits.maxRequestsPerClient, limits.maxBytesPerClient),
    maxRequestsPerConnection: limits.maxRequestsPerConnection,
    maxBytesPerConnection: limits.maxBytesPerConnection,
    retryAfter: String(options.retryAfterSeconds ?? 1),
    rules,
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
    addressKey: new LastValue((address) => addressKey(address, prefix)),
  };
  return config;
}

/**
 * Origins allowed by default: the hosts allowed, but never a wildcard: `allowedHosts: ["*"]`
 * opens the server to any host name, not to every web page a browser shows.
 */
function defaultOrigins(allowedHosts: readonly string[]): readonly string[] {
  const named = allowedHosts.filter((entry) => entry !== "*");
  return named.length > 0 ? named : LOOPBACK_HOSTS;
}
