/**
 * Drives a generated server (`generated/<rev>/server.ts`) the way a client would, over three paths
 * that share one interface, so a table of cases can run unchanged over each:
 *
 * - `direct`: `server.dispatcher.handle(message, delivery)`; `status` is the Outcome's httpStatus.
 * - `stdio`:  `server.serveStdio()` on in-memory PassThrough streams, one JSON message per line.
 * - `http`:   `server.listen({ port: 0 })` and `fetch`, with the request metadata headers.
 *
 * Every exchange reports what the peer got back: the status (HTTP and direct; null on stdio), the
 * response (null when none came), and the notifications that arrived with it.
 */
import { PassThrough } from "node:stream";

export type Transport = "direct" | "stdio" | "http";
export const TRANSPORTS: readonly Transport[] = ["direct", "stdio", "http"];
/** The two real transports. */
export const WIRES: readonly Transport[] = ["stdio", "http"];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Msg = Record<string, any>;

export const PV = "io.modelcontextprotocol/protocolVersion";
export const CC = "io.modelcontextprotocol/clientCapabilities";
export const CI = "io.modelcontextprotocol/clientInfo";
export const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
export const SERVER_INFO = "io.modelcontextprotocol/serverInfo";
export const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** The slice of a generated `McpServer` the harness uses (any revision's has it). */
export interface ServerLike {
  dispatcher: {
    handle(
      message: unknown,
      delivery: { notify(n: Msg): void; signal: AbortSignal; headers?: unknown },
    ): Promise<{ response: Msg | null; httpStatus: number }>;
  };
  serveStdio(options?: Record<string, unknown>): { closed: Promise<void>; close(): void };
  listen(
    options: Record<string, unknown> & { port: number },
  ): Promise<{ url: string; port: number; close(graceMs?: number): Promise<void> }>;
}

export interface Exchange {
  /** The HTTP status (HTTP), the Outcome's httpStatus (direct), null (stdio). */
  status: number | null;
  /** The response's Content-Type (HTTP only). */
  contentType: string | null;
  /** The response to the request (by id), or the id-less error an invalid message got; null if none. */
  response: Msg | null;
  /** Notifications that arrived with the exchange, in order. */
  notifications: Msg[];
  /** Everything that arrived, in order. */
  messages: Msg[];
  /** The raw HTTP body (HTTP only). */
  body: string | null;
}

export interface SendOptions {
  /** HTTP header overrides: a value replaces the default, null removes it. Ignored elsewhere. */
  headers?: Record<string, string | null>;
}

export interface Stream {
  /** HTTP status of the stream's response (HTTP), null elsewhere. */
  status: number | null;
  contentType: string | null;
  /** The next message belonging to the stream; undefined once it ended (or after `timeoutMs`, default 3 s: throws). */
  next(timeoutMs?: number): Promise<Msg | undefined>;
  /** Every message that arrives within `ms` (the stream stays open). */
  drain(ms: number): Promise<Msg[]>;
  /** Resolves true once the stream ended (HTTP: body closed; stdio/direct: its request settled). */
  ended(timeoutMs?: number): Promise<boolean>;
  /** The client goes away: HTTP aborts the fetch, stdio sends notifications/cancelled, direct aborts the signal. */
  cancel(): Promise<void>;
}

export interface Peer {
  readonly transport: Transport;
  send(message: unknown, options?: SendOptions): Promise<Exchange>;
  /** Starts a long-lived request (`subscriptions/listen`) and returns its stream. */
  open(message: Msg, options?: SendOptions): Promise<Stream>;
  close(): Promise<void>;
}

export interface PeerOptions {
  /** The MCP-Protocol-Version header sent when the body carries no `_meta` version. */
  protocolVersion: string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const isRecord = (value: unknown): value is Msg =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string | number =>
  typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
const isResponse = (m: Msg): boolean => !("method" in m) && ("result" in m || "error" in m);

/** The id a message expects its response under, if it is a request with a usable id. */
function requestId(message: unknown): string | number | undefined {
  let value = message;
  if (typeof message === "string") {
    try {
      value = JSON.parse(message);
    } catch {
      return undefined;
    }
  }
  return isRecord(value) && typeof value.method === "string" && isId(value.id)
    ? value.id
    : undefined;
}

export async function until(condition: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(5);
  }
}

export async function connect(
  transport: Transport,
  server: ServerLike,
  options: PeerOptions,
): Promise<Peer> {
  switch (transport) {
    case "direct":
      return directPeer(server);
    case "stdio":
      return stdioPeer(server);
    case "http":
      return httpPeer(server, options);
  }
}

// ---------------------------------------------------------------------------
// direct
// ---------------------------------------------------------------------------

function directPeer(server: ServerLike): Peer {
  return {
    transport: "direct",
    async send(message) {
      const notifications: Msg[] = [];
      const controller = new AbortController();
      const outcome = await server.dispatcher.handle(message, {
        notify: (n) => void notifications.push(n),
        signal: controller.signal,
      });
      const messages =
        outcome.response === null ? [...notifications] : [...notifications, outcome.response];
      return {
        status: outcome.httpStatus,
        contentType: null,
        response: outcome.response,
        notifications,
        messages,
        body: null,
      };
    },
    async open(message) {
      const queue: Msg[] = [];
      const controller = new AbortController();
      let done = false;
      const settled = server.dispatcher
        .handle(message, { notify: (n) => void queue.push(n), signal: controller.signal })
        .then((outcome) => {
          if (outcome.response !== null) queue.push(outcome.response);
          done = true;
        });
      return queueStream(
        queue,
        () => done,
        null,
        null,
        async () => {
          controller.abort(new Error("client went away"));
          await settled;
        },
      );
    },
    async close() {},
  };
}

/** A Stream over a queue some transport fills; `isDone` says no more will come. */
function queueStream(
  queue: Msg[],
  isDone: () => boolean,
  status: number | null,
  contentType: string | null,
  cancel: () => Promise<void>,
  pump: () => void = () => undefined,
): Stream {
  return {
    status,
    contentType,
    async next(timeoutMs = 3000) {
      await until(
        () => {
          pump();
          return queue.length > 0 || isDone();
        },
        "a stream message",
        timeoutMs,
      );
      return queue.shift();
    },
    async drain(ms) {
      await sleep(ms);
      pump();
      return queue.splice(0);
    },
    async ended(timeoutMs = 3000) {
      try {
        await until(
          () => {
            pump();
            return isDone();
          },
          "the stream to end",
          timeoutMs,
        );
        return true;
      } catch {
        return false;
      }
    },
    cancel,
  };
}

// ---------------------------------------------------------------------------
// stdio
// ---------------------------------------------------------------------------

export interface StdioPeer extends Peer {
  /** Everything the server wrote, parsed, in order. */
  received: Msg[];
  /** Raw text written to the error stream. */
  errorText(): string;
  /** Writes raw bytes to the server's input. */
  write(text: string): void;
}

function stdioPeer(server: ServerLike): StdioPeer {
  const input = new PassThrough();
  const output = new PassThrough();
  const errors = new PassThrough();
  let errorText = "";
  errors.setEncoding("utf8");
  errors.on("data", (chunk: string) => (errorText += chunk));
  const handle = server.serveStdio({ input, output, errors, captureConsole: false });
  const received: Msg[] = [];
  let buffer = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) {
      // Every output line must be exactly one JSON-RPC message.
      const parsed: unknown = JSON.parse(line);
      if (!isRecord(parsed))
        throw new Error(`stdio output line is not a JSON object: ${line.slice(0, 200)}`);
      received.push(parsed);
    }
  });
  let sentinels = 0;

  const write = (text: string): void => void input.write(text);

  const peer: StdioPeer = {
    transport: "stdio",
    received,
    errorText: () => errorText,
    write,
    async send(message) {
      const start = received.length;
      const id = requestId(message);
      write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
      // A sentinel request after it: everything the message produced comes before the sentinel's
      // answer (or before its own response, for a request that takes longer).
      const sentinel = `sentinel-${++sentinels}`;
      write(`${JSON.stringify({ jsonrpc: "2.0", id: sentinel, method: "sentinel/ping" })}\n`);
      const since = (): Msg[] => received.slice(start);
      // A request answered with an id-less error (its line was too long, say) has no response of its own.
      const answered = (): boolean =>
        since().some((m) => isResponse(m) && (m.id === id || !("id" in m)));
      await until(
        () => since().some((m) => m.id === sentinel) && (id === undefined || answered()),
        `the stdio answer to ${typeof message === "string" ? message.slice(0, 80) : JSON.stringify(message).slice(0, 80)}`,
        15_000,
      );
      const messages = since().filter((m) => m.id !== sentinel);
      const response =
        (id !== undefined ? messages.find((m) => isResponse(m) && m.id === id) : undefined) ??
        messages.find((m) => isResponse(m) && (id === undefined || !("id" in m))) ??
        null;
      return {
        status: null,
        contentType: null,
        response,
        notifications: messages.filter((m) => "method" in m),
        messages,
        body: null,
      };
    },
    async open(message) {
      const id = message.id as string | number;
      const mine = (m: Msg): boolean =>
        (isResponse(m) && m.id === id) ||
        (isRecord(m.params?._meta) && m.params._meta[SUBSCRIPTION_ID] === id);
      let read = received.length;
      const queue: Msg[] = [];
      let done = false;
      const pump = (): void => {
        for (; read < received.length; read++) {
          const m = received[read]!;
          if (!mine(m)) continue;
          queue.push(m);
          if (isResponse(m)) done = true;
        }
      };
      write(`${JSON.stringify(message)}\n`);
      return queueStream(
        queue,
        () => done,
        null,
        null,
        async () => {
          // On stdio the client ends a subscription with notifications/cancelled; no response follows.
          write(
            `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "client went away" } })}\n`,
          );
          done = true;
        },
        pump,
      );
    },
    async close() {
      input.end();
      await handle.closed;
    },
  };
  return peer;
}

// ---------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------

export interface HttpPeer extends Peer {
  url: string;
  port: number;
  /** The headers `send` would use for a message, after overrides. */
  headersFor(message: unknown, overrides?: Record<string, string | null>): Record<string, string>;
}

const NAME_PARAMS: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/** The headers a conforming client sends with `message`: the harness's defaults, then overrides. */
export function defaultHeaders(
  message: unknown,
  protocolVersion: string,
  overrides: Record<string, string | null> = {},
): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
  };
  let value = message;
  if (typeof message === "string") {
    try {
      value = JSON.parse(message);
    } catch {
      value = undefined;
    }
  }
  const params = isRecord(value) && isRecord(value.params) ? value.params : undefined;
  const bodyVersion = isRecord(params?._meta) ? params._meta[PV] : undefined;
  headers["MCP-Protocol-Version"] = typeof bodyVersion === "string" ? bodyVersion : protocolVersion;
  if (isRecord(value) && typeof value.method === "string" && "id" in value) {
    headers["Mcp-Method"] = value.method;
    const param = Object.hasOwn(NAME_PARAMS, value.method) ? NAME_PARAMS[value.method] : undefined;
    if (param !== undefined && typeof params?.[param] === "string")
      headers["Mcp-Name"] = params[param] as string;
  }
  for (const [name, override] of Object.entries(overrides)) {
    for (const key of Object.keys(headers))
      if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
    if (override !== null) headers[name] = override;
  }
  return headers;
}

/** Parses a whole SSE body; every `data:` line must be one complete JSON message. */
export function parseSse(text: string): Msg[] {
  const messages: Msg[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("data:")) messages.push(JSON.parse(line.slice(5).trim()) as Msg);
    else if (
      line !== "" &&
      !line.startsWith(":") &&
      !line.startsWith("event:") &&
      !line.startsWith("id:")
    )
      throw new Error(`unexpected SSE line: ${line}`);
  }
  return messages;
}

async function httpPeer(server: ServerLike, options: PeerOptions): Promise<HttpPeer> {
  const handle = await server.listen({ port: 0 });
  const url = handle.url;
  const headersFor = (message: unknown, overrides?: Record<string, string | null>) =>
    defaultHeaders(message, options.protocolVersion, overrides);
  const aborters = new Set<AbortController>();
  return {
    transport: "http",
    url,
    port: handle.port,
    headersFor,
    async send(message, sendOptions = {}) {
      const body = typeof message === "string" ? message : JSON.stringify(message);
      const response = await fetch(url, {
        method: "POST",
        headers: headersFor(message, sendOptions.headers),
        body,
      });
      const text = await response.text();
      const contentType = response.headers.get("content-type");
      let messages: Msg[] = [];
      if (contentType?.includes("text/event-stream")) messages = parseSse(text);
      else if (text !== "") messages = [JSON.parse(text) as Msg];
      const id = requestId(message);
      const answer =
        id !== undefined
          ? (messages.find((m) => isResponse(m) && m.id === id) ??
            messages.find(isResponse) ??
            null)
          : (messages.find(isResponse) ?? null);
      return {
        status: response.status,
        contentType,
        response: answer,
        notifications: messages.filter((m) => "method" in m),
        messages,
        body: text,
      };
    },
    async open(message, sendOptions = {}) {
      const controller = new AbortController();
      aborters.add(controller);
      const response = await fetch(url, {
        method: "POST",
        headers: headersFor(message, sendOptions.headers),
        body: JSON.stringify(message),
        signal: controller.signal,
      });
      const queue: Msg[] = [];
      let done = false;
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      const isSse = response.headers.get("content-type")?.includes("text/event-stream") ?? false;
      void (async () => {
        try {
          for (;;) {
            const chunk = await reader.read();
            if (chunk.done) break;
            buffer += decoder.decode(chunk.value, { stream: true });
            if (!isSse) continue;
            const lines = buffer.split("\n");
            buffer = lines.pop() ?? "";
            for (const line of lines)
              if (line.startsWith("data:")) queue.push(JSON.parse(line.slice(5).trim()) as Msg);
          }
          if (!isSse && buffer !== "") queue.push(JSON.parse(buffer) as Msg);
        } catch {
          // Aborted by the client: the stream is over.
        } finally {
          done = true;
        }
      })();
      return queueStream(
        queue,
        () => done,
        response.status,
        response.headers.get("content-type"),
        async () => {
          controller.abort();
          await until(() => done, "the aborted stream to settle");
        },
      );
    },
    async close() {
      for (const controller of aborters) controller.abort();
      await handle.close(200);
    },
  };
}
