/**
 * The wire types (shared/http-wire.ts) over the web-standard `Request` and `Response`, so that the
 * transport's one listener serves `fetch` too: the request's headers and body stream as the
 * listener reads a `node:http` request, and a response whose status and headers, once written,
 * become a `Response`: with the whole body when it ends at once, else with a stream the listener
 * goes on writing (SSE). The client going away (the stream cancelled, the request's signal aborted)
 * is the response's `close` before it finished, as on `node:http`. Revision-independent; copied
 * verbatim into generated output.
 */
import type { HttpIn, HttpOut } from "../../shared/http-wire.js";

type Listener = (...args: never[]) => void;

export class FetchIn implements HttpIn {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly socket: { readonly remoteAddress?: string | undefined };
  complete: boolean;
  private readonly listeners: Partial<Record<"data" | "end" | "error" | "close", Listener>> = {};
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private stopped = false;

  constructor(
    private readonly request: Request,
    remoteAddress: string | undefined,
  ) {
    this.method = request.method;
    const url = new URL(request.url);
    this.url = url.pathname + url.search;
    const headers: Record<string, string> = {};
    // `Headers` iterates lower-case names, repeated ones joined with ", " (as node:http joins most).
    request.headers.forEach((value, name) => (headers[name] = value));
    // Hosts build the URL from the Host header; a Request made in code may carry only the URL.
    headers["host"] ??= url.host;
    this.headers = headers;
    // A connection of its own: fetch hosts do not say which requests share one.
    this.socket = { remoteAddress };
    this.complete = request.body === null;
  }

  /** Read by someone before the transport (the body can be read once). */
  get readableEnded(): boolean {
    return this.request.bodyUsed && this.reader === null;
  }

  on(event: "data" | "end" | "error" | "close", listener: Listener): this {
    this.listeners[event] = listener;
    // Flowing once someone listens for data, as a node stream; the first chunk comes after a
    // microtask at the earliest, when every listener is attached.
    if (event === "data") void this.pump();
    return this;
  }

  resume(): this {
    this.stop();
    return this;
  }

  /** Stops reading: the answer has gone (what the client still sends is not wanted). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.reader !== null) this.reader.cancel().catch(() => undefined);
    else if (this.request.body !== null && !this.request.bodyUsed)
      this.request.body.cancel().catch(() => undefined);
  }

  private emit(event: "data" | "end" | "error" | "close", arg?: unknown): void {
    // Each listener takes what its event carries (the exchange's: a chunk, nothing, an error).
    (this.listeners[event] as ((this: FetchIn, arg?: unknown) => void) | undefined)?.call(
      this,
      arg,
    );
  }

  private async pump(): Promise<void> {
    const body = this.request.body;
    if (body === null) {
      await Promise.resolve();
      this.complete = true;
      this.emit("end");
      this.emit("close");
      return;
    }
    if (this.reader !== null) return;
    const reader = (this.reader = body.getReader());
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.stopped) break;
        this.emit("data", value);
      }
      if (!this.stopped) {
        this.complete = true;
        this.emit("end");
      }
    } catch (error) {
      if (!this.stopped) this.emit("error", error);
    }
    this.emit("close");
  }
}

/** Headers a `Response` sets itself, or that only mean something to a connection of `node:http`. */
const CONNECTION_HEADERS = new Set([
  "connection",
  "content-length",
  "keep-alive",
  "transfer-encoding",
]);

/** Statuses whose response has no body (a `Response` with one throws). */
const NO_BODY = new Set([101, 204, 205, 304]);

const encoder = new TextEncoder();

export class FetchOut implements HttpOut {
  headersSent = false;
  destroyed = false;
  writableEnded = false;
  writableFinished = false;
  /** The `Response`, once status and headers are written (and, without a stream, the body). */
  readonly response: Promise<Response>;
  private resolve!: (response: Response) => void;
  private status = 200;
  private readonly headers: Record<string, string> = {};
  private stream: ReadableStreamDefaultController<Uint8Array> | null = null;
  private readonly closeListeners: Array<() => void> = [];
  private closed = false;

  constructor(
    private readonly req: FetchIn,
    signal: AbortSignal | undefined,
  ) {
    this.response = new Promise((resolve) => (this.resolve = resolve));
    // The client gone before the answer ended: its request aborted (a finished one is left alone).
    signal?.addEventListener("abort", () => this.gone(), { once: true });
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    const key = name.toLowerCase();
    if (!CONNECTION_HEADERS.has(key))
      this.headers[key] = typeof value === "object" ? value.join(", ") : String(value);
    return this;
  }

  writeHead(status: number, headers: Record<string, string | number> = {}): this {
    this.status = status;
    for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
    return this;
  }

  flushHeaders(): void {
    if (!this.headersSent) this.open();
  }

  write(chunk: string): boolean {
    if (this.writableEnded || this.destroyed) return false;
    if (!this.headersSent) this.open();
    this.stream?.enqueue(encoder.encode(chunk));
    return true;
  }

  end(chunk?: string): this {
    if (this.writableEnded || this.destroyed) return this;
    this.writableEnded = true;
    if (this.headersSent) {
      if (chunk !== undefined && chunk !== "") this.stream?.enqueue(encoder.encode(chunk));
      this.stream?.close();
    } else {
      this.headersSent = true;
      const body = NO_BODY.has(this.status) ? null : (chunk ?? null);
      this.resolve(new Response(body, { status: this.status, headers: this.headers }));
    }
    this.writableFinished = true;
    this.req.stop();
    this.emitClose();
    return this;
  }

  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    if (this.stream !== null) this.stream.error(new Error("response aborted"));
    else if (!this.headersSent) {
      this.headersSent = true;
      this.resolve(new Response(null, { status: 500 }));
    }
    this.req.stop();
    this.emitClose();
    return this;
  }

  on(event: "close", listener: () => void): this {
    if (event === "close") this.closeListeners.push(listener);
    return this;
  }

  /** Resolves the `Response` with a body the listener goes on writing. */
  private open(): void {
    this.headersSent = true;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.stream = controller;
      },
      // The client stopped reading: it went away.
      cancel: () => this.gone(),
    });
    this.resolve(new Response(body, { status: this.status, headers: this.headers }));
  }

  private gone(): void {
    if (this.writableEnded || this.destroyed) return;
    this.destroyed = true;
    // Nobody reads it, but the host's promise must settle, or it holds the request forever.
    if (!this.headersSent) {
      this.headersSent = true;
      this.resolve(new Response(null, { status: 500 }));
    }
    this.req.stop();
    this.emitClose();
  }

  /** `close` after the current task, as `node:http` emits it, once. */
  private emitClose(): void {
    if (this.closed) return;
    this.closed = true;
    queueMicrotask(() => {
      for (const listener of this.closeListeners) listener.call(this);
    });
  }
}
