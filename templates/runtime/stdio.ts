/**
 * The stdio transport: newline-delimited JSON-RPC over a pair of byte streams (the process's stdin
 * and stdout by default; any Readable/Writable pair works, e.g. a socket). Every line written to the
 * output is exactly one JSON-RPC message; diagnostics go to the error stream. The transport frames
 * and delivers messages, tracks in-flight requests for cancellation, and leaves every protocol rule
 * to the handler. Revision-independent; copied verbatim into generated output.
 */
import type { Readable, Writable } from "node:stream";
import { admissionLimits, Budget } from "./admission.js";
import { captureConsole, writeStdout } from "./console-capture.js";
import { LineFramer } from "./line-framer.js";
import {
  DEFAULT_MAX_DEPTH,
  ErrorCode,
  failure,
  invalidRequest,
  kindOf,
  nestsDeeperThan,
  parseError,
  SERVER_BUSY,
  tooDeepError,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from "./jsonrpc.js";
import {
  isThenable,
  LazyAbort,
  SESSION_SEND,
  type Delivery,
  type MessageHandler,
  type Outcome,
} from "./transport.js";

export interface StdioOptions {
  /** Where messages come from; defaults to `process.stdin`. */
  input?: Readable;
  /** Where messages go, one per line; defaults to `process.stdout`. */
  output?: Writable;
  /** Where diagnostics go when the handler has no `log`; defaults to `process.stderr`. */
  errors?: Writable;
  /** The longest line accepted, in bytes, not counting its line terminator; defaults to 4 MiB. */
  maxLineBytes?: number;
  /**
   * Redirects the `console` methods that print to stdout (`log`, `info`, `debug`, `dir`, `table`,
   * ...) to the error stream while the server runs, so nothing but protocol messages reaches the
   * output. When the output is `process.stdout`, stray `process.stdout.write` calls are redirected
   * too. Defaults to `true`.
   */
  captureConsole?: boolean;
  /** The notification by which the peer cancels a request (its `requestId` param names it); the generated server passes its revision's. */
  cancelledMethod?: string;
  /** Deepest nesting of arrays and objects accepted in a line (checked before parsing); default 1000. */
  maxDepth?: number;
  /**
   * Requests held at once (read and not yet answered); past it a request is answered at once with
   * a "server busy" error. Default 1024.
   */
  maxRequestsInFlight?: number;
  /** Bytes of requests held at once (their lines' lengths); default 32 MiB. */
  maxBytesInFlight?: number;
}

export interface StdioServer {
  /**
   * Resolves once the server has shut down: input ended (or `close()` was called, or the output
   * failed), in-flight requests were aborted and have finished, and their responses were written.
   */
  closed: Promise<void>;
  /** Stops reading, aborts in-flight requests and shuts down as when the input ends. */
  close(): void;
}

const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Lines longer than this (in UTF-16 units) are written apart from their newline. */
const LONG_LINE = 64 * 1024;
const BOM = 0xfeff;

/** Serves `handler` over newline-delimited JSON-RPC until the input ends. */
export function serveStdio(handler: MessageHandler, options: StdioOptions = {}): StdioServer {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const errors = options.errors ?? process.stderr;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const cancelledMethod = options.cancelledMethod ?? "notifications/cancelled";
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  // Made first: it refuses a cap that is not a positive integer before anything is touched.
  const framer = new LineFramer(maxLineBytes, {
    line: (bytes, start, end) => handleLine(bytes, start, end),
    tooLong: () => rejectLongLine(),
  });
  // One stdio connection is the whole server: its budget is the connection's.
  const limits = admissionLimits({
    maxRequestsInFlight: options.maxRequestsInFlight,
    maxBytesInFlight: options.maxBytesInFlight,
  });
  const budget = new Budget(limits.maxRequestsInFlight, limits.maxBytesInFlight);
  const processStreams = input === process.stdin && output === process.stdout;
  const ownsOutput = output !== process.stdout && output !== process.stderr;

  const log = (message: string): void => {
    try {
      if (handler.log) handler.log(message);
      else errors.write(`mcp stdio: ${message}\n`);
    } catch {
      // Diagnostics must never take the server down.
    }
  };

  /** Set once shutdown starts: no more input is read. */
  let closing = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  // ---- output -------------------------------------------------------------------------------

  let outputOpen = true;
  let releaseConsole: (() => void) | undefined;
  // With stdout captured, `process.stdout.write` is redirected; the transport keeps the real one.
  const writeOut = (text: string, callback?: (error?: Error | null) => void): boolean =>
    output === process.stdout ? writeStdout(text, callback) : output.write(text, callback);

  const onOutputError = (error: Error): void => {
    if (!outputOpen) return;
    outputOpen = false;
    log(`output failed (${error.message}); shutting down`);
    void shutdown(false);
  };
  output.on("error", onOutputError);
  const onErrorsError = (): void => {};
  if (errors !== output) errors.on("error", onErrorsError);

  let pausedForOutput = false;
  const onDrain = (): void => {
    if (!pausedForOutput) return;
    pausedForOutput = false;
    if (!closing) input.resume();
  };
  output.on("drain", onDrain);

  /** Writes one message as one line; false when it could not be serialised or the output is gone. */
  const send = (message: JsonRpcMessage): boolean => {
    if (!outputOpen || output.destroyed || output.writableEnded) return false;
    let line: unknown;
    try {
      line = JSON.stringify(message);
    } catch (error) {
      log(`could not serialise an outgoing message: ${describe(error)}`);
      return false;
    }
    if (typeof line !== "string") {
      log("could not serialise an outgoing message");
      return false;
    }
    try {
      // A long line goes out before its newline: appending the newline would copy all of it.
      let flowing: boolean;
      if (line.length > LONG_LINE) {
        writeOut(line);
        flowing = writeOut("\n");
      } else flowing = writeOut(`${line}\n`);
      // Back-pressure: stop reading new requests until the peer catches up with our output.
      if (!flowing && !closing && !pausedForOutput) {
        pausedForOutput = true;
        input.pause();
      }
    } catch (error) {
      onOutputError(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
    return true;
  };

  const sendResponse = (outcome: Outcome): void => {
    const response = outcome?.response;
    if (response === null || response === undefined) return;
    if (send(response) || !outputOpen) return;
    // A response that cannot be serialised (a BigInt, a cycle) still gets an answer.
    if (response.id !== undefined) {
      send(
        failure(response.id, {
          code: ErrorCode.InternalError,
          message: "Internal error: the response could not be serialised",
        }),
      );
    }
  };

  // ---- console capture ----------------------------------------------------------------------

  if (options.captureConsole ?? true)
    releaseConsole = captureConsole(errors, output === process.stdout);

  // ---- in-flight requests -------------------------------------------------------------------

  /** Requests and notifications still being handled asynchronously, and who waits for them all to finish. */
  let pending = 0;
  let drained: (() => void) | null = null;
  /** The signal for notifications and responses: aborted when the connection goes away. */
  const connection = new AbortController();
  /** One stdio connection is one session; what the server sends outside any request goes to the output. */
  const session: Record<string, unknown> = {};
  (session as Record<symbol, unknown>)[SESSION_SEND] = (message: JsonRpcMessage): void =>
    void send(message);

  /**
   * One request, from the moment it is read until its response is written: the handler's view of
   * the transport (a `Delivery`), its abort signal, and its place among the requests in flight
   * with its id (which cancellation finds by id). One object per request, its behaviour on the
   * prototype.
   */
  class InFlight extends LazyAbort implements Delivery {
    readonly session = session;
    /** The peer cancelled it: nothing more may be sent for it. */
    cancelled = false;
    /** Its response has been written (or suppressed). */
    done = false;
    /** An answer given at once, written when the chunk that carried the request has been read. */
    outcome: Outcome | null = null;
    /** The other requests in flight with the same id (a peer's mistake, or an attack). */
    previous: InFlight | null = null;
    next: InFlight | null = null;
    /** The next answer waiting to be written. */
    nextReady: InFlight | null = null;

    constructor(
      readonly id: JsonRpcId,
      /** The length of its line, held against the budget until it is answered. */
      readonly bytes: number,
    ) {
      super();
    }

    notify(notification: JsonRpcNotification): void {
      if (this.cancelled) return;
      if (this.done) {
        log(`dropped a notification sent after request ${JSON.stringify(this.id)} completed`);
        return;
      }
      send(notification);
    }
  }

  // The requests in flight by id, so that a cancellation finds its request at once whatever the
  // number in flight: each id's entry heads a list of the requests sharing it, threaded through
  // the requests themselves (a Set per id cost objects per request that outlived it in the old
  // generation). Map keys compare as `===` does: 1 and "1" differ, 0 and -0 do not.
  const inFlight = new Map<JsonRpcId, InFlight>();
  // Answers given at once, oldest first, waiting for the end of the chunk.
  let firstReady: InFlight | null = null;
  let lastReady: InFlight | null = null;

  const track = (entry: InFlight): void => {
    const head = inFlight.get(entry.id);
    if (head) {
      entry.next = head;
      head.previous = entry;
    }
    inFlight.set(entry.id, entry);
    budget.requests++;
    budget.bytes += entry.bytes;
  };

  const untrack = (entry: InFlight): void => {
    if (entry.previous) entry.previous.next = entry.next;
    else if (entry.next) inFlight.set(entry.id, entry.next);
    else inFlight.delete(entry.id);
    if (entry.next) entry.next.previous = entry.previous;
    entry.previous = null;
    entry.next = null;
    budget.requests--;
    budget.bytes -= entry.bytes;
  };

  const cancel = (id: JsonRpcId, reason: unknown): void => {
    for (let entry = inFlight.get(id) ?? null; entry; entry = entry.next) {
      if (entry.cancelled || entry.done) continue;
      entry.cancelled = true;
      entry.abort(abortReason(typeof reason === "string" ? reason : "The request was cancelled"));
    }
  };

  /** Writes a request's response, unless the peer cancelled it, and forgets the request. */
  const finish = (entry: InFlight, outcome: Outcome): void => {
    entry.done = true;
    untrack(entry);
    // A cancelled request gets no response: the peer has stopped waiting for it.
    if (!entry.cancelled) sendResponse(outcome);
  };

  const failed = (entry: InFlight, error: unknown): Outcome => {
    log(`handler failed on request ${JSON.stringify(entry.id)}: ${describe(error)}`);
    return {
      response: failure(entry.id, { code: ErrorCode.InternalError, message: "Internal error" }),
      httpStatus: 500,
    };
  };

  /**
   * Writes the answers given at once. They wait until the chunk that carried their requests has
   * been read, as an answer that takes a promise does, so that a cancellation later in the same
   * chunk still suppresses them.
   */
  const writeReady = (): void => {
    while (firstReady) {
      const entry = firstReady;
      firstReady = entry.nextReady;
      if (!firstReady) lastReady = null;
      entry.nextReady = null;
      const outcome = entry.outcome!;
      entry.outcome = null;
      finish(entry, outcome);
    }
  };

  /** Settles one request with its handler's answer: at once when it is ready, else when it is. */
  const answer = (entry: InFlight, outcome: unknown): void => {
    if (!isThenable(outcome)) {
      entry.outcome = outcome as Outcome;
      if (lastReady) lastReady.nextReady = entry;
      else firstReady = entry;
      lastReady = entry;
      return;
    }
    pending++;
    const settle = (settled: Outcome): void => {
      try {
        finish(entry, settled);
      } finally {
        if (--pending === 0) drained?.();
      }
    };
    Promise.resolve(outcome as PromiseLike<Outcome>).then(settle, (error: unknown) =>
      settle(failed(entry, error)),
    );
  };

  let warnedBusy = false;
  const dispatchRequest = (request: JsonRpcRequest, bytes: number): void => {
    if (!budget.admits(bytes)) {
      // Refused at once; what was admitted goes on being served.
      if (!warnedBusy) log("too many requests in flight: refusing requests until some finish");
      warnedBusy = true;
      send(
        failure(request.id, {
          code: SERVER_BUSY,
          message: "Server busy: too many requests in flight; retry later",
        }),
      );
      return;
    }
    warnedBusy = false;
    const entry = new InFlight(request.id, bytes);
    track(entry);
    if (closing) entry.abort(abortReason("The connection is closing"));
    let outcome: unknown;
    try {
      outcome = handler.handleRequest
        ? handler.handleRequest(request, entry)
        : handler.handle(request, entry);
    } catch (error) {
      outcome = failed(entry, error);
    }
    answer(entry, outcome);
  };

  /** What notifications and responses get: the connection's signal, and its output. */
  const connectionDelivery: Delivery = {
    signal: connection.signal,
    session,
    notify: (notification) => void send(notification),
  };
  const notificationFailed = (error: unknown): void =>
    log(`handler failed on a notification: ${describe(error)}`);
  const responseFailed = (error: unknown): void =>
    log(`handler failed on a response: ${describe(error)}`);

  const dispatchOther = (
    value: Record<string, unknown>,
    kind: "notification" | "response",
  ): void => {
    if (kind === "notification" && value["method"] === cancelledMethod) {
      const params = value["params"] as Record<string, unknown> | undefined;
      const requestId = params?.["requestId"];
      if (
        typeof requestId === "string" ||
        (typeof requestId === "number" && Number.isFinite(requestId))
      ) {
        cancel(requestId, params?.["reason"]);
      }
    }
    pending++;
    const done = (): void => {
      if (--pending === 0) drained?.();
    };
    invoke(handler, value, connectionDelivery)
      .then(sendResponse, kind === "notification" ? notificationFailed : responseFailed)
      .then(done, done);
  };

  // ---- framing ------------------------------------------------------------------------------

  const decoder = new TextDecoder("utf-8", { fatal: true });

  const rejectLongLine = (): void => {
    log(`dropped a line longer than ${maxLineBytes} bytes`);
    send(
      failure(undefined, {
        code: ErrorCode.InvalidRequest,
        message: `Invalid request: message exceeds the maximum line length of ${maxLineBytes} bytes`,
      }),
    );
  };

  const rejectLine = (error: JsonRpcFailure): void => {
    log(`rejected an incoming line: ${error.error.message}`);
    send(error);
  };

  /** Handles the line `bytes[start, end)` (without its line terminator). */
  const handleLine = (bytes: Buffer, start: number, end: number): void => {
    // Decoded without a view of the bytes or a copy of them. Invalid UTF-8 always decodes to some
    // U+FFFD, so only a line showing one is decoded again, strictly, to tell which it is.
    let text = bytes.toString("utf8", start, end);
    if (text.includes("\uFFFD")) {
      try {
        text = decoder.decode(bytes.subarray(start, end));
      } catch {
        log("received a line that is not valid UTF-8");
        send(
          failure(undefined, {
            code: ErrorCode.ParseError,
            message: "Parse error: not valid UTF-8",
          }),
        );
        return;
      }
    } else if (text.charCodeAt(0) === BOM) {
      // As the strict decoder does (a leading byte order mark is not part of the text).
      text = text.slice(1);
    }
    if (text.trim() === "") return;
    if (nestsDeeperThan(text, maxDepth)) {
      rejectLine(tooDeepError(maxDepth));
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      rejectLine(parseError());
      return;
    }
    const kind = kindOf(value);
    if (kind === "invalid") {
      rejectLine(invalidRequest(value));
      return;
    }
    if (kind === "request") dispatchRequest(value as JsonRpcRequest, end - start);
    else dispatchOther(value as Record<string, unknown>, kind);
  };

  const onData = (chunk: Uint8Array | string): void => {
    if (closing) return;
    framer.push(chunk);
    writeReady();
  };

  // ---- shutdown -----------------------------------------------------------------------------

  const onEnd = (): void => void shutdown(true);
  const onInputError = (error: Error): void => {
    log(`input failed (${error.message}); shutting down`);
    void shutdown(false);
  };

  let signalled = false;
  const onSignal = (): void => {
    if (signalled) {
      // A second signal: stop waiting for in-flight requests.
      process.exit(1);
    }
    signalled = true;
    void shutdown(false).then(() => process.exit(0));
  };

  async function shutdown(endOfInput: boolean): Promise<void> {
    if (closing) return closed;
    // An unterminated last line is still a message.
    if (endOfInput) framer.end();
    writeReady();
    closing = true;
    framer.stop();
    input.off("data", onData);
    input.off("end", onEnd);
    input.off("close", onEnd);
    // Reading stops, so a process whose stdin is still open can exit.
    if (!endOfInput) input.pause();

    const reason = abortReason("The connection is closing");
    connection.abort(reason);
    for (const head of [...inFlight.values()]) {
      for (let entry: InFlight | null = head; entry; entry = entry.next) entry.abort(reason);
    }
    writeReady();
    if (pending > 0) await new Promise<void>((resolve) => (drained = resolve));

    try {
      handler.endSession?.(session);
    } catch (error) {
      log(`ending the session failed: ${describe(error)}`);
    }
    await flush();
    input.off("error", onInputError);
    output.off("drain", onDrain);
    output.off("error", onOutputError);
    if (errors !== output) errors.off("error", onErrorsError);
    if (processStreams) {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
    }
    releaseConsole?.();
    releaseConsole = undefined;
    resolveClosed();
  }

  /**
   * Waits until everything written has been handed on (or the output failed). An output the
   * transport was given is ended; the process's own stdout is left open.
   */
  const flush = (): Promise<void> =>
    new Promise((resolve) => {
      if (!outputOpen || output.destroyed || output.writableEnded) return resolve();
      if (!ownsOutput && output.writableLength === 0) return resolve();
      const done = (): void => {
        output.off("close", done);
        output.off("error", done);
        resolve();
      };
      output.on("close", done);
      output.on("error", done);
      // Callbacks run in write order, so this one runs once everything before it is out.
      if (ownsOutput) output.end(done);
      else writeOut("", done);
    });

  input.on("data", onData);
  input.on("end", onEnd);
  input.on("close", onEnd);
  input.on("error", onInputError);
  if (processStreams) {
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  }

  return {
    closed,
    close: () => void shutdown(false),
  };
}

/** Calls the handler, turning a synchronous throw into a rejection. */
async function invoke(
  handler: MessageHandler,
  message: unknown,
  delivery: Delivery,
): Promise<Outcome> {
  return handler.handle(message, delivery);
}

function abortReason(message: string): Error {
  return new DOMException(message, "AbortError");
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
