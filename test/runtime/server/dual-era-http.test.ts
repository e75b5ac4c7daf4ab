/**
 * A dual-era server (generated/dual: 2026-07-28 with the default --legacy, every released
 * initialize-era revision) driven by hand over Streamable HTTP: both eras on one endpoint, unknown,
 * deleted and expired sessions, a modern request on a legacy session, the GET stream, elicitation on
 * the POST's SSE stream, 10,000 initialize calls; and tools added through the definitions layer
 * reaching a legacy session's GET stream.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defaultHeaders, parseSse, until, type Msg } from "../../helpers/server-harness.js";
import {
  closeAll,
  closers,
  definedServer,
  initialize,
  makeServer,
  modernMeta,
  MODERN,
  seen,
} from "../../helpers/dual-era-server.js";
import { listenOn } from "../../helpers/http-paths.js";

afterEach(closeAll);

describe("over Streamable HTTP", () => {
  async function listen(
    options: Record<string, unknown> = {},
    legacy: Record<string, number> = {},
  ) {
    const server = makeServer(legacy);
    const handle = await listenOn(server, { port: 0, ...options });
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
    const handle = await listenOn(server, { port: 0 });
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

  it("the least recently used session is the one forgotten, after a session is used again and again and others open", async () => {
    // Transport and legacy bounds alike, so that either forgetting the wrong one shows.
    const { post, open } = await listen({ maxSessions: 2 }, { maxSessions: 2 });
    const ping = async (session: string, id: number) =>
      (await post({ jsonrpc: "2.0", id, method: "ping" }, { "Mcp-Session-Id": session })).status;
    const a = await open();
    expect(await ping(a, 2)).toBe(200);
    expect(await ping(a, 3)).toBe(200); // already the most recent
    const b = await open();
    expect(await ping(a, 4)).toBe(200); // A again, now after B: B the least recently used
    await open(); // a third: B goes
    expect(await ping(a, 5)).toBe(200);
    expect(await ping(b, 6)).toBe(404);
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
