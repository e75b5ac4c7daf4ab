import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import type { OutgoingHttpHeaders } from "node:http";
import { DEFAULT_HEADER_RULES, decodeHeaderValue, serveHttp } from "../templates/runtime/http.js";
import type { HttpServerHandle, ServeHttpOptions } from "../templates/runtime/http.js";
import { ErrorCode, failure, success } from "../templates/runtime/jsonrpc.js";
import type { JsonRpcId, JsonRpcNotification } from "../templates/runtime/jsonrpc.js";
import type { Delivery, MessageHandler, Outcome } from "../templates/runtime/transport.js";

// ---------------------------------------------------------------------------
// A fake dispatcher: checks `_meta` itself, then calls checkEnvelope, then the version, exactly in
// the order the generated dispatcher does; a few tools exercise the transport's framing.
// ---------------------------------------------------------------------------

const VERSION = "2026-07-28";
const PV = DEFAULT_HEADER_RULES.protocolVersionMetaKey;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

interface Listen {
  id: JsonRpcId;
  delivery: Delivery;
  /** Ends the subscription from the server side. */
  end(response: Outcome["response"]): void;
}

class FakeDispatcher implements MessageHandler {
  received: unknown[] = [];
  logs: string[] = [];
  /** Methods/tool names whose signal was aborted, with the reason. */
  aborted: string[] = [];
  listens: Listen[] = [];
  /** Notifies that returned after the response: must be dropped silently. */
  lateNotifies = 0;
  /** When set, each tools/list waits (up to 2 s) until this many are in flight at once. */
  barrier = 0;
  inFlight = 0;
  maxInFlight = 0;

  log(message: string): void {
    this.logs.push(message);
  }

  async handle(message: unknown, delivery: Delivery): Promise<Outcome> {
    this.received.push(message);
    if (!isRecord(message) || !("method" in message) || !("id" in message))
      return { response: null, httpStatus: 202 };
    const id = message["id"] as JsonRpcId;
    const method = message["method"] as string;
    const params = isRecord(message["params"]) ? message["params"] : {};
    const error = (code: number, text: string, httpStatus: number): Outcome => ({
      response: failure(id, { code, message: text }),
      httpStatus,
    });
    const meta = params["_meta"];
    if (!isRecord(meta) || typeof meta[PV] !== "string")
      return error(ErrorCode.InvalidParams, "Invalid params: _meta", 400);
    const envelope = delivery.checkEnvelope?.({ method, params }) ?? null;
    if (envelope !== null) return { response: failure(id, envelope), httpStatus: 400 };
    if (meta[PV] !== VERSION) return error(-32022, "Unsupported protocol version", 400);
    const ok = (result: Record<string, unknown>): Outcome => ({
      response: success(id, { resultType: "complete", ...result }),
      httpStatus: 200,
    });

    switch (method) {
      case "server/discover":
        return ok({ supportedVersions: [VERSION], capabilities: {} });
      case "tools/list": {
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        const deadline = Date.now() + 2000;
        while (this.inFlight < this.barrier && Date.now() < deadline) await sleep(5);
        this.inFlight--;
        return ok({ tools: [] });
      }
      case "resources/read":
        return ok({ contents: [{ uri: params["uri"], text: "hi" }] });
      case "prompts/get":
      case "custom/get":
        return ok({ messages: [] });
      case "tools/call":
        return this.callTool(String(params["name"]), meta, delivery, ok, error);
      case "subscriptions/listen":
        delivery.notify({
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: { _meta: { "io.modelcontextprotocol/subscriptionId": id }, notifications: {} },
        });
        return new Promise<Outcome>((resolve) => {
          delivery.signal.addEventListener("abort", () => {
            this.aborted.push(`listen:${String(id)}`);
            resolve({ response: null, httpStatus: 200 });
          });
          this.listens.push({
            id,
            delivery,
            end: (response) => resolve({ response, httpStatus: 200 }),
          });
        });
      default:
        return error(ErrorCode.MethodNotFound, "Method not found", 404);
    }
  }

  private async callTool(
    name: string,
    meta: Record<string, unknown>,
    delivery: Delivery,
    ok: (result: Record<string, unknown>) => Outcome,
    error: (code: number, text: string, status: number) => Outcome,
  ): Promise<Outcome> {
    const text = (t: string) => ok({ content: [{ type: "text", text: t }] });
    switch (name) {
      case "echo":
        return text("echo");
      case "progress": {
        const token = meta["progressToken"] ?? "tok";
        for (let i = 1; i <= 3; i++) {
          delivery.notify({
            jsonrpc: "2.0",
            method: "notifications/progress",
            params: { progressToken: token, progress: i, total: 3, message: `step ${i}\nof 3` },
          });
          await sleep(10);
        }
        setTimeout(() => {
          delivery.notify({
            jsonrpc: "2.0",
            method: "notifications/progress",
            params: { progressToken: token, progress: 4 },
          });
          this.lateNotifies++;
        }, 20);
        return text("done");
      }
      case "slow":
        return new Promise<Outcome>((resolve) => {
          delivery.signal.addEventListener("abort", () => {
            this.aborted.push(`slow:${String(delivery.signal.reason)}`);
            resolve({ response: null, httpStatus: 200 });
          });
        });
      case "slow-progress":
        delivery.notify({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: "sp", progress: 1 },
        });
        return new Promise<Outcome>((resolve) => {
          delivery.signal.addEventListener("abort", () => {
            this.aborted.push("slow-progress");
            delivery.notify({
              jsonrpc: "2.0",
              method: "notifications/progress",
              params: { progressToken: "sp", progress: 2 },
            });
            resolve({
              response: success(1, { resultType: "complete", content: [] }),
              httpStatus: 200,
            });
          });
        });
      case "throws":
        throw new Error("boom");
      case "bigint":
        return ok({ value: 10n });
      case "fails":
        return error(-32602, "Invalid params: nope", 400);
      default:
        return text(`called ${name}`);
    }
  }
}

// ---------------------------------------------------------------------------
// HTTP helpers
// ---------------------------------------------------------------------------

let nextId = 1;
function rpc(
  method: string,
  params: Record<string, unknown> = {},
  id: JsonRpcId = nextId++,
): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    method,
    params: {
      _meta: { [PV]: VERSION, "io.modelcontextprotocol/clientCapabilities": {} },
      ...params,
    },
  };
}

/** The headers a conforming client sends for `body`. */
function headersFor(body: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": VERSION,
  };
  if (typeof body["method"] === "string" && "id" in body) {
    headers["Mcp-Method"] = body["method"];
    const param = DEFAULT_HEADER_RULES.nameParams[body["method"]];
    const params = body["params"] as Record<string, unknown> | undefined;
    if (param !== undefined && typeof params?.[param] === "string")
      headers["Mcp-Name"] = params[param] as string;
  }
  return headers;
}

/** POSTs `body` with conforming headers, `headers` overriding them (null removes one). */
function post(
  url: string,
  body: Record<string, unknown>,
  headers: Record<string, string | null> = {},
  init: RequestInit = {},
): Promise<Response> {
  const merged: Record<string, string> = headersFor(body);
  for (const [name, value] of Object.entries(headers)) {
    for (const key of Object.keys(merged))
      if (key.toLowerCase() === name.toLowerCase()) delete merged[key];
    if (value !== null) merged[name] = value;
  }
  return fetch(url, { method: "POST", headers: merged, body: JSON.stringify(body), ...init });
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http request, for what fetch will not send (a foreign Host, header-name casing). */
function raw(
  url: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "POST", headers: options.headers ?? {} },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Parses a whole SSE body: every `data:` line must be one complete JSON message. */
function parseSse(text: string): {
  messages: Array<Record<string, unknown>>;
  events: string[];
  comments: number;
} {
  const messages: Array<Record<string, unknown>> = [];
  const events: string[] = [];
  let comments = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith(":")) comments++;
    else if (line.startsWith("event:")) events.push(line.slice(6).trim());
    else if (line.startsWith("data:"))
      messages.push(JSON.parse(line.slice(5).trim()) as Record<string, unknown>);
    else throw new Error(`unexpected SSE line: ${line}`);
  }
  return { messages, events, comments };
}

/** Reads an SSE response incrementally, one message at a time. */
function sseReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let done = false;
  const lines: string[] = [];
  async function nextLine(): Promise<string | undefined> {
    while (lines.length === 0) {
      if (done) return undefined;
      const chunk = await reader.read();
      if (chunk.done) {
        done = true;
        if (buffer !== "") lines.push(buffer);
        buffer = "";
      } else {
        buffer += decoder.decode(chunk.value, { stream: true });
        const parts = buffer.split("\n");
        buffer = parts.pop() ?? "";
        lines.push(...parts);
      }
    }
    return lines.shift();
  }
  return {
    /** The next message, or undefined when the stream ended. */
    async next(): Promise<Record<string, unknown> | undefined> {
      for (;;) {
        const line = await nextLine();
        if (line === undefined) return undefined;
        if (line.startsWith("data:"))
          return JSON.parse(line.slice(5).trim()) as Record<string, unknown>;
      }
    },
    cancel: () => reader.cancel(),
  };
}

const errorOf = (body: unknown) => (body as { error: { code: number; message: string } }).error;

// ---------------------------------------------------------------------------

describe("Streamable HTTP transport", () => {
  let dispatcher: FakeDispatcher;
  let server: HttpServerHandle;
  let url: string;
  const servers: HttpServerHandle[] = [];

  async function start(
    options: Partial<ServeHttpOptions> = {},
    handler: MessageHandler = new FakeDispatcher(),
  ): Promise<HttpServerHandle> {
    const handle = await serveHttp(handler, { port: 0, ...options });
    servers.push(handle);
    return handle;
  }

  beforeAll(async () => {
    dispatcher = new FakeDispatcher();
    server = await start({ maxBodyBytes: 64 * 1024 }, dispatcher);
    url = server.url;
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  describe("serveHttp", () => {
    it("binds loopback on a free port and reports the endpoint URL", () => {
      expect(server.port).toBeGreaterThan(0);
      expect(url).toBe(`http://127.0.0.1:${server.port}/mcp`);
    });

    it("honours a custom path", async () => {
      const custom = await start({ path: "/custom" });
      expect(custom.url.endsWith("/custom")).toBe(true);
      expect((await post(custom.url, rpc("tools/call", { name: "echo" }))).status).toBe(200);
      expect(
        (await post(custom.url.replace("/custom", "/mcp"), rpc("tools/call", { name: "echo" })))
          .status,
      ).toBe(404);
    });

    it("close() drops a stream still open after the grace period, aborting it", async () => {
      const fake = new FakeDispatcher();
      const handle = await serveHttp(fake, { port: 0 });
      const response = await post(handle.url, rpc("subscriptions/listen"));
      const reader = sseReader(response);
      expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");
      const started = Date.now();
      await handle.close(100);
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
      await until(() => fake.aborted.length === 1, "the listen to be aborted");
      await expect(reader.next()).rejects.toThrow();
      await handle.close(); // idempotent
      await expect(fetch(handle.url, { method: "POST" })).rejects.toThrow();
    });

    it("close() lets streams the dispatcher is ending deliver their final response", async () => {
      const fake = new FakeDispatcher();
      const handle = await serveHttp(fake, { port: 0 });
      const readers = await Promise.all(
        [1, 2].map(async (id) =>
          sseReader(await post(handle.url, rpc("subscriptions/listen", {}, id))),
        ),
      );
      for (const reader of readers)
        expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");
      await until(() => fake.listens.length === 2, "both listens to register");
      const started = Date.now();
      for (const listen of fake.listens) listen.end(success(listen.id, { resultType: "complete" }));
      const closed = handle.close();
      for (const [i, reader] of readers.entries()) {
        expect(await reader.next()).toEqual({
          jsonrpc: "2.0",
          id: i + 1,
          result: { resultType: "complete" },
        });
        expect(await reader.next()).toBeUndefined();
      }
      await closed;
      expect(Date.now() - started).toBeLessThan(900); // did not wait out the grace period
      expect(fake.aborted).toEqual([]);
    });
  });

  describe("DNS-rebinding protection", () => {
    const discover = () => {
      const body = rpc("server/discover");
      return { body: JSON.stringify(body), headers: headersFor(body) };
    };

    it("rejects a foreign Host with 403 and a JSON-RPC error without id", async () => {
      const { body, headers } = discover();
      const res = await raw(url, {
        headers: { ...headers, Host: "evil.example.com", Origin: "http://evil.example.com" },
        body,
      });
      expect(res.status).toBe(403);
      const parsed = JSON.parse(res.body) as Record<string, unknown>;
      expect(parsed["jsonrpc"]).toBe("2.0");
      expect("id" in parsed).toBe(false);
      expect(typeof errorOf(parsed).code).toBe("number");
    });

    it("rejects a foreign Host even with a loopback port, and a missing or malformed Host", async () => {
      const { body, headers } = discover();
      for (const host of [
        `evil.example.com:${server.port}`,
        "localhost.evil.com",
        "127.0.0.1.nip.io",
        "localhost:abc",
        "[::1",
      ]) {
        expect((await raw(url, { headers: { ...headers, Host: host }, body })).status, host).toBe(
          403,
        );
      }
    });

    it("checks Host before anything else (path, method)", async () => {
      const res = await raw(url.replace("/mcp", "/elsewhere"), {
        method: "GET",
        headers: { Host: "evil.example.com" },
      });
      expect(res.status).toBe(403);
    });

    it("accepts localhost, 127.0.0.1 and [::1] with any port (or none)", async () => {
      const { body, headers } = discover();
      for (const host of [
        `localhost:${server.port}`,
        `127.0.0.1:${server.port}`,
        `[::1]:${server.port}`,
        "LOCALHOST:3000",
        "localhost",
        "[::1]",
      ]) {
        const res = await raw(url, {
          headers: { ...headers, Host: host, Origin: `http://${host}` },
          body,
        });
        expect(res.status, host).toBe(200);
      }
    });

    it("rejects a foreign Origin with a loopback Host, and an opaque Origin", async () => {
      for (const origin of [
        "http://evil.example.com",
        `http://evil.example.com:${server.port}`,
        "null",
        "not a url",
      ]) {
        const res = await post(url, rpc("tools/call", { name: "echo" }), { Origin: origin });
        expect(res.status, origin).toBe(403);
        expect(errorOf(await res.json()).message).toMatch(/Origin/);
      }
    });

    it("accepts loopback Origins over http and https", async () => {
      for (const origin of [
        `http://localhost:${server.port}`,
        "https://127.0.0.1",
        "http://[::1]:9999",
      ]) {
        expect(
          (await post(url, rpc("tools/call", { name: "echo" }), { Origin: origin })).status,
          origin,
        ).toBe(200);
      }
    });

    it("uses configured allowedHosts (Origins default to them) and allowedOrigins", async () => {
      const custom = await start({ allowedHosts: ["mcp.example.com", "127.0.0.1:1"] });
      const body = rpc("tools/call", { name: "echo" });
      const send = (host: string, origin?: string) =>
        raw(custom.url, {
          headers: {
            ...headersFor(body),
            Host: host,
            ...(origin === undefined ? {} : { Origin: origin }),
          },
          body: JSON.stringify(body),
        });
      expect((await send("mcp.example.com:8443")).status).toBe(200);
      expect((await send("mcp.example.com", "https://mcp.example.com")).status).toBe(200);
      expect((await send(`127.0.0.1:1`)).status).toBe(200);
      expect((await send(`127.0.0.1:${custom.port}`)).status).toBe(403); // port pinned by the entry
      expect((await send(`localhost:${custom.port}`)).status).toBe(403); // defaults replaced
      expect((await send("mcp.example.com", "http://localhost")).status).toBe(403);

      const origins = await start({ allowedOrigins: ["https://app.example.com"] });
      const send2 = (origin: string) => post(origins.url, body, { Origin: origin });
      expect((await send2("https://app.example.com")).status).toBe(200);
      expect((await send2("https://app.example.com:443")).status).toBe(200);
      expect((await send2("http://app.example.com")).status).toBe(403);
      expect((await send2("http://localhost")).status).toBe(403);
    });

    it('"*" disables a check', async () => {
      const open = await start({ allowedHosts: ["*"], allowedOrigins: ["*"] });
      const body = rpc("tools/call", { name: "echo" });
      const res = await raw(open.url, {
        headers: { ...headersFor(body), Host: "anything.example", Origin: "null" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
    });
  });

  describe("HTTP-level rules", () => {
    it("404 for other paths; the query string is ignored", async () => {
      const res = await post(url.replace("/mcp", "/other"), rpc("tools/call", { name: "echo" }));
      expect(res.status).toBe(404);
      expect(
        (await post(url.replace("/mcp", "/mcp/"), rpc("tools/call", { name: "echo" }))).status,
      ).toBe(404);
      expect((await post(`${url}?x=1`, rpc("tools/call", { name: "echo" }))).status).toBe(200);
    });

    it("405 with Allow: POST for every other method, GET included (no GET stream)", async () => {
      for (const method of ["GET", "DELETE", "PUT", "PATCH", "OPTIONS"]) {
        const res = await fetch(url, { method, headers: { Accept: "text/event-stream" } });
        expect(res.status, method).toBe(405);
        expect(res.headers.get("allow")).toBe("POST");
        expect(errorOf(await res.json()).code).toBe(ErrorCode.InvalidRequest);
      }
      const head = await fetch(url, { method: "HEAD" });
      expect(head.status).toBe(405);
    });

    it("406 when Accept allows neither JSON nor SSE", async () => {
      for (const accept of [
        "text/html",
        "application/xml, text/plain",
        "application/json;q=0, text/event-stream;q=0",
        "application/*;q=0, text/*;q=0, */*",
        "",
      ]) {
        const res = await post(url, rpc("tools/call", { name: "echo" }), { Accept: accept });
        expect(res.status, accept).toBe(406);
        expect(res.headers.get("content-type")).toBe("application/json");
      }
    });

    it("Accept wildcards, and a missing Accept, allow JSON", async () => {
      for (const accept of [
        "*/*",
        "application/*",
        "application/json",
        "Application/JSON; charset=utf-8",
        null,
      ]) {
        const res = await raw(url, {
          headers: {
            ...headersFor(rpc("tools/call", { name: "echo" })),
            ...(accept === null ? {} : { Accept: accept }),
          },
          body: JSON.stringify(rpc("tools/call", { name: "echo" })),
        });
        expect(res.status, String(accept)).toBe(200);
        expect(res.headers["content-type"]).toBe("application/json");
      }
    });

    it("415 unless the body is application/json (UTF-8, not encoded)", async () => {
      for (const headers of [
        { "Content-Type": "text/plain" },
        { "Content-Type": "application/json; charset=latin1" },
        { "Content-Type": null },
        { "Content-Encoding": "gzip" },
      ]) {
        const res = await post(url, rpc("tools/call", { name: "echo" }), headers);
        expect(res.status, JSON.stringify(headers)).toBe(415);
        expect(errorOf(await res.json()).code).toBe(ErrorCode.InvalidRequest);
      }
      for (const type of [
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        'application/json;charset="UTF-8"',
      ]) {
        expect(
          (await post(url, rpc("tools/call", { name: "echo" }), { "Content-Type": type })).status,
          type,
        ).toBe(200);
      }
    });

    it("413 for a body over the limit (declared or chunked), and the server keeps serving", async () => {
      const big = { ...rpc("tools/call", { name: "echo" }), padding: "x".repeat(70 * 1024) };
      const declared = await post(url, big);
      expect(declared.status).toBe(413);
      expect(errorOf(await declared.json()).code).toBe(ErrorCode.InvalidRequest);

      const bytes = new TextEncoder().encode(JSON.stringify(big));
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192));
          controller.close();
        },
      });
      const chunked = await fetch(url, {
        method: "POST",
        headers: headersFor(big),
        body: stream,
        duplex: "half",
      } as RequestInit);
      expect(chunked.status).toBe(413);

      const underLimit = { ...rpc("tools/call", { name: "echo" }), padding: "x".repeat(60 * 1024) };
      expect((await post(url, underLimit)).status).toBe(200);
    });

    it("413 with the default limit of 4 MiB", async () => {
      const fresh = await start();
      const big = { ...rpc("tools/call", { name: "echo" }), padding: "x".repeat(4 * 1024 * 1024) };
      expect((await post(fresh.url, big)).status).toBe(413);
      const fits = {
        ...rpc("tools/call", { name: "echo" }),
        padding: "x".repeat(4 * 1024 * 1024 - 500),
      };
      expect((await post(fresh.url, fits)).status).toBe(200);
    });
  });

  describe("framing incoming messages", () => {
    it("400 with -32700 and no id for bad JSON, then a good request is still served", async () => {
      for (const body of [
        "{not json",
        "",
        '{"jsonrpc":"2.0","id":1,"method":"tools/call"',
        "\u00ff",
      ]) {
        const res = await fetch(url, { method: "POST", headers: headersFor({}), body });
        expect(res.status, body).toBe(400);
        const parsed = (await res.json()) as Record<string, unknown>;
        expect(errorOf(parsed).code).toBe(ErrorCode.ParseError);
        expect("id" in parsed).toBe(false);
      }
      const invalidUtf8 = await fetch(url, {
        method: "POST",
        headers: headersFor({}),
        body: new Uint8Array([0x7b, 0xff, 0x7d]),
      });
      expect(invalidUtf8.status).toBe(400);
      expect(errorOf(await invalidUtf8.json()).code).toBe(ErrorCode.ParseError);

      const good = await post(url, rpc("tools/call", { name: "echo" }));
      expect(good.status).toBe(200);
    });

    it("reads a body with a leading byte order mark, and U+FFFD written as valid UTF-8, in one chunk or many", async () => {
      const message = rpc("resources/read", { uri: "test://a\uFFFDb" });
      const bytes = Buffer.concat([
        Buffer.of(0xef, 0xbb, 0xbf),
        Buffer.from(JSON.stringify(message)),
      ]);
      // The header mirrors the URI in its Base64 form: U+FFFD cannot travel in a header as is.
      const headers = {
        ...headersFor({}),
        "Mcp-Method": "resources/read",
        "Mcp-Name": `=?base64?${Buffer.from("test://a\uFFFDb").toString("base64")}?=`,
      };
      const whole = await fetch(url, { method: "POST", headers, body: bytes });
      expect(whole.status).toBe(200);
      expect(
        ((await whole.json()) as { result: { contents: Array<{ uri: string }> } }).result
          .contents[0]!.uri,
      ).toBe("test://a\uFFFDb");
      // The same bytes in three chunks (a chunked upload), split inside a multi-byte character.
      const split = await new Promise<RawResponse>((resolve, reject) => {
        const req = httpRequest(url, { method: "POST", headers }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on("error", reject);
        const at = bytes.indexOf(0xbd) - 1;
        req.write(bytes.subarray(0, 2));
        req.write(bytes.subarray(2, at));
        req.end(bytes.subarray(at));
      });
      expect(split.status).toBe(200);
      expect(split.body).toContain("test://a\uFFFDb");
    });

    it("answers at once a handler that answers through handleRequest, and waits for one that returns a promise", async () => {
      const calls: string[] = [];
      const handler: MessageHandler = {
        handle: async () => ({ response: null, httpStatus: 202 }),
        handleRequest(request, delivery) {
          calls.push(request.method);
          if (request.method === "later")
            return Promise.resolve({
              response: success(request.id, { later: true }),
              httpStatus: 200,
            });
          expect(
            delivery.checkEnvelope?.({ method: request.method, params: request.params ?? {} }),
          ).toBeNull();
          return { response: success(request.id, { now: true }), httpStatus: 200 };
        },
      };
      const other = await start({}, handler);
      const now = await post(other.url, { jsonrpc: "2.0", id: 1, method: "now", params: {} });
      expect(await now.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { now: true } });
      const later = await post(other.url, { jsonrpc: "2.0", id: 2, method: "later", params: {} });
      expect(await later.json()).toEqual({ jsonrpc: "2.0", id: 2, result: { later: true } });
      expect(calls).toEqual(["now", "later"]);
    });

    it("streams a long notification and a long response (over 64 KiB) as whole events", async () => {
      const big = "z".repeat(200_000);
      const handler: MessageHandler = {
        handle: async () => ({ response: null, httpStatus: 202 }),
        handleRequest(request, delivery) {
          delivery.notify({
            jsonrpc: "2.0",
            method: "notifications/message",
            params: { level: "info", data: big },
          });
          return { response: success(request.id, { big }), httpStatus: 200 };
        },
      };
      const other = await start({}, handler);
      const res = await post(other.url, { jsonrpc: "2.0", id: 1, method: "long", params: {} });
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const { messages, events } = parseSse(await res.text());
      expect(events).toEqual(["message", "message"]);
      expect(messages).toEqual([
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: big } },
        { jsonrpc: "2.0", id: 1, result: { big } },
      ]);
    });

    it("400 with the classifier's error for JSON that is not a JSON-RPC message", async () => {
      const cases: Array<[unknown, JsonRpcId | undefined]> = [
        [{ jsonrpc: "2.0", id: 7 }, 7],
        [{ jsonrpc: "1.0", id: "a", method: "x" }, "a"],
        [[rpc("tools/list")], undefined],
        [42, undefined],
      ];
      for (const [body, id] of cases) {
        const res = await fetch(url, {
          method: "POST",
          headers: headersFor({}),
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(400);
        const parsed = (await res.json()) as Record<string, unknown>;
        expect(errorOf(parsed).code).toBe(ErrorCode.InvalidRequest);
        expect(parsed["id"]).toBe(id);
      }
    });

    it("hands notifications and responses to the dispatcher and answers 202 with no body", async () => {
      const cancelled = {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 3 },
      };
      const res = await post(url, cancelled);
      expect(res.status).toBe(202);
      expect(await res.text()).toBe("");
      expect(dispatcher.received).toContainEqual(cancelled);

      const response = { jsonrpc: "2.0", id: 99, result: {} };
      const res2 = await post(url, response);
      expect(res2.status).toBe(202);
      expect(await res2.text()).toBe("");
      expect(dispatcher.received).toContainEqual(response);
    });

    it("passes a notification rejected by the dispatcher through with its status", async () => {
      const rejecting: MessageHandler = {
        handle: async () => ({
          response: failure(undefined, { code: ErrorCode.InvalidRequest, message: "no" }),
          httpStatus: 400,
        }),
      };
      const other = await start({}, rejecting);
      const res = await post(other.url, { jsonrpc: "2.0", method: "notifications/whatever" });
      expect(res.status).toBe(400);
      expect(errorOf(await res.json()).message).toBe("no");
    });
  });

  describe("request metadata headers (checkEnvelope)", () => {
    async function expectMismatch(
      body: Record<string, unknown>,
      headers: Record<string, string | null>,
      pattern: RegExp,
    ) {
      const res = await post(url, body, headers);
      expect(res.status).toBe(400);
      const parsed = (await res.json()) as Record<string, unknown>;
      expect(parsed["id"]).toBe(body["id"]);
      expect(errorOf(parsed).code).toBe(-32020);
      expect(errorOf(parsed).message).toMatch(pattern);
    }

    it("MCP-Protocol-Version must equal the body's version", async () => {
      await expectMismatch(
        rpc("tools/list"),
        { "MCP-Protocol-Version": "2025-11-25" },
        /MCP-Protocol-Version.*2025-11-25.*2026-07-28/,
      );
      const body = rpc("tools/list");
      (body["params"] as { _meta: Record<string, unknown> })._meta[PV] = "v999.0.0";
      await expectMismatch(body, {}, /MCP-Protocol-Version/);
    });

    it("a missing MCP-Protocol-Version is a mismatch", async () => {
      await expectMismatch(
        rpc("tools/list"),
        { "MCP-Protocol-Version": null },
        /MCP-Protocol-Version header is missing/,
      );
    });

    it("requests without a version in _meta (initialize era) are checked only on the headers they carry", async () => {
      const envelopeOnly: MessageHandler = {
        async handle(message, delivery) {
          const m = message as { id: JsonRpcId; method: string; params?: Record<string, unknown> };
          const envelope =
            delivery.checkEnvelope?.({ method: m.method, params: m.params ?? {} }) ?? null;
          return envelope === null
            ? { response: success(m.id, {}), httpStatus: 200 }
            : { response: failure(m.id, envelope), httpStatus: 400 };
        },
      };
      const legacy = await start({}, envelopeOnly);
      const bare = { "MCP-Protocol-Version": null, "Mcp-Method": null, "Mcp-Name": null };
      const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } };
      expect(
        (await post(legacy.url, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} }, bare))
          .status,
      ).toBe(200);
      expect((await post(legacy.url, call, bare)).status).toBe(200);
      expect(
        (await post(legacy.url, call, { ...bare, "MCP-Protocol-Version": "2025-06-18" })).status,
      ).toBe(200);
      expect((await post(legacy.url, call, { ...bare, "Mcp-Method": "tools/list" })).status).toBe(
        400,
      );
      expect((await post(legacy.url, call, { ...bare, "Mcp-Name": "other" })).status).toBe(400);
      // a modern request to the same handler must mirror its headers
      expect((await post(legacy.url, rpc("tools/list"), { "Mcp-Method": null })).status).toBe(400);
    });

    it("the dispatcher's own _meta checks come first (-32602, not -32020)", async () => {
      const body = {
        jsonrpc: "2.0",
        id: 102,
        method: "server/discover",
        params: { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } },
      };
      const res = await post(url, body);
      expect(res.status).toBe(400);
      expect(errorOf(await res.json()).code).toBe(ErrorCode.InvalidParams);
    });

    it("an unsupported version with matching headers reaches the dispatcher's version check", async () => {
      const body = rpc("tools/list");
      (body["params"] as { _meta: Record<string, unknown> })._meta[PV] = "v999.0.0";
      const res = await post(url, body, { "MCP-Protocol-Version": "v999.0.0" });
      expect(res.status).toBe(400);
      expect(errorOf(await res.json()).code).toBe(-32022);
    });

    it("Mcp-Method must equal the body's method, and is required", async () => {
      await expectMismatch(
        rpc("tools/list"),
        { "Mcp-Method": "tools/call" },
        /Mcp-Method.*tools\/call.*tools\/list/,
      );
      await expectMismatch(rpc("tools/list"), { "Mcp-Method": "Tools/List" }, /Mcp-Method/); // values are case-sensitive
      await expectMismatch(
        rpc("tools/list"),
        { "Mcp-Method": null },
        /Mcp-Method header is missing/,
      );
    });

    it("Mcp-Name must equal params.name for tools/call and prompts/get", async () => {
      await expectMismatch(
        rpc("tools/call", { name: "echo" }),
        { "Mcp-Name": "other" },
        /Mcp-Name.*other.*echo/,
      );
      await expectMismatch(
        rpc("prompts/get", { name: "greet" }),
        { "Mcp-Name": "greeting" },
        /Mcp-Name/,
      );
      await expectMismatch(
        rpc("tools/call", { name: "echo" }),
        { "Mcp-Name": null },
        /Mcp-Name header is missing/,
      );
      expect((await post(url, rpc("prompts/get", { name: "greet" }))).status).toBe(200);
    });

    it("Mcp-Name must equal params.uri for resources/read", async () => {
      const uri = "file:///projects/app/config.json";
      expect((await post(url, rpc("resources/read", { uri }))).status).toBe(200);
      await expectMismatch(
        rpc("resources/read", { uri }),
        { "Mcp-Name": "file:///etc/passwd" },
        /Mcp-Name/,
      );
      // the name param is `uri`, not `name`
      await expectMismatch(
        rpc("resources/read", { uri, name: "x" }),
        { "Mcp-Name": "x" },
        /Mcp-Name/,
      );
    });

    it("Mcp-Name is decoded from the Base64 sentinel form before comparing", async () => {
      const name = "Hello, 世界";
      const encoded = `=?base64?${Buffer.from(name, "utf8").toString("base64")}?=`;
      expect((await post(url, rpc("tools/call", { name }), { "Mcp-Name": encoded })).status).toBe(
        200,
      );
      const literal = "=?base64?literal?=";
      const encodedLiteral = `=?base64?${Buffer.from(literal).toString("base64")}?=`;
      expect(
        (await post(url, rpc("tools/call", { name: literal }), { "Mcp-Name": encodedLiteral }))
          .status,
      ).toBe(200);
      await expectMismatch(
        rpc("tools/call", { name: "echo" }),
        { "Mcp-Name": "=?base64?not base64!?=" },
        /malformed/,
      );
      await expectMismatch(
        rpc("tools/call", { name: "echo" }),
        { "Mcp-Name": `=?base64?${Buffer.from([0xff, 0xfe]).toString("base64")}?=` },
        /malformed/,
      );
    });

    it("Mcp-Name is not checked for methods outside the table", async () => {
      expect((await post(url, rpc("tools/list"), { "Mcp-Name": "whatever" })).status).toBe(200);
    });

    it("header names are case-insensitive", async () => {
      const body = rpc("tools/call", { name: "echo" });
      for (const casing of [(h: string) => h.toLowerCase(), (h: string) => h.toUpperCase()]) {
        const headers: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(headersFor(body))) headers[casing(name)] = value;
        expect((await raw(url, { headers, body: JSON.stringify(body) })).status).toBe(200);
      }
      const bad = rpc("tools/call", { name: "echo" });
      const res = await raw(url, {
        headers: { ...headersFor(bad), "MCP-NAME": "nope" },
        body: JSON.stringify(bad),
      });
      expect(res.status).toBe(400);
      expect(errorOf(JSON.parse(res.body)).code).toBe(-32020);
    });

    it("non-ASCII header values are rejected", async () => {
      const body = rpc("tools/call", { name: "café" });
      const res = await raw(url, {
        headers: {
          ...headersFor(body),
          "Mcp-Name": Buffer.from("café", "utf8").toString("latin1"),
        },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect(errorOf(JSON.parse(res.body)).message).toMatch(/malformed/);
    });

    it("headerRules overrides which params name a request, and the error code", async () => {
      const custom = await start({
        headerRules: { nameParams: { "custom/get": "id" }, mismatchCode: -32099 },
      });
      const body = rpc("custom/get", { id: "thing" });
      expect((await post(custom.url, body, { "Mcp-Name": "thing" })).status).toBe(200);
      const bad = await post(custom.url, rpc("custom/get", { id: "thing" }), {
        "Mcp-Name": "other",
      });
      expect(bad.status).toBe(400);
      expect(errorOf(await bad.json()).code).toBe(-32099);
      // tools/call is no longer in the table
      expect(
        (await post(custom.url, rpc("tools/call", { name: "echo" }), { "Mcp-Name": "other" }))
          .status,
      ).toBe(200);
    });

    it("decodeHeaderValue", () => {
      expect(decodeHeaderValue("us-west1")).toBe("us-west1");
      expect(decodeHeaderValue("=?base64?SGVsbG8sIOS4lueVjA==?=")).toBe("Hello, 世界");
      expect(decodeHeaderValue("=?base64?IHBhZGRlZCA=?=")).toBe(" padded ");
      expect(decodeHeaderValue("=?base64?bGluZTEKbGluZTI=?=")).toBe("line1\nline2");
      expect(decodeHeaderValue("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=")).toBe("=?base64?literal?=");
      expect(decodeHeaderValue("=?BASE64?SGk=?=")).toBe("=?BASE64?SGk=?="); // markers are case-sensitive
      expect(decodeHeaderValue("=?base64??=")).toBe("");
      // Padding is required (the test-case table of SEP-2243, checked by the conformance suite).
      expect(decodeHeaderValue("=?base64?SGk?=")).toBeNull();
      expect(decodeHeaderValue("=?base64?SGVsbG8?=")).toBeNull();
      expect(decodeHeaderValue("=?base64?S=Gk?=")).toBeNull();
      expect(decodeHeaderValue("=?base64?S?=")).toBeNull();
      expect(decodeHeaderValue("caf\u00e9")).toBeNull();
      expect(decodeHeaderValue("a\u0000b")).toBeNull();
    });
  });

  describe("response framing", () => {
    it("answers with one line of JSON and the dispatcher's status when nothing is notified", async () => {
      const body = rpc("tools/call", { name: "echo" });
      const res = await post(url, body);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json");
      const text = await res.text();
      expect(text).not.toContain("\n");
      expect(JSON.parse(text)).toEqual({
        jsonrpc: "2.0",
        id: body["id"],
        result: { resultType: "complete", content: [{ type: "text", text: "echo" }] },
      });

      const missing = await post(url, rpc("nope/nope"));
      expect(missing.status).toBe(404);
      expect(errorOf(await missing.json()).code).toBe(ErrorCode.MethodNotFound);
    });

    it("switches to SSE when the dispatcher notifies first: progress events, then the response", async () => {
      const body = rpc("tools/call", {
        name: "progress",
        _meta: { [PV]: VERSION, progressToken: "abc" },
      });
      const res = await post(url, body);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.headers.get("x-accel-buffering")).toBe("no");
      const { messages, events } = parseSse(await res.text());
      expect(events).toEqual(["message", "message", "message", "message"]);
      expect(messages.map((m) => m["method"] ?? "response")).toEqual([
        "notifications/progress",
        "notifications/progress",
        "notifications/progress",
        "response",
      ]);
      expect(
        messages.slice(0, 3).map((m) => (m["params"] as Record<string, unknown>)["progress"]),
      ).toEqual([1, 2, 3]);
      expect((messages[0]!["params"] as Record<string, unknown>)["progressToken"]).toBe("abc");
      expect((messages[0]!["params"] as Record<string, unknown>)["message"]).toBe("step 1\nof 3");
      expect(messages[3]).toMatchObject({
        id: body["id"],
        result: { content: [{ text: "done" }] },
      });
      // a notify after the response is dropped without error
      await until(() => dispatcher.lateNotifies > 0, "the late notify");
    });

    it("keeps JSON (dropping notifications, logging once) when the client accepts only JSON", async () => {
      const fake = new FakeDispatcher();
      const jsonOnly = await start({}, fake);
      const body = rpc("tools/call", { name: "progress" });
      const res = await post(jsonOnly.url, body, { Accept: "application/json" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(await res.json()).toMatchObject({
        id: body["id"],
        result: { content: [{ text: "done" }] },
      });
      expect(fake.logs.filter((l) => l.includes("dropped"))).toHaveLength(1);
    });

    it("uses SSE for a client that accepts only SSE, even without notifications; errors stay JSON", async () => {
      const body = rpc("tools/call", { name: "echo" });
      const res = await post(url, body, { Accept: "text/event-stream" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      expect(parseSse(await res.text()).messages).toEqual([
        {
          jsonrpc: "2.0",
          id: body["id"],
          result: { resultType: "complete", content: [{ type: "text", text: "echo" }] },
        },
      ]);

      const failing = await post(url, rpc("tools/call", { name: "fails" }), {
        Accept: "text/event-stream",
      });
      expect(failing.status).toBe(400);
      expect(failing.headers.get("content-type")).toBe("application/json");
    });

    it("serves concurrent requests: three tools/list in parallel all get 200", async () => {
      const fake = new FakeDispatcher();
      fake.barrier = 3; // each request waits until all three are being handled at once
      const parallel = await start({}, fake);
      const bodies = [1000, 1001, 1002].map((id) => rpc("tools/list", {}, id));
      const responses = await Promise.all(
        bodies.map((b) => post(parallel.url, b, { Accept: "text/event-stream, application/json" })),
      );
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
      const ids = await Promise.all(
        responses.map(async (r) => ((await r.json()) as { id: number }).id),
      );
      expect(ids).toEqual([1000, 1001, 1002]);
      expect(fake.maxInFlight).toBe(3);
    });

    it("keeps concurrent SSE streams apart", async () => {
      const tokens = ["a", "b", "c", "d", "e"];
      const results = await Promise.all(
        tokens.map(async (token) => {
          const res = await post(
            url,
            rpc("tools/call", { name: "progress", _meta: { [PV]: VERSION, progressToken: token } }),
          );
          return parseSse(await res.text()).messages;
        }),
      );
      results.forEach((messages, i) => {
        expect(messages).toHaveLength(4);
        for (const m of messages.slice(0, 3))
          expect((m["params"] as Record<string, unknown>)["progressToken"]).toBe(tokens[i]);
      });
    });

    it("answers 500 with the id when the handler throws or its response cannot be serialized", async () => {
      for (const name of ["throws", "bigint"]) {
        const body = rpc("tools/call", { name });
        const res = await post(url, body);
        expect(res.status, name).toBe(500);
        const parsed = (await res.json()) as Record<string, unknown>;
        expect(parsed["id"]).toBe(body["id"]);
        expect(errorOf(parsed).code).toBe(ErrorCode.InternalError);
      }
      expect((await post(url, rpc("tools/call", { name: "echo" }))).status).toBe(200);
    });
  });

  describe("cancellation and long-lived streams", () => {
    it("aborts the request's signal when the client disconnects before the response", async () => {
      const controller = new AbortController();
      const pending = post(
        url,
        rpc("tools/call", { name: "slow" }),
        {},
        { signal: controller.signal },
      );
      await until(
        () =>
          dispatcher.received.some(
            (m) =>
              isRecord(m) &&
              (m["params"] as Record<string, unknown> | undefined)?.["name"] === "slow",
          ),
        "the slow call",
      );
      const before = dispatcher.aborted.length;
      controller.abort();
      await expect(pending).rejects.toThrow();
      await until(() => dispatcher.aborted.length > before, "the signal to abort");
      expect(dispatcher.aborted.at(-1)).toMatch(/^slow:.*disconnected/);
    });

    it("aborts the signal when the client closes an SSE stream; later notifies and the response are dropped", async () => {
      const res = await post(url, rpc("tools/call", { name: "slow-progress" }));
      const reader = sseReader(res);
      expect((await reader.next())?.["method"]).toBe("notifications/progress");
      await reader.cancel();
      await until(
        () => dispatcher.aborted.includes("slow-progress"),
        "the stream's signal to abort",
      );
      // the server is unaffected
      expect((await post(url, rpc("tools/call", { name: "echo" }))).status).toBe(200);
    });

    it("a subscriptions/listen stream receives notifications pushed later and ends when the outcome resolves", async () => {
      const body = rpc("subscriptions/listen", { notifications: { toolsListChanged: true } });
      const res = await post(url, body);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const reader = sseReader(res);
      expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");

      await until(
        () => dispatcher.listens.some((l) => l.id === body["id"]),
        "the listen to register",
      );
      const listen = dispatcher.listens.find((l) => l.id === body["id"])!;
      const changed: JsonRpcNotification = {
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { "io.modelcontextprotocol/subscriptionId": listen.id } },
      };
      setTimeout(() => listen.delivery.notify(changed), 100);
      expect(await reader.next()).toEqual(changed);
      setTimeout(
        () => listen.delivery.notify({ ...changed, method: "notifications/prompts/list_changed" }),
        50,
      );
      expect((await reader.next())?.["method"]).toBe("notifications/prompts/list_changed");

      // graceful closure: the final response, then the end of the stream
      listen.end(success(listen.id, { resultType: "complete" }));
      expect(await reader.next()).toEqual({
        jsonrpc: "2.0",
        id: listen.id,
        result: { resultType: "complete" },
      });
      expect(await reader.next()).toBeUndefined();
    });

    it("a null outcome ends a stream without a final message", async () => {
      const body = rpc("subscriptions/listen");
      const res = await post(url, body);
      const reader = sseReader(res);
      expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");
      await until(
        () => dispatcher.listens.some((l) => l.id === body["id"]),
        "the listen to register",
      );
      dispatcher.listens.find((l) => l.id === body["id"])!.end(null);
      expect(await reader.next()).toBeUndefined();
    });

    it("closing a listen stream from the client aborts it", async () => {
      const body = rpc("subscriptions/listen");
      const res = await post(url, body);
      const reader = sseReader(res);
      expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");
      await reader.cancel();
      await until(
        () => dispatcher.aborted.includes(`listen:${String(body["id"])}`),
        "the listen to abort",
      );
    });

    it("sends keep-alive comments on quiet streams", async () => {
      const fake = new FakeDispatcher();
      const chatty = await start({ keepAliveMs: 30 }, fake);
      const body = rpc("subscriptions/listen");
      const res = await post(chatty.url, body);
      await until(() => fake.listens.length === 1, "the listen to register");
      await sleep(150);
      fake.listens[0]!.end(null);
      const { messages, comments } = parseSse(await res.text());
      expect(messages).toHaveLength(1);
      expect(comments).toBeGreaterThanOrEqual(2);
    });

    it("serves many concurrent long-lived streams alongside ordinary requests", async () => {
      const fake = new FakeDispatcher();
      const busy = await start({}, fake);
      const readers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) =>
          sseReader(await post(busy.url, rpc("subscriptions/listen", {}, `s${i}`))),
        ),
      );
      for (const reader of readers)
        expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => post(busy.url, rpc("tools/call", { name: "echo" }))),
      );
      expect(responses.every((r) => r.status === 200)).toBe(true);
      for (const listen of fake.listens)
        listen.delivery.notify({
          jsonrpc: "2.0",
          method: "notifications/tools/list_changed",
          params: { _meta: { "io.modelcontextprotocol/subscriptionId": listen.id } },
        });
      for (const [i, reader] of readers.entries()) {
        const message = await reader.next();
        expect(
          (message?.["params"] as { _meta: Record<string, unknown> })._meta[
            "io.modelcontextprotocol/subscriptionId"
          ],
        ).toBe(`s${i}`);
      }
      for (const listen of fake.listens) listen.end(null);
      for (const reader of readers) expect(await reader.next()).toBeUndefined();
    });
  });
});
