/**
 * The Streamable HTTP server transport: one listener (core.ts) that a `node:http` server (node.ts)
 * and a web-standard `fetch` host (fetch.ts) both drive. Its options are options.ts's. The parts:
 * what every request passes first (front.ts: DNS-rebinding protection, CORS), admission of a request
 * before its body is read (request.ts), one exchange from body to response (exchange.ts), sessions
 * and their resumable GET streams (sessions.ts, session-requests.ts; shared through a store:
 * shared.ts), writing to the wire (framing.ts). Revision-independent; copied verbatim into
 * generated output.
 */
export type { HttpOptions } from "./options.js";
export { createHttpHandler, serveHttp } from "./node.js";
export type { HttpServerHandle, NodeHttpHandler, ServeHttpOptions } from "./node.js";
export { createFetchHandler } from "./fetch.js";
export type { FetchHandler, FetchHandlerOptions } from "./fetch.js";
export { DEFAULT_ADMISSION, type AdmissionLimits } from "../admission.js";
export { headerRulesOf, NO_HEADER_RULES, type HeaderRules } from "../../shared/http-headers.js";
export { decodeHeaderValue } from "../../shared/param-headers.js";
