/**
 * What the generated client and server (generated/otel, `--telemetry otel`) record, checked name by
 * name against the OpenTelemetry semantic conventions for MCP: the spans' names, kinds, attributes
 * and status, and the four duration histograms with their attributes, for a tools/call, a
 * resources/read, a failing call, a tool's error result, a round of input requests, and a legacy
 * (initialize-era) session; values a peer controls are cut to their bound, and method names the
 * server does not know are not recorded as sent.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import {
  createClient,
  createServer,
  httpTransport,
  RpcError,
} from "../../../generated/otel/index.js";
import { registerOtel, spansNamed, type OtelWorld } from "../../helpers/otel-world.js";
import { CC, PV, until } from "../../helpers/server-harness.js";

const INFO = { name: "otel-conventions", version: "1.0.0" };
const MODERN = "2026-07-28";
const LONG_NAME = "t".repeat(1000);

function makeServer() {
  return createServer({
    info: INFO,
    capabilities: { tools: {}, resources: {} },
    handlers: {
      "tools/call": (params, ctx) => {
        if (params.name === "fail") throw new RpcError(-32602, "Unknown tool: fail");
        if (params.name === "broken") return { isError: true, content: [] };
        // Answers only once the client gives up (its HTTP stream closes).
        if (params.name === "hang")
          return new Promise((resolve) =>
            ctx.signal.addEventListener("abort", () => resolve({ content: [] }), { once: true }),
          );
        if (params.name === "ask") {
          if (!ctx.inputResponses.who)
            return ctx.inputRequired({
              who: {
                method: "elicitation/create",
                params: {
                  mode: "form",
                  message: "Who?",
                  requestedSchema: { type: "object", properties: {} },
                },
              },
            });
        }
        return { content: [{ type: "text", text: "ok" }] };
      },
      "resources/read": (params) => ({ contents: [{ uri: params.uri, text: "note" }] }),
    },
  });
}

let world: OtelWorld;
let server: ReturnType<typeof makeServer>;
let listening: Awaited<ReturnType<ReturnType<typeof makeServer>["listen"]>>;
let client: ReturnType<typeof createClient>;

beforeAll(async () => {
  world = registerOtel();
  server = makeServer();
  listening = await server.listen({ port: 0 });
  client = createClient({
    transport: httpTransport(listening.url),
    info: INFO,
    onElicit: async () => ({ action: "accept", content: {} }),
  });
});
afterAll(async () => {
  await client.close();
  await listening.close();
  await world.shutdown();
});
afterEach(() => world.spans.reset());

const byKind = (spans: ReadableSpan[], kind: SpanKind) => spans.filter((s) => s.kind === kind);

/** The points of a histogram whose attributes include `match`. */
async function points(name: string, match: Record<string, unknown>) {
  const all = (await world.histograms()).get(name) ?? [];
  return all.filter((p) => Object.entries(match).every(([k, v]) => p.attributes[k] === v));
}

describe("a tools/call", () => {
  it("client and server spans named `tools/call {tool}` with the conventions' attributes", async () => {
    await client.callTool({ name: "greet", arguments: {} });
    const spans = spansNamed(world.spans.getFinishedSpans(), "tools/call greet");
    const [clientSpan] = byKind(spans, SpanKind.CLIENT);
    const [serverSpan] = byKind(spans, SpanKind.SERVER);
    const shared = {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "greet",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": MODERN,
      "network.transport": "tcp",
      "network.protocol.name": "http",
    };
    expect(clientSpan!.attributes).toMatchObject({
      ...shared,
      "jsonrpc.request.id": expect.stringMatching(/^\d+$/),
      "server.address": "127.0.0.1",
      "server.port": listening.port,
    });
    expect(serverSpan!.attributes).toMatchObject(shared);
    // The id the server saw is the one the client sent.
    expect(serverSpan!.attributes["jsonrpc.request.id"]).toBe(
      clientSpan!.attributes["jsonrpc.request.id"],
    );
    for (const span of [clientSpan!, serverSpan!]) {
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes["error.type"]).toBeUndefined();
    }
  });

  it("records mcp.client.operation.duration and mcp.server.operation.duration in seconds", async () => {
    await client.callTool({ name: "greet", arguments: {} });
    const want = {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "greet",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": MODERN,
      "network.transport": "tcp",
    };
    for (const name of ["mcp.client.operation.duration", "mcp.server.operation.duration"]) {
      const [point] = await points(name, want);
      expect(point?.count).toBeGreaterThanOrEqual(1);
      // High-cardinality attributes stay off the metric.
      expect(point!.attributes["jsonrpc.request.id"]).toBeUndefined();
    }
  });

  it("a tool's error result is error.type tool_error on both sides", async () => {
    await client.callTool({ name: "broken", arguments: {} });
    for (const span of spansNamed(world.spans.getFinishedSpans(), "tools/call broken")) {
      expect(span.attributes["error.type"]).toBe("tool_error");
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
    }
    expect(
      await points("mcp.server.operation.duration", { "error.type": "tool_error" }),
    ).toHaveLength(1);
  });

  it("a round of input requests is an event of the server's span; the retry is a span of its own", async () => {
    await client.callTool({ name: "ask", arguments: {} });
    const spans = spansNamed(world.spans.getFinishedSpans(), "tools/call ask");
    const served = byKind(spans, SpanKind.SERVER);
    expect(served).toHaveLength(2);
    const rounds = served.flatMap((s) => s.events.filter((e) => e.name === "mcp.input_required"));
    expect(rounds).toHaveLength(1);
    expect(rounds[0]!.attributes).toEqual({ "mcp.input_requests": "elicitation/create" });
    expect(byKind(spans, SpanKind.CLIENT)).toHaveLength(2);
  });
});

describe("a resources/read", () => {
  it("names its span by the method only, with mcp.resource.uri as an attribute", async () => {
    await client.readResource({ uri: "file:///notes/1" });
    const spans = spansNamed(world.spans.getFinishedSpans(), "resources/read");
    expect(spans.map((s) => s.kind).sort()).toEqual([SpanKind.SERVER, SpanKind.CLIENT].sort());
    for (const span of spans) {
      expect(span.attributes).toMatchObject({
        "mcp.method.name": "resources/read",
        "mcp.resource.uri": "file:///notes/1",
        "mcp.protocol.version": MODERN,
      });
      expect(span.attributes["gen_ai.operation.name"]).toBeUndefined();
    }
    // The URI is opt-in on the metrics: absent by default.
    const [point] = await points("mcp.server.operation.duration", {
      "mcp.method.name": "resources/read",
    });
    expect(point!.attributes["mcp.resource.uri"]).toBeUndefined();
  });
});

describe("a failing call", () => {
  it("error.type and rpc.response.status_code are the JSON-RPC code; status ERROR with its message", async () => {
    await expect(client.callTool({ name: "fail", arguments: {} })).rejects.toThrow();
    const spans = spansNamed(world.spans.getFinishedSpans(), "tools/call fail");
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.attributes["error.type"]).toBe("-32602");
      expect(span.attributes["rpc.response.status_code"]).toBe("-32602");
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "Unknown tool: fail" });
    }
    for (const name of ["mcp.client.operation.duration", "mcp.server.operation.duration"])
      expect(
        await points(name, { "error.type": "-32602", "rpc.response.status_code": "-32602" }),
      ).toHaveLength(1);
  });
});

describe("a call with no response", () => {
  it("the client's span and duration carry the failure's class as error.type", async () => {
    await expect(
      client.callTool({ name: "hang", arguments: {} }, { timeoutMs: 50 }),
    ).rejects.toThrow(/timed out/);
    const [span] = byKind(
      spansNamed(world.spans.getFinishedSpans(), "tools/call hang"),
      SpanKind.CLIENT,
    );
    expect(span!.attributes["error.type"]).toBe("TimeoutError");
    expect(span!.attributes["rpc.response.status_code"]).toBeUndefined();
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(
      await points("mcp.client.operation.duration", {
        "gen_ai.tool.name": "hang",
        "error.type": "TimeoutError",
      }),
    ).toHaveLength(1);
    // The server's span ends when it learns the client gave up: within this test, not the next.
    await until(
      () => spansNamed(world.spans.getFinishedSpans(), "tools/call hang").length === 2,
      "the server's span of the abandoned call",
    );
  });
});

describe("what a peer controls is bounded", () => {
  it("a 1000-character tool name is recorded cut to 256 characters", async () => {
    await client.callTool({ name: LONG_NAME, arguments: {} });
    const [span] = byKind(world.spans.getFinishedSpans(), SpanKind.SERVER);
    expect(span!.attributes["gen_ai.tool.name"]).toBe(LONG_NAME.slice(0, 256));
    expect(span!.name).toBe(`tools/call ${LONG_NAME.slice(0, 256)}`);
  });

  it("a method the server does not know is recorded as _OTHER, and a garbled traceparent is ignored", async () => {
    const response = await fetch(listening.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "x".repeat(300),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "x".repeat(300),
        params: { _meta: { [PV]: MODERN, [CC]: {}, traceparent: "00-zz-not-a-context-01" } },
      }),
    });
    expect((await response.json()).error.code).toBe(-32601);
    const [span] = world.spans.getFinishedSpans();
    expect(span!.name).toBe("_OTHER");
    expect(span!.attributes["mcp.method.name"]).toBe("_OTHER");
    expect(span!.parentSpanContext).toBeUndefined();
    expect(span!.attributes["error.type"]).toBe("-32601");
  });
});

describe("a legacy (initialize-era) session", () => {
  it("its spans carry mcp.session.id and the negotiated version; its end records mcp.server.session.duration", async () => {
    const sdk = new Client({ name: "sdk-v1", version: "1.0.0" }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(listening.url));
    await sdk.connect(transport);
    await sdk.callTool({ name: "greet", arguments: {} });
    const sessionId = transport.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    const [span] = spansNamed(world.spans.getFinishedSpans(), "tools/call greet");
    expect(span!.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "mcp.session.id": sessionId,
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "tcp",
      "gen_ai.tool.name": "greet",
    });
    // The handshake and its notification are recorded too.
    const names = world.spans.getFinishedSpans().map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["initialize", "notifications/initialized"]));
    await transport.terminateSession();
    await sdk.close();
    const [session] = await points("mcp.server.session.duration", {
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "tcp",
      "network.protocol.name": "http",
    });
    expect(session?.count).toBe(1);
  });

  it("a request bridged to the client (the tool's elicitation) is an event of the call's span", async () => {
    const sdk = new Client(
      { name: "sdk-v1", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    sdk.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: {} }));
    await sdk.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
    try {
      const result = await sdk.callTool({ name: "ask", arguments: {} });
      expect(result.content).toEqual([{ type: "text", text: "ok" }]);
      const [span] = spansNamed(world.spans.getFinishedSpans(), "tools/call ask");
      const bridged = span!.events.filter((e) => e.name === "mcp.bridged_request");
      expect(bridged.map((e) => e.attributes)).toEqual([
        { "mcp.method.name": "elicitation/create" },
      ]);
    } finally {
      await sdk.close();
    }
  });

  it("a client's close records mcp.client.session.duration", async () => {
    const own = createClient({ transport: httpTransport(listening.url), info: INFO });
    await own.callTool({ name: "greet", arguments: {} });
    await own.close();
    const [session] = await points("mcp.client.session.duration", {
      "mcp.protocol.version": MODERN,
      "network.transport": "tcp",
      "server.address": "127.0.0.1",
    });
    expect(session?.count).toBeGreaterThanOrEqual(1);
  });
});
