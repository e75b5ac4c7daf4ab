/**
 * The stdio transport: newline-delimited JSON-RPC over a pair of byte streams (the process's stdin
 * and stdout by default; any Readable/Writable pair works, e.g. a socket). Every line written to the
 * output is exactly one JSON-RPC message; diagnostics go to the error stream. The transport frames
 * and delivers messages, tracks in-flight requests for cancellation, and leaves every protocol rule
 * to the handler. `serveStdio` wires the pieces, each in a module of its own: lines in
 * (`line-framer.ts`), lines out (`stdio-writer.ts`), the requests in flight (`stdio-in-flight.ts`),
 * and the console kept off the output (`console-capture.ts`). Revision-independent; copied
 * verbatim into generated output.
 */
import type { Readable, Writable } from "node:stream";
import { admissionLimits, Budget } from "./admission.js";
import { captureConsole } from "./console-capture.js";
import { LineFramer } from "../shared/line-framer.js";
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
  type JsonRpcMessage,
  type JsonRpcRequest,
} from "../shared/jsonrpc.js";
import { abortReason, InFlight, InFlightRequests, type Connection } from "./stdio-in-flight.js";
import { LineWriter } from "./stdio-writer.js";
import {
  isThenable,
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
  /**
   * The notification by which the peer cancels a request (the handler's `cancelledRequest` reads
   * which one); the generated server passes its revision's; none by default.
   */
  cancelledMethod?: string | null;
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
   * failed), in-flight requests were aborted and have ended, and their responses were written.
   */
  closed: Promise<void>;
  /** Stops reading, aborts in-flight requests and shuts down as when the input ends. */
  close(): void;
}

const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
const BOM = 0xfeff;
/** Stateless between calls (no `stream` option), so one serves every line of every server. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Serves `handler` over newline-delimited JSON-RPC until the input ends. */
export function serveStdio(handler: MessageHandler, options: StdioOptions = {}): StdioServer {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const errors = options.errors ?? process.stderr;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const cancelledMethod = options.cancelledMethod ?? null;
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

  const writer = new LineWriter(output, {
    log,
    failed: (error) => {
      log(`output failed (${error.message}); shutting down`);
      void shutdown(false);
    },
    pause: () => {
      if (!closing) input.pause();
    },
    resume: () => {
      if (!closing) input.resume();
    },
  });
  const send = (message: JsonRpcMessage): boolean => writer.send(message);
  const sendResponse = (outcome: Outcome): void => writer.sendResponse(outcome);
  const onErrorsError = (): void => {};
  if (errors !== output) errors.on("error", onErrorsError);

  let releaseConsole =
    (options.captureConsole ?? true)
      ? captureConsole(errors, output === process.stdout)
      : undefined;

  // ---- requests and notifications -----------------------------------------------------------

  /** Requests and notifications still being handled asynchronously, and who waits for them all to end. */
  let pending = 0;
  let drained: (() => void) | null = null;
  const workDone = (): void => {
    if (--pending === 0) drained?.();
  };
  /** The signal for notifications and responses: aborted when the connection goes away. */
  const connectionSignal = new AbortController();
  /** One stdio connection is one session; what the server sends outside any request goes to the output. */
  const session: Record<string, unknown> = {};
  (session as Record<symbol, unknown>)[SESSION_SEND] = (message: JsonRpcMessage): void =>
    void send(message);
  const connection: Connection = { session, send, log };
  const inFlight = new InFlightRequests(budget, sendResponse);

  const failed = (entry: InFlight, error: unknown): Outcome => {
    log(`handler failed on request ${JSON.stringify(entry.id)}: ${describe(error)}`);
    return {
      response: failure(entry.id, { code: ErrorCode.InternalError, message: "Internal error" }),
      httpStatus: 500,
    };
  };

  /** Settles one request's outcome: queued at once when it is ready, else delivered when it is. */
  const settle = (entry: InFlight, outcome: unknown): void => {
    if (!isThenable(outcome)) {
      inFlight.ready(entry, outcome as Outcome);
      return;
    }
    pending++;
    const deliver = (settled: Outcome): void => {
      try {
        inFlight.deliver(entry, settled);
      } finally {
        workDone();
      }
    };
    Promise.resolve(outcome as PromiseLike<Outcome>).then(deliver, (error: unknown) =>
      deliver(failed(entry, error)),
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
    const entry = new InFlight(request.id, bytes, connection);
    inFlight.track(entry);
    if (closing) entry.abort(abortReason("The connection is closing"));
    let outcome: unknown;
    try {
      outcome = handler.handleRequest
        ? handler.handleRequest(request, entry)
        : handler.handle(request, entry);
    } catch (error) {
      outcome = failed(entry, error);
    }
    settle(entry, outcome);
  };

  /** What notifications and responses get: the connection's signal, and its output. */
  const connectionDelivery: Delivery = {
    signal: connectionSignal.signal,
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
      // The handler reads the params: which request they name, and why, is the revision's to say.
      const cancelled = handler.cancelledRequest?.(value["params"], session) ?? null;
      if (cancelled) inFlight.cancel(cancelled.requestId, cancelled.reason);
    }
    pending++;
    invoke(handler, value, connectionDelivery)
      .then(sendResponse, kind === "notification" ? notificationFailed : responseFailed)
      .then(workDone, workDone);
  };

  // ---- input --------------------------------------------------------------------------------

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
    const text = decodeLine(bytes, start, end);
    if (text === null) {
      log("received a line that is not valid UTF-8");
      send(
        failure(undefined, {
          code: ErrorCode.ParseError,
          message: "Parse error: not valid UTF-8",
        }),
      );
      return;
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
    inFlight.deliverReady();
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

  /** Stops reading, ends what is in flight, flushes the output and lets go of everything. */
  async function shutdown(endOfInput: boolean): Promise<void> {
    if (closing) return closed;
    // An unterminated last line is still a message.
    if (endOfInput) framer.end();
    inFlight.deliverReady();
    closing = true;
    framer.stop();
    input.off("data", onData);
    input.off("end", onEnd);
    input.off("close", onEnd);
    // Reading stops, so a process whose stdin is still open can exit.
    if (!endOfInput) input.pause();

    const reason = abortReason("The connection is closing");
    connectionSignal.abort(reason);
    inFlight.abortAll(reason);
    inFlight.deliverReady();
    if (pending > 0) await new Promise<void>((resolve) => (drained = resolve));

    try {
      handler.endSession?.(session);
    } catch (error) {
      log(`ending the session failed: ${describe(error)}`);
    }
    // An output the transport was given is ended; the process's own stdout is left open.
    await writer.flush(ownsOutput);
    input.off("error", onInputError);
    writer.detach();
    if (errors !== output) errors.off("error", onErrorsError);
    if (processStreams) {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
    }
    releaseConsole?.();
    releaseConsole = undefined;
    resolveClosed();
  }

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

/**
 * A line's text, or null when it is not valid UTF-8. Decoded without a view of the bytes or a copy
 * of them; invalid UTF-8 always decodes to some U+FFFD, so only a line showing one is decoded
 * again, strictly, to tell which it is.
 */
function decodeLine(bytes: Buffer, start: number, end: number): string | null {
  const text = bytes.toString("utf8", start, end);
  if (text.includes("\uFFFD")) {
    try {
      return STRICT_UTF8.decode(bytes.subarray(start, end));
    } catch {
      return null;
    }
  }
  // As the strict decoder does (a leading byte order mark is not part of the text).
  return text.charCodeAt(0) === BOM ? text.slice(1) : text;
}

/** Calls the handler, turning a synchronous throw into a rejection. */
async function invoke(
  handler: MessageHandler,
  message: unknown,
  delivery: Delivery,
): Promise<Outcome> {
  return handler.handle(message, delivery);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
