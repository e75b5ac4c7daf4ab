/**
 * Streamable HTTP client transport on the global `fetch`: one POST per message to the URL exactly
 * as given, JSON or SSE answers, no GET stream. The client core computes the request metadata
 * headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`); this module sends
 * them. Revision-independent; copied verbatim into generated output.
 */
import { classify, DEFAULT_MAX_DEPTH, nestsDeeperThan } from "./jsonrpc.js";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "./jsonrpc.js";
import { TransportError } from "./client-errors.js";
import type {
  ClientTransport,
  TransportPeer,
  TransportRequestOptions,
} from "./client-transport.js";

export interface HttpTransportOptions {
  /** Extra headers on every POST (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** The `fetch` to use; default the global one. */
  fetch?: typeof fetch;
  /** Largest JSON answer read, in bytes; default 16 MiB. A larger one fails the request. */
  maxResponseBytes?: number;
  /**
   * Largest SSE event read, in characters of its decoded text (never more than its bytes); default
   * 16 MiB. A larger one fails the request.
   */
  maxEventBytes?: number;
  /** Deepest nesting of arrays and objects accepted in an answer (checked before parsing); default 1000. */
  maxDepth?: number;
  /**
   * Authorization for servers that demand it: supplies the `Authorization` header and answers 401
   * and 403 refusals (`runtime/oauth-client.ts`, generated with `--auth`, is one).
   */
  authorization?: HttpAuthorization;
}

/** What the transport asks of an authorization layer; it keeps the OAuth mechanics out of here. */
export interface HttpAuthorization {
  /** The `Authorization` header value for a request to `url`; undefined sends none. */
  header(url: string, signal: AbortSignal): Promise<string | undefined>;
  /**
   * The server refused a request with 401 or 403. Resolves true to send the request again (with a
   * new header), false to hand the refusal to the caller; throws to end the request with its error.
   */
  refused(refusal: HttpRefusal, signal: AbortSignal): Promise<boolean>;
}

/** A 401 or 403 answer, as the transport hands it to `HttpAuthorization.refused`. */
export interface HttpRefusal {
  url: string;
  status: number;
  /** The `WWW-Authenticate` header. */
  challenge: string | null;
  /** This request's refusals so far, from 1. */
  attempt: number;
  /** The `Authorization` header the refused request carried. */
  sent: string | undefined;
}

const SESSION_HEADER = "mcp-session-id";
const MiB = 1024 * 1024;
const DEFAULT_MAX_RESPONSE_BYTES = 16 * MiB;
/** Redirects followed per request, each to the same origin. */
const MAX_REDIRECTS = 5;

export function httpTransport(
  url: string | URL,
  options: HttpTransportOptions = {},
): ClientTransport {
  return new HttpTransport(String(url), options);
}

class HttpTransport implements ClientTransport {
  readonly mirrorsHeaders = true;
  readonly cacheKey: string;
  private peer: TransportPeer | null = null;
  private readonly open = new Set<AbortController>();
  /** Stateful revisions over HTTP: the session the server named in `Mcp-Session-Id`. */
  private session: string | null = null;

  constructor(
    private readonly url: string,
    private readonly options: HttpTransportOptions,
  ) {
    this.cacheKey = `http ${url}`;
  }

  attach(peer: TransportPeer): void {
    this.peer = peer;
  }

  private log(message: string): void {
    this.peer?.log(message);
  }

  private async post(
    body: unknown,
    headers: Readonly<Record<string, string>>,
    signal: AbortSignal,
  ): Promise<Response> {
    const all: Record<string, string> = {
      ...this.options.headers,
      ...headers,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    if (this.session !== null) all["Mcp-Session-Id"] = this.session;
    const auth = this.options.authorization;
    const text = JSON.stringify(body);
    let response: Response;
    for (let attempt = 1; ; attempt++) {
      if (auth) {
        const authorization = await auth.header(this.url, signal);
        if (authorization === undefined) delete all.Authorization;
        else all.Authorization = authorization;
      }
      response = await this.send(all, text, signal);
      if (!auth || (response.status !== 401 && response.status !== 403)) break;
      const challenge = response.headers.get("www-authenticate");
      const sent = all.Authorization;
      const refusal = { url: this.url, status: response.status, challenge, attempt, sent };
      if (!(await auth.refused(refusal, signal))) break;
      await response.body?.cancel().catch(() => {});
    }
    const session = response.headers.get(SESSION_HEADER);
    if (session !== null) this.session = session;
    return response;
  }

  /**
   * One POST. Redirects are followed here, and only within the server's origin: another origin
   * would get the request (headers and body) and be trusted with the answer.
   */
  private async send(
    all: Record<string, string>,
    text: string,
    signal: AbortSignal,
  ): Promise<Response> {
    const doFetch = this.options.fetch ?? fetch;
    let url = this.url;
    let response: Response;
    for (let hops = 0; ; hops++) {
      try {
        response = await doFetch(url, {
          method: "POST",
          headers: all,
          body: text,
          signal,
          redirect: "manual",
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw new TransportError(
          `POST ${url} failed: ${error instanceof Error ? error.message : String(error)}`,
          undefined,
          { cause: error },
        );
      }
      if (response.status < 300 || response.status > 399 || response.status === 304) break;
      await response.body?.cancel().catch(() => {});
      const location = response.headers.get("location");
      let next: URL | null;
      try {
        next = location === null ? null : new URL(location, url);
      } catch {
        next = null;
      }
      if (next === null || next.origin !== new URL(this.url).origin)
        throw new TransportError(
          `POST ${url} was redirected (HTTP ${response.status}) to ${next === null ? "an invalid location" : `another origin (${next.origin})`}; only redirects within ${new URL(this.url).origin} are followed`,
          response.status,
        );
      if (hops + 1 >= MAX_REDIRECTS)
        throw new TransportError(
          `POST ${this.url} was redirected more than ${MAX_REDIRECTS} times`,
          response.status,
        );
      url = next.href;
    }
    return response;
  }

  async request(
    message: JsonRpcRequest,
    options: TransportRequestOptions,
  ): Promise<JsonRpcResponse> {
    const controller = new AbortController();
    const signal = AbortSignal.any([options.signal, controller.signal]);
    this.open.add(controller);
    try {
      const response = await this.post(message, options.headers, signal);
      const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (type === "text/event-stream") {
        const answer = await this.readStream(response, message, options, signal);
        controller.abort();
        return answer;
      }
      const text = await this.readBody(response, message, signal);
      const maxDepth = this.options.maxDepth ?? DEFAULT_MAX_DEPTH;
      if (nestsDeeperThan(text, maxDepth))
        throw new TransportError(
          `the answer to ${message.method} nests more than ${maxDepth} levels deep`,
          response.status,
        );
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new TransportError(
          `HTTP ${response.status}: the answer to ${message.method} is not JSON${text ? `: ${text.slice(0, 200)}` : ""}`,
          response.status,
        );
      }
      const incoming = classify(value);
      // A JSON-RPC error answered with an error status (400, 404) is still the server's answer.
      if (incoming.kind === "response") {
        if (incoming.message.id === message.id) return incoming.message;
        throw new TransportError(
          `the answer to ${message.method} (id ${JSON.stringify(message.id)}) is a response to another request (id ${JSON.stringify(incoming.message.id)})`,
          response.status,
        );
      }
      if (
        incoming.kind === "invalid" &&
        typeof value === "object" &&
        value !== null &&
        "error" in value
      ) {
        const error = (value as { error: unknown }).error;
        if (
          typeof error === "object" &&
          error !== null &&
          typeof (error as { code?: unknown }).code === "number"
        ) {
          return {
            jsonrpc: "2.0",
            id: message.id,
            error: error as { code: number; message: string },
          };
        }
      }
      throw new TransportError(
        `HTTP ${response.status}: the answer to ${message.method} is not a JSON-RPC response`,
        response.status,
      );
    } finally {
      this.open.delete(controller);
    }
  }

  /** The answer's body as text, read up to `maxResponseBytes`. */
  private async readBody(
    response: Response,
    message: JsonRpcRequest,
    signal: AbortSignal,
  ): Promise<string> {
    const max = this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const tooLarge = () =>
      new TransportError(
        `the answer to ${message.method} is larger than ${max} bytes`,
        response.status,
      );
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > max) {
      await response.body?.cancel().catch(() => {});
      throw tooLarge();
    }
    if (!response.body) return "";
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const chunk = await nextChunk(reader, signal, (cause) => {
          return new TransportError(
            `reading the answer to ${message.method} failed`,
            response.status,
            { cause },
          );
        });
        if (chunk.done) break;
        size += chunk.value.byteLength;
        if (size > max) throw tooLarge();
        chunks.push(chunk.value);
      }
    } finally {
      reader.cancel().catch(() => {});
    }
    // Joined and decoded with what browsers have too (no `Buffer`: this client runs there).
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return new TextDecoder().decode(bytes);
  }

  /** Reads SSE events up to the response to `message`; notifications before it go to `onNotification`. */
  private async readStream(
    response: Response,
    message: JsonRpcRequest,
    options: TransportRequestOptions,
    signal: AbortSignal,
  ): Promise<JsonRpcResponse> {
    if (!response.body)
      throw new TransportError(`the SSE answer to ${message.method} has no body`, response.status);
    const maxEvent = this.options.maxEventBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const maxDepth = this.options.maxDepth ?? DEFAULT_MAX_DEPTH;
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    const events = new SseEvents(maxEvent);
    const dispatch = (text: string): JsonRpcResponse | null => {
      if (nestsDeeperThan(text, maxDepth))
        throw new TransportError(
          `an SSE event answering ${message.method} nests more than ${maxDepth} levels deep`,
          response.status,
        );
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        this.log(`mcp http client: skipped an SSE event that is not JSON: ${text.slice(0, 200)}`);
        return null;
      }
      const incoming = classify(value);
      if (incoming.kind === "response") {
        if (incoming.message.id === message.id) return incoming.message;
        this.log(
          `mcp http client: skipped a response to another request (${String(incoming.message.id)})`,
        );
      } else if (incoming.kind === "notification") {
        options.onNotification(incoming.message);
      } else if (incoming.kind === "request") {
        this.log(
          `mcp http client: ignored a server request on the response stream (${incoming.message.method})`,
        );
      } else {
        this.log(`mcp http client: skipped an SSE event that is not a JSON-RPC message`);
      }
      return null;
    };
    try {
      for (;;) {
        const chunk = await nextChunk(reader, signal, (cause) => {
          return new TransportError(`the SSE stream of ${message.method} broke`, response.status, {
            cause,
          });
        });
        const text = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
        if (!events.push(text, chunk.done))
          throw new TransportError(
            `an SSE event answering ${message.method} is larger than ${maxEvent} characters`,
            response.status,
          );
        for (let data = events.next(); data !== null; data = events.next()) {
          const answer = dispatch(data);
          if (answer) return answer;
        }
        if (chunk.done)
          throw new TransportError(
            `the SSE stream of ${message.method} ended without a response`,
            response.status,
          );
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  async notify(
    message: JsonRpcNotification,
    options: { headers?: Readonly<Record<string, string>> } = {},
  ): Promise<void> {
    const controller = new AbortController();
    this.open.add(controller);
    try {
      const response = await this.post(
        message,
        options.headers ?? { "Mcp-Method": message.method },
        controller.signal,
      );
      await response.body?.cancel().catch(() => {});
      if (response.status >= 400)
        this.log(`mcp http client: ${message.method} was refused with HTTP ${response.status}`);
    } finally {
      this.open.delete(controller);
    }
  }

  async close(): Promise<void> {
    for (const controller of this.open)
      controller.abort(new TransportError("the transport was closed"));
    this.open.clear();
  }
}

/** The next chunk of an answer: a stream that breaks is `broken(cause)`, unless the caller gave up. */
async function nextChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  signal: AbortSignal,
  broken: (cause: unknown) => TransportError,
): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>> {
  try {
    return await reader.read();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw broken(error);
  }
}

/**
 * The `data` of SSE events, parsed as text arrives in one pass: each piece of text is scanned once
 * for line ends, a line cut by a chunk boundary is kept as pieces (joined when it ends), and an
 * event is bounded in size while it accumulates.
 */
class SseEvents {
  /** The current line so far, in pieces, and its length. */
  private line: string[] = [];
  private lineLength = 0;
  /** The `data` lines of the event being read, and their length. */
  private data: string[] = [];
  private dataLength = 0;
  /** The last text ended in CR: an LF opening the next one belongs to that line end. */
  private afterCr = false;
  /** Complete events' data, oldest first. */
  private readonly ready: string[] = [];

  constructor(private readonly max: number) {}

  /** Takes the next text (`end`: the stream ended after it); false once an event is too large. */
  push(text: string, end: boolean): boolean {
    if (text.length === 0 && !end) return true;
    let start = 0;
    if (this.afterCr && text.charCodeAt(0) === 0x0a) start = 1;
    this.afterCr = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      if (!this.endLine(text.slice(start, i))) return false;
      if (c === 0x0d) {
        if (i + 1 === text.length) this.afterCr = true;
        else if (text.charCodeAt(i + 1) === 0x0a) i++;
      }
      start = i + 1;
    }
    if (start < text.length) {
      this.line.push(text.slice(start));
      this.lineLength += text.length - start;
      if (this.lineLength + this.dataLength > this.max) return false;
    }
    if (end) {
      // An unterminated last line still counts; the event it ends is dispatched.
      if (this.lineLength > 0 && !this.endLine("")) return false;
      if (this.data.length > 0) this.endEvent();
    }
    return true;
  }

  /** The data of the next complete event, or null. */
  next(): string | null {
    return this.ready.shift() ?? null;
  }

  private endLine(tail: string): boolean {
    let line = tail;
    if (this.line.length > 0) {
      this.line.push(tail);
      line = this.line.join("");
      this.line = [];
      this.lineLength = 0;
    }
    if (line === "") {
      if (this.data.length > 0) this.endEvent();
      return true;
    }
    if (line.charCodeAt(0) === 0x3a) return true; // a comment
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== "data") return true;
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    this.data.push(value);
    this.dataLength += value.length + 1;
    return this.dataLength <= this.max;
  }

  private endEvent(): void {
    this.ready.push(this.data.join("\n"));
    this.data = [];
    this.dataLength = 0;
  }
}
