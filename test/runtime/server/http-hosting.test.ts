/**
 * What hosting the transport in someone else's server asks of it (issue #30): CORS for browser
 * clients on allowed origins (preflight answered, answers readable, untrusted origins refused);
 * exactly one `Host`; the endpoint behind a framework's mount prefix, or on every path (`"*"`);
 * a body a framework already parsed, and one it consumed without leaving anything, which is
 * answered with an error naming the cause. `http-hosting.fetch.test.ts` runs this file again on
 * the fetch path.
 */
import { describe, expect, it } from "vitest";
import { connect } from "node:net";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createFetchHandler, createHttpHandler } from "../../../runtime/server/http/index.js";
import { FakeDispatcher, httpFixture } from "../../helpers/http-fake-dispatcher.js";
import { headersFor, post, rpc, sseReader } from "../../helpers/http-wire.js";
import { httpPath } from "../../helpers/http-paths.js";
import { RULES } from "../../helpers/http-wire.js";

const PAGE = "http://app.example:5173";

describe("CORS for browser clients", () => {
  const http = httpFixture();

  it("answers an allowed origin's preflight: 204, the methods, the MCP headers it asked for", async () => {
    const server = await http.start({ allowedOrigins: [PAGE] });
    const response = await fetch(server.url, {
      method: "OPTIONS",
      headers: {
        Origin: PAGE,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers":
          "content-type, mcp-session-id, MCP-Protocol-Version, mcp-method, mcp-name, mcp-param-region, last-event-id, authorization, x-not-ours",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(response.headers.get("access-control-allow-methods")?.split(", ")).toEqual(
      expect.arrayContaining(["GET", "POST", "DELETE"]),
    );
    const allowed = response.headers.get("access-control-allow-headers")!.split(", ");
    expect(allowed).toEqual([
      "content-type",
      "mcp-session-id",
      "mcp-protocol-version",
      "mcp-method",
      "mcp-name",
      "mcp-param-region",
      "last-event-id",
      "authorization",
    ]);
    expect(response.headers.get("vary")).toContain("Origin");
    expect(await response.text()).toBe("");
  });

  it("marks an allowed origin's answers readable, exposing the session id and the challenge", async () => {
    const server = await http.start({ allowedOrigins: [PAGE] });
    const response = await post(server.url, rpc("tools/call", { name: "echo" }), { Origin: PAGE });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(response.headers.get("access-control-expose-headers")?.split(", ")).toEqual([
      "Mcp-Session-Id",
      "WWW-Authenticate",
    ]);
  });

  it("refuses an untrusted origin's preflight and requests (403), and tells a same-origin request nothing", async () => {
    const server = await http.start({ allowedOrigins: [PAGE] });
    const preflight = await fetch(server.url, {
      method: "OPTIONS",
      headers: { Origin: "http://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const call = await post(server.url, rpc("tools/call", { name: "echo" }), {
      Origin: "http://evil.example",
    });
    expect(call.status).toBe(403);
    const plain = await post(server.url, rpc("tools/call", { name: "echo" }));
    expect(plain.status).toBe(200);
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("Host", () => {
  const http = httpFixture();

  it("answers a request naming its host twice 400 (RFC 9112), and keeps serving", async () => {
    const { port } = new URL(http.url);
    const body = JSON.stringify(rpc("tools/call", { name: "echo" }));
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1");
      let received = "";
      socket.setEncoding("latin1").on("data", (chunk: string) => {
        received += chunk;
        if (received.includes("\r\n\r\n")) socket.destroy();
      });
      socket.on("close", () => resolve(received));
      socket.on("error", reject);
      const headers = Object.entries(headersFor(JSON.parse(body) as Record<string, unknown>))
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\n${headers}Content-Length: ${body.length}\r\n\r\n${body}`,
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect((await post(http.url, rpc("tools/call", { name: "echo" }))).status).toBe(200);
  });
});

describe("paths", () => {
  const http = httpFixture();

  it('`path: "*"` serves every path the host routes to it', async () => {
    const server = await http.start({ path: "*" });
    const base = new URL(server.url);
    for (const path of ["/", "/mcp", "/api/v1/mcp"]) {
      const response = await post(new URL(path, base).href, rpc("tools/call", { name: "echo" }));
      expect(response.status, path).toBe(200);
    }
  });
});

/** A `node:http` server whose listener does `before` to each request, then hands it to the MCP handler. */
async function nodeHost(
  before: (req: IncomingMessage, done: (body?: unknown) => void) => void,
  fake = new FakeDispatcher(),
): Promise<{ url: string; fake: FakeDispatcher; close(): Promise<void> }> {
  const handler = createHttpHandler(fake, { headerRules: RULES });
  const server: Server = createServer((req, res) => before(req, (body) => handler(req, res, body)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    fake,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    req.on("end", () => resolve(text));
  });
}

describe.runIf(httpPath() === "node")("bodies a framework read first (node:http)", () => {
  it("serves the body a framework parsed, handed on as the third argument (Fastify)", async () => {
    const host = await nodeHost(
      (req, done) => void readAll(req).then((text) => done(JSON.parse(text))),
    );
    const response = await post(host.url, rpc("tools/call", { name: "echo" }));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: unknown }).result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "echo" }],
    });
    await host.close();
  });

  it("serves req.body (body-parser), as a value, a string or bytes", async () => {
    for (const form of ["value", "string", "bytes"] as const) {
      const host = await nodeHost(
        (req, done) =>
          void readAll(req).then((text) => {
            (req as IncomingMessage & { body?: unknown }).body =
              form === "value" ? JSON.parse(text) : form === "string" ? text : Buffer.from(text);
            done();
          }),
      );
      const response = await post(host.url, rpc("tools/call", { name: "echo" }));
      expect(response.status, form).toBe(200);
      await host.close();
    }
  });

  it("holds a parsed body to maxDepth, as a body it parses itself", async () => {
    let deep: unknown = {};
    for (let i = 0; i < 1200; i++) deep = { deep };
    const host = await nodeHost((req, done) => void readAll(req).then(() => done(deep)));
    const response = await post(host.url, rpc("tools/call", { name: "echo" }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /nested more than 1000 levels/,
    );
    expect(host.fake.received).toEqual([]);
    await host.close();
  });

  it("holds a parsed body to maxContainers, as a body it parses itself", async () => {
    const many = { items: Array.from({ length: 10_001 }, () => ({})) };
    const host = await nodeHost((req, done) => void readAll(req).then(() => done(many)));
    const response = await post(host.url, rpc("tools/call", { name: "echo" }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "Parse error: more than 10000 arrays and objects",
    );
    expect(host.fake.received).toEqual([]);
    await host.close();
  });

  it("answers a body read and not left anywhere with 500 naming the cause, and logs it", async () => {
    const host = await nodeHost((req, done) => void readAll(req).then(() => done()));
    const response = await post(host.url, rpc("tools/call", { name: "echo" }));
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/read before the MCP handler.*req\.body/);
    expect(host.fake.logs.some((line) => line.includes("read before the MCP handler"))).toBe(true);
    expect(host.fake.received).toEqual([]);
    await host.close();
  });

  it("serves the endpoint behind a mount prefix (Express's originalUrl)", async () => {
    const host = await nodeHost((req, done) => {
      // What `app.use("/mcp", handler)` does to the request before the handler sees it.
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url ?? "/";
      req.url = "/";
      done();
    });
    expect((await post(host.url, rpc("tools/call", { name: "echo" }))).status).toBe(200);
    await host.close();
  });
});

describe.runIf(httpPath() === "node")("the fetch handler, called as a host calls it", () => {
  const handler = (fake = new FakeDispatcher()) => ({
    fake,
    fetch: createFetchHandler(fake, { headerRules: RULES }),
  });
  const request = (body: Record<string, unknown>, init: RequestInit = {}) =>
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: headersFor(body),
      body: JSON.stringify(body),
      ...init,
    });

  it("answers a Request with a Response, the JSON body whole", async () => {
    const { fetch } = handler();
    const response = await fetch(request(rpc("tools/call", { name: "echo" })));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(((await response.json()) as { result: { content: unknown } }).result.content).toEqual([
      { type: "text", text: "echo" },
    ]);
  });

  it("streams what the handler notifies before its result as SSE", async () => {
    const { fetch } = handler();
    const response = await fetch(request(rpc("tools/call", { name: "progress" })));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = sseReader(response);
    expect((await reader.next())?.["method"]).toBe("notifications/progress");
  });

  it("answers a Request whose body was already read with 500 naming the cause", async () => {
    const { fetch, fake } = handler();
    const used = request(rpc("tools/call", { name: "echo" }));
    await used.text();
    const response = await fetch(used);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /read before the MCP handler/,
    );
    expect(fake.received).toEqual([]);
  });

  it("aborts the handler when the request's signal aborts (the client went away)", async () => {
    const { fetch, fake } = handler();
    const controller = new AbortController();
    const pending = fetch(
      request(rpc("tools/call", { name: "slow" }), { signal: controller.signal }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await pending.catch(() => undefined);
    await expect.poll(() => fake.aborted.length, { timeout: 5000 }).toBe(1);
  });

  it("keys the client by the address the host gives with the request (Bun's requestIP, Deno's remoteAddr)", async () => {
    const fake = new FakeDispatcher();
    const fetch = createFetchHandler(fake, { headerRules: RULES, maxRequestsPerClient: 1 });
    // Bun passes its server, whose requestIP names the peer; one request in flight per client.
    const bun = { requestIP: () => ({ address: "10.0.0.1" }) };
    const controller = new AbortController();
    const slow = fetch(
      request(rpc("tools/call", { name: "slow" }), { signal: controller.signal }),
      bun,
    );
    const second = await fetch(request(rpc("tools/call", { name: "echo" })), bun);
    expect(second.status).toBe(429);
    // Another address is another client.
    const deno = { remoteAddr: { hostname: "10.0.0.2" } };
    expect((await fetch(request(rpc("tools/call", { name: "echo" })), deno)).status).toBe(200);
    controller.abort();
    await slow.catch(() => undefined);
  });
});
