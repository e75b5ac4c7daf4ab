/**
 * What the Streamable HTTP server reads of a request and writes of a response: the part of
 * `node:http`'s `IncomingMessage` and `ServerResponse` it uses, as structural types. The `node:http`
 * objects are these already, so the Node path passes them through untouched (no wrapper, no copy);
 * the web-standard path (`Request` in, `Response` out) implements them once per request
 * (server/http/fetch-wire.ts). Every rule of the transport is written once, against these.
 * Revision-independent; copied verbatim into generated output.
 */

/** A request's headers as `node:http` gives them: lower-case names, repeated ones as arrays. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** Headers a request carries once: `node:http` keeps the first of each (a `Headers` joins them). */
type SingleHeaders = {
  readonly [
    name in
      | "host"
      | "origin"
      | "accept"
      | "authorization"
      | "content-type"
      | "content-encoding"
      | "content-length"
      | "transfer-encoding"
      | "access-control-request-method"
      | "access-control-request-headers"
  ]?: string | undefined;
};

/** A request as the transport reads it. */
export interface HttpIn {
  readonly method?: string | undefined;
  /** The path and query the request was sent to, as the host routed it (a mount prefix may be stripped). */
  readonly url?: string | undefined;
  /** Express and Connect: the URL before a mount path (`app.use("/mcp", …)`) was stripped from `url`. */
  readonly originalUrl?: string | undefined;
  readonly headers: RequestHeaders & SingleHeaders;
  /** Where the request came from: its connection (the key of a connection's budget) and address. */
  readonly socket: { readonly remoteAddress?: string | undefined };
  /** Whether the whole body has been received. */
  readonly complete: boolean;
  /** Whether the body stream has been read to its end, by us or by a framework before us. */
  readonly readableEnded?: boolean;
  /** A body a framework already read and parsed (body-parser, `express.json()`), by its convention. */
  readonly body?: unknown;
  /** The body arrives as `data` chunks, then `end`; `close` when the stream is done, `error` on failure. */
  on(event: "data" | "end" | "error" | "close", listener: (...args: never[]) => void): unknown;
  /** Discards the body (a request answered without reading it). */
  resume(): unknown;
}

/** A response as the transport writes it: a status and headers, then a body written whole or streamed. */
export interface HttpOut {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  /** `end()` was called. */
  readonly writableEnded: boolean;
  /** Everything written has been handed on (a response cut short by the client never is). */
  readonly writableFinished: boolean;
  setHeader(name: string, value: string | number | readonly string[]): unknown;
  writeHead(status: number, headers?: Record<string, string | number>): unknown;
  /** Sends status and headers now: a stream's client sees it open before its first event. */
  flushHeaders(): void;
  write(chunk: string): unknown;
  end(chunk?: string): unknown;
  /** Cuts the response short (the client sees an aborted response). */
  destroy(): unknown;
  /** `close`: the response is over, finished or cut short (the client went away). */
  on(event: "close", listener: () => void): unknown;
}

/** What serves a request: the transport, and the guards in front of it. */
export type HttpListener = (req: HttpIn, res: HttpOut) => void;

/**
 * A string's length in UTF-8 bytes (`Content-Length`): `Buffer.byteLength` where there is a
 * `Buffer` (Node, Bun, Deno); elsewhere the encoded bytes' count (a `Response` there sets the
 * header itself, so this is rarely asked).
 */
export function utf8Length(text: string): number {
  return NodeBuffer !== undefined
    ? NodeBuffer.byteLength(text, "utf8")
    : new TextEncoder().encode(text).length;
}

/** Node's `Buffer`, where the runtime has one: the edge runtimes without Node compatibility do not. */
export const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
