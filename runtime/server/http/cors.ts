/**
 * CORS for browser clients served from another origin. A browser asks first (a preflight `OPTIONS`
 * naming the method and the headers it wants to send) and shows the page only what the answer
 * allows; the Origin check (DNS-rebinding protection) has already refused the origins the server
 * does not allow, so whatever reaches here is an allowed origin, and is told so: its preflight
 * answered 204, its answers carrying `Access-Control-Allow-Origin` and exposing the headers a client
 * must read (the session id, the authentication challenge). Revision-independent; copied verbatim
 * into generated output.
 */
import type { HttpIn, HttpOut } from "../../shared/http-wire.js";

export interface Cors {
  /** Lower-case names of the request headers a page may send: the transport's and the revision's. */
  readonly allowed: ReadonlySet<string>;
  /** Lower-case prefix of the headers a tool call mirrors its arguments into (`Mcp-Param-*`). */
  readonly allowedPrefix: string;
  /** `Access-Control-Expose-Headers`: what a page may read of an answer. */
  readonly expose: string;
  /** Seconds a browser may keep a preflight's answer. */
  readonly maxAge: string;
}

/** Headers every Streamable HTTP request may carry, besides the revision's metadata headers. */
const TRANSPORT_HEADERS = [
  "Content-Type",
  "Accept",
  "Authorization",
  "Last-Event-ID",
  "Mcp-Session-Id",
];

/** What a client reads of an answer: the session it was given, and why it was refused (auth). */
const EXPOSED = ["Mcp-Session-Id", "WWW-Authenticate"];

const METHODS = "GET, POST, DELETE, OPTIONS";

export function corsOf(requestHeaders: readonly string[], paramPrefix: string): Cors {
  return {
    allowed: new Set([...TRANSPORT_HEADERS, ...requestHeaders].map((name) => name.toLowerCase())),
    allowedPrefix: paramPrefix.toLowerCase(),
    expose: EXPOSED.join(", "),
    maxAge: "600",
  };
}

/** Marks the answer to a request from an allowed `origin` as readable by that origin's pages. */
export function allowOrigin(cors: Cors, res: HttpOut, origin: string): void {
  res.setHeader("Access-Control-Allow-Origin", origin);
  res.setHeader("Access-Control-Expose-Headers", cors.expose);
  // The answer differs by origin: caches must not serve one origin's answer to another.
  res.setHeader("Vary", "Origin");
}

/**
 * Answers a preflight (204): the methods the endpoint takes, and of the headers the page asked to
 * send, those a client of this transport sends. A header outside them is left out, and the browser
 * then refuses the request itself, naming it.
 */
export function preflight(cors: Cors, req: HttpIn, res: HttpOut): void {
  const asked = req.headers["access-control-request-headers"];
  const names = (Array.isArray(asked) ? asked.join(",") : (asked ?? ""))
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(
      (name) =>
        name !== "" &&
        (cors.allowed.has(name) ||
          (name.startsWith(cors.allowedPrefix) && name.length > cors.allowedPrefix.length)),
    );
  const headers: Record<string, string> = {
    "Access-Control-Allow-Methods": METHODS,
    "Access-Control-Max-Age": cors.maxAge,
  };
  if (names.length > 0) headers["Access-Control-Allow-Headers"] = names.join(", ");
  res.writeHead(204, headers);
  res.end();
}
