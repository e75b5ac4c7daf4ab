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
 * `Buffer` (Node, Bun, Deno), else counted from the UTF-16 code units, with no copy.
 */
export function utf8Length(text: string): number {
  if (NodeBuffer !== undefined) return NodeBuffer.byteLength(text, "utf8");
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      // A surrogate pair is 4 bytes for its 2 units; a lone surrogate becomes U+FFFD, 3 bytes.
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2;
        i++;
        continue;
      }
      bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}

/** Node's `Buffer`, where the runtime has one: the edge runtimes without Node compatibility do not. */
export const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
