/**
 * How the Streamable HTTP transport writes to the wire: one JSON body, SSE events, the refusals it
 * sends itself before a body is read (for load, or for what its headers say); and how it reads a
 * body's UTF-8. Revision-independent; copied verbatim into generated output.
 */
import type { HttpIn, HttpOut } from "../../shared/http-wire.js";
import { NodeBuffer, utf8Length } from "../../shared/http-wire.js";
import { ErrorCode, failure, SERVER_BUSY } from "../../shared/jsonrpc.js";
import type { JsonRpcResponse } from "../../shared/jsonrpc.js";
import { bodyPending } from "../../shared/http-headers.js";
import { isStoreUnavailable, STORE_AWAY_MESSAGE } from "../store.js";

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  // Asks reverse proxies (nginx) not to buffer the stream.
  "X-Accel-Buffering": "no",
} as const;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body as text, as a strict UTF-8 decoder gives it (throwing on invalid UTF-8, dropping a
 * leading byte order mark). Where there is a `Buffer` (Node's chunks are Buffers), its decoder is
 * the faster one; invalid UTF-8 always decodes to some U+FFFD, so only a body showing one goes
 * through the strict decoder.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  if (NodeBuffer === undefined || !NodeBuffer.isBuffer(bytes)) return utf8.decode(bytes);
  const text = bytes.toString("utf8");
  if (text.includes("\uFFFD")) return utf8.decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The chunks of a body as one array of bytes. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (NodeBuffer !== undefined) return NodeBuffer.concat(chunks, size);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** One line of JSON, or undefined when the value cannot be serialized. */
export function serialize(message: unknown): string | undefined {
  try {
    const text: unknown = JSON.stringify(message);
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}

/** JSON.stringify never emits CR or LF, so one `data:` line always holds one whole message. */
export const sseEvent = (line: string): string => `event: message\ndata: ${line}\n\n`;

/** Writes one message as an event on an open stream. */
export function writeEvent(res: HttpOut, line: string): void {
  // A long message goes out without being copied into the event around it.
  if (line.length > LONG_EVENT) {
    res.write("event: message\ndata: ");
    res.write(line);
    res.write("\n\n");
  } else res.write(sseEvent(line));
}

/** Messages longer than this (in UTF-16 units) are written apart from their event's framing. */
const LONG_EVENT = 64 * 1024;

export function sendJson(
  res: HttpOut,
  status: number,
  message: JsonRpcResponse,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(message);
  res.writeHead(status, {
    ...headers,
    "Content-Type": "application/json",
    "Content-Length": utf8Length(body),
  });
  res.end(body);
}

/** A transport-level refusal: the status, and a JSON-RPC error response without an id. */
export function sendError(
  res: HttpOut,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, failure(undefined, { code, message }), headers);
}

/** Refuses a request for load: at once, with `Retry-After`, without reading its body. */
export function busy(
  config: { readonly retryAfter: string },
  req: HttpIn,
  res: HttpOut,
  status: 503 | 429,
  who: string,
): void {
  refuse(
    req,
    res,
    status,
    SERVER_BUSY,
    `Server busy: ${who} has too many requests in flight; retry later`,
    { "Retry-After": config.retryAfter },
  );
}

/**
 * A refusal sent before the body is read. Node would otherwise read and discard the body after
 * the response (however long it is) to keep the connection: a request that still has a body to send
 * gets `Connection: close`, and the connection is closed once the response is out.
 */
export function refuse(
  req: HttpIn,
  ...[res, status, code, message, headers = {}]: Parameters<typeof sendError>
): void {
  const close = bodyPending(req);
  sendError(res, status, code, message, close ? { ...headers, Connection: "close" } : headers);
}

/**
 * Whatever escaped while serving a request: logged, and answered 500 when nothing was sent yet. A
 * shared store that cannot be reached is no fault of the server's nor the client's: 503 with
 * `Retry-After`, and no log line (the store says once that it is away).
 */
export function failed(
  config: { log(message: string): void; readonly retryAfter?: string },
  res: HttpOut,
  error: unknown,
): void {
  if (isStoreUnavailable(error)) {
    if (!res.headersSent)
      sendError(res, 503, SERVER_BUSY, STORE_AWAY_MESSAGE, {
        "Retry-After": config.retryAfter ?? "1",
      });
    else res.destroy();
    return;
  }
  config.log(
    `mcp http: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  if (!res.headersSent) sendError(res, 500, ErrorCode.InternalError, "Internal error");
  else res.destroy();
}
