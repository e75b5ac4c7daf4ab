/**
 * The mechanics of a legacy (initialize-era) session over HTTP: the session's id and version, the
 * GET stream for what the server sends outside any request (reconnected with `Last-Event-ID`
 * after the server's `retry`), the messages arriving there (a response to a request whose own
 * stream broke, a notification, a request of the server's, answered by a POST of its own), and
 * DELETE at the end. Modern requests carry no session. Browser-safe. Revision-independent; copied
 * verbatim into generated output.
 */
import { TransportError } from "./errors.js";
import type { HttpFetch, SessionIds } from "./http-fetch.js";
import type { Abortable } from "./light-abort.js";
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_SERVER_REQUESTS,
  DEFAULT_MIN_RECONNECT_MS,
  DEFAULT_RECONNECT_ATTEMPTS,
  DEFAULT_RECONNECT_MS,
  type HttpTransportOptions,
} from "./http-options.js";
import { contentType, delay, readEvents, reconnectDelay, SseEvents } from "./http-read.js";
import type { TransportPeer } from "./transport.js";
import { classify, DEFAULT_MAX_DEPTH } from "../shared/jsonrpc.js";
import type { JsonRpcId, JsonRpcRequest, JsonRpcResponse } from "../shared/jsonrpc.js";

export class HttpSession {
  /** The session, between the handshake and its end; `null` outside one. */
  ids: SessionIds | null = null;
  /** Requests of the session awaiting an answer that may come on another stream (a resumed one). */
  private readonly awaiting = new Map<JsonRpcId, (response: JsonRpcResponse) => void>();
  /** The session's GET stream while it runs. */
  private listening: AbortController | null = null;
  /** Requests of the server's being answered (until their answer's POST is done). */
  private answering = 0;
  /** Whether the last request of the server's was dropped (a drop is logged when drops begin). */
  private dropping = false;
  /** The server ended the session (404 on its GET): the next request says so, and the core opens a new one. */
  expired = false;

  constructor(
    private readonly http: HttpFetch,
    private readonly options: HttpTransportOptions,
    private readonly peer: () => TransportPeer | null,
    /** The transport's requests in flight: what closing it aborts. */
    private readonly open: Set<Abortable>,
  ) {}

  /** A legacy handshake is about to be sent: the session id its answer names is kept from here on. */
  begin(): void {
    this.stopListening();
    this.ids = { id: null, version: null };
  }

  /**
   * The handshake is complete: later messages carry the negotiated version, and the GET stream is
   * opened for what the server sends outside any request. Resolves once the server has answered the
   * GET (a server without one answers 405, which is fine).
   */
  async opened(version: string): Promise<void> {
    if (!this.ids) return;
    this.ids.version = version;
    await this.listen();
  }

  /** Ends the session: the GET stream stops, and a session the server named is deleted. */
  async end(): Promise<void> {
    const session = this.ids;
    this.ids = null;
    this.stopListening();
    // A request still awaiting its answer fails by its own stream or its caller's signal.
    this.awaiting.clear();
    if (!session?.id) return;
    const controller = new AbortController();
    this.open.add(controller);
    try {
      const response = await (this.options.fetch ?? fetch)(this.http.url, {
        method: "DELETE",
        headers: await this.http.authorized(this.http.sessionHeaders(session), controller.signal),
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

  stopListening(): void {
    this.listening?.abort(new TransportError("the session's stream was closed"));
    this.listening = null;
  }

  /** A request of the session whose answer may also come on another stream: `arrived` takes it. */
  awaitAnswer(id: JsonRpcId, arrived: (response: JsonRpcResponse) => void): void {
    this.awaiting.set(id, arrived);
  }

  forget(id: JsonRpcId): void {
    this.awaiting.delete(id);
  }

  /** The wait before reconnecting a stream: the server's `retry` (never below the floor), else `current`. */
  retry(events: SseEvents, current: number): number {
    return reconnectDelay(
      events,
      current,
      this.options.reconnect?.minDelayMs ?? DEFAULT_MIN_RECONNECT_MS,
    );
  }

  /**
   * A message on a session's stream that answers no request read here: a response resolves the
   * request awaiting it (its own stream broke), a notification goes to the client, a request of the
   * server's is answered by a POST.
   */
  dispatch(message: unknown): void {
    const incoming = classify(message);
    if (incoming.kind === "response") {
      const id = incoming.message.id;
      const resolve = id === undefined ? undefined : this.awaiting.get(id);
      if (resolve) resolve(incoming.message);
      else this.log(`mcp http client: skipped a response to no pending request (${String(id)})`);
    } else if (incoming.kind === "notification") this.peer()?.notification(incoming.message);
    else if (incoming.kind === "request") this.answer(incoming.message);
    else this.log(`mcp http client: skipped an SSE event that is not a JSON-RPC message`);
  }

  /**
   * Answers a request the server sent on a stream of a legacy session, with a POST of its own; at
   * most `maxServerRequests` at once (a server sending thousands would have as many POSTs open).
   */
  answer(request: JsonRpcRequest): void {
    const peer = this.peer();
    if (!this.ids || !peer) {
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
    void peer
      .request(request)
      .then(async (response) => {
        if (response === null) return;
        const controller = new AbortController();
        this.open.add(controller);
        try {
          const answered = await this.http.post(response, {}, controller.signal);
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
          response = await this.http.get(lastId, signal);
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
          if (response.status === 404 && this.ids?.id) this.expired = true;
          return;
        }
        failures = 0;
        const events = new SseEvents(this.options.maxEventBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
        try {
          await readEvents(
            response,
            events,
            signal,
            (message) => this.dispatch(message),
            { stream: "the session's GET stream", event: "on the session's GET stream" },
            this.options.maxDepth ?? DEFAULT_MAX_DEPTH,
            (message) => this.log(message),
          );
        } catch (error) {
          if (signal.aborted) return;
          this.log(`mcp http client: ${error instanceof Error ? error.message : String(error)}`);
        }
        lastId = events.lastId ?? lastId;
        retry = this.retry(events, retry);
        failures++;
        await delay(retry, signal).catch(() => {});
      }
    })();
    return first;
  }

  private log(message: string): void {
    this.peer()?.log(message);
  }
}
