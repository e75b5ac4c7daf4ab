/**
 * One exchange of the Streamable HTTP transport: a POST's body read (within its budgets and its
 * time), handed to the dispatcher with what came with it (`Delivery`: its headers, session and
 * principal), and the outcome delivered as one JSON body or as an SSE stream scoped to the request.
 * Revision-independent; copied verbatim into generated output.
 */
import type { HttpIn, HttpOut, RequestHeaders } from "../../shared/http-wire.js";
import { utf8Length } from "../../shared/http-wire.js";
import {
  ErrorCode,
  failure,
  invalidRequest,
  kindOf,
  shapeOf,
  tooDeepError,
  tooManyContainersError,
} from "../../shared/jsonrpc.js";
import type { JsonRpcNotification, JsonRpcRequest } from "../../shared/jsonrpc.js";
import type { Acceptance } from "../../shared/http-headers.js";
import { principalOf, sendRefusal, type Principal } from "../../auth/http-auth.js";
import { isThenable, LazyAbort, unrefTimer, type Delivery, type Outcome } from "../transport.js";
import type { Budget } from "../admission.js";
import type { SharedSessions } from "./shared.js";
import type { Config } from "./config.js";
import { ownerOf } from "./sessions.js";
import { CONSUMED_BODY, earlierBody, valueShapeOf } from "./body.js";
import {
  busy,
  failed,
  concatBytes,
  decodeUtf8,
  sendError,
  sendJson,
  serialize,
  SSE_HEADERS,
  sseEvent,
  writeEvent,
} from "./framing.js";

const EXCHANGE: unique symbol = Symbol("mcp exchange");
type Carrier = { [EXCHANGE]?: Exchange };

function onBodyData(this: HttpIn, chunk: Uint8Array): void {
  (this as Carrier)[EXCHANGE]?.bodyChunk(chunk);
}

function onBodyEnd(this: HttpIn): void {
  (this as Carrier)[EXCHANGE]?.bodyEnd(true);
}

function onBodyError(this: HttpIn): void {
  (this as Carrier)[EXCHANGE]?.received("aborted");
}

function onBodyClose(this: HttpIn): void {
  (this as Carrier)[EXCHANGE]?.bodyEnd(this.complete);
}

function onResponseClose(this: HttpOut): void {
  (this as Carrier)[EXCHANGE]?.closed();
}

/**
 * The exchange reads the body, and watches the response's end, through listeners shared by every
 * request, which find their exchange on `req` and `res`. A body a framework already read is taken as
 * it left it (body.ts).
 */
export function attachExchange(exchange: Exchange, req: HttpIn, res: HttpOut): void {
  (req as Carrier)[EXCHANGE] = exchange;
  (res as Carrier)[EXCHANGE] = exchange;
  res.on("close", onResponseClose);
  const earlier = earlierBody(req);
  if (earlier !== undefined) return exchange.received(earlier);
  req.on("data", onBodyData);
  req.on("end", onBodyEnd);
  req.on("error", onBodyError);
  req.on("close", onBodyClose);
}

/**
 * One HTTP request from its headers to its response: it reads the body, then is the delivery the
 * handler gets (a class with its getter and methods on the prototype: see `Delivery`), and delivers
 * the outcome, as one JSON body, or as an SSE stream once the handler notifies before its outcome
 * is ready and the client accepts SSE. An outcome ready at once is delivered at once, with no promise.
 */
export class Exchange extends LazyAbort implements Delivery {
  /** The body so far: its first chunk, and all of them once there are more. */
  private first: Uint8Array | null = null;
  private chunks: Uint8Array[] | null = null;
  private size = 0;
  private reading = true;
  /** The request being answered; `null` for a notification or response (a one-way message). */
  private request: JsonRpcRequest | null = null;
  private state: "pending" | "streaming" | "done" = "pending";
  private keepAlive: ReturnType<typeof setInterval> | undefined = undefined;
  private warned = false;
  /** Whether the request named its session (`Mcp-Session-Id`). */
  private readonly inSession: boolean;
  /** Ends a body that takes longer than `bodyTimeoutMs` to arrive. */
  private bodyTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** The id of the session this request opened, once it is in the shared store. */
  private sharedId: string | undefined = undefined;

  constructor(
    private readonly config: Config,
    private readonly req: HttpIn,
    private readonly res: HttpOut,
    private readonly accepts: Acceptance,
    /** The session the request named; else one made when the dispatcher first asks for it. */
    private sessionRecord: Record<string, unknown> | undefined,
    /** The connection's budget; the request holds one request and `reserved` bytes of it and of the server's. */
    private readonly connection: Budget,
    private reserved: number,
    /** Who the client is (`clientOf`), and its budget, which the request holds one request and `reserved` bytes of too. */
    private readonly client: { key: string; budget: Budget },
  ) {
    super();
    this.inSession = sessionRecord !== undefined;
    config.budget.requests++;
    config.budget.bytes += reserved;
    client.budget.requests++;
    client.budget.bytes += reserved;
    connection.requests++;
    connection.bytes += reserved;
    if (config.bodyTimeoutMs > 0) {
      this.bodyTimer = setTimeout(() => this.bodyTimedOut(), config.bodyTimeoutMs);
      unrefTimer(this.bodyTimer);
    }
  }

  /** Gives back what the request held: once, when its response has gone (or the client has). */
  private release(): void {
    if (this.reserved < 0) return;
    const { budget, clients } = this.config;
    budget.requests--;
    budget.bytes -= this.reserved;
    this.client.budget.requests--;
    this.client.budget.bytes -= this.reserved;
    clients.settle(this.client.key, this.client.budget);
    this.connection.requests--;
    this.connection.bytes -= this.reserved;
    this.reserved = -1;
  }

  /** The body did not arrive in time: 408, and the connection closed (what is still coming is never read). */
  private bodyTimedOut(): void {
    this.bodyTimer = undefined;
    if (!this.reading) return;
    this.first = null;
    this.chunks = null;
    this.reading = false;
    sendError(
      this.res,
      408,
      ErrorCode.InvalidRequest,
      `Request timeout: the body did not arrive within ${this.config.bodyTimeoutMs} ms`,
      { Connection: "close" },
    );
  }

  get session(): Record<string, unknown> {
    return (this.sessionRecord ??= {});
  }

  /** Who `HttpOptions.auth` admitted the request as (its identity; `undefined` without auth). */
  get principal(): string | undefined {
    return principalOf(this.req)?.id;
  }

  get auth(): Principal | undefined {
    return principalOf(this.req);
  }

  bodyChunk(chunk: Uint8Array): void {
    if (!this.reading) return;
    this.size += chunk.length;
    // A body of undeclared length is admitted as it arrives.
    const more = this.size - this.reserved;
    if (more > 0) {
      const { budget } = this.config;
      const client = this.client.budget;
      if (!budget.fits(more) || !client.fits(more) || !this.connection.fits(more)) {
        this.first = null;
        this.chunks = null;
        this.reading = false;
        this.stopBodyTimer();
        return busy(
          this.config,
          this.req,
          this.res,
          budget.fits(more) ? 429 : 503,
          !budget.fits(more)
            ? "the server"
            : !client.fits(more)
              ? "this client"
              : "this connection",
        );
      }
      budget.bytes += more;
      client.bytes += more;
      this.connection.bytes += more;
      this.reserved = this.size;
    }
    if (this.size > this.config.maxBodyBytes) {
      this.first = null;
      this.chunks = null;
      // Past the limit, bytes are no longer kept but still drained, so that a client still
      // uploading gets its 413.
      this.received("too-large");
    } else if (this.first === null) this.first = chunk;
    else (this.chunks ??= [this.first]).push(chunk);
  }

  bodyEnd(complete: boolean): void {
    if (!this.reading) return;
    if (!complete) return this.received("aborted");
    const body = this.chunks !== null ? concatBytes(this.chunks, this.size) : (this.first ?? EMPTY);
    this.first = null;
    this.chunks = null;
    this.received(body);
  }

  private stopBodyTimer(): void {
    if (this.bodyTimer !== undefined) clearTimeout(this.bodyTimer);
    this.bodyTimer = undefined;
  }

  /** The body has been read (or could not be, or a framework read it): handle it. Runs once. */
  received(body: Body): void {
    if (!this.reading) return;
    this.reading = false;
    this.stopBodyTimer();
    try {
      this.handleBody(body);
    } catch (error) {
      failed(this.config, this.res, error);
    }
  }

  private handleBody(body: Body): void {
    const { config, res } = this;
    if (body === "aborted") return;
    if (body === "consumed") {
      config.log(`mcp http: ${CONSUMED_BODY}`);
      return sendError(res, 500, ErrorCode.InternalError, `Internal error: ${CONSUMED_BODY}`);
    }
    if (body === "too-large") {
      return sendError(
        res,
        413,
        ErrorCode.InvalidRequest,
        `Payload too large: the limit is ${config.maxBodyBytes} bytes`,
        { Connection: "close" },
      );
    }
    let value: unknown;
    if (body instanceof Uint8Array || !("value" in body)) {
      try {
        const text =
          body instanceof Uint8Array
            ? decodeUtf8(body)
            : "text" in body
              ? body.text
              : decodeUtf8(body.bytes);
        const shape = shapeOf(text, config.maxDepth, config.maxContainers);
        if (shape !== undefined) return this.refuseShape(shape);
        value = JSON.parse(text);
      } catch {
        return sendError(res, 400, ErrorCode.ParseError, "Parse error: not valid JSON");
      }
    } else {
      const shape = valueShapeOf(body.value, config.maxDepth, config.maxContainers);
      if (shape !== undefined) return this.refuseShape(shape);
      value = body.value;
    }
    const kind = kindOf(value);
    if (kind === "invalid") return sendJson(res, 400, invalidRequest(value));
    if (kind === "request") {
      const request = value as JsonRpcRequest;
      const refusal = config.auth?.authorize?.(this.req, request.method, targetOf(config, request));
      if (refusal) return sendRefusal(this.req, res, refusal);
      this.request = request;
      this.dispatch(request);
    } else {
      let outcome: unknown;
      try {
        outcome = config.handler.handle(value, new OneWayDelivery(this));
      } catch (error) {
        outcome = this.handlerThrew(error);
      }
      this.settle(outcome);
    }
  }

  /** A body past `maxDepth` or `maxContainers`, refused before it is parsed (or walked further). */
  private refuseShape(shape: "too-deep" | "too-many"): void {
    const { config, res } = this;
    sendJson(
      res,
      400,
      shape === "too-deep"
        ? tooDeepError(config.maxDepth)
        : tooManyContainersError(config.maxContainers),
    );
  }

  private dispatch(request: JsonRpcRequest): void {
    const { handler } = this.config;
    let outcome: unknown;
    try {
      outcome = handler.handleRequest
        ? handler.handleRequest(request, this)
        : handler.handle(request, this);
    } catch (error) {
      outcome = this.handlerThrew(error);
    }
    this.settle(outcome);
  }

  /** The dispatcher never throws by contract; should it, the outcome is an internal error. */
  private handlerThrew(error: unknown): Outcome {
    this.config.log(
      `mcp http: the handler threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return {
      response:
        this.request === null
          ? null
          : failure(this.request.id, { code: ErrorCode.InternalError, message: "Internal error" }),
      httpStatus: 500,
    };
  }

  /** Answers with the outcome now if it is ready, else once it is. */
  private settle(outcome: unknown): void {
    const { shared } = this.config;
    if (shared && this.sessionRecord !== undefined && !this.inSession)
      return this.settleOpening(shared, outcome);
    if (!isThenable(outcome)) return this.answer(outcome as Outcome);
    Promise.resolve(outcome as PromiseLike<Outcome>)
      .then(
        (settled) => this.answer(settled),
        (error: unknown) => this.answer(this.handlerThrew(error)),
      )
      .catch((error: unknown) => failed(this.config, this.res, error));
  }

  /**
   * Delivers the outcome; in a session shared through a store, once the session is written back if
   * the request changed it (one left as it was is answered at once, as without a store).
   */
  private answer(outcome: Outcome): void {
    const { shared } = this.config;
    if (!shared || !this.inSession) return this.deliver(outcome);
    let saving: Promise<void> | undefined;
    try {
      saving = shared.save(this.sessionRecord!, ownerOf(this.req));
    } catch (error) {
      return failed(this.config, this.res, error);
    }
    if (saving === undefined) return this.deliver(outcome);
    saving.then(
      () => this.deliver(outcome),
      (error: unknown) => failed(this.config, this.res, error),
    );
  }

  /** A request outside any session on a shared store: the session it opened is stored before the client hears of it. */
  private settleOpening(shared: SharedSessions, outcome: unknown): void {
    Promise.resolve(outcome as PromiseLike<Outcome>)
      .then(
        (settled) => settled,
        (error: unknown) => this.handlerThrew(error),
      )
      .then(async (settled) => {
        const record = this.sessionRecord!;
        if (hasKeys(record))
          this.sharedId = await shared.create(record, ownerOf(this.req), this.client.key);
        this.deliver(settled);
      })
      .catch((error: unknown) => failed(this.config, this.res, error));
  }

  /** The response's stream closed: the client's cancellation, when it came before the response. */
  closed(): void {
    this.release();
    this.stopBodyTimer();
    this.stopKeepAlive();
    if (!this.res.writableFinished) this.abort(new Error("client disconnected"));
  }

  private stopKeepAlive(): void {
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }

  /** The request's headers, for the dispatcher's envelope stage. */
  get headers(): RequestHeaders {
    return this.req.headers;
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  /** A notification POST has no response stream: what it notifies is dropped, with one warning. */
  dropNotification(notification: JsonRpcNotification): void {
    if (this.warned) return;
    this.warned = true;
    this.config.log(
      `mcp http: dropped ${notification.method}: a notification POST has no response stream`,
    );
  }

  notify(notification: JsonRpcNotification): void {
    const { config, res } = this;
    // Nothing may follow the response, or anything once the client has gone.
    if (this.state === "done" || this.aborted || res.destroyed) return;
    if (this.state === "pending") {
      if (!this.accepts.sse) {
        if (!this.warned)
          config.log(
            `mcp http: dropped ${notification.method} (and any later notifications): the client accepts only application/json`,
          );
        this.warned = true;
        return;
      }
      this.startStream();
    }
    const line = serialize(notification);
    if (line === undefined)
      config.log(`mcp http: dropped ${notification.method}: not serializable as JSON`);
    else writeEvent(res, line);
  }

  private startStream(): void {
    const { res } = this;
    this.state = "streaming";
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    if (this.config.keepAliveMs > 0) {
      this.keepAlive = setInterval(() => res.write(": keep-alive\n\n"), this.config.keepAliveMs);
      unrefTimer(this.keepAlive);
    }
  }

  /** Writes the outcome: the last event of a stream, one JSON body, or a status alone (202 for a one-way message). */
  private deliver(outcome: Outcome): void {
    const { res, request } = this;
    if (request === null) {
      // Notifications and responses: the dispatcher acts on them; accepted ones get 202 and no body.
      if (res.destroyed) return;
      if (outcome.response !== null) return sendJson(res, outcome.httpStatus, outcome.response);
      res.writeHead(
        outcome.httpStatus >= 200 && outcome.httpStatus < 300 ? 202 : outcome.httpStatus,
      );
      res.end();
      return;
    }
    const streamed = this.state === "streaming";
    this.state = "done";
    this.stopKeepAlive();
    if (this.aborted || res.destroyed) return;

    let response = outcome.response;
    let line = response === null ? undefined : serialize(response);
    let status = outcome.httpStatus;
    if (response !== null && line === undefined) {
      this.config.log(`mcp http: the response to ${request.method} is not serializable as JSON`);
      response = failure(request.id, {
        code: ErrorCode.InternalError,
        message: "Internal error: unserializable response",
      });
      line = serialize(response);
      status = 500;
    }
    if (streamed) {
      if (line !== undefined) writeEvent(res, line);
      res.end();
      return;
    }
    // A client that takes only SSE gets its successes as a stream; error statuses always go out as
    // JSON, since their status code carries the meaning.
    if (!this.accepts.json && status >= 200 && status < 300) {
      res.writeHead(status, SSE_HEADERS);
      res.end(line === undefined ? "" : sseEvent(line));
      return;
    }
    if (line === undefined) {
      res.writeHead(status);
      res.end();
      return;
    }
    const headers: Record<string, string | number> = {
      "Content-Type": "application/json",
      "Content-Length": utf8Length(line),
    };
    // A new session, once the dispatcher has kept something in it.
    if (!this.inSession && this.sessionRecord !== undefined && hasKeys(this.sessionRecord))
      headers["Mcp-Session-Id"] =
        this.sharedId ??
        this.config.sessions.add(this.sessionRecord, ownerOf(this.req), this.client.key);
    res.writeHead(status, headers);
    res.end(line);
  }
}

/** The delivery of a notification or response: the exchange's signal and session, no stream. */
class OneWayDelivery implements Delivery {
  constructor(private readonly exchange: Exchange) {}

  get signal(): AbortSignal {
    return this.exchange.signal;
  }

  get session(): Record<string, unknown> {
    return this.exchange.session;
  }

  notify(notification: JsonRpcNotification): void {
    this.exchange.dropNotification(notification);
  }
}

const EMPTY = new Uint8Array(0);

/** A body as the exchange gets it: read by itself, or as a framework left it (body.ts). */
type Body = Uint8Array | "too-large" | "aborted" | NonNullable<ReturnType<typeof earlierBody>>;

/** `Object.keys(record).length > 0`, without the array. */
function hasKeys(record: Record<string, unknown>): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}

/** The request's target, as its `Mcp-Name` header would mirror it (the tool, prompt or resource). */
function targetOf(config: Config, request: JsonRpcRequest): string | undefined {
  const { nameParams } = config.rules;
  if (!Object.hasOwn(nameParams, request.method)) return undefined;
  const target = request.params?.[nameParams[request.method]!];
  return typeof target === "string" ? target : undefined;
}
