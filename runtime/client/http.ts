/**
 * Streamable HTTP client transport on the global `fetch`: one POST per message to the URL exactly
 * as given, JSON or SSE answers. The client core computes the request metadata headers
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`); this module sends them.
 * On a legacy (initialize-era) session it also keeps the session's mechanics (`http-session.ts`):
 * the `Mcp-Session-Id` the server assigns, the GET stream for what the server sends outside any
 * request, requests the server sends on either stream (answered by a POST), resumption of a broken
 * stream with `Last-Event-ID` after the server's `retry`, and DELETE at the end. The requests
 * themselves are `http-fetch.ts`'s, reading answers `http-read.ts`'s. Revision-independent; copied
 * verbatim into generated output.
 */
import { classify, DEFAULT_MAX_DEPTH, nestsDeeperThan } from "../shared/jsonrpc.js";
import type { NetworkFacts } from "../shared/telemetry.js";
import type {
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "../shared/jsonrpc.js";
import { SessionExpiredError, TransportError } from "./errors.js";
import { HttpFetch } from "./http-fetch.js";
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_RECONNECT_ATTEMPTS,
  DEFAULT_RECONNECT_MS,
  type HttpTransportOptions,
} from "./http-options.js";
import { contentType, delay, readBody, readEvents, SseEvents } from "./http-read.js";
import { HttpSession } from "./http-session.js";
import { LIGHT_SIGNALS, LightAbort, type Abortable } from "./light-abort.js";
import type { ClientTransport, TransportPeer, TransportRequestOptions } from "./transport.js";

export type { HttpAuthorization, HttpRefusal, HttpTransportOptions } from "./http-options.js";

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
  private readonly open = new Set<Abortable>();
  /** The controller of each request awaiting its answer, by id (`cancel`). */
  private readonly requests = new Map<JsonRpcId, Abortable>();
  /** Only our `nodeFetch()` reads a request's signal (no authorization layer): a light one will do. */
  private readonly lightSignals: boolean;
  private readonly http: HttpFetch;
  private readonly session: HttpSession;
  readonly network: NetworkFacts;

  constructor(
    url: string,
    private readonly options: HttpTransportOptions,
  ) {
    this.cacheKey = `http ${url}`;
    // The era is a property of the server, cached per origin (versioning: backward compatibility).
    const parsed = new URL(url);
    this.eraKey = `http ${parsed.origin}`;
    // The port the URL names, else its scheme's (the `server.port` the conventions ask for).
    const port =
      parsed.port === "" ? (parsed.protocol === "https:" ? 443 : 80) : Number(parsed.port);
    this.network = {
      transport: "tcp",
      protocol: "http",
      address: parsed.hostname.replace(/^\[|\]$/g, ""),
      port,
    };
    this.lightSignals =
      options.authorization === undefined &&
      (options.fetch as { [LIGHT_SIGNALS]?: boolean } | undefined)?.[LIGHT_SIGNALS] === true;
    this.http = new HttpFetch(url, options, () => this.session.ids);
    this.session = new HttpSession(this.http, options, () => this.peer, this.open);
  }

  get sessionId(): string | undefined {
    return this.session.ids?.id ?? undefined;
  }

  /** A legacy handshake is about to be sent: the session id its answer names is kept from here on. */
  beginSession(): void {
    this.session.begin();
  }

  /** The handshake is complete: later messages carry the negotiated version; the GET stream opens. */
  sessionOpened(version: string): Promise<void> {
    return this.session.opened(version);
  }

  /** Ends the legacy session: the GET stream stops, and a session the server named is deleted. */
  endSession(): Promise<void> {
    return this.session.end();
  }

  attach(peer: TransportPeer): void {
    this.peer = peer;
  }

  private log(message: string): void {
    this.peer?.log(message);
  }

  async request(
    message: JsonRpcRequest,
    options: TransportRequestOptions,
  ): Promise<JsonRpcResponse> {
    if (this.session.expired && this.session.ids?.id) {
      this.session.expired = false;
      throw new SessionExpiredError("the server ended the session (HTTP 404 on its stream)");
    }
    // The core's `cancel`, or the transport's close, or the end of an answer's stream, aborts the
    // request: one controller per request, the call's own signal never made (the caller's reached
    // it through a listener before, and AbortSignal.any through weak references before that).
    const controller = this.lightSignals ? new LightAbort() : new AbortController();
    const signal = controller.signal;
    this.open.add(controller);
    this.requests.set(message.id, controller);
    try {
      const response = await this.http.post(message, options.headers, signal);
      if (contentType(response) === "text/event-stream") {
        const answer = await this.readStream(response, message, options, signal);
        controller.abort();
        return answer;
      }
      const text = await readBody(
        response,
        this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        signal,
        `the answer to ${message.method}`,
      );
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
      if (this.requests.get(message.id) === controller) this.requests.delete(message.id);
      this.open.delete(controller);
    }
  }

  cancel(id: JsonRpcId, reason: unknown): void {
    this.requests.get(id)?.abort(reason);
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
    const session = this.session.ids;
    let elsewhere!: (response: JsonRpcResponse) => void;
    const arrived = new Promise<JsonRpcResponse>((resolve) => (elsewhere = resolve));
    if (session) this.session.awaitAnswer(message.id, elsewhere);
    const onMessage = (value: unknown): boolean => {
      const incoming = classify(value);
      if (incoming.kind === "response") {
        if (incoming.message.id === message.id) {
          answer = incoming.message;
          return true;
        }
        if (session) this.session.dispatch(value);
        else
          this.log(
            `mcp http client: skipped a response to another request (${String(incoming.message.id)})`,
          );
      } else if (incoming.kind === "notification") {
        options.onNotification(incoming.message);
      } else if (incoming.kind === "request") {
        this.session.answer(incoming.message);
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
            await readEvents(
              current,
              events,
              signal,
              onMessage,
              {
                stream: `the SSE stream of ${message.method}`,
                event: `answering ${message.method}`,
              },
              this.options.maxDepth ?? DEFAULT_MAX_DEPTH,
              (line) => this.log(line),
            );
          } catch (error) {
            if (signal.aborted || !(error instanceof TransportError) || !session) throw error;
            broken = error;
          }
          if (answer) return answer;
          if (events.lastId !== null) {
            failures = 0;
            lastId = events.lastId;
          }
          retry = this.session.retry(events, retry);
          // Without a session, or an event id to resume from, the stream cannot be resumed.
          if (!session || lastId === null || session !== this.session.ids)
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
          next = await Promise.race([this.http.get(lastId, signal), arrived]);
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
      if (session) this.session.forget(message.id);
    }
  }

  async notify(
    message: JsonRpcNotification,
    options: { headers?: Readonly<Record<string, string>> } = {},
  ): Promise<void> {
    const controller = new AbortController();
    this.open.add(controller);
    try {
      const response = await this.http.post(
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
    this.session.stopListening();
    for (const controller of this.open)
      controller.abort(new TransportError("the transport was closed"));
    this.open.clear();
  }
}
