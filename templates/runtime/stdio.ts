/**
 * The stdio transport: newline-delimited JSON-RPC over a pair of byte streams (the process's stdin
 * and stdout by default; any Readable/Writable pair works, e.g. a socket). Every line written to the
 * output is exactly one JSON-RPC message; diagnostics go to the error stream. The transport frames
 * and delivers messages, tracks in-flight requests for cancellation, and leaves every protocol rule
 * to the handler. Revision-independent; copied verbatim into generated output.
 */
import { Console } from "node:console";
import type { Readable, Writable } from "node:stream";
import {
  ErrorCode,
  failure,
  parseMessage,
  type JsonRpcId,
  type JsonRpcMessage,
} from "./jsonrpc.js";
import { LazyAbort, type Delivery, type MessageHandler, type Outcome } from "./transport.js";

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
const LF = 0x0a;
const CR = 0x0d;

/** Serves `handler` over newline-delimited JSON-RPC until the input ends. */
export function serveStdio(handler: MessageHandler, options: StdioOptions = {}): StdioServer {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const errors = options.errors ?? process.stderr;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const cancelledMethod = options.cancelledMethod ?? "notifications/cancelled";
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1)
    throw new RangeError("maxLineBytes must be a positive integer");
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
    output === process.stdout
      ? (realStdoutWrite ?? process.stdout.write).call(process.stdout, text, callback)
      : output.write(text, callback);

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
      // Back-pressure: stop reading new requests until the peer catches up with our output.
      if (!writeOut(`${line}\n`) && !closing && !pausedForOutput) {
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
    const response = outcome.response;
    if (response === null) return;
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

  interface InFlight {
    readonly abort: LazyAbort;
    /** The peer cancelled it: nothing more may be sent for it. */
    cancelled: boolean;
    /** Its response has been written (or suppressed). */
    done: boolean;
  }
  const inFlight = new Map<string, Set<InFlight>>();
  /** Requests and notifications still being handled, and who waits for them all to finish. */
  let pending = 0;
  let drained: (() => void) | null = null;
  /** The signal for notifications and responses: aborted when the connection goes away. */
  const connection = new AbortController();
  /** One stdio connection is one session. */
  const session: Record<string, unknown> = {};

  const idKey = (id: JsonRpcId): string => `${typeof id}:${String(id)}`;

  const cancel = (id: JsonRpcId, reason: unknown): void => {
    for (const entry of inFlight.get(idKey(id)) ?? []) {
      if (entry.cancelled || entry.done) continue;
      entry.cancelled = true;
      entry.abort.abort(
        abortReason(typeof reason === "string" ? reason : "The request was cancelled"),
      );
    }
  };

  const track = (work: Promise<void>): void => {
    // A counter rather than a set of promises: nothing per message beyond the work itself.
    pending++;
    const done = (): void => {
      if (--pending === 0) drained?.();
    };
    void work.then(done, done);
  };

  const dispatch = (
    value: Record<string, unknown>,
    kind: "request" | "notification" | "response",
  ): void => {
    if (kind !== "request") {
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
      const delivery: Delivery = {
        signal: connection.signal,
        session,
        notify: (notification) => void send(notification),
      };
      track(
        invoke(handler, value, delivery).then(
          (outcome) => sendResponse(outcome),
          (error: unknown) => log(`handler failed on a ${kind}: ${describe(error)}`),
        ),
      );
      return;
    }

    const id = value["id"] as JsonRpcId;
    const key = idKey(id);
    const entry: InFlight = { abort: new LazyAbort(), cancelled: false, done: false };
    let entries = inFlight.get(key);
    if (!entries) inFlight.set(key, (entries = new Set()));
    entries.add(entry);
    if (closing) entry.abort.abort(abortReason("The connection is closing"));

    const delivery: Delivery = {
      session,
      get signal() {
        return entry.abort.signal;
      },
      notify: (notification) => {
        if (entry.cancelled) return;
        if (entry.done) {
          log(`dropped a notification sent after request ${JSON.stringify(id)} completed`);
          return;
        }
        send(notification);
      },
    };
    const finish = (outcome: Outcome): void => {
      entry.done = true;
      const set = inFlight.get(key);
      set?.delete(entry);
      if (set?.size === 0) inFlight.delete(key);
      // A cancelled request gets no response: the peer has stopped waiting for it.
      if (!entry.cancelled) sendResponse(outcome);
    };
    track(
      invoke(handler, value, delivery).then(finish, (error: unknown) => {
        log(`handler failed on request ${JSON.stringify(id)}: ${describe(error)}`);
        finish({
          response: failure(id, { code: ErrorCode.InternalError, message: "Internal error" }),
          httpStatus: 500,
        });
      }),
    );
  };

  // ---- framing ------------------------------------------------------------------------------

  const decoder = new TextDecoder("utf-8", { fatal: true });
  let parts: Buffer[] = [];
  let bufferedBytes = 0;
  let lastBufferedByte: number | undefined;
  /** Inside an over-long line: everything up to the next newline is dropped. */
  let discarding = false;

  /** Whether a line of `length` bytes ending in `last` is over the limit (a trailing CR is free). */
  const tooLong = (length: number, last: number | undefined): boolean =>
    length > maxLineBytes && !(length === maxLineBytes + 1 && last === CR);

  const rejectLongLine = (): void => {
    log(`dropped a line longer than ${maxLineBytes} bytes`);
    send(
      failure(undefined, {
        code: ErrorCode.InvalidRequest,
        message: `Invalid request: message exceeds the maximum line length of ${maxLineBytes} bytes`,
      }),
    );
  };

  const handleLine = (bytes: Buffer): void => {
    const end =
      bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(0, end));
    } catch {
      log("received a line that is not valid UTF-8");
      send(
        failure(undefined, { code: ErrorCode.ParseError, message: "Parse error: not valid UTF-8" }),
      );
      return;
    }
    if (text.trim() === "") return;
    const incoming = parseMessage(text);
    if (incoming.kind === "invalid") {
      log(`rejected an incoming line: ${incoming.error.error.message}`);
      send(incoming.error);
      return;
    }
    dispatch(incoming.message as unknown as Record<string, unknown>, incoming.kind);
  };

  const onData = (chunk: Buffer | string): void => {
    if (closing) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    while (start < bytes.length && !closing) {
      const newline = bytes.indexOf(LF, start);
      const end = newline === -1 ? bytes.length : newline;
      if (discarding) {
        if (newline === -1) return;
        discarding = false;
        start = newline + 1;
        continue;
      }
      const length = bufferedBytes + (end - start);
      const last = end > start ? bytes[end - 1] : lastBufferedByte;
      if (tooLong(length, last)) {
        parts = [];
        bufferedBytes = 0;
        rejectLongLine();
        if (newline === -1) {
          discarding = true;
          return;
        }
        start = newline + 1;
        continue;
      }
      if (newline === -1) {
        // Copy: a slice would keep the whole (possibly huge) chunk alive.
        parts.push(Buffer.from(bytes.subarray(start)));
        bufferedBytes = length;
        lastBufferedByte = last;
        return;
      }
      const line =
        parts.length === 0
          ? bytes.subarray(start, end)
          : Buffer.concat([...parts, bytes.subarray(start, end)], length);
      parts = [];
      bufferedBytes = 0;
      start = newline + 1;
      handleLine(line);
    }
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
    if (endOfInput && !discarding && bufferedBytes > 0) {
      const line = Buffer.concat(parts, bufferedBytes);
      parts = [];
      bufferedBytes = 0;
      handleLine(line);
    }
    closing = true;
    parts = [];
    bufferedBytes = 0;
    input.off("data", onData);
    input.off("end", onEnd);
    input.off("close", onEnd);
    // Reading stops, so a process whose stdin is still open can exit.
    if (!endOfInput) input.pause();

    const reason = abortReason("The connection is closing");
    connection.abort(reason);
    for (const entries of inFlight.values()) for (const entry of entries) entry.abort.abort(reason);
    if (pending > 0) await new Promise<void>((resolve) => (drained = resolve));

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

// ---- console capture ------------------------------------------------------------------------

/** The `console` methods that write to stdout. */
const STDOUT_METHODS = [
  "log",
  "info",
  "debug",
  "dir",
  "dirxml",
  "table",
  "group",
  "groupCollapsed",
  "groupEnd",
  "count",
  "countReset",
  // Not writers, but they share state with the writers below.
  "time",
  "timeLog",
  "timeEnd",
] as const;
type StdoutMethod = (typeof STDOUT_METHODS)[number];

interface Capture {
  readonly target: Writable;
  readonly console: Console;
  readonly stdout: boolean;
}

/** Servers currently capturing, most recent last; output goes to the most recent one's stream. */
const captures: Capture[] = [];
let restoreConsole: (() => void) | undefined;
/** `process.stdout.write` as it was before capture redirected it; the transport writes with it. */
let realStdoutWrite:
  | ((this: NodeJS.WriteStream, text: string, callback?: (error?: Error | null) => void) => boolean)
  | undefined;

function captureConsole(target: Writable, stdout: boolean): () => void {
  const capture: Capture = {
    target,
    console: new Console({ stdout: target, stderr: target }),
    stdout,
  };
  captures.push(capture);
  if (captures.length === 1) installCapture();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    captures.splice(captures.indexOf(capture), 1);
    if (captures.length === 0) {
      restoreConsole?.();
      restoreConsole = undefined;
    }
  };
}

function installCapture(): void {
  const current = (): Capture | undefined => captures[captures.length - 1];
  const saved = new Map<StdoutMethod, unknown>();
  const replaced = new Map<StdoutMethod, unknown>();
  const methods = console as unknown as Record<StdoutMethod, (...args: unknown[]) => void>;
  for (const name of STDOUT_METHODS) {
    const original = methods[name];
    if (typeof original !== "function") continue;
    const replacement = (...args: unknown[]): void => {
      const capture = current();
      if (capture)
        (capture.console as unknown as Record<StdoutMethod, (...a: unknown[]) => void>)[name](
          ...args,
        );
      else original.apply(console, args);
    };
    saved.set(name, original);
    replaced.set(name, replacement);
    methods[name] = replacement;
  }

  // Stray `process.stdout.write` calls, for servers that speak on stdout.
  const stdout = process.stdout as unknown as { write: (...args: unknown[]) => boolean };
  const originalWrite = stdout.write;
  const redirectedWrite = function (this: unknown, ...args: unknown[]): boolean {
    const capture = [...captures].reverse().find((c) => c.stdout);
    if (!capture) return originalWrite.apply(process.stdout, args);
    return (capture.target as unknown as { write: (...a: unknown[]) => boolean }).write(...args);
  };
  stdout.write = redirectedWrite;
  realStdoutWrite = originalWrite as typeof realStdoutWrite;

  restoreConsole = () => {
    for (const [name, original] of saved) {
      // Leave alone a method someone else replaced after us.
      if (methods[name] === replaced.get(name))
        methods[name] = original as (...args: unknown[]) => void;
    }
    if (stdout.write === redirectedWrite) stdout.write = originalWrite;
    realStdoutWrite = undefined;
  };
}
