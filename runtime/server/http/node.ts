/**
 * The Streamable HTTP transport on `node:http`: `createHttpHandler`, a request listener to mount on
 * a server of your own (`http.createServer`, Express, Connect, Fastify, Hono's node server), and
 * `serveHttp`, which listens itself. `node:http`'s request and response are the transport's wire
 * types already, so they go to the shared listener (core.ts) as they are. Revision-independent;
 * copied verbatim into generated output.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { nodeHttp } from "../../shared/builtins.js";
import type { MessageHandler } from "../transport.js";
import { httpListener } from "./core.js";
import { withParsedBody } from "./body.js";
import { DEFAULT_PATH, type HttpOptions } from "./options.js";

/** `serveHttp`'s options: where to listen, besides the endpoint's. */
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

/**
 * A `node:http` request listener. Mounted in a framework, it takes the body the framework already
 * parsed: `req.body` (Express, Connect's body-parser), or the third argument (Fastify:
 * `handler(request.raw, reply.raw, request.body)`); Express's `next`, passed there, is ignored.
 */
export type NodeHttpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  bodyOrNext?: unknown,
) => void;

const DEFAULT_CLOSE_GRACE_MS = 1000;

/** A `node:http` request listener serving the MCP endpoint with `handler`. */
export function createHttpHandler(
  handler: MessageHandler,
  options: HttpOptions = {},
): NodeHttpHandler {
  const { listener } = httpListener(handler, options);
  return (req, res, bodyOrNext) => {
    if (bodyOrNext !== undefined && typeof bodyOrNext !== "function")
      withParsedBody(req, bodyOrNext);
    listener(req, res);
  };
}

/** Listens on `host:port` (default 127.0.0.1) and serves the MCP endpoint. */
export async function serveHttp(
  handler: MessageHandler,
  options: ServeHttpOptions,
): Promise<HttpServerHandle> {
  const { port, host, ...httpOptions } = options;
  const { listener } = httpListener(handler, httpOptions);
  return listen(listener, { port, host, path: endpointPath(httpOptions.path) });
}

/**
 * Serves a `node:http` request listener on `host:port` (default 127.0.0.1): what `serveHttp`
 * listens with, for any listener (a fetch handler behind an adapter, say), closed the same way.
 */
export async function listen(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  where: { port: number; host?: string | undefined; path: string },
): Promise<HttpServerHandle> {
  const { port, host = "127.0.0.1" } = where;
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
    url: `http://${urlHost}:${actualPort}${where.path}`,
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

/** The path of the URL `serveHttp` reports: the endpoint's, or the root when every path is. */
export const endpointPath = (path: string | undefined): string =>
  path === undefined ? DEFAULT_PATH : path === "*" ? "/" : path;
