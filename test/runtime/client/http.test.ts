/**
 * The HTTP client transport against loopback servers: the headers on the wire, JSON and SSE
 * answers, garbage, errors; then end to end against the project's own generated 2026-07-28 server.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createClient,
  httpTransport as baseHttpTransport,
  InvalidParamsError,
  TransportError,
  UnsupportedProtocolVersionError,
} from "../../../generated/2026-07-28/client.js";
import { createServer } from "../../../generated/2026-07-28/index.js";
import { INFO, PV, results } from "../../helpers/client-fake.js";
import { rawServer, sse, type RawServer } from "../../helpers/client-servers.js";
import { withClientFetch } from "../../helpers/client-fetch.js";

/** The transport with the fetch the test file chose (test/helpers/client-fetch.ts). */
const httpTransport: typeof baseHttpTransport = (url, options) =>
  baseHttpTransport(url, withClientFetch(options));

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function raw(...args: Parameters<typeof rawServer>): Promise<RawServer> {
  const server = await rawServer(...args);
  servers.push(server);
  return server;
}

const reply = (id: unknown, result: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result });

describe("httpTransport", () => {
  it("POSTs to the URL exactly as given, with the required headers", async () => {
    const server = await raw((body) => ({ body: reply(body.id, results.call()) }));
    const client = createClient({
      transport: httpTransport(`${server.url}/custom/path?x=1`),
      info: INFO,
    });
    await client.callTool({ name: "echo", arguments: {} });
    const [request] = server.requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("/custom/path?x=1");
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers.accept).toBe("application/json, text/event-stream");
    expect(request!.headers["mcp-protocol-version"]).toBe("2026-07-28");
    expect(request!.headers["mcp-method"]).toBe("tools/call");
    expect(request!.headers["mcp-name"]).toBe("echo");
    expect((request!.body.params as { _meta: Record<string, unknown> })._meta[PV]).toBe(
      "2026-07-28",
    );
  });

  it("sends Mcp-Param headers on the wire, empty and base64 values included", async () => {
    const tool = results.tool("t", {
      region: { type: "string", "x-mcp-header": "Region" },
      empty: { type: "string", "x-mcp-header": "EmptyVal" },
      wide: { type: "string", "x-mcp-header": "NonAscii" },
      off: { type: "boolean", "x-mcp-header": "Verbose" },
    });
    const server = await raw((body) => ({
      body: reply(body.id, body.method === "tools/list" ? results.tools([tool]) : results.call()),
    }));
    const client = createClient({ transport: httpTransport(server.url), info: INFO });
    await client.listTools();
    await client.callTool({
      name: "t",
      arguments: { region: "us-west1", empty: "", wide: "Hello, 世界", off: null },
    });
    const headers = server.requests[1]!.headers;
    expect(headers["mcp-param-region"]).toBe("us-west1");
    expect(headers["mcp-param-emptyval"]).toBe("");
    expect(headers["mcp-param-nonascii"]).toBe("=?base64?SGVsbG8sIOS4lueVjA==?=");
    expect(headers).not.toHaveProperty("mcp-param-verbose");
  });

  it("reads SSE answers: notifications first, garbage skipped, stops at the matching response", async () => {
    const log = vi.fn();
    const server = await raw((body) => {
      const token = (body.params as { _meta: Record<string, unknown> })._meta.progressToken;
      return {
        contentType: "text/event-stream",
        hold: true, // the stream stays open after the response: the client must not wait for its end
        body:
          ": keep-alive\n\n" +
          sse({
            jsonrpc: "2.0",
            method: "notifications/progress",
            params: { progressToken: token, progress: 1, total: 2 },
          }) +
          "data: {not json\n\n" +
          sse({
            jsonrpc: "2.0",
            method: "notifications/message",
            params: { level: "info", data: "hi" },
          }) +
          sse({ jsonrpc: "2.0", id: "someone-else", result: {} }) +
          `data: ${reply(body.id, results.call("streamed"))}\r\n\r\n`,
      };
    });
    const notified: unknown[] = [];
    const progress: unknown[] = [];
    const client = createClient({
      transport: httpTransport(server.url),
      info: INFO,
      log,
      onNotification: (n) => notified.push(n.method),
    });
    const result = await client.callTool(
      { name: "t" },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(result.content).toEqual([{ type: "text", text: "streamed" }]);
    expect(progress).toEqual([1]);
    expect(notified).toEqual(["notifications/message"]);
    // Two lines for the garbage; the log notification also shows a deprecated feature in use.
    const lines = log.mock.calls.map(([m]) => String(m));
    expect(lines.filter((m) => !m.startsWith("mcp client: deprecated feature used:"))).toHaveLength(
      2,
    );
    expect(
      lines.filter((m) =>
        m.startsWith("mcp client: deprecated feature used: LoggingMessageNotification"),
      ),
    ).toHaveLength(1);
  });

  it("maps JSON-RPC errors sent with an error status, and renegotiates the version", async () => {
    const server = await raw((body, index) =>
      index === 0
        ? {
            status: 400,
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: body.id,
              error: {
                code: -32022,
                message: "Unsupported",
                data: { supported: ["2026-07-28"], requested: "2026-07-28" },
              },
            }),
          }
        : index === 1
          ? { body: reply(body.id, results.discover()) }
          : {
              status: 400,
              body: JSON.stringify({
                jsonrpc: "2.0",
                id: body.id,
                error: { code: -32602, message: "Invalid params" },
              }),
            },
    );
    const client = createClient({ transport: httpTransport(server.url), info: INFO });
    await expect(client.discover()).resolves.toMatchObject({ supportedVersions: ["2026-07-28"] });
    expect(server.requests[1]!.body.id).not.toBe(server.requests[0]!.body.id);
    await expect(client.listTools()).rejects.toBeInstanceOf(InvalidParamsError);
  });

  it("reports garbage and HTTP failures as TransportError", async () => {
    const server = await raw(() => ({
      status: 502,
      contentType: "text/html",
      body: "<h1>Bad gateway</h1>",
    }));
    const client = createClient({ transport: httpTransport(server.url), info: INFO });
    const error = (await client.listTools().catch((e: unknown) => e)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.status).toBe(502);
    const dead = createClient({ transport: httpTransport("http://127.0.0.1:1/mcp"), info: INFO });
    await expect(dead.listTools()).rejects.toBeInstanceOf(TransportError);
  });

  it("times out a server that never answers, and never sends GET", async () => {
    const server = await raw(() => ({
      contentType: "text/event-stream",
      hold: true,
      body: ": waiting\n\n",
    }));
    const client = createClient({ transport: httpTransport(server.url), info: INFO });
    await expect(client.listTools({}, { timeoutMs: 100 })).rejects.toThrow(/timed out/);
    expect(server.requests.every((r) => r.method === "POST")).toBe(true);
    await client.close();
  });
});

describe("end to end against the generated 2026-07-28 server", () => {
  async function start() {
    const server = createServer({
      info: { name: "e2e", version: "1.0.0" },
      capabilities: { tools: {}, resources: {}, prompts: {} },
      handlers: {
        "tools/list": (params) =>
          params.cursor === undefined
            ? {
                tools: [
                  {
                    name: "greet",
                    inputSchema: {
                      type: "object",
                      properties: { who: { type: "string", "x-mcp-header": "Who" } },
                    },
                  },
                ],
                nextCursor: "2",
              }
            : { tools: [{ name: "slow", inputSchema: { type: "object" } }] },
        "tools/call": async (params, ctx) => {
          if (params.name === "slow") {
            ctx.progress(1, 2);
            ctx.progress(2, 2);
            return { content: [{ type: "text", text: "slow done" }] };
          }
          const answer = ctx.inputResponses.name as
            { action?: string; content?: { name?: string } } | undefined;
          if (!answer) {
            return ctx.inputRequired(
              {
                name: {
                  method: "elicitation/create",
                  params: {
                    mode: "form",
                    message: "Name?",
                    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
                  },
                },
              },
              { asked: params.arguments?.who },
            );
          }
          return {
            content: [
              {
                type: "text",
                text: `Hello ${answer.content?.name ?? "?"} (${String((ctx.state as { asked?: unknown }).asked)})`,
              },
            ],
          };
        },
        "resources/read": (params) => ({ contents: [{ uri: params.uri, text: "body" }] }),
        "prompts/get": (params) => ({
          messages: [{ role: "user", content: { type: "text", text: `prompt ${params.name}` } }],
        }),
      },
    });
    const listening = await server.listen({ port: 0 });
    servers.push({ close: () => listening.close(10) });
    return listening.url;
  }

  it("discovers, lists, calls (with elicitation and progress), reads and gets prompts", async () => {
    const url = await start();
    const elicited: unknown[] = [];
    const client = createClient({
      transport: httpTransport(url),
      info: INFO,
      onElicit: (params) => {
        elicited.push(params.message);
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    const discovered = await client.discover();
    expect(discovered.capabilities).toMatchObject({ tools: {} });
    const page = await client.listTools();
    expect(page.tools.map((t) => t.name)).toEqual(["greet"]);
    const all: string[] = [];
    for await (const tool of client.listToolsAll()) all.push(tool.name);
    expect(all).toEqual(["greet", "slow"]);
    const greeting = await client.callTool({ name: "greet", arguments: { who: "caller" } });
    expect(greeting.content).toEqual([{ type: "text", text: "Hello Ada (caller)" }]);
    expect(elicited).toEqual(["Name?"]);
    const progress: unknown[] = [];
    const slow = await client.callTool(
      { name: "slow" },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(slow.content).toEqual([{ type: "text", text: "slow done" }]);
    expect(progress).toEqual([1, 2]);
    const read = await client.readResource({ uri: "test://a%20b?x=1" });
    expect(read.contents).toEqual([{ uri: "test://a%20b?x=1", text: "body" }]);
    const prompt = await client.getPrompt({ name: "p" });
    expect(prompt.messages[0]!.content).toEqual({ type: "text", text: "prompt p" });
    await client.close();
  });

  it("surfaces a server's refusal of an unsupported version", async () => {
    const url = await start();
    const client = createClient({
      transport: httpTransport(url),
      info: INFO,
      protocolVersion: "1999-01-01",
      supportedVersions: ["1999-01-01"],
    });
    await expect(client.listTools()).rejects.toBeInstanceOf(UnsupportedProtocolVersionError);
  });
});
