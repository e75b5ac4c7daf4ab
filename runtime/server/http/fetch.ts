/**
 * The Streamable HTTP transport as a web-standard `fetch` handler: `Request` in, `Response` out, for
 * the hosts that serve `fetch` (Bun, Deno, Cloudflare Workers, Hono, and Node through an adapter).
 * It is the same listener as the `node:http` handler's (core.ts), over `Request` and `Response`
 * (fetch-wire.ts): the same answers, sessions, streams, limits and guards. Nothing here loads a
 * `node:` module. Revision-independent; copied verbatim into generated output.
 */
import type { MessageHandler } from "../transport.js";
import { httpListener } from "./core.js";
import { FetchIn, FetchOut } from "./fetch-wire.js";
import type { HttpOptions } from "./options.js";

/** A `fetch` handler: what a host passes after the request (Bun's server, Deno's info, a Worker's env) is `context`. */
export type FetchHandler = (request: Request, ...context: unknown[]) => Promise<Response>;

export interface FetchHandlerOptions extends HttpOptions {
  /**
   * The address a request came from, which keys its client's quotas (requests in flight, sessions)
   * when it is not authenticated. By default the host's own word: Bun's `server.requestIP`, Deno's
   * `info.remoteAddr`, `@hono/node-server`'s `env.incoming`. Elsewhere (Cloudflare Workers) every
   * unauthenticated request counts as one client unless this says better, e.g. from
   * `CF-Connecting-IP`, which only Cloudflare's edge can be trusted to set.
   */
  clientAddress?: (request: Request, ...context: unknown[]) => string | undefined;
}

/** A `fetch` handler serving the MCP endpoint with `handler`. */
export function createFetchHandler(
  handler: MessageHandler,
  options: FetchHandlerOptions = {},
): FetchHandler {
  const { clientAddress = hostAddress, ...httpOptions } = options;
  const { listener } = httpListener(handler, httpOptions);
  return (request, ...context) => {
    const req = new FetchIn(request, clientAddress(request, ...context));
    const res = new FetchOut(req, request.signal);
    listener(req, res);
    return res.response;
  };
}

/** The client's address as the host gives it with the request, where it does. */
function hostAddress(request: Request, ...context: unknown[]): string | undefined {
  const host = context[0] as
    | {
        requestIP?: (request: Request) => { address?: string } | null;
        remoteAddr?: { hostname?: string };
        incoming?: { socket?: { remoteAddress?: string } };
      }
    | undefined;
  if (typeof host !== "object" || host === null) return undefined;
  try {
    if (typeof host.requestIP === "function") return host.requestIP(request)?.address;
    return host.remoteAddr?.hostname ?? host.incoming?.socket?.remoteAddress;
  } catch {
    return undefined;
  }
}
