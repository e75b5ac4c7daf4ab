/*
 * The two paths into the Streamable HTTP transport: `node:http` (serveHttp, `server.listen`) and the
 * web-standard `fetch` handler (createFetchHandler, `server.fetchHandler`), served here on
 * `node:http` by @hono/node-server, which turns each request into a `Request` and writes the
 * `Response` back, as Hono's users run it. The HTTP test files start their servers through
 * `serveOn` and `listenOn`; a `*.fetch.test.ts` file calls `useFetchPath()` and imports one of them,
 * so that every test of that file runs again with the fetch path behind the same sockets.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { endpointPath, listen } from "../../runtime/server/http/node.js";
import {
  createFetchHandler,
  serveHttp,
  type FetchHandler,
  type HttpServerHandle,
  type ServeHttpOptions,
} from "../../runtime/server/http/index.js";
import type { MessageHandler } from "../../runtime/server/transport.js";

let path: "node" | "fetch" = "node";

/** From now on, this test file's servers are served through the fetch handler. */
export function useFetchPath(): void {
  path = "fetch";
}

/** Which path this file's servers take. */
export const httpPath = (): "node" | "fetch" => path;

/** `serveHttp`, or the same endpoint served through `createFetchHandler`. */
export function serveOn(
  handler: MessageHandler,
  options: ServeHttpOptions,
): Promise<HttpServerHandle> {
  if (path === "node") return serveHttp(handler, options);
  const { port, host, ...rest } = options;
  return serveFetch(createFetchHandler(handler, rest), { port, host, path: rest.path });
}

/** A generated server's `listen`, or its `fetchHandler` served on the same terms. */
export function listenOn<O extends { port: number; host?: string; path?: string }>(
  server: {
    listen(options: O): Promise<HttpServerHandle>;
    fetchHandler(options: Omit<O, "port" | "host">): FetchHandler;
  },
  options: O,
): Promise<HttpServerHandle> {
  if (path === "node") return server.listen(options);
  const { port, host, ...rest } = options;
  return serveFetch(server.fetchHandler(rest), { port, host, path: rest.path });
}

/** Serves a fetch handler on loopback as `serveHttp` serves its listener (and closes it). */
function serveFetch(
  fetch: FetchHandler,
  where: { port: number; host?: string | undefined; path?: string | undefined },
): Promise<HttpServerHandle> {
  const listener = getRequestListener(fetch);
  return listen((req, res) => void listener(req, res), {
    ...where,
    path: endpointPath(where.path),
  });
}

/** A generated server's `httpHandler`, or its `fetchHandler` behind the adapter: a node:http listener either way. */
export function handlerOn<O>(
  server: {
    httpHandler(options: O): (req: IncomingMessage, res: ServerResponse) => void;
    fetchHandler(options: O): FetchHandler;
  },
  options: O,
): (req: IncomingMessage, res: ServerResponse) => void {
  if (path === "node") return server.httpHandler(options);
  const listener = getRequestListener(server.fetchHandler(options));
  return (req, res) => void listener(req, res);
}
