/**
 * A dual-era server (generated/dual: 2026-07-28 with the default --legacy, every released
 * initialize-era revision) driven by hand over stdio: the bad input of the issue — an unknown
 * version, requests before initialize, a modern request after initialize, a client that never
 * answers an elicitation (timeout, cancellation), a client without the capability; and tools added or
 * removed through the definitions layer reaching legacy sessions as list changes. The same over
 * Streamable HTTP is dual-era-http.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "../../../generated/dual/index.js";
import { PROTOCOL_DESCRIPTION } from "../../../generated/dual/protocol.js";
import { until } from "../../helpers/server-harness.js";
import {
  closeAll,
  closers,
  definedServer,
  elicit,
  handlers,
  INFO,
  initialize,
  makeServer,
  modernMeta,
  seen,
  session,
  stdio,
} from "../../helpers/dual-era-server.js";

afterEach(closeAll);

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

  it("a `__proto__` key in a request's params is data: it lends the request no name", async () => {
    const c = await session(makeServer());
    const smuggled = '{"__proto__":{"name":"smuggled"}}';
    c.send(JSON.parse(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":${smuggled}}`));
    expect((await c.reply(2)).error).toMatchObject({ code: -32602 });
    const named = `{"name":"plain","__proto__":{"name":"smuggled"}}`;
    c.send(JSON.parse(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":${named}}`));
    expect((await c.reply(3)).result.content).toEqual([{ type: "text", text: "echo plain" }]);
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

  // Each era without a way to ask: 2025-11-25 and 2025-06-18 have elicitation but the client did not
  // declare it; 2025-03-26 and 2024-11-05 have no elicitation at all, whatever the client declares.
  const unaskable = [
    ...PROTOCOL_DESCRIPTION.eras.map((era) => ({ version: era.protocolVersion, capabilities: {} })),
    ...PROTOCOL_DESCRIPTION.eras
      .filter((era) => !Object.keys(era.serverRequests).includes(elicit.method))
      .map((era) => ({ version: era.protocolVersion, capabilities: { elicitation: {} } })),
  ];

  it("the eras without elicitation are the two oldest", () => {
    expect(unaskable.filter((c) => "elicitation" in c.capabilities).map((c) => c.version)).toEqual([
      "2025-03-26",
      "2024-11-05",
    ]);
  });

  /** A legacy session opened with `capabilities`, then a call of `tool`: the stdio peer and its reply. */
  async function callOnSession(
    version: string,
    capabilities: Record<string, unknown>,
    tool: string,
  ) {
    const c = stdio(makeServer());
    closers.push(c.close);
    c.send(initialize(1, version, capabilities));
    await c.reply(1);
    c.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: tool, arguments: {} } });
    return { c, reply: c.reply(2) };
  }

  it.each(unaskable)(
    "$version, client capabilities $capabilities: never asked; the handler falls back on the missing-capability error in ctx.inputError",
    async ({ version, capabilities }) => {
      const { c, reply } = await callOnSession(version, capabilities, "ask");
      expect((await reply).result).toEqual({
        isError: true,
        content: [{ type: "text", text: "no answer: Missing required client capability" }],
      });
      expect(seen.inputErrors).toEqual(["Missing required client capability"]);
      expect(c.received.some((m) => m.method === elicit.method)).toBe(false);
    },
  );

  it.each(unaskable)(
    "$version, client capabilities $capabilities: a handler asking again gets -32021 naming elicitation, never -32603",
    async ({ version, capabilities }) => {
      const { c, reply } = await callOnSession(version, capabilities, "insist");
      expect((await reply).error).toEqual({
        code: -32021,
        message: "Missing required client capability",
        data: { requiredCapabilities: { elicitation: {} } },
      });
      expect(c.received.some((m) => m.method === elicit.method)).toBe(false);
      c.send({ jsonrpc: "2.0", id: 3, method: "ping" });
      expect((await c.reply(3)).result).toEqual({});
    },
  );

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
