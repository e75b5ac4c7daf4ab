/**
 * #25 item 5: one client cannot take what every client shares (generated/dual, limits set small).
 * Subscriptions hold at most `maxSubscriptionBytes` of URIs per session and
 * `maxSubscriptionBytesTotal` per server; one client (its principal, else its address) keeps at
 * most `maxSessionsPerClient` sessions, losing its own oldest, never another's; one client holds at
 * most `maxRequestsPerClient` / `maxBytesPerClient` in flight (slow bodies, listen streams,
 * unanswered elicitations alike), then 429 with Retry-After; a body slower than `bodyTimeoutMs`
 * gets 408 and its connection closed. Clients on loopback come from 127.0.0.1 and 127.0.0.2.
 */
import { afterEach, describe, expect, it } from "vitest";
import { request, type IncomingHttpHeaders } from "node:http";
import { connect, type Socket } from "node:net";
import {
  bearerAuth,
  createServer,
  InvalidTokenError,
  type McpServer,
  type ServerOptions,
} from "../../../generated/dual/index.js";
import type { HttpOptions } from "../../../generated/dual/runtime/server/http/index.js";
import type { Msg } from "../../helpers/server-harness.js";
import { httpPath, listenOn } from "../../helpers/http-paths.js";

const LEGACY = "2025-11-25";
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "quota-test", version: "1" },
};
const ATTACKER = "127.0.0.2";
const OTHER = "127.0.0.1";

const closers: Array<() => unknown> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function dualServer(options: Partial<ServerOptions> = {}): McpServer {
  return createServer({
    info: { name: "quotas", version: "1.0.0" },
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    log: () => undefined,
    handlers: {
      "tools/list": () => ({ tools: [{ name: "ask", inputSchema: { type: "object" } }] }),
      // Asks the client for input it never gives: the request waits (legacy: an elicitation).
      "tools/call": (_params, ctx) =>
        ctx.inputResponses.ok
          ? { content: [{ type: "text", text: "answered" }] }
          : ctx.inputRequired({
              ok: {
                method: "elicitation/create",
                params: {
                  mode: "form",
                  message: "?",
                  requestedSchema: { type: "object", properties: {} },
                },
              },
            }),
    },
    ...options,
  });
}

async function listen(options: Partial<HttpOptions> = {}, server = dualServer()) {
  const handle = await listenOn(server, { port: 0, ...options });
  closers.push(() => handle.close(0));
  return { server, url: new URL(handle.url) };
}

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** One POST from `from` (a loopback address), on a connection of its own. */
function post(url: URL, from: string, body: unknown, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        localAddress: from,
        agent: false,
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const initialize = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: {
    protocolVersion: LEGACY,
    capabilities: { elicitation: {} },
    clientInfo: { name: "legacy", version: "1" },
  },
});
const ping = { jsonrpc: "2.0", id: 9, method: "ping" };
const inSession = (id: string) => ({ "Mcp-Session-Id": id, "MCP-Protocol-Version": LEGACY });

async function open(url: URL, from: string, headers: Record<string, string> = {}) {
  const answer = await post(url, from, initialize(1), headers);
  expect(answer.status).toBe(200);
  return String(answer.headers["mcp-session-id"]);
}

/**
 * A request whose answer does not come while the test needs it held: raw bytes on a socket from
 * `from`, kept open until the test ends. Resolves with the first bytes the server sends, if any.
 */
function hold(url: URL, from: string, head: string, body = "") {
  const socket: Socket = connect({
    host: url.hostname,
    port: Number(url.port),
    localAddress: from,
  });
  closers.push(() => socket.destroy());
  let received = "";
  const first = new Promise<string>((resolve) => {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
      resolve(received);
    });
    socket.on("close", () => resolve(received));
    socket.on("error", () => resolve(received));
  });
  socket.write(`${head}\r\n\r\n${body}`);
  return { socket, first, received: () => received };
}

const postHead = (url: URL, headers: Record<string, string | number>) =>
  [
    `POST ${url.pathname} HTTP/1.1`,
    `Host: ${url.host}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join("\r\n");

/** Waits (bounded) until `ready()` holds. */
async function until(ready: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 500; i++) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("never happened");
}

describe("subscription bytes", () => {
  /** A legacy session in process (the dispatcher's own session record, as a transport keeps it). */
  async function session(server: McpServer) {
    const record: Record<string, unknown> = {};
    const send = async (id: number, method: string, params: Msg = {}) =>
      (
        await server.dispatcher.handle(
          { jsonrpc: "2.0", id, method, params },
          { notify: () => undefined, signal: new AbortController().signal, session: record },
        )
      ).response as Msg;
    expect((await send(0, "initialize", initialize(0).params)).result).toBeDefined();
    return { record, send };
  }
  const uri = (n: number, tag: string) => `file:///${tag}/${"x".repeat(n - 10 - tag.length)}`;

  it("holds a session to maxSubscriptionBytes of URIs and the server to maxSubscriptionBytesTotal", async () => {
    const server = dualServer({
      legacy: { maxSubscriptionBytes: 1000, maxSubscriptionBytesTotal: 2500 },
    });
    const a = await session(server);
    expect((await a.send(1, "resources/subscribe", { uri: uri(400, "a1") })).result).toEqual({});
    expect((await a.send(2, "resources/subscribe", { uri: uri(400, "a2") })).result).toEqual({});
    // The same URI again costs nothing.
    expect((await a.send(3, "resources/subscribe", { uri: uri(400, "a2") })).result).toEqual({});
    expect((await a.send(4, "resources/subscribe", { uri: uri(400, "a3") })).error).toEqual({
      code: -32600,
      message: "Invalid request: a session's subscriptions may hold at most 1000 bytes of URIs",
    });
    // A 3 MiB URI never gets in.
    expect(
      (await a.send(5, "resources/subscribe", { uri: uri(3 * 1024 * 1024, "big") })).error.code,
    ).toBe(-32600);
    // Unsubscribing gives the bytes back.
    await a.send(6, "resources/unsubscribe", { uri: uri(400, "a2") });
    expect((await a.send(7, "resources/subscribe", { uri: uri(400, "a3") })).result).toEqual({});

    const b = await session(server);
    const c = await session(server);
    for (const [i, s] of [b, c].entries()) {
      expect((await s.send(1, "resources/subscribe", { uri: uri(400, `${i}1`) })).result).toEqual(
        {},
      );
      expect((await s.send(2, "resources/subscribe", { uri: uri(400, `${i}2`) })).result).toEqual(
        {},
      );
    }
    // 2,400 bytes held: 400 more would pass 2,500.
    const d = await session(server);
    expect((await d.send(1, "resources/subscribe", { uri: uri(400, "d1") })).error).toEqual({
      code: -32000,
      message: "Server busy: the server holds 2500 bytes of subscriptions; retry later",
    });
    // A session that ends gives its bytes back to the server.
    server.dispatcher.endSession(a.record);
    expect((await d.send(2, "resources/subscribe", { uri: uri(400, "d1") })).result).toEqual({});
  });

  it("counts a URI's UTF-8 bytes", async () => {
    const server = dualServer({ legacy: { maxSubscriptionBytes: 100 } });
    const a = await session(server);
    const wide = `file:///${"é".repeat(40)}`; // 48 characters, 88 bytes
    expect((await a.send(1, "resources/subscribe", { uri: wide })).result).toEqual({});
    expect((await a.send(2, "resources/subscribe", { uri: "file:///0123" })).result).toEqual({});
    expect((await a.send(3, "resources/subscribe", { uri: "file:///x" })).error.code).toBe(-32600);
  });
});

describe("sessions per client", () => {
  it("a client opening sessions in a loop loses its own oldest, never another client's", async () => {
    const { url } = await listen({ maxSessions: 20, maxSessionsPerClient: 5 });
    const others = [await open(url, OTHER), await open(url, OTHER), await open(url, OTHER)];
    const mine: string[] = [];
    for (let i = 0; i < 30; i++) mine.push(await open(url, ATTACKER));
    for (const id of others) expect((await post(url, OTHER, ping, inSession(id))).status).toBe(200);
    const alive = [];
    for (const id of mine) alive.push((await post(url, ATTACKER, ping, inSession(id))).status);
    expect(alive).toEqual([...Array<number>(25).fill(404), ...Array<number>(5).fill(200)]);
  });

  it("counts an authenticated client by its principal, whatever its address", async () => {
    const tokens: Record<string, string> = { alice: "alice", bob: "bob" };
    const resource = "http://127.0.0.1/mcp";
    const { url } = await listen({
      maxSessionsPerClient: 2,
      auth: bearerAuth({
        resource,
        authorizationServers: ["https://as.example"],
        verify: (token) => {
          if (!tokens[token]) throw new InvalidTokenError("unknown token");
          return { scopes: [], subject: tokens[token], issuer: "https://as.example" };
        },
        log: () => undefined,
      }),
    });
    const as = (token: string) => ({ Authorization: `Bearer ${token}` });
    const bob = await open(url, ATTACKER, as("bob"));
    // Alice from two addresses is one client; Bob, from one of them, another.
    const alice = [
      await open(url, ATTACKER, as("alice")),
      await open(url, OTHER, as("alice")),
      await open(url, ATTACKER, as("alice")),
    ];
    const status = async (id: string, token: string) =>
      (await post(url, OTHER, ping, { ...inSession(id), ...as(token) })).status;
    expect(await status(bob, "bob")).toBe(200);
    expect([
      await status(alice[0]!, "alice"),
      await status(alice[1]!, "alice"),
      await status(alice[2]!, "alice"),
    ]).toEqual([404, 200, 200]);
  });
});

describe("requests in flight per client", () => {
  it("slow bodies, an unanswered elicitation and a listen stream hold the client's slots, not the server's: 429 with Retry-After for that client alone", async () => {
    const { url } = await listen({
      maxRequestsPerClient: 4,
      maxRequestsInFlight: 6,
      retryAfterSeconds: 7,
    });
    // Two bodies that never finish.
    hold(url, ATTACKER, postHead(url, { "Content-Length": 100 }), "{");
    hold(url, ATTACKER, postHead(url, { "Content-Length": 100 }), "{");
    // An elicitation the client never answers, on a legacy session.
    const session = await open(url, ATTACKER);
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "ask", arguments: {} },
    });
    const asked = hold(
      url,
      ATTACKER,
      postHead(url, { ...inSession(session), "Content-Length": Buffer.byteLength(call) }),
      call,
    );
    await until(() => asked.received().includes("elicitation/create"));
    // A listen stream, on the modern era.
    const listenBody = JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true }, _meta: MODERN_META },
    });
    const listening = hold(
      url,
      ATTACKER,
      postHead(url, {
        "Content-Length": Buffer.byteLength(listenBody),
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "subscriptions/listen",
      }),
      listenBody,
    );
    await until(() => listening.received().includes("acknowledged"));

    const refused = await post(url, ATTACKER, ping, inSession(session));
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("7");
    expect(JSON.parse(refused.body).error).toEqual({
      code: -32000,
      message: "Server busy: this client has too many requests in flight; retry later",
    });
    // Another client still has the server's slots.
    const other = await open(url, OTHER);
    expect((await post(url, OTHER, ping, inSession(other))).status).toBe(200);
  });

  it("holds a client to maxBytesPerClient, declared or as the body arrives; what it held is given back", async () => {
    const { url } = await listen({ maxBytesPerClient: 1000 });
    const slow = hold(url, ATTACKER, postHead(url, { "Content-Length": 600 }), "{");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const declared = await post(url, ATTACKER, { pad: "x".repeat(500) });
    expect(declared.status).toBe(429);
    // A chunked body is counted as it arrives.
    const chunked = hold(
      url,
      ATTACKER,
      postHead(url, { "Transfer-Encoding": "chunked" }),
      `1f4\r\n${"x".repeat(500)}\r\n`,
    );
    expect(await chunked.first).toMatch(/^HTTP\/1\.1 429/);
    // Once the slow body's connection is gone, the client is served again.
    slow.socket.destroy();
    await until(async () => (await post(url, ATTACKER, initialize(1))).status === 200);
  });
});

describe("bodyTimeoutMs", () => {
  it("answers a body that does not arrive in time with 408 and closes the connection", async () => {
    const { url } = await listen({ bodyTimeoutMs: 200 });
    const slow = hold(url, ATTACKER, postHead(url, { "Content-Length": 100 }), '{"jsonrpc"');
    const answer = await slow.first;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain("Request timeout: the body did not arrive within 200 ms");
    // Closing the connection is `node:http`'s to do: a fetch handler has no connection.
    if (httpPath() === "node") {
      expect(answer.toLowerCase()).toContain("connection: close");
      await until(() => slow.socket.destroyed || slow.socket.readyState === "closed");
    }
    // A body that comes in time is served.
    expect((await post(url, ATTACKER, initialize(1))).status).toBe(200);
  });
});
