/**
 * The generated client against hostile or broken servers: a default timeout, bounded answers on
 * HTTP (JSON and SSE) and stdio, the parse guard, same-origin redirects only, the response id on
 * every path, `…All()` iterators that stop, one hostile tool costing only itself, and wire strings
 * never reaching inherited properties. Loopback, port 0, bounded loops, no timing assertions.
 */
import { createServer as createHttpServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createClient,
  httpTransport,
  TimeoutError,
  TransportError,
} from "../../../generated/2026-07-28/client.js";
import { stdioTransport } from "../../../generated/2026-07-28/client-node.js";
import { fakeTransport, INFO, results, type Msg } from "../../helpers/client-fake.js";
import { stdioScript } from "../../helpers/client-servers.js";

const MiB = 1024 * 1024;
const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((close) => close()));
});

/** A loopback server whose handler gets the parsed JSON-RPC request and the response to write. */
async function serve(
  handler: (body: Msg, res: ServerResponse, url: string) => void,
): Promise<{ url: string; hits: number; server: Server }> {
  const state = { url: "", hits: 0, server: null as unknown as Server };
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      state.hits++;
      handler(
        JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Msg,
        res,
        req.url ?? "",
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  state.server = server;
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return state;
}

const reply = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(200, { "Content-Type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
};
const ok = (id: unknown, result: Msg = results.call()) => ({ jsonrpc: "2.0", id, result });

/** Writes `piece` until the client goes away or `limitBytes` are written; resolves with the bytes written. */
function flood(res: ServerResponse, piece: string, limitBytes: number): Promise<number> {
  return new Promise((resolve) => {
    let written = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(written);
    };
    res.on("close", finish);
    const pump = () => {
      while (!done && written < limitBytes) {
        written += piece.length;
        if (!res.write(piece)) return void res.once("drain", pump);
      }
      if (!done) res.end(finish);
    };
    pump();
  });
}

describe("client timeout", () => {
  it("a call fails with TimeoutError after 60 s by default; the timeoutMs option changes it, 0 waits", async () => {
    vi.useFakeTimers();
    const never = fakeTransport(() => new Promise<never>(() => {}));
    const client = createClient({ transport: never, info: INFO });
    const call = client.callTool({ name: "x" });
    const failed = expect(call).rejects.toSatisfy(
      (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 60_000,
    );
    await vi.advanceTimersByTimeAsync(60_000);
    await failed;

    const quick = createClient({ transport: never, info: INFO, timeoutMs: 1000 });
    const quickCall = expect(quick.callTool({ name: "x" })).rejects.toBeInstanceOf(TimeoutError);
    await vi.advanceTimersByTimeAsync(1000);
    await quickCall;

    const patient = createClient({ transport: never, info: INFO, timeoutMs: 0 });
    let settled = false;
    void patient
      .callTool({ name: "x" })
      .finally(() => (settled = true))
      .catch(() => {});
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(settled).toBe(false);
    await patient.close();
  });
});

describe("HTTP client limits", () => {
  it("refuses a JSON answer declared larger than maxResponseBytes without reading it", async () => {
    const server = await serve((body, res) =>
      reply(res, ok(body.id, results.call("x".repeat(4096)))),
    );
    const client = createClient({
      transport: httpTransport(server.url, { maxResponseBytes: 1024 }),
      info: INFO,
    });
    await expect(client.callTool({ name: "x" })).rejects.toThrow(
      /the answer to tools\/call is larger than 1024 bytes/,
    );
  });

  it("stops reading an undeclared (chunked) JSON answer once it passes maxResponseBytes", async () => {
    let written: Promise<number> = Promise.resolve(0);
    const server = await serve((_body, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      written = flood(res, `{"pad":"${"x".repeat(65536)}",`, 256 * MiB);
    });
    const client = createClient({
      transport: httpTransport(server.url, { maxResponseBytes: MiB }),
      info: INFO,
    });
    await expect(client.callTool({ name: "x" })).rejects.toThrow(/is larger than 1048576 bytes/);
    expect(await written).toBeLessThan(256 * MiB);
  });

  it("fails on an SSE event past maxEventBytes: endless data lines are not kept", async () => {
    let written: Promise<number> = Promise.resolve(0);
    const server = await serve((_body, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      written = flood(res, `data: ${"y".repeat(1000)}\n`, 256 * MiB);
    });
    const client = createClient({
      transport: httpTransport(server.url, { maxEventBytes: 64 * 1024 }),
      info: INFO,
    });
    await expect(client.callTool({ name: "x" })).rejects.toThrow(
      /an SSE event answering tools\/call is larger than 65536 characters/,
    );
    expect(await written).toBeLessThan(256 * MiB);
  });

  it("parses SSE however the stream is cut: one byte at a time, CRLF and CR line ends, multi-line data", async () => {
    const server = await serve((body, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      const notification = JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "a" },
      });
      const answer = JSON.stringify(ok(body.id, results.call("done")));
      // The answer's JSON split over two data lines (joined by a newline, which JSON ignores).
      const text = `: comment\r\nevent: message\r\ndata: ${notification}\r\n\r\ndata: ${answer.slice(0, 10)}\rdata: ${answer.slice(10)}\r\n\r\n`;
      let i = 0;
      const next = () => {
        if (i >= text.length) return void res.end();
        res.write(text[i++]!, () => setImmediate(next));
      };
      next();
    });
    const seen: Msg[] = [];
    const client = createClient({
      transport: httpTransport(server.url),
      info: INFO,
      onNotification: (n) => seen.push(n as Msg),
    });
    const result = await client.callTool({ name: "x" });
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
  });

  it("refuses a JSON answer nested deeper than maxDepth, before parsing it", async () => {
    const server = await serve((body, res) =>
      reply(
        res,
        `{"jsonrpc":"2.0","id":${JSON.stringify(body.id)},"result":{"content":[],"x":${"[".repeat(2000)}${"]".repeat(2000)}}}`,
      ),
    );
    const client = createClient({ transport: httpTransport(server.url), info: INFO });
    await expect(client.callTool({ name: "x" })).rejects.toThrow(
      /the answer to tools\/call nests more than 1000 levels deep/,
    );
    const lenient = createClient({
      transport: httpTransport(server.url, { maxDepth: 5000 }),
      info: INFO,
    });
    await expect(lenient.callTool({ name: "x" })).resolves.toMatchObject({ content: [] });
  });

  it("checks the response id on the JSON path", async () => {
    const server = await serve((body, res) => reply(res, ok(`${String(body.id)}-other`)));
    const client = createClient({ transport: httpTransport(server.url), info: INFO });
    await expect(client.callTool({ name: "x" })).rejects.toThrow(
      /is a response to another request/,
    );
  });

  it("refuses a redirect to another origin (307 and 302): the other host never gets the request", async () => {
    const elsewhere = await serve((body, res) =>
      reply(res, ok(body.id, results.call("from elsewhere"))),
    );
    for (const status of [307, 302]) {
      const server = await serve((_body, res) => {
        res.writeHead(status, { Location: elsewhere.url });
        res.end();
      });
      const client = createClient({ transport: httpTransport(server.url), info: INFO });
      const error = await client.callTool({ name: "x" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect((error as Error).message).toMatch(
        /redirected \(HTTP 30[27]\) to another origin \(http:\/\/127\.0\.0\.1:\d+\)/,
      );
    }
    expect(elsewhere.hits).toBe(0);
  });

  it("follows a redirect within the origin with the same POST, and at most 5 of them", async () => {
    const server = await serve((body, res, url) => {
      if (url === "/mcp") {
        res.writeHead(308, { Location: "/moved" });
        return void res.end();
      }
      if (url === "/loop") {
        res.writeHead(307, { Location: "/loop" });
        return void res.end();
      }
      reply(res, ok(body.id, results.call(`${String(body.method)} at ${url}`)));
    });
    const client = createClient({ transport: httpTransport(server.url), info: INFO });
    expect((await client.callTool({ name: "x" })).content).toEqual([
      { type: "text", text: "tools/call at /moved" },
    ]);
    const looping = createClient({
      transport: httpTransport(server.url.replace("/mcp", "/loop")),
      info: INFO,
    });
    await expect(looping.callTool({ name: "x" })).rejects.toThrow(/redirected more than 5 times/);
  });
});

describe("…All() iterators stop", () => {
  it("after maxPages pages of fresh cursors, with a log line", async () => {
    const logs: string[] = [];
    let page = 0;
    const transport = fakeTransport(() => ({
      result: results.tools([results.tool(`t${page}`)], `cursor-${++page}`),
    }));
    const client = createClient({
      transport,
      info: INFO,
      maxPages: 5,
      log: (line) => logs.push(line),
    });
    const names: string[] = [];
    for await (const tool of client.listToolsAll()) names.push(tool.name);
    expect(names).toHaveLength(5);
    expect(transport.sent).toHaveLength(5);
    expect(logs).toContain("mcp client: stopped paging tools after 5 pages");
  });

  it("at a repeated cursor, with a log line; and by default within 1000 pages", async () => {
    const logs: string[] = [];
    const cycling = fakeTransport((_m, _o, index) => ({
      result: results.tools([results.tool(`t${index}`)], index % 2 === 0 ? "a" : "b"),
    }));
    const client = createClient({ transport: cycling, info: INFO, log: (line) => logs.push(line) });
    let count = 0;
    for await (const _tool of client.listToolsAll()) count++;
    expect(count).toBe(3);
    expect(logs).toContain("mcp client: stopped paging tools: the server repeated a cursor");
    let n = 0;
    const endless = createClient({
      transport: fakeTransport(() => ({ result: results.tools([], `c${++n}`) })),
      info: INFO,
    });
    for await (const _tool of endless.listToolsAll()) void _tool;
    expect(n).toBe(1000);
  });
});

describe("tool header annotations", () => {
  it("a 20,000-deep inputSchema is walked without overflowing the stack; a hostile tool is dropped alone", async () => {
    let deep: Msg = { type: "string" };
    for (let i = 0; i < 20_000; i++) deep = { anyOf: [deep] };
    const hostile = {
      name: "hostile",
      inputSchema: {
        type: "object",
        properties: {
          a: { type: "object", properties: { b: { items: [{ "x-mcp-header": "Nested" }] } } },
        },
      },
    };
    const tools = [
      results.tool("deep", { d: deep }),
      hostile,
      results.tool("fine", { region: { type: "string", "x-mcp-header": "Region" } }),
    ];
    const logs: string[] = [];
    const transport = fakeTransport(
      (m) => ({ result: m.method === "tools/list" ? results.tools(tools) : results.call() }),
      { mirrorsHeaders: true },
    );
    const client = createClient({
      transport,
      info: INFO,
      validate: false,
      log: (line) => logs.push(line),
    });
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(["deep", "fine"]);
    expect(logs).toEqual([
      'mcp client: dropped tool "hostile": x-mcp-header is only allowed on properties reachable through `properties`',
    ]);
    await client.callTool({ name: "fine", arguments: { region: "eu" } });
    expect(transport.sent[1]!.headers["Mcp-Param-Region"]).toBe("eu");
  });
});

describe("wire strings are never looked up as inherited properties (client)", () => {
  it("notifications and server requests named constructor/toString/__proto__ report no deprecation", async () => {
    const notices: unknown[] = [];
    const seen: string[] = [];
    const transport = fakeTransport(async (_m, options) => {
      for (const method of ["constructor", "toString", "__proto__", "hasOwnProperty"])
        options.onNotification({ jsonrpc: "2.0", method });
      return { result: results.call() };
    });
    const client = createClient({
      transport,
      info: INFO,
      onDeprecated: (notice) => notices.push(notice.toUpperCase()),
      onNotification: (n) => seen.push(n.method),
    });
    await client.callTool({ name: "x" });
    expect(notices).toEqual([]);
    expect(seen).toEqual(["constructor", "toString", "__proto__", "hasOwnProperty"]);
  });
});

describe("stdio client limits", () => {
  it("drops a line longer than maxLineBytes as it arrives, and reads the next one", async () => {
    const logs: string[] = [];
    const answer = (result: Msg) =>
      `write({ jsonrpc: "2.0", id: message.id, result: ${JSON.stringify(result)} })`;
    const transport = stdioTransport({
      command: process.execPath,
      args: stdioScript(
        `if (message.method === "server/discover") ${answer(results.discover())}; else { process.stdout.write("x".repeat(3 * 1024 * 1024) + "\\n"); ${answer(results.call("after"))}; }`,
      ),
      maxLineBytes: MiB,
    });
    const client = createClient({ transport, info: INFO, log: (line) => logs.push(line) });
    open.push(() => client.close());
    const result = await client.callTool({ name: "x" });
    expect(result.content).toEqual([{ type: "text", text: "after" }]);
    expect(logs).toContain(
      "mcp stdio client: dropped a line longer than 1048576 bytes (raise maxLineBytes to read it); a request it answered fails only by its timeout",
    );
  });

  it("drops a line nested deeper than maxDepth", async () => {
    const logs: string[] = [];
    const answer = (result: Msg) =>
      `write({ jsonrpc: "2.0", id: message.id, result: ${JSON.stringify(result)} })`;
    const transport = stdioTransport({
      command: process.execPath,
      args: stdioScript(
        `if (message.method === "server/discover") ${answer(results.discover())}; else { write("[".repeat(5000) + "]".repeat(5000)); ${answer(results.call("after"))}; }`,
      ),
    });
    const client = createClient({ transport, info: INFO, log: (line) => logs.push(line) });
    open.push(() => client.close());
    expect((await client.callTool({ name: "x" })).content).toEqual([
      { type: "text", text: "after" },
    ]);
    expect(logs).toContain("mcp stdio client: dropped a line nested more than 1000 levels deep");
  });

  it("routes progress to its call by token (two calls at once), and an unknown token to the client's listeners", async () => {
    const answer = (result: Msg) =>
      `write({ jsonrpc: "2.0", id: message.id, result: ${JSON.stringify(result)} })`;
    const transport = stdioTransport({
      command: process.execPath,
      args: stdioScript(`if (message.method === "server/discover") ${answer(results.discover())}; else {
        const token = message.params._meta["progressToken"];
        write({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: message.params.arguments.n } });
        write({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "nobody", progress: -1 } });
        setTimeout(() => ${answer(results.call("done"))}, 20);
      }`),
    });
    const stray: Msg[] = [];
    const client = createClient({
      transport,
      info: INFO,
      onNotification: (n) => stray.push(n as Msg),
    });
    open.push(() => client.close());
    const seen: Record<string, unknown[]> = { a: [], b: [] };
    await Promise.all([
      client.callTool(
        { name: "x", arguments: { n: 1 } },
        { onProgress: (p) => seen.a!.push(p.progress) },
      ),
      client.callTool(
        { name: "x", arguments: { n: 2 } },
        { onProgress: (p) => seen.b!.push(p.progress) },
      ),
    ]);
    expect(seen).toEqual({ a: [1], b: [2] });
    expect(stray.map((n) => n.params?.progressToken)).toEqual(["nobody", "nobody"]);
  });
});
