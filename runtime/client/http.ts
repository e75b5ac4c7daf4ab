/**
 * Streamable HTTP client transport on the global `fetch`: one POST per message to the URL exactly
 * as given, JSON or SSE answers. The client core computes the request metadata headers
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`); this module sends them.
 * On a legacy (initialize-era) session it also keeps the session's mechanics: the `Mcp-Session-Id`
 * the server assigns, the GET stream for what the server sends outside any request, requests the
 * server sends on either stream (answered by a POST), resumption of a broken stream with
 * `Last-Event-ID` after the server's `retry`, and DELETE at the end. Revision-independent; copied
 * verbatim into generated output.
 */
import { classify, DEFAULT_MAX_DEPTH, nestsDeeperThan } from "../shared/jsonrpc.js";
import type {
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "../shared/jsonrpc.js";
import { SessionExpiredError, TransportError } from "./errors.js";
import type { ClientTransport, TransportPeer, TransportRequestOptions } from "./transport.js";

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
   * Legacy sessions: how long to wait before reconnecting a broken stream when the server named no
   * `retry`, in ms (default 1000), the least wait a server's `retry` may ask for (default 500: a
   * `retry: 0` would have the client reconnect in a loop), and how many reconnections in a row may
   * fail before the stream is given up (default 3).
   */
  reconnect?: { delayMs?: number; minDelayMs?: number; attempts?: number };
  /**
   * Legacy sessions: requests of the server's being answered at once (each answer is a POST of its
   * own); default 16. Beyond it a request is dropped, with a log line when drops begin.
   */
  maxServerRequests?: number;
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
const DEFAULT_RECONNECT_MS = 1000;
const DEFAULT_RECONNECT_ATTEMPTS = 3;
const DEFAULT_MIN_RECONNECT_MS = 500;
const DEFAULT_MAX_SERVER_REQUESTS = 16;
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
  readonly eraKey: string;
  private readonly open = new Set<AbortController>();
  /**
   * A legacy session: the id the server named in `Mcp-Session-Id` (if any) and the negotiated
   * version; `null` outside one (modern requests carry no session).
   */
  private session: { id: string | null; version: string | null } | null = null;
  /** Requests of the session awaiting an answer that may come on another stream (a resumed one). */
  private readonly awaiting = new Map<JsonRpcId, (response: JsonRpcResponse) => void>();
  /** The session's GET stream while it runs. */
  private listening: AbortController | null = null;
  /** Requests of the server's being answered (until their answer's POST is done). */
  private answering = 0;
  /** Whether the last request of the server's was dropped (a drop is logged when drops begin). */
  private dropping = false;

  constructor(
    private readonly url: string,
    private readonly options: HttpTransportOptions,
  ) {
    this.cacheKey = `http ${url}`;
    // The era is a property of the server, cached per origin (versioning: backward compatibility).
    this.eraKey = `http ${new URL(url).origin}`;
  }

  /** A legacy handshake is about to be sent: the session id its answer names is kept from here on. */
  beginSession(): void {
    this.stopListening();
    this.session = { id: null, version: null };
  }

  /**
   * The handshake is complete: later messages carry the negotiated version, and the GET stream is
   * opened for what the server sends outside any request. Resolves once the server has answered the
   * GET (a server without one answers 405, which is fine).
   */
  async sessionOpened(version: string): Promise<void> {
    if (!this.session) return;
    this.session.version = version;
    await this.listen();
  }

  /** Ends the legacy session: the GET stream stops, and a session the server named is deleted. */
  async endSession(): Promise<void> {
    const session = this.session;
    this.session = null;
    this.stopListening();
    // A request still awaiting its answer fails by its own stream or its caller's signal.
    this.awaiting.clear();
    if (!session?.id) return;
    const controller = new AbortController();
    this.open.add(controller);
    try {
      const response = await (this.options.fetch ?? fetch)(this.url, {
        method: "DELETE",
        headers: await this.authorized(this.sessionHeaders(session), controller.signal),
        signal: controller.signal,
      });
      await response.body?.cancel().catch(() => {});
      // 405: the server does not let clients end sessions; it will expire it.
      if (response.status >= 400 && response.status !== 405 && response.status !== 404)
        this.log(`mcp http client: DELETE of the session was refused with HTTP ${response.status}`);
    } catch (error) {
      this.log(
        `mcp http client: DELETE of the session failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      this.open.delete(controller);
    }
  }

  private sessionHeaders(
    session: { id: string | null; version: string | null } | null = this.session,
  ): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers };
    if (session?.id) headers["Mcp-Session-Id"] = session.id;
    if (session?.version) headers["MCP-Protocol-Version"] = session.version;
    return headers;
  }

  /** `headers` with the authorization layer's `Authorization`, for the session's GET and DELETE. */
  private async authorized(
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<Record<string, string>> {
    const value = await this.options.authorization?.header(this.url, signal);
    return value === undefined ? headers : { ...headers, Authorization: value };
  }

  private stopListening(): void {
    this.listening?.abort(new TransportError("the session's stream was closed"));
    this.listening = null;
  }

  /**
   * Opens the session's GET stream and keeps it open: its messages are handled as any stream's, and
   * when it breaks it is reconnected (with `Last-Event-ID`, after the server's `retry`) until
   * `attempts` reconnections in a row fail. Resolves when the first GET has been answered.
   */
  private listen(): Promise<void> {
    const controller = new AbortController();
    this.listening = controller;
    const signal = controller.signal;
    let opened: () => void = () => {};
    const first = new Promise<void>((resolve) => (opened = resolve));
    const attempts = this.options.reconnect?.attempts ?? DEFAULT_RECONNECT_ATTEMPTS;
    void (async () => {
      let lastId: string | null = null;
      let retry = this.options.reconnect?.delayMs ?? DEFAULT_RECONNECT_MS;
      for (let failures = 0; !signal.aborted && failures <= attempts;) {
        let response: Response;
        try {
          response = await this.get(lastId, signal);
        } catch {
          opened();
          if (signal.aborted) return;
          failures++;
          await delay(retry, signal).catch(() => {});
          continue;
        }
        opened();
        const type = contentType(response);
        if (response.status !== 200 || type !== "text/event-stream") {
          await response.body?.cancel().catch(() => {});
          // 405: the server offers no GET stream; anything else: it refuses one. Either way, none.
          if (response.status !== 405)
            this.log(
              `mcp http client: the session's GET stream was refused with HTTP ${response.status}`,
            );
          if (response.status === 404 && this.session?.id) this.expired = true;
          return;
        }
        failures = 0;
        const events = new SseEvents(this.options.maxEventBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
        try {
          await this.readEvents(response, events, signal, (message) => this.dispatch(message), {
            stream: "the session's GET stream",
            event: "on the session's GET stream",
          });
        } catch (error) {
          if (signal.aborted) return;
          this.log(`mcp http client: ${error instanceof Error ? error.message : String(error)}`);
        }
        lastId = events.lastId ?? lastId;
        retry = this.serverRetry(events, retry);
        failures++;
        await delay(retry, signal).catch(() => {});
      }
    })();
    return first;
  }

  /** The server ended the session (404 on its GET): the next request says so, and the core opens a new one. */
  private expired = false;

  private async get(lastId: string | null, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {
      ...this.sessionHeaders(),
      Accept: "text/event-stream",
    };
    if (lastId !== null) headers["Last-Event-ID"] = lastId;
    try {
      return await (this.options.fetch ?? fetch)(this.url, {
        method: "GET",
        headers: await this.authorized(headers, signal),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new TransportError(
        `GET ${this.url} failed: ${error instanceof Error ? error.message : String(error)}`,
        undefined,
        { cause: error },
      );
    }
  }

  /**
   * A message on a session's stream that answers no request read here: a response resolves the
   * request awaiting it (its own stream broke), a notification goes to the client, a request of the
   * server's is answered by a POST.
   */
  private dispatch(message: unknown): void {
    const incoming = classify(message);
    if (incoming.kind === "response") {
      const id = incoming.message.id;
      const resolve = id === undefined ? undefined : this.awaiting.get(id);
      if (resolve) resolve(incoming.message);
      else this.log(`mcp http client: skipped a response to no pending request (${String(id)})`);
    } else if (incoming.kind === "notification") this.peer?.notification(incoming.message);
    else if (incoming.kind === "request") this.answer(incoming.message);
    else this.log(`mcp http client: skipped an SSE event that is not a JSON-RPC message`);
  }

  /** The wait before reconnecting: the server's `retry`, never below the floor; else `current`. */
  private serverRetry(events: SseEvents, current: number): number {
    if (events.retry === null) return current;
    return Math.max(events.retry, this.options.reconnect?.minDelayMs ?? DEFAULT_MIN_RECONNECT_MS);
  }

  /**
   * Answers a request the server sent on a stream of a legacy session, with a POST of its own; at
   * most `maxServerRequests` at once (a server sending thousands would have as many POSTs open).
   */
  private answer(request: JsonRpcRequest): void {
    if (!this.session || !this.peer) {
      this.log(
        `mcp http client: ignored a server request outside a legacy session (${request.method})`,
      );
      return;
    }
    const max = this.options.maxServerRequests ?? DEFAULT_MAX_SERVER_REQUESTS;
    if (this.answering >= max) {
      if (!this.dropping)
        this.log(
          `mcp http client: dropping requests of the server's (${request.method}): ${max} are being answered already`,
        );
      this.dropping = true;
      return;
    }
    this.dropping = false;
    this.answering++;
    void this.peer
      .request(request)
      .then(async (response) => {
        if (response === null) return;
        const controller = new AbortController();
        this.open.add(controller);
        try {
          const answered = await this.post(response, {}, controller.signal);
          await answered.body?.cancel().catch(() => {});
          if (answered.status >= 400)
            this.log(
              `mcp http client: the answer to ${request.method} was refused with HTTP ${answered.status}`,
            );
        } catch (error) {
          this.log(
            `mcp http client: the answer to ${request.method} could not be sent: ${error instanceof Error ? error.message : String(error)}`,
          );
        } finally {
          this.open.delete(controller);
        }
      })
      .finally(() => this.answering--);
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
    const session = this.session;
    const all: Record<string, string> = {
      ...this.sessionHeaders(session),
      ...headers,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
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
    if (session) {
      // A session the server no longer knows: the core opens a new one and sends the request again.
      if (response.status === 404 && session.id !== null) {
        await response.body?.cancel().catch(() => {});
        throw new SessionExpiredError(`the server ended the session (HTTP 404)`);
      }
      const named = response.headers.get(SESSION_HEADER);
      if (named !== null && session.id === null && session === this.session) session.id = named;
    }
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
    if (this.expired && this.session?.id) {
      this.expired = false;
      throw new SessionExpiredError("the server ended the session (HTTP 404 on its stream)");
    }
    const controller = new AbortController();
    const signal = AbortSignal.any([options.signal, controller.signal]);
    this.open.add(controller);
    try {
      const response = await this.post(message, options.headers, signal);
      if (contentType(response) === "text/event-stream") {
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

  /**
   * Reads SSE events up to the response to `message`; notifications before it go to
   * `onNotification`. On a legacy session a stream that ends or breaks before the answer is
   * resumed: after the server's `retry`, a GET with the last event id, read the same way (the answer
   * may also arrive on the session's GET stream).
   */
  private async readStream(
    response: Response,
    message: JsonRpcRequest,
    options: TransportRequestOptions,
    signal: AbortSignal,
  ): Promise<JsonRpcResponse> {
    let answer: JsonRpcResponse | null = null;
    const session = this.session;
    let elsewhere!: (response: JsonRpcResponse) => void;
    const arrived = new Promise<JsonRpcResponse>((resolve) => (elsewhere = resolve));
    if (session) this.awaiting.set(message.id, elsewhere);
    const onMessage = (value: unknown): boolean => {
      const incoming = classify(value);
      if (incoming.kind === "response") {
        if (incoming.message.id === message.id) {
          answer = incoming.message;
          return true;
        }
        if (session) this.dispatch(value);
        else
          this.log(
            `mcp http client: skipped a response to another request (${String(incoming.message.id)})`,
          );
      } else if (incoming.kind === "notification") {
        options.onNotification(incoming.message);
      } else if (incoming.kind === "request") {
        this.answer(incoming.message);
      } else {
        this.log(`mcp http client: skipped an SSE event that is not a JSON-RPC message`);
      }
      return false;
    };
    const maxEvent = this.options.maxEventBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const attempts = this.options.reconnect?.attempts ?? DEFAULT_RECONNECT_ATTEMPTS;
    let lastId: string | null = null;
    let retry = this.options.reconnect?.delayMs ?? DEFAULT_RECONNECT_MS;
    try {
      for (let failures = 0, current: Response | null = response; ;) {
        if (current) {
          if (!current.body)
            throw new TransportError(
              `the SSE answer to ${message.method} has no body`,
              current.status,
            );
          const events = new SseEvents(maxEvent);
          let broken: unknown = null;
          try {
            await this.readEvents(current, events, signal, onMessage, {
              stream: `the SSE stream of ${message.method}`,
              event: `answering ${message.method}`,
            });
          } catch (error) {
            if (signal.aborted || !(error instanceof TransportError) || !session) throw error;
            broken = error;
          }
          if (answer) return answer;
          if (events.lastId !== null) {
            failures = 0;
            lastId = events.lastId;
          }
          retry = this.serverRetry(events, retry);
          // Without a session, or an event id to resume from, the stream cannot be resumed.
          if (!session || lastId === null || session !== this.session)
            throw (
              broken ??
              new TransportError(
                `the SSE stream of ${message.method} ended without a response`,
                current.status,
              )
            );
        }
        if (++failures > attempts)
          throw new TransportError(
            `the SSE stream of ${message.method} could not be resumed (${attempts} attempts)`,
          );
        const resumed = await Promise.race([delay(retry, signal).then(() => null), arrived]);
        if (resumed) return resumed;
        let next: Response | JsonRpcResponse;
        try {
          next = await Promise.race([this.get(lastId, signal), arrived]);
        } catch (error) {
          if (signal.aborted) throw error;
          current = null;
          continue;
        }
        if (!(next instanceof Response)) return next;
        current = next;
        if (current.status !== 200 || contentType(current) !== "text/event-stream") {
          await current.body?.cancel().catch(() => {});
          if (current.status === 404 && session?.id)
            throw new SessionExpiredError("the server ended the session (HTTP 404 on resumption)");
          current = null;
        }
      }
    } finally {
      if (session) this.awaiting.delete(message.id);
    }
  }

  /**
   * Reads one SSE stream to its end, handing each event's message to `onMessage` until it returns
   * true; empty events (a server priming its stream) are skipped.
   */
  private async readEvents(
    response: Response,
    events: SseEvents,
    signal: AbortSignal,
    onMessage: (value: unknown) => boolean | void,
    what: { stream: string; event: string },
  ): Promise<void> {
    if (!response.body) return;
    const maxDepth = this.options.maxDepth ?? DEFAULT_MAX_DEPTH;
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const chunk = await nextChunk(reader, signal, (cause) => {
          return new TransportError(`${what.stream} broke`, response.status, { cause });
        });
        const text = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
        if (!events.push(text, chunk.done))
          throw new TransportError(
            `an SSE event ${what.event} is larger than ${events.max} characters`,
            response.status,
          );
        for (let data = events.next(); data !== null; data = events.next()) {
          if (data.trim() === "") continue;
          if (nestsDeeperThan(data, maxDepth))
            throw new TransportError(
              `an SSE event ${what.event} nests more than ${maxDepth} levels deep`,
              response.status,
            );
          let value: unknown;
          try {
            value = JSON.parse(data);
          } catch {
            this.log(
              `mcp http client: skipped an SSE event that is not JSON: ${data.slice(0, 200)}`,
            );
            continue;
          }
          if (onMessage(value) === true) return;
        }
        if (chunk.done) return;
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
    this.stopListening();
    for (const controller of this.open)
      controller.abort(new TransportError("the transport was closed"));
    this.open.clear();
  }
}

function contentType(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Resolves after `ms`, or rejects when `signal` aborts first. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
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
  /** The last event id the stream named (for `Last-Event-ID`), and the reconnection delay it asked for. */
  lastId: string | null = null;
  retry: number | null = null;

  constructor(readonly max: number) {}

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
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === "id" && !value.includes("\0")) this.lastId = value;
    else if (field === "retry" && /^\d{1,9}$/.test(value)) this.retry = Number(value);
    if (field !== "data") return true;
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
