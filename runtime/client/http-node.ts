/**
 * A `fetch` for the HTTP client transport on Node (`httpTransport(url, { fetch: nodeFetch() })`),
 * over `node:http`/`node:https` with a keep-alive agent. Node's global `fetch` (undici) wraps every
 * answer in web streams and transferable objects: against a local echo server it spent about three
 * times the CPU per call of a plain `node:http` request, most of it there and in the garbage it
 * leaves. This one does what the transport asks of a `fetch` and no more: a request with a string
 * body, its status and headers, and a body read chunk by chunk (`getReader`), cancelled by the
 * transport or by its signal. Redirects are never followed (the transport follows a POST's itself,
 * within its origin). Revision-independent; copied verbatim into generated output.
 */
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { LIGHT_SIGNALS } from "./light-abort.js";

export interface NodeFetchOptions {
  /** Connections kept open per origin; default 16. */
  maxSockets?: number;
}

/** A `fetch` over `node:http(s)` whose connections stay open between requests. */
export function nodeFetch(options: NodeFetchOptions = {}): typeof fetch {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 16 };
  const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };
  // The transport posts to one URL: parsed, and turned into request options, once.
  let lastHref = "";
  let lastTarget: Target | null = null;
  const parse = (href: string): Target => {
    if (href !== lastHref || lastTarget === null) {
      lastTarget = target(new URL(href));
      lastHref = href;
    }
    return lastTarget;
  };
  const nodeFetch = ((input: string | URL | Request, init: RequestInit = {}) => {
    const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return send(agents, parse(href), init);
  }) as typeof fetch;
  // It reads of a signal only `aborted`, `reason` and one listener: the transport may give it a light one.
  Object.defineProperty(nodeFetch, LIGHT_SIGNALS, { value: true });
  return nodeFetch;
}

/** A URL and what node:http takes of it (what it would work out from the URL on every request). */
interface Target {
  url: URL;
  where: URL | RequestOptions;
}

function target(url: URL): Target {
  // Credentials in the URL: node:http works them out itself.
  if (url.username !== "" || url.password !== "") return { url, where: url };
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const where: RequestOptions = {
    protocol: url.protocol,
    hostname,
    path: `${url.pathname}${url.search}`,
  };
  if (url.port !== "") where.port = Number(url.port);
  return { url, where };
}

function send(
  agents: { http: HttpAgent; https: HttpsAgent },
  { url, where }: Target,
  init: RequestInit,
): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const secure = url.protocol === "https:";
  if (!secure && url.protocol !== "http:")
    return Promise.reject(new TypeError(`fetch failed: unsupported protocol ${url.protocol}`));
  const body = typeof init.body === "string" ? init.body : undefined;
  if (init.body != null && body === undefined)
    return Promise.reject(new TypeError("fetch failed: only string bodies are sent"));
  const headers = plainHeaders(init.headers);
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise<Response>((resolve, reject) => {
    const options: RequestOptions = {
      method: init.method ?? "GET",
      headers,
      agent: secure ? agents.https : agents.http,
    };
    const open = secure ? httpsRequest : httpRequest;
    const req = where instanceof URL ? open(where, options) : open({ ...where, ...options });
    const onAbort = () => req.destroy(signal!.reason as Error);
    signal?.addEventListener("abort", onAbort, { once: true });
    const settled = () => signal?.removeEventListener("abort", onAbort);
    req.on("error", (error) => {
      settled();
      reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error }));
    });
    req.on("response", (res) => {
      // The signal goes on aborting the body being read.
      resolve(new NodeResponse(res, signal) as unknown as Response);
      res.on("close", settled);
    });
    req.end(body);
  });
}

/** Request headers as node:http takes them, from a plain record (what the transport passes) or a `Headers`. */
function plainHeaders(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  if (Array.isArray(headers)) for (const [name, value] of headers) out[name!] = value!;
  else if (typeof (headers as Headers).forEach === "function" && !isPlain(headers))
    (headers as Headers).forEach((value, name) => (out[name] = value));
  else Object.assign(out, headers);
  return out;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The part of `Headers` the transport reads, over node's lower-cased header record. */
class NodeHeaders {
  constructor(private readonly raw: IncomingMessage["headers"]) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }

  forEach(each: (value: string, name: string) => void): void {
    for (const name of Object.keys(this.raw)) each(this.get(name)!, name);
  }
}

/** The part of `Response` the transport reads. */
class NodeResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly redirected = false;
  readonly headers: NodeHeaders;
  readonly body: NodeBody;

  constructor(res: IncomingMessage, signal: AbortSignal | undefined) {
    this.status = res.statusCode ?? 0;
    this.statusText = res.statusMessage ?? "";
    this.ok = this.status >= 200 && this.status < 300;
    this.headers = new NodeHeaders(res.headers);
    this.body = new NodeBody(res, signal);
  }

  async text(): Promise<string> {
    const reader = this.body.getReader();
    const chunks: Buffer[] = [];
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return Buffer.concat(chunks).toString("utf8");
      chunks.push(chunk.value);
    }
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

type Chunk = { done: false; value: Buffer } | { done: true; value: undefined };

/**
 * An answer's body as the transport reads it (`getReader().read()`, `cancel()`): the chunks node
 * delivers, queued while nobody reads (the response paused past a few, so a slow reader holds
 * the server back rather than memory growing), the end, or the error that broke it.
 */
class NodeBody {
  private readonly queue: Buffer[] = [];
  private ended = false;
  private failure: unknown = null;
  private waiting: { resolve(chunk: Chunk): void; reject(error: unknown): void } | null = null;

  constructor(
    private readonly res: IncomingMessage,
    signal: AbortSignal | undefined,
  ) {
    res.on("data", (chunk: Buffer) => {
      const waiting = this.waiting;
      if (waiting) {
        this.waiting = null;
        waiting.resolve({ done: false, value: chunk });
        return;
      }
      this.queue.push(chunk);
      if (this.queue.length >= QUEUED_CHUNKS) res.pause();
    });
    res.on("end", () => {
      this.ended = true;
      this.settle();
    });
    // Broken by the caller's signal: its reason, as fetch gives it.
    res.on("error", (error) => this.fail(signal?.aborted ? signal.reason : error));
    res.on("close", () => {
      if (!this.ended) this.fail(signal?.aborted ? signal.reason : new Error("the answer broke"));
    });
  }

  getReader(): {
    read(): Promise<Chunk>;
    cancel(): Promise<void>;
    releaseLock(): void;
  } {
    return { read: () => this.read(), cancel: () => this.cancel(), releaseLock: () => {} };
  }

  /** Drops what is left: the connection closes unless the body was read to its end (then it is kept). */
  cancel(): Promise<void> {
    if (!this.ended && this.failure === null) {
      this.fail(new Error("the body was cancelled"));
      this.res.destroy();
    }
    return Promise.resolve();
  }

  private read(): Promise<Chunk> {
    const chunk = this.queue.shift();
    if (chunk !== undefined) {
      if (this.queue.length === 0 && this.res.isPaused()) this.res.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    if (this.res.isPaused()) this.res.resume();
    return new Promise<Chunk>((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  private fail(error: unknown): void {
    if (this.failure !== null || this.ended) return;
    this.failure = error;
    this.settle();
  }

  /** Answers a pending read once the body ended or broke. */
  private settle(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = null;
    if (this.failure !== null) waiting.reject(this.failure);
    else waiting.resolve({ done: true, value: undefined });
  }
}

/** Chunks queued unread before the response is paused. */
const QUEUED_CHUNKS = 16;
