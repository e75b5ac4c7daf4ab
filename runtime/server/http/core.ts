/**
 * The Streamable HTTP transport as one listener of the wire types (shared/http-wire.ts), which both
 * the `node:http` handler (node.ts) and the web-standard `fetch` handler (fetch.ts) drive: every
 * rule, limit and session of the transport is this listener's, whichever host delivers the request.
 * In order: what every request passes first (front.ts), the guard of `HttpOptions.auth`, then the
 * endpoint (request.ts). Revision-independent; copied verbatim into generated output.
 */
import type { HttpListener } from "../../shared/http-wire.js";
import type { MessageHandler } from "../transport.js";
import type { Config } from "./config.js";
import { front } from "./front.js";
import { configOf, type HttpOptions } from "./options.js";
import { serve } from "./request.js";
import { failed } from "./framing.js";

/** The listener serving the endpoint with `handler`, and the configuration it was made with. */
export function httpListener(
  handler: MessageHandler,
  options: HttpOptions,
): { listener: HttpListener; config: Config } {
  const config = configOf(handler, options);
  const endpoint: HttpListener = (req, res) => {
    try {
      serve(config, req, res);
    } catch (error) {
      failed(config, res, error);
    }
  };
  const guarded = options.auth ? options.auth.guard(endpoint) : endpoint;
  return { listener: front(config, guarded), config };
}
