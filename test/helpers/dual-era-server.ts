/*
 * The dual-era server the dual-era tests (test/runtime/server/dual-era*.test.ts) drive by hand
 * (generated/dual: 2026-07-28 with the default --legacy, every released initialize-era revision): its
 * handlers (one tool that asks for input by elicitation and falls back on `ctx.inputError`, one that
 * asks again whatever happened), a server built from definitions, an
 * initialize request, and a stdio connection on in-memory streams.
 */
import { PassThrough } from "node:stream";
import { createServer, ServerDefinitions, type Handlers } from "../../generated/dual/index.js";
import { CC, PV, until, type Msg } from "./server-harness.js";

export const MODERN = "2026-07-28";
export const INFO = { name: "dual", version: "1.0.0" };
export const seen: { inputErrors: string[] } = { inputErrors: [] };

export const elicit = {
  method: "elicitation/create",
  params: {
    mode: "form",
    message: "Name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
  },
};

export const handlers: Handlers = {
  "tools/list": () => ({ tools: [{ name: "ask", inputSchema: { type: "object" } }] }),
  "tools/call": (params, ctx) => {
    // "insist" has no fallback: it asks again whatever the last round's error.
    if (params.name === "insist") return ctx.inputRequired({ name: elicit }, { asked: 1 });
    if (params.name !== "ask") return { content: [{ type: "text", text: `echo ${params.name}` }] };
    if (ctx.inputError) {
      seen.inputErrors.push(ctx.inputError.message);
      return {
        isError: true,
        content: [{ type: "text", text: `no answer: ${ctx.inputError.message}` }],
      };
    }
    const answer = ctx.inputResponses.name as { content?: { name?: string } } | undefined;
    if (!answer) return ctx.inputRequired({ name: elicit }, { asked: 1 });
    return {
      content: [
        {
          type: "text",
          text: `hello ${answer.content?.name} (state ${JSON.stringify(ctx.state)})`,
        },
      ],
    };
  },
};

export function makeServer(legacy: Record<string, number> = {}) {
  return createServer({
    info: INFO,
    capabilities: { tools: { listChanged: true }, logging: {} },
    handlers,
    legacy,
    log: () => undefined,
  });
}

/** A dual-era server whose tools come from definitions, and one tool to add to them at run time. */
export function definedServer() {
  const definitions = new ServerDefinitions();
  const server = createServer({
    info: INFO,
    capabilities: { tools: { listChanged: true } },
    definitions,
    legacy: {},
    log: () => undefined,
  });
  const addTool = () =>
    definitions.tool({
      name: "late",
      inputSchema: { type: "object" },
      validate: { input: () => ({ ok: true }) },
      handler: () => ({ content: [] }),
    });
  return { server, addTool };
}

export const initialize = (
  id: number | string,
  protocolVersion = "2025-11-25",
  capabilities: Msg = { elicitation: {} },
): Msg => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities, clientInfo: { name: "legacy", version: "1" } },
});
export const modernMeta = { [PV]: MODERN, [CC]: {} };

/** A stdio connection to the server on in-memory streams: send lines, read what comes back. */
export function stdio(server: ReturnType<typeof makeServer>) {
  const input = new PassThrough();
  const output = new PassThrough();
  const handle = server.serveStdio({
    input,
    output,
    errors: new PassThrough(),
    captureConsole: false,
  });
  const received: Msg[] = [];
  let buffer = "";
  output.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) received.push(JSON.parse(line) as Msg);
  });
  return {
    received,
    send: (message: Msg) => void input.write(`${JSON.stringify(message)}\n`),
    async reply(id: unknown): Promise<Msg> {
      await until(
        () => received.some((m) => m.id === id && !("method" in m)),
        `the answer to ${String(id)}`,
      );
      return received.find((m) => m.id === id && !("method" in m))!;
    },
    async request(method: string): Promise<Msg> {
      await until(
        () => received.some((m) => m.method === method && "id" in m),
        `a ${method} request`,
      );
      return received.find((m) => m.method === method && "id" in m)!;
    },
    close: async () => {
      input.end();
      await handle.closed;
    },
  };
}

export const closers: Array<() => Promise<unknown>> = [];

/** A stdio connection whose legacy session is open (initialize answered), closed after the test. */
export async function session(server: ReturnType<typeof makeServer>, capabilities?: Msg) {
  const c = stdio(server);
  closers.push(c.close);
  c.send(initialize(1, "2025-11-25", capabilities));
  await c.reply(1);
  return c;
}

/** Closes what the test opened and forgets what its handlers saw: each test file's `afterEach`. */
export async function closeAll(): Promise<void> {
  for (const close of closers.splice(0)) await close();
  seen.inputErrors.length = 0;
}
