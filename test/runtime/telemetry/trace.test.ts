/**
 * One trace from client to server: the client and server generated with `--telemetry otel`
 * (generated/otel) record through the globally registered SDK with no code of their own, and the
 * client's span is the parent of the server's over Streamable HTTP (both in this process) and over
 * stdio (the server a child process writing its spans to a file); a trace context sent by the
 * official SDK v1 client in `_meta` is continued by the server.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { context, SpanKind, trace } from "@opentelemetry/api";
import {
  createClient,
  createServer,
  httpTransport,
  stdioTransport,
} from "../../../generated/otel/index.js";
import { bundleProgram } from "../../helpers/legacy-servers.js";
import { registerOtel, spansNamed, type OtelWorld } from "../../helpers/otel-world.js";
import { ROOT } from "../../helpers/spec.js";

const INFO = { name: "otel-test", version: "1.0.0" };
/** The version SDK 1.32.2 offers in its handshake, which the dual-era server accepts. */
const LEGACY_VERSION = "2025-11-25";

function makeServer() {
  return createServer({
    info: INFO,
    capabilities: { tools: {} },
    handlers: {
      "tools/list": () => ({ tools: [{ name: "greet", inputSchema: { type: "object" } }] }),
      "tools/call": (params) => ({ content: [{ type: "text", text: `hello ${params.name}` }] }),
    },
  });
}

let world: OtelWorld;
beforeAll(() => {
  world = registerOtel();
});
afterAll(() => world.shutdown());
afterEach(() => world.reset());

describe("one trace across the generated client and server", () => {
  it("over Streamable HTTP: the server's span is the child of the client's, under the caller's span", async () => {
    const server = makeServer();
    const listening = await server.listen({ port: 0 });
    const client = createClient({ transport: httpTransport(listening.url), info: INFO });
    try {
      const tracer = trace.getTracer("test");
      const outer = tracer.startSpan("agent step");
      const traceId = outer.spanContext().traceId;
      await context.with(trace.setSpan(context.active(), outer), () =>
        client.callTool({ name: "greet", arguments: {} }),
      );
      outer.end();
      const spans = world.spans.getFinishedSpans();
      const clientSpan = spansNamed(spans, "tools/call greet").find(
        (s) => s.kind === SpanKind.CLIENT,
      )!;
      const serverSpan = spansNamed(spans, "tools/call greet").find(
        (s) => s.kind === SpanKind.SERVER,
      )!;
      expect(clientSpan.spanContext().traceId).toBe(traceId);
      expect(clientSpan.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
      expect(serverSpan.spanContext().traceId).toBe(traceId);
      expect(serverSpan.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
      expect(serverSpan.attributes["network.transport"]).toBe("tcp");
      expect(clientSpan.attributes["server.address"]).toBe("127.0.0.1");
      expect(clientSpan.attributes["server.port"]).toBe(listening.port);
    } finally {
      await client.close();
      await listening.close();
    }
  });

  describe("over stdio, the server a child process", () => {
    let dir: string;
    let entry: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "mcp-gen-otel-"));
      const source = join(dir, "server.ts");
      writeFileSync(source, stdioProgram(join(ROOT, "generated", "otel", "index.js")));
      // The SDK is CommonJS requiring node built-ins: a require for them in the ESM bundle.
      entry = bundleProgram(
        source,
        join(dir, "server.mjs"),
        "import { createRequire as mcpGenRequire } from 'node:module'; const require = mcpGenRequire(import.meta.url);",
      );
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("the server's span continues the client's trace, over a pipe", async () => {
      const file = join(dir, "spans.jsonl");
      const client = createClient({
        transport: stdioTransport({
          command: process.execPath,
          args: [entry],
          env: { ...process.env, SPANS_FILE: file } as Record<string, string>,
        }),
        info: INFO,
      });
      try {
        const result = await client.callTool({ name: "greet", arguments: {} });
        expect(result.content).toEqual([{ type: "text", text: "hello greet" }]);
      } finally {
        await client.close();
      }
      const clientSpan = spansNamed(world.spans.getFinishedSpans(), "tools/call greet")[0]!;
      expect(clientSpan.kind).toBe(SpanKind.CLIENT);
      expect(clientSpan.attributes["network.transport"]).toBe("pipe");
      // The server ends its span before it writes the response: the line is there by now.
      expect(existsSync(file)).toBe(true);
      const served = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as ChildSpan);
      const serverSpan = served.find((s) => s.name === "tools/call greet")!;
      expect(serverSpan.kind).toBe(SpanKind.SERVER);
      expect(serverSpan.traceId).toBe(clientSpan.spanContext().traceId);
      expect(serverSpan.parentSpanId).toBe(clientSpan.spanContext().spanId);
      expect(serverSpan.attributes["network.transport"]).toBe("pipe");
      // The stdio probe (discovery) is a trace of its own, also recorded on both sides.
      const discover = served.find((s) => s.name === "server/discover");
      expect(discover?.kind).toBe(SpanKind.SERVER);
    });
  });

  it("continues a trace context the SDK v1 client sends in _meta (a legacy session)", async () => {
    const server = makeServer();
    const listening = await server.listen({ port: 0 });
    const sdk = new Client({ name: "sdk-v1", version: "1.0.0" }, { capabilities: {} });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parentId = "00f067aa0ba902b7";
    try {
      await sdk.callTool({
        name: "greet",
        arguments: {},
        _meta: { traceparent: `00-${traceId}-${parentId}-01`, tracestate: "rojo=00f067aa0ba902b7" },
      });
      const serverSpan = spansNamed(world.spans.getFinishedSpans(), "tools/call greet")[0]!;
      expect(serverSpan.kind).toBe(SpanKind.SERVER);
      expect(serverSpan.spanContext().traceId).toBe(traceId);
      expect(serverSpan.parentSpanContext?.spanId).toBe(parentId);
      expect(serverSpan.parentSpanContext?.traceState?.get("rojo")).toBe("00f067aa0ba902b7");
      // The version the session negotiated: the SDK's, an initialize-era one.
      expect(serverSpan.attributes["mcp.protocol.version"]).toBe(LEGACY_VERSION);
      expect(serverSpan.attributes["mcp.session.id"]).toEqual(expect.any(String));
    } finally {
      await sdk.close();
      await listening.close();
    }
  });
});

interface ChildSpan {
  name: string;
  kind: number;
  traceId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
}

/** The stdio server program: generated/otel's server, its spans appended to SPANS_FILE as they end. */
function stdioProgram(generated: string): string {
  return `
import { appendFileSync } from "node:fs";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createServer } from ${JSON.stringify(generated)};

const file = process.env.SPANS_FILE;
const exporter = {
  export(spans, done) {
    for (const s of spans)
      appendFileSync(file, JSON.stringify({
        name: s.name,
        kind: s.kind,
        traceId: s.spanContext().traceId,
        parentSpanId: s.parentSpanContext?.spanId,
        attributes: s.attributes,
      }) + "\\n");
    done({ code: 0 });
  },
  shutdown: async () => {},
};
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
createServer({
  info: { name: "otel-stdio", version: "1.0.0" },
  capabilities: { tools: {} },
  handlers: {
    "tools/list": () => ({ tools: [{ name: "greet", inputSchema: { type: "object" } }] }),
    "tools/call": (params) => ({ content: [{ type: "text", text: "hello " + params.name }] }),
  },
}).serveStdio();
`;
}
