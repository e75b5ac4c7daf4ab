/**
 * The stdio server's output: JSON-RPC messages written one per line, back-pressure passed on to
 * the input (reading pauses while the peer is behind), an output failure reported once, and the
 * flush at shutdown. Node only. Revision-independent; copied verbatim into generated output.
 */
import type { Writable } from "node:stream";
import { writeStdout } from "./console-capture.js";
import { ErrorCode, failure, type JsonRpcMessage } from "../shared/jsonrpc.js";
import type { Outcome } from "./transport.js";

/** What the writer tells the server it writes for. */
export interface WriterHooks {
  log(message: string): void;
  /** The output failed (called once): nothing more can be written. */
  failed(error: Error): void;
  /** The peer is behind: stop reading requests until `resume`. */
  pause(): void;
  resume(): void;
}

/** Lines longer than this (in UTF-16 units) are written apart from their newline. */
const LONG_LINE = 64 * 1024;

export class LineWriter {
  private open = true;
  private paused = false;
  private readonly onError = (error: Error): void => this.fail(error);
  private readonly onDrain = (): void => {
    if (!this.paused) return;
    this.paused = false;
    this.hooks.resume();
  };

  constructor(
    private readonly output: Writable,
    private readonly hooks: WriterHooks,
  ) {
    output.on("error", this.onError);
    output.on("drain", this.onDrain);
  }

  /** Whether the output still takes writes (it has not failed). */
  get isOpen(): boolean {
    return this.open;
  }

  /** Writes one message as one line; false when it could not be serialised or the output is gone. */
  send(message: JsonRpcMessage): boolean {
    const { output } = this;
    if (!this.open || output.destroyed || output.writableEnded) return false;
    let line: unknown;
    try {
      line = JSON.stringify(message);
    } catch (error) {
      this.hooks.log(
        `could not serialise an outgoing message: ${error instanceof Error ? error.message : String(error)}`,
      );
      return false;
    }
    if (typeof line !== "string") {
      this.hooks.log("could not serialise an outgoing message");
      return false;
    }
    try {
      // A long line goes out before its newline: appending the newline would copy all of it.
      let flowing: boolean;
      if (line.length > LONG_LINE) {
        this.write(line);
        flowing = this.write("\n");
      } else flowing = this.write(`${line}\n`);
      // Back-pressure: stop reading new requests until the peer catches up with our output.
      if (!flowing && !this.paused) {
        this.paused = true;
        this.hooks.pause();
      }
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
    return true;
  }

  /** Writes a handler's response, if it has one; one that cannot be serialised still gets an answer. */
  sendResponse(outcome: Outcome): void {
    const response = outcome?.response;
    if (response === null || response === undefined) return;
    if (this.send(response) || !this.open) return;
    // A response that cannot be serialised (a BigInt, a cycle) still gets an answer.
    if (response.id !== undefined) {
      this.send(
        failure(response.id, {
          code: ErrorCode.InternalError,
          message: "Internal error: the response could not be serialised",
        }),
      );
    }
  }

  /**
   * Waits until everything written has been handed on (or the output failed). With `end`, the
   * output is ended (an output the server was given); else it is left open (the process's own).
   */
  flush(end: boolean): Promise<void> {
    const { output } = this;
    return new Promise((resolve) => {
      if (!this.open || output.destroyed || output.writableEnded) return resolve();
      if (!end && output.writableLength === 0) return resolve();
      const done = (): void => {
        output.off("close", done);
        output.off("error", done);
        resolve();
      };
      output.on("close", done);
      output.on("error", done);
      // Callbacks run in write order, so this one runs once everything before it is out.
      if (end) output.end(done);
      else this.write("", done);
    });
  }

  /** Stops listening to the output. */
  detach(): void {
    this.output.off("drain", this.onDrain);
    this.output.off("error", this.onError);
  }

  // With stdout captured, `process.stdout.write` is redirected; the server keeps the real one.
  private write(text: string, callback?: (error?: Error | null) => void): boolean {
    return this.output === process.stdout
      ? writeStdout(text, callback)
      : this.output.write(text, callback);
  }

  private fail(error: Error): void {
    if (!this.open) return;
    this.open = false;
    this.hooks.failed(error);
  }
}
