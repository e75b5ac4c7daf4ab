/**
 * A session's own requests over Streamable HTTP: `GET` its stream of server-initiated messages
 * (resumed with `Last-Event-ID`), `DELETE` its end, against this process's sessions or those shared
 * through the store. Revision-independent; copied verbatim into generated output.
 */
import type { HttpIn, HttpOut } from "../../shared/http-wire.js";
import { ErrorCode } from "../../shared/jsonrpc.js";
import type { SharedSessions } from "./shared.js";
import type { Config } from "./config.js";
import { failed, refuse } from "./framing.js";
import { ownerOf } from "./sessions.js";

/**
 * `GET` with `Mcp-Session-Id`: the session's stream of server-initiated messages (replaying what the
 * client missed after `Last-Event-ID`); `DELETE`: the end of the session. An unknown id is 404.
 */
export function sessionRequest(config: Config, req: HttpIn, res: HttpOut): void {
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
function refusedStream(config: Config, req: HttpIn, res: HttpOut): boolean {
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
  req: HttpIn,
  res: HttpOut,
): void {
  const id = req.headers["mcp-session-id"];
  if (typeof id !== "string")
    return refuse(req, res, 404, ErrorCode.InvalidRequest, "Session not found");
  const lastEventId = req.headers["last-event-id"];
  Promise.resolve()
    .then(() => shared.resolve(id, ownerOf(req)))
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
