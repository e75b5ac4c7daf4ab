/**
 * Admission of a request to the Streamable HTTP transport, before its body is read (once it has
 * passed front.ts): the checks of its path, method and media types, its session, and its share of
 * the server's, its client's and its connection's budgets; an admitted POST becomes an exchange
 * (exchange.ts), a session's GET or DELETE goes to session-requests.ts. Revision-independent;
 * copied verbatim into generated output.
 */
import type { HttpIn, HttpOut } from "../../shared/http-wire.js";
import { ErrorCode } from "../../shared/jsonrpc.js";
import { ACCEPTS_ANY, isIdentityEncoding, type Acceptance } from "../../shared/http-headers.js";
import { principalOf } from "../../auth/http-auth.js";
import { Budget } from "../admission.js";
import { isThenable } from "../transport.js";
import type { Config } from "./config.js";
import { attachExchange, Exchange } from "./exchange.js";
import { ownerOf } from "./sessions.js";
import { sessionRequest } from "./session-requests.js";
import { busy, failed, refuse } from "./framing.js";
import type { SharedSessions } from "./shared.js";

export function serve(config: Config, req: HttpIn, res: HttpOut): void {
  if (!config.anyPath) {
    const url = req.originalUrl ?? req.url;
    if (!(config.pathIsCanonical && url === config.path) && pathOf(url) !== config.path)
      return refuse(req, res, 404, ErrorCode.InvalidRequest, "Not found");
  }
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
  if (sessionId === undefined) return admit(config, req, res, accepts, undefined);
  if (typeof sessionId !== "string") return admitIn(config, req, res, accepts, undefined);
  // Sessions shared between processes are read from the store first, unless this process holds a
  // copy it can trust (see shared.ts).
  if (!config.shared)
    return admitIn(config, req, res, accepts, config.sessions.get(sessionId, ownerOf(req)));
  let shared: ReturnType<SharedSessions["resolve"]>;
  try {
    shared = config.shared.resolve(sessionId, ownerOf(req));
  } catch (error) {
    return failed(config, res, error);
  }
  if (!isThenable(shared)) return admitIn(config, req, res, accepts, shared);
  shared
    .then((record) => admitIn(config, req, res, accepts, record))
    .catch((error: unknown) => failed(config, res, error));
}

/** `admit` in the session the request names, once found (else 404). */
function admitIn(
  config: Config,
  req: HttpIn,
  res: HttpOut,
  accepts: Acceptance,
  session: Record<string, unknown> | undefined,
): void {
  if (!session) return refuse(req, res, 404, ErrorCode.InvalidRequest, "Session not found");
  admit(config, req, res, accepts, session);
}

/** A request past the checks of its headers, in its session if it names one: admitted (or refused for load), its body read. */
function admit(
  config: Config,
  req: HttpIn,
  res: HttpOut,
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
  const client = clientOf(config, req);
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
  attachExchange(exchange, req, res);
}

/**
 * Who a request's client is, for its quotas (requests in flight, sessions): the principal the
 * guard admitted it as, else the network of the address it came from (`HttpOptions.clientPrefix`;
 * one address may be many users behind a proxy: raise the per-client limits there, or authenticate).
 */
function clientOf(config: Config, req: HttpIn): string {
  const principal = principalOf(req);
  return principal !== undefined
    ? `principal ${principal.id}`
    : config.addressKey.of(req.socket.remoteAddress ?? "");
}

/** The budget of the connection `req` came on, made with its first request. */
function connectionBudget(config: Config, req: HttpIn): Budget {
  const socket = req.socket as typeof req.socket & { [BUDGET]?: Budget };
  return (socket[BUDGET] ??= new Budget(
    config.maxRequestsPerConnection,
    config.maxBytesPerConnection,
  ));
}

const BUDGET: unique symbol = Symbol("mcp connection budget");

export function pathOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return undefined;
  }
}
