/**
 * The client runtime's public face: what the generated `client.ts` imports and re-exports, from the
 * modules that do the work — the core (`core.ts`) and its options (`options.ts`), listen streams
 * (`listen.ts`), paging (`paginate.ts`), the protocol description it is driven by (`protocol.ts`),
 * the transport contract (`transport.ts`), the errors (`errors.ts`) and the `x-mcp-header` codec
 * (`param-headers.ts`). One module to import from keeps the generated code independent of how the
 * runtime is cut. Revision-independent; copied verbatim into generated output.
 */
export type { LegacyEra } from "./legacy.js";
export { ClientCore } from "./core.js";
export type { CallOptions, ConnectOutcome, CoreOptions, InputHandler } from "./options.js";
export type { ListenStream } from "./listen.js";
export { paginate } from "./paginate.js";
export type { ClientMethodSpec, ClientProtocol, Validate } from "./protocol.js";
export type { ClientTransport, TransportPeer, TransportRequestOptions } from "./transport.js";
export {
  HeaderMismatchError,
  InputRequiredError,
  InvalidParamsError,
  InvalidResultError,
  LegacyServerError,
  McpError,
  MethodNotFoundError,
  MethodNotInEraError,
  SessionExpiredError,
  MissingRequiredClientCapabilityError,
  TimeoutError,
  TransportError,
  UnsupportedProtocolVersionError,
} from "./errors.js";
export {
  encodeHeaderValue,
  headerAnnotations,
  paramHeaders,
  type HeaderAnnotation,
} from "../shared/param-headers.js";
