/**
 * What every request to the endpoint passes first, before any guard reads its credentials:
 * DNS-rebinding protection (the `Host` it was sent to, and the `Origin` of the page that sent it,
 * against the allowed ones) and, for an allowed origin, CORS (its preflight answered here, its
 * answers marked readable by it). Revision-independent; copied verbatim into generated output.
 */
import type { HttpIn, HttpListener, HttpOut } from "../../shared/http-wire.js";
import { ErrorCode } from "../../shared/jsonrpc.js";
import { allowOrigin, preflight } from "./cors.js";
import type { Config } from "./config.js";
import { failed, refuse } from "./framing.js";

export function front(config: Config, next: HttpListener): HttpListener {
  return (req, res) => {
    try {
      if (passes(config, req, res)) next(req, res);
    } catch (error) {
      failed(config, res, error);
    }
  };
}

/** Whether the request goes on; else it has been answered (refused, or its preflight). */
function passes(config: Config, req: HttpIn, res: HttpOut): boolean {
  const host = req.headers.host;
  if (host === undefined || twoHosts(req, host)) {
    refuse(
      req,
      res,
      400,
      ErrorCode.InvalidRequest,
      "Bad request: exactly one Host header is required",
    );
    return false;
  }
  if (!config.hostAllowed.of(host)) {
    refuse(req, res, 403, ErrorCode.InvalidRequest, "Forbidden: Host header not allowed");
    return false;
  }
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (!config.originAllowed.of(origin)) {
    refuse(req, res, 403, ErrorCode.InvalidRequest, "Forbidden: Origin header not allowed");
    return false;
  }
  allowOrigin(config.cors, res, origin);
  if (req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) {
    req.resume();
    preflight(config.cors, req, res);
    return false;
  }
  return true;
}

/**
 * Whether the request named its host twice (RFC 9112 answers that 400): `node:http` keeps the first
 * `Host` and drops the others, so they are counted in the raw headers; a web-standard `Headers` joins
 * them with a comma, which no host name contains.
 */
function twoHosts(req: HttpIn & { rawHeaders?: readonly string[] }, host: string): boolean {
  if (host.includes(",")) return true;
  const raw = req.rawHeaders;
  if (raw === undefined) return false;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === "host" && ++seen > 1) return true;
  }
  return false;
}
