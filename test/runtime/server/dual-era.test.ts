/**
 * A dual-era server (generated/dual: 2026-07-28 with the default --legacy, every released initialize-era revision) driven by hand
 * over stdio and Streamable HTTP: both eras on one endpoint, and the bad input of the issue —
 * an unknown version, requests before initialize, unknown, deleted and expired sessions, a modern
 * request on a legacy session, a client that never answers an elicitation (timeout, cancellation),
 * a client without the capability, 10,000 initialize calls; and tools added or removed through the
 * definitions layer reaching legacy sessions as list changes.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, ServerDefinitions, type Handlers } from "../../../generated/dual/index.js";
import { PROTOCOL_DESCRIPTION } from "../../../generated/dual/protocol.js";
import { CC, PV, defaultHeaders, parseSse, until, type Msg } from "../../helpers/server-harness.js";

const MODERN = "2026-07-28";
const INFO = { name: "dual", version: "1.0.0" };
const seen: { inputErrors: string[] } = { inputErrors: [] };

const elicit = {
  method: "elicitation/create",
  params: {
    mode: "form",
    message: "Name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
  },
};

const handlers: Handlers = {
  "tools/list": () => ({ tools: [{ name: "ask", inputSchema: { type: "object" } }] }),
  "tools/call": (params, ctx) => {
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

function makeServer(legacy: Record<string, number> = {}) {
  return createServer({
    info: INFO,
    capabilities: { tools: { listChanged: true }, logging: {} },
    handlers,
    legacy,
    log: () => undefined,
  });
}

/** A dual-era server whose tools come from definitions, and one tool to add to them at run time. */
function definedServer() {
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

const initialize = (
  id: number | string,
  protocolVersion = "2025-11-25",
  capabilities: Msg = { elicitation: {} },
): Msg => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities, clientInfo: { name: "legacy", version: "1" } },
});
const modernMeta = { [PV]: MODERN, [CC]: {} };

/** A stdio connection to the server on in-memory streams: send lines, read what comes back. */
function stdio(server: ReturnType<typeof makeServer>) {
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

const closers: Array<() => Promise<unknown>> = [];

/** A stdio connection whose legacy session is open (initialize answered), closed after the test. */
async function session(server: ReturnType<typeof makeServer>, capabilities?: Msg) {
  const c = stdio(server);
  closers.push(c.close);
  c.send(initialize(1, "2025-11-25", capabilities));
  await c.reply(1);
  return c;
}
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  seen.inputErrors.length = 0;
});

describe("over stdio", () => {
  it("a version it was not generated for: offered the newest, and the operator told once how to serve it", async () => {
    const logs: string[] = [];
    const server = createServer({
      info: INFO,
      capabilities: { tools: {} },
      handlers,
      log: (line) => logs.push(line),
    });
    for (const id of [1, 2]) {
      const c = stdio(server);
      closers.push(c.close);
      c.send(initialize(id, "1999-01-01"));
      expect((await c.reply(id)).result).toMatchObject({ protocolVersion: "2025-11-25" });
    }
    expect(logs).toEqual([
      "mcp-gen server: an initialize-era client asked for protocol version 1999-01-01, which this server was not generated for (it speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05); it was offered 2025-11-25. To serve it, regenerate with --legacy naming that revision, or without --legacy (the default serves every released initialize-era revision)",
    ]);
  });

  it("by default serves every released initialize-era version, each negotiated as asked", async () => {
    const versions = PROTOCOL_DESCRIPTION.eras.map((era) => era.protocolVersion);
    expect(versions).toEqual(["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
    for (const version of versions) {
      const c = stdio(makeServer());
      closers.push(c.close);
      c.send(initialize(1, version));
      expect((await c.reply(1)).result).toMatchObject({ protocolVersion: version });
      c.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      c.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      expect((await c.reply(2)).result).toMatchObject({ tools: [{ name: "ask" }] });
    }
  });

  it("an unknown version negotiates the newest legacy one; the session then works", async () => {
    const c = stdio(makeServer());
    closers.push(c.close);
    c.send(initialize(1, "1999-01-01"));
    expect((await c.reply(1)).result).toMatchObject({
      protocolVersion: "2025-11-25",
      serverInfo: INFO,
      capabilities: { tools: { listChanged: true }, logging: {} },
    });
    c.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    c.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    expect((await c.reply(2)).result).toEqual({});
  });

  it("an older supported version is kept, and its own validators shape the answers", async () => {
    const c = stdio(makeServer());
    closers.push(c.close);
    c.send(initialize(1, "2025-06-18"));
    expect((await c.reply(1)).result.protocolVersion).toBe("2025-06-18");
    c.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const listed = (await c.reply(2)).result;
    expect(listed).toEqual({ tools: [{ name: "ask", inputSchema: { type: "object" } }] });
  });

  it("requests before initialize get the modern error (-32602, _meta required); the process keeps serving", async () => {
    const c = stdio(makeServer());
    closers.push(c.close);
    c.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect((await c.reply(1)).error).toEqual({
      code: -32602,
      message: "Invalid params: _meta is required on every request",
    });
    c.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: modernMeta } });
    expect((await c.reply(2)).result.resultType).toBe("complete");
  });

  it("initialize selects the legacy era for the process: a modern request after it is refused, a second initialize too", async () => {
    const c = await session(makeServer());
    c.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: modernMeta } });
    expect((await c.reply(2)).error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/cannot use a session opened with initialize/),
    });
    c.send(initialize(3));
    expect((await c.reply(3)).error).toMatchObject({
      code: -32600,
      message: "Invalid request: the session is already initialized",
    });
  });

  it("methods of the legacy revision with no modern form (tasks/*) are not found", async () => {
    const c = await session(makeServer());
    c.send({ jsonrpc: "2.0", id: 2, method: "tasks/list", params: {} });
    expect((await c.reply(2)).error).toEqual({
      code: -32601,
      message: "Method not found: tasks/list",
    });
  });

  it("input_required becomes an elicitation/create request; the handler runs again with the answer and its state", async () => {
    const c = await session(makeServer());
    c.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } });
    const asked = await c.request("elicitation/create");
    expect(asked.params).toEqual(elicit.params);
    c.send({
      jsonrpc: "2.0",
      id: asked.id,
      result: { action: "accept", content: { name: "Ada" } },
    });
    expect((await c.reply(2)).result).toEqual({
      content: [{ type: "text", text: 'hello Ada (state {"asked":1})' }],
    });
  });

  it("a client without the elicitation capability is never asked: -32021 (missing capability) naming it", async () => {
    const c = await session(makeServer(), {});
    c.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } });
    expect((await c.reply(2)).error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(c.received.some((m) => m.method === "elicitation/create")).toBe(false);
  });

  it("a client that never answers: the request times out, is cancelled on the wire, and the handler sees the error", async () => {
    const c = await session(makeServer({ inputTimeoutMs: 50 }));
    c.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } });
    const asked = await c.request("elicitation/create");
    const reply = await c.reply(2);
    expect(reply.result).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: "no answer: elicitation/create: the client did not answer within 50 ms",
        },
      ],
    });
    expect(c.received).toContainEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: asked.id, reason: "Timed out" },
    });
    // A late answer is ignored; the server keeps serving.
    c.send({
      jsonrpc: "2.0",
      id: asked.id,
      result: { action: "accept", content: { name: "late" } },
    });
    c.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    expect((await c.reply(3)).result).toEqual({});
  });

  it("the client cancels the call while the server waits for its elicitation: no answer, the handler sees why", async () => {
    const c = await session(makeServer());
    c.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } });
    await c.request("elicitation/create");
    c.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 2, reason: "user gave up" },
    });
    await until(() => seen.inputErrors.length === 1, "the handler to see the cancellation");
    expect(seen.inputErrors).toEqual([
      "elicitation/create: the request was cancelled before the client answered",
    ]);
    c.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    await c.reply(3);
    expect(c.received.some((m) => m.id === 2 && !("method" in m))).toBe(false);
  });

  it("an elicitation answered with an error reaches the handler as that error", async () => {
    const c = await session(makeServer());
    c.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } });
    const asked = await c.request("elicitation/create");
    c.send({ jsonrpc: "2.0", id: asked.id, error: { code: -32600, message: "no UI" } });
    expect((await c.reply(2)).result.content[0].text).toBe(
      "no answer: The client answered with an error: no UI",
    );
  });
});

describe("tool definitions changed at run time", () => {
  it("a tool added, then removed, through the definitions layer reaches a legacy stdio session as tools/list_changed", async () => {
    const { server, addTool } = definedServer();
    const c = await session(server);
    c.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const changes = () => c.received.filter((m) => m.method === "notifications/tools/list_changed");
    const remove = addTool();
    await until(() => changes().length === 1, "the list change of the added tool");
    c.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect((await c.reply(2)).result).toEqual({
      tools: [{ name: "late", inputSchema: { type: "object" } }],
    });
    remove();
    await until(() => changes().length === 2, "the list change of the removed tool");
    c.send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect((await c.reply(3)).result).toEqual({ tools: [] });
    // The bare notification of the legacy revision: no modern params leak into the session.
    expect(changes()).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    ]);
  });
});

describe("over Streamable HTTP", () => {
  async function listen(
    options: Record<string, unknown> = {},
    legacy: Record<string, number> = {},
  ) {
    const server = makeServer(legacy);
    const handle = await server.listen({ port: 0, ...options });
    closers.push(() => handle.close(0));
    const post = (body: Msg, headers: Record<string, string> = {}) =>
      fetch(handle.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const open = async (protocolVersion = "2025-11-25") => {
      const res = await post(initialize(1, protocolVersion));
      expect(res.status).toBe(200);
      return res.headers.get("mcp-session-id")!;
    };
    return { server, url: handle.url, post, open };
  }

  it("both eras on one endpoint: a modern request and a legacy session side by side", async () => {
    const { post, open } = await listen();
    const session = await open();
    expect(session).toMatch(/^[\x21-\x7e]+$/);
    const legacy = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" },
    );
    expect(await legacy.json()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { tools: [{ name: "ask", inputSchema: { type: "object" } }] },
    });
    const modernMessage = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/list",
      params: { _meta: modernMeta },
    };
    const modern = await post(modernMessage, defaultHeaders(modernMessage, MODERN));
    expect(((await modern.json()) as Msg).result).toMatchObject({
      resultType: "complete",
      ttlMs: 0,
    });
  });

  it("a session id the server does not know is 404; so is one it deleted", async () => {
    const { url, post, open } = await listen();
    expect(
      (
        await post(
          { jsonrpc: "2.0", id: 2, method: "ping" },
          { "Mcp-Session-Id": "no-such-session" },
        )
      ).status,
    ).toBe(404);
    const session = await open();
    expect(
      (await fetch(url, { method: "DELETE", headers: { "Mcp-Session-Id": session } })).status,
    ).toBe(204);
    expect(
      (await post({ jsonrpc: "2.0", id: 2, method: "ping" }, { "Mcp-Session-Id": session })).status,
    ).toBe(404);
    expect(
      (await fetch(url, { method: "DELETE", headers: { "Mcp-Session-Id": session } })).status,
    ).toBe(404);
    expect(
      (
        await fetch(url, {
          method: "GET",
          headers: { "Mcp-Session-Id": session, Accept: "text/event-stream" },
        })
      ).status,
    ).toBe(404);
  });

  it("an idle session expires: its id is then 404", async () => {
    const { post, open } = await listen({ sessionIdleMs: 30 });
    const session = await open();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(
      (await post({ jsonrpc: "2.0", id: 2, method: "ping" }, { "Mcp-Session-Id": session })).status,
    ).toBe(404);
  });

  it("a modern _meta request carrying a legacy session id is refused (400, -32600)", async () => {
    const { post, open } = await listen();
    const session = await open();
    const message = { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: modernMeta } };
    const res = await post(message, {
      ...defaultHeaders(message, MODERN),
      "Mcp-Session-Id": session,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Msg).error).toMatchObject({ code: -32600 });
  });

  it("a wrong MCP-Protocol-Version header on a session is refused (400)", async () => {
    const { post, open } = await listen();
    const session = await open();
    const res = await post(
      { jsonrpc: "2.0", id: 2, method: "ping" },
      { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18" },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as Msg).error.message).toMatch(
      /not this session's version 2025-11-25/,
    );
  });

  it("the GET stream carries list changes, and replays what came after Last-Event-ID", async () => {
    const { server, url, open } = await listen();
    const session = await open();
    const controller = new AbortController();
    const stream = await fetch(url, {
      method: "GET",
      headers: { "Mcp-Session-Id": session, Accept: "text/event-stream" },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect(server.publish({ method: "notifications/tools/list_changed" })).toBe(1);
    let text = "";
    while (!text.includes("\n\n")) text += (await reader.read()).value ?? "";
    expect(text).toMatch(/^id: 1\n/);
    expect(parseSse(text)).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    ]);
    controller.abort();
    // Sent while no stream is open: kept, and replayed to a client resuming after event 1.
    server.publish({ method: "notifications/tools/list_changed" });
    const resumed = await fetch(url, {
      method: "GET",
      headers: { "Mcp-Session-Id": session, Accept: "text/event-stream", "Last-Event-ID": "1" },
    });
    const again = resumed.body!.pipeThrough(new TextDecoderStream()).getReader();
    let replay = "";
    while (!replay.includes("\n\n")) replay += (await again.read()).value ?? "";
    expect(replay).toMatch(/^id: 2\n/);
    await again.cancel();
  });

  it("a tool added through the definitions layer reaches a legacy session's GET stream as tools/list_changed", async () => {
    const { server, addTool } = definedServer();
    const handle = await server.listen({ port: 0 });
    closers.push(() => handle.close(0));
    const opened = await fetch(handle.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(initialize(1)),
    });
    const session = opened.headers.get("mcp-session-id")!;
    const controller = new AbortController();
    const stream = await fetch(handle.url, {
      method: "GET",
      headers: { "Mcp-Session-Id": session, Accept: "text/event-stream" },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    addTool();
    let text = "";
    while (!text.includes("\n\n")) text += (await reader.read()).value ?? "";
    expect(parseSse(text)).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    ]);
    controller.abort();
  });

  it("input_required as an elicitation/create on the POST's SSE stream, answered by a POST of its own", async () => {
    const { post, open } = await listen();
    const session = await open();
    const headers = { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" };
    const call = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } },
      headers,
    );
    expect(call.headers.get("content-type")).toBe("text/event-stream");
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("elicitation/create")) text += (await reader.read()).value ?? "";
    const asked = parseSse(text).find((m) => m.method === "elicitation/create")!;
    const answer = await post(
      { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Bo" } } },
      headers,
    );
    expect(answer.status).toBe(202);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      text += chunk.value;
    expect(parseSse(text).find((m) => m.id === 2)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: 'hello Bo (state {"asked":1})' }] },
    });
  });

  it("the client cancels a call waiting for its elicitation with a notifications/cancelled POST: the handler sees why", async () => {
    const { post, open } = await listen();
    const session = await open();
    const headers = { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" };
    const call = await post(
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "ask", arguments: {} } },
      headers,
    );
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("elicitation/create")) text += (await reader.read()).value ?? "";
    const cancelled = await post(
      {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 7, reason: "user gave up" },
      },
      headers,
    );
    expect(cancelled.status).toBe(202);
    await until(() => seen.inputErrors.length === 1, "the handler to see the cancellation");
    expect(seen.inputErrors).toEqual([
      "elicitation/create: the request was cancelled before the client answered",
    ]);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      text += chunk.value;
    // The elicitation the server had sent is withdrawn on the same stream.
    expect(
      parseSse(text).find((m) => m.method === "notifications/cancelled")?.params,
    ).toMatchObject({ reason: "The request was cancelled" });
  });

  it("10,000 initialize calls in a row: sessions stay bounded, the oldest are forgotten (404), the server keeps serving", async () => {
    const { server, post, open } = await listen({ maxSessions: 200 }, { maxSessions: 200 });
    const first = await open();
    for (let batch = 0; batch < 10_000 / 50; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => post(initialize(batch * 50 + i))),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        await answer.arrayBuffer();
      }
    }
    expect(server.dispatcher.legacy!.size).toBe(200);
    expect(
      (await post({ jsonrpc: "2.0", id: 2, method: "ping" }, { "Mcp-Session-Id": first })).status,
    ).toBe(404);
    const latest = await open();
    const ping = await post(
      { jsonrpc: "2.0", id: 3, method: "ping" },
      { "Mcp-Session-Id": latest },
    );
    expect(await ping.json()).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    server.close();
    expect(server.dispatcher.legacy!.size).toBe(0);
  }, 120_000);
});
