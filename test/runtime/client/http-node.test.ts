/**
 * nodeFetch (runtime/client/http-node.ts): what the HTTP transport asks of a `fetch`, over node:http,
 * against loopback servers: connections kept between requests, status and headers, bodies read to
 * their end or cancelled, the signal before and during an answer, what it refuses to send. The
 * transport's own tests run on it too (*.node-fetch.test.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { nodeFetch } from "../../../generated/2026-07-28/client-node.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => handle(req, res, body));
  });
  server.on("connection", () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, connections: () => connections };
}

async function readAll(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  let text = "";
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return text;
    text += Buffer.from(chunk.value).toString("utf8");
  }
}

describe("nodeFetch", () => {
  it("sends the method, headers and body, and keeps one connection for requests in turn", async () => {
    const seen: Array<{
      method: string | undefined;
      type: string | undefined;
      extra: string | undefined;
      body: string;
    }> = [];
    const server = await serve((req, res, body) => {
      seen.push({
        method: req.method,
        type: req.headers["content-type"],
        extra: req.headers["x-extra"] as string | undefined,
        body,
      });
      res.writeHead(201, { "Content-Type": "application/json", "X-Twice": ["a", "b"] });
      res.end(`{"echo":${JSON.stringify(body)}}`);
    });
    const fetch = nodeFetch();
    for (let i = 0; i < 3; i++) {
      const response = await fetch(server.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Extra": `n${i}` },
        body: `{"n":${i}}`,
      });
      expect(response.status).toBe(201);
      expect(response.ok).toBe(true);
      expect(response.headers.get("Content-Type")).toBe("application/json");
      expect(response.headers.get("x-twice")).toBe("a, b");
      expect(response.headers.get("x-missing")).toBeNull();
      expect(await readAll(response)).toBe(`{"echo":"{\\"n\\":${i}}"}`);
    }
    expect(seen).toEqual(
      [0, 1, 2].map((i) => ({
        method: "POST",
        type: "application/json",
        extra: `n${i}`,
        body: `{"n":${i}}`,
      })),
    );
    expect(server.connections()).toBe(1);
  });

  it("takes headers as a Headers object or pairs, and reads text() and json()", async () => {
    const server = await serve((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ a: req.headers["x-a"], b: req.headers["x-b"] }));
    });
    const fetch = nodeFetch();
    const one = await fetch(server.url, { headers: new Headers({ "X-A": "1" }) });
    expect(await one.json()).toEqual({ a: "1" });
    const two = await fetch(new URL(server.url), { headers: [["X-B", "2"]] });
    expect(await two.text()).toBe('{"b":"2"}');
  });

  it("reads a stream chunk by chunk as it comes, and a cancel ends it", async () => {
    let closed: Promise<void> = Promise.resolve();
    const server = await serve((_req, res) => {
      closed = new Promise((resolve) => res.on("close", () => resolve()));
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write("data: one\n\n");
    });
    const response = await nodeFetch()(server.url, { method: "POST", body: "{}" });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString("utf8")).toBe("data: one\n\n");
    await reader.cancel();
    // The server sees the connection go: nothing more of the stream is read.
    await closed;
    await expect(reader.read()).rejects.toThrow("cancelled");
  });

  it("rejects with the signal's reason, before the answer and while its body is read", async () => {
    const server = await serve((req, res) => {
      if (req.url === "/mcp?slow") return; // never answers
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write("data: partial\n\n");
    });
    const fetch = nodeFetch();
    const early = new AbortController();
    const pending = fetch(`${server.url}?slow`, { signal: early.signal });
    early.abort(new Error("gave up"));
    await expect(pending).rejects.toThrow("gave up");

    const already = new AbortController();
    already.abort(new Error("too late"));
    await expect(fetch(server.url, { signal: already.signal })).rejects.toThrow("too late");

    const late = new AbortController();
    const response = await fetch(server.url, { signal: late.signal });
    const reader = response.body!.getReader();
    await reader.read();
    const next = reader.read();
    late.abort(new Error("stopped reading"));
    await expect(next).rejects.toThrow("stopped reading");
  });

  it("fails as fetch does when the server cannot be reached, and refuses what it cannot send", async () => {
    const fetch = nodeFetch();
    await expect(fetch("http://127.0.0.1:1/mcp")).rejects.toThrow("fetch failed");
    await expect(fetch("ftp://127.0.0.1/mcp")).rejects.toThrow("unsupported protocol");
    await expect(
      fetch("http://127.0.0.1:1/mcp", { method: "POST", body: new Uint8Array(1) }),
    ).rejects.toThrow("only string bodies");
  });

  it("never follows a redirect: the caller sees it", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(307, { Location: "/elsewhere" });
      res.end();
    });
    const response = await nodeFetch()(server.url, { method: "POST", body: "{}" });
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("/elsewhere");
    expect(await readAll(response)).toBe("");
  });
});
