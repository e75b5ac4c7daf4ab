/**
 * Stdio client transport: spawns the server and speaks newline-delimited JSON-RPC on its
 * stdin/stdout; its stderr is passed through (or handed to `onStderr`). Responses are matched by
 * id, progress notifications by progress token; other notifications go to the client.
 * Revision-independent; copied verbatim into generated output.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import {
  classify,
  DEFAULT_MAX_DEPTH,
  ErrorCode,
  failure,
  nestsDeeperThan,
} from "../shared/jsonrpc.js";
import type {
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "../shared/jsonrpc.js";
import { TransportError } from "./errors.js";
import type { ClientTransport, TransportPeer, TransportRequestOptions } from "./transport.js";
import { LineFramer } from "../shared/line-framer.js";

export interface StdioTransportOptions {
  command: string;
  args?: string[];
  /** Added to the current environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** Receives the server's stderr, line by line; default: passed through to this process's stderr. */
  onStderr?: (line: string) => void;
  /**
   * Longest line read from the server, in bytes, not counting its line terminator; a longer one is
   * dropped as it arrives (with a log line) and the next one read. A positive integer; default 16 MiB.
   */
  maxLineBytes?: number;
  /** Deepest nesting of arrays and objects accepted in a message (checked before parsing); default 1000. */
  maxDepth?: number;
}

/** A request waiting for its answer: the record is all there is (no closures, no listeners). */
interface Pending {
  resolve(response: JsonRpcResponse): void;
  reject(error: unknown): void;
  options: TransportRequestOptions;
  /** Its progress token, when it asked for progress. */
  token: string | number | undefined;
}

export function stdioTransport(options: StdioTransportOptions): ClientTransport {
  return new StdioTransport(options);
}

class StdioTransport implements ClientTransport {
  readonly probes = true;
  readonly cancelsByNotification = true;
  readonly network = { transport: "pipe" } as const;
  readonly cacheKey: string;
  private child: ChildProcess | null = null;
  private readonly pending = new Map<JsonRpcId, Pending>();
  /** Pending requests that asked for progress, by their token: a notification finds its request at once. */
  private readonly byToken = new Map<string | number, Pending>();
  /** The params progress notifications carry their token in, as the requests asking for progress named them. */
  private readonly progressParams = new Set<string>();
  private peer: TransportPeer | null = null;
  private dead: TransportError | null = null;
  /** The server's output as lines, by the stdio server's rules (`line-framer.ts`). */
  private readonly lines: LineFramer;

  constructor(private readonly options: StdioTransportOptions) {
    this.cacheKey = `stdio ${JSON.stringify([options.command, ...(options.args ?? []), options.cwd ?? ""])}`;
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.lines = new LineFramer(max, {
      // Decoded leniently: invalid UTF-8 shows as U+FFFD, and the JSON checks below decide.
      line: (bytes, start, end) => this.receive(bytes.toString("utf8", start, end)),
      // The line is gone unread, whatever answer it held: say so, and how to raise the cap.
      tooLong: () =>
        this.log(
          `mcp stdio client: dropped a line longer than ${max} bytes (raise maxLineBytes to read it); a request it answered fails only by its timeout`,
        ),
    });
  }

  attach(peer: TransportPeer): void {
    this.peer = peer;
  }

  private log(message: string): void {
    if (this.peer) this.peer.log(message);
  }

  /** Starts the server on first use. */
  private start(): ChildProcess {
    if (this.child) return this.child;
    const { command, args = [], env, cwd, onStderr } = this.options;
    const child = spawn(command, args, {
      env: env ? { ...process.env, ...env } : process.env,
      ...(cwd !== undefined ? { cwd } : {}),
      stdio: ["pipe", "pipe", onStderr ? "pipe" : "inherit"],
    });
    this.child = child;
    child.stdin!.on("error", () => {}); // a dead child shows up as "exit" below
    child.stdout!.on("data", (chunk: Buffer) => this.lines.push(chunk));
    if (onStderr && child.stderr) createInterface({ input: child.stderr }).on("line", onStderr);
    // A process that cannot start or dies is the transport's failure, with its cause: never a
    // verdict on the server's era.
    const die = (reason: string, cause?: unknown) => {
      if (this.dead) return;
      this.dead = new TransportError(reason, undefined, cause === undefined ? {} : { cause });
      for (const pending of this.pending.values()) pending.reject(this.dead);
      this.pending.clear();
      this.byToken.clear();
    };
    child.on("error", (error) => die(`the server process failed: ${error.message}`, error));
    child.on("exit", (code, signal) =>
      die(`the server process exited (${signal ?? `code ${String(code)}`})`),
    );
    return child;
  }

  private write(message: unknown): void {
    const child = this.start();
    if (this.dead) throw this.dead;
    child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  private receive(line: string): void {
    if (line.trim() === "") return;
    const maxDepth = this.options.maxDepth ?? DEFAULT_MAX_DEPTH;
    if (nestsDeeperThan(line, maxDepth)) {
      this.log(`mcp stdio client: dropped a line nested more than ${maxDepth} levels deep`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.log(`mcp stdio client: skipped a line that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    const incoming = classify(value);
    switch (incoming.kind) {
      case "response": {
        const id = incoming.message.id;
        const pending = id === undefined ? undefined : this.pending.get(id);
        if (!pending) {
          this.log(
            `mcp stdio client: skipped a response to no pending request (${String(incoming.message.id)})`,
          );
          return;
        }
        this.forget(id!, pending);
        pending.resolve(incoming.message);
        return;
      }
      case "notification":
        return this.route(incoming.message);
      case "request": {
        // Stateful revisions: the server asks on the wire (liveness, sampling, roots, elicitation).
        const request = incoming.message;
        const answer = this.peer
          ? this.peer.request(request)
          : Promise.resolve(
              failure(request.id, {
                code: ErrorCode.MethodNotFound,
                message: `Method not found: ${request.method}`,
              }),
            );
        void answer.then((response) => {
          if (response === null) return;
          try {
            this.write(response);
          } catch {
            // the server is gone
          }
        });
        return;
      }
      case "invalid":
        this.log(
          `mcp stdio client: skipped a line that is not a JSON-RPC message: ${line.slice(0, 200)}`,
        );
    }
  }

  /** Progress goes to the request that asked for it; everything else to the client. */
  private route(notification: JsonRpcNotification): void {
    for (const param of this.progressParams) {
      const token = notification.params?.[param];
      const pending =
        typeof token === "string" || typeof token === "number"
          ? this.byToken.get(token)
          : undefined;
      if (pending) return pending.options.onNotification(notification);
    }
    this.peer?.notification(notification);
  }

  /** Resolves with the response of the same id; `cancel` (not the signal) gives it up. */
  request(message: JsonRpcRequest, options: TransportRequestOptions): Promise<JsonRpcResponse> {
    return new Promise<JsonRpcResponse>((resolve, reject) => {
      const token = options.progressParam === undefined ? undefined : options.progressToken;
      if (options.progressParam !== undefined) this.progressParams.add(options.progressParam);
      const entry: Pending = { resolve, reject, options, token };
      this.pending.set(message.id, entry);
      if (token !== undefined) this.byToken.set(token, entry);
      try {
        this.write(message);
      } catch (error) {
        this.forget(message.id, entry);
        reject(error);
      }
    });
  }

  cancel(id: JsonRpcId, reason: unknown): void {
    const entry = this.pending.get(id);
    if (entry === undefined) return;
    this.forget(id, entry);
    entry.reject(reason);
  }

  /** No answer is waited for any more: a late one is skipped as answering no pending request. */
  private forget(id: JsonRpcId, entry: Pending): void {
    this.pending.delete(id);
    if (entry.token !== undefined && this.byToken.get(entry.token) === entry)
      this.byToken.delete(entry.token);
  }

  async notify(message: JsonRpcNotification): Promise<void> {
    this.write(message);
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.dead ??= new TransportError("the transport was closed");
    for (const pending of this.pending.values()) pending.reject(this.dead);
    this.pending.clear();
    this.byToken.clear();
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.stdin!.end();
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
    await exited;
    clearTimeout(timer);
  }
}

const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
