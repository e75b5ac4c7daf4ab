/**
 * The stdio transport's test harness: in-memory streams, a scriptable fake handler (echoing
 * requests unless a method is scripted) and an output collector that insists every output line is
 * exactly one JSON-RPC message.
 */
import { PassThrough } from "node:stream";
import { expect } from "vitest";
import { success } from "../../runtime/shared/jsonrpc.js";
import { serveStdio, type StdioOptions } from "../../runtime/server/stdio.js";
import {
  cancellationOf,
  type Delivery,
  type MessageHandler,
  type Outcome,
} from "../../runtime/server/transport.js";
import { PROTOCOL_DESCRIPTION } from "../../generated/2026-07-28/protocol.js";

/** The revision's cancellation notification, as its generated server passes it. */
export const CANCELLED = PROTOCOL_DESCRIPTION.notifications.cancelled!;

export type Msg = Record<string, unknown>;
export type Behaviour = (message: Msg, delivery: Delivery) => Promise<Outcome> | Outcome;

export const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function until(
  condition: () => boolean,
  what = "a condition",
  ms = 5000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}

/** Reads a cancellation as the generated dispatcher does: by the revision's param names. */
export const cancelledRequest: NonNullable<MessageHandler["cancelledRequest"]> = (params) =>
  cancellationOf(params, PROTOCOL_DESCRIPTION.notificationParams.cancelled);

/** Echoes requests (`{ method, params }`), answers nothing else; `script` overrides per method. */
export function fakeHandler(
  script: Record<string, Behaviour> = {},
): MessageHandler & { seen: Msg[]; logs: string[] } {
  const seen: Msg[] = [];
  const logs: string[] = [];
  return {
    seen,
    logs,
    log: (message) => void logs.push(message),
    cancelledRequest,
    async handle(message, delivery) {
      const m = message as Msg;
      seen.push(m);
      const behaviour = typeof m["method"] === "string" ? script[m["method"]] : undefined;
      if (behaviour) return behaviour(m, delivery);
      if ("id" in m && "method" in m) {
        return {
          response: success(m["id"] as string | number, {
            echo: m["method"],
            params: m["params"] ?? null,
          }),
          httpStatus: 200,
        };
      }
      return { response: null, httpStatus: 202 };
    },
  };
}

export interface Harness {
  input: PassThrough;
  output: PassThrough;
  errors: PassThrough;
  handler: ReturnType<typeof fakeHandler>;
  server: ReturnType<typeof serveStdio>;
  /** Every message written so far, parsed. */
  messages: Msg[];
  /** Raw output text so far. */
  raw: () => string;
  errorText: () => string;
  /** Resolves once at least `n` messages have been written. */
  waitFor: (n: number) => Promise<Msg[]>;
  /** Ends input and waits for `closed`. */
  finish: () => Promise<Msg[]>;
}

export function harness(
  script: Record<string, Behaviour> = {},
  options: Partial<StdioOptions> = {},
): Harness {
  const input = new PassThrough();
  const output = new PassThrough();
  const errors = new PassThrough();
  const handler = fakeHandler(script);
  let text = "";
  let errorText = "";
  const messages: Msg[] = [];
  const waiters: Array<() => void> = [];
  output.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    let newline: number;
    while ((newline = text.indexOf("\n", consumed)) !== -1) {
      const line = text.slice(consumed, newline);
      consumed = newline + 1;
      // Every line must be exactly one JSON-RPC message.
      const value = JSON.parse(line) as Msg;
      expect(value["jsonrpc"]).toBe("2.0");
      messages.push(value);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  let consumed = 0;
  errors.on("data", (chunk: Buffer) => (errorText += chunk.toString("utf8")));
  const server = serveStdio(handler, {
    input,
    output,
    errors,
    captureConsole: false,
    cancelledMethod: CANCELLED,
    ...options,
  });
  const waitFor = async (n: number): Promise<Msg[]> => {
    while (messages.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    return messages;
  };
  return {
    input,
    output,
    errors,
    handler,
    server,
    messages,
    raw: () => text,
    errorText: () => errorText,
    waitFor,
    finish: async () => {
      input.end();
      await server.closed;
      await tick();
      expect(text.endsWith("\n") || text === "").toBe(true);
      return messages;
    },
  };
}

export const req = (id: string | number, method = "ping", params?: Msg): Msg =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
export const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
export const byId = (messages: Msg[]): Msg[] =>
  [...messages].sort((a, b) => String(a["id"]).localeCompare(String(b["id"])));
/** Each message as its id, or its error code when it has no id; sorted. */
export const summary = (messages: Msg[]): string[] =>
  messages.map((m) => String(m["id"] ?? (m["error"] as Msg | undefined)?.["code"])).sort();
export const echo = (id: string | number, method: string, params: unknown = null): Msg => ({
  jsonrpc: "2.0",
  id,
  result: { echo: method, params },
});
