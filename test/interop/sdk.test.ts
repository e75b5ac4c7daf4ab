/**
 * Interop with the official TypeScript SDK v2 client (@modelcontextprotocol/client 2.4.0, which
 * speaks 2026-07-28): the example conformance fixture, compiled from this run's generated output,
 * is driven by the SDK's own `Client` over stdio (spawned by the SDK's `StdioClientTransport`) and
 * over Streamable HTTP (the fixture spawned on a free loopback port, reached by the SDK's
 * `StreamableHTTPClientTransport`). Every assertion is on values the fixture really answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChildProcess } from "node:child_process";
import {
  Client,
  LOG_LEVEL_META_KEY,
  MissingRequiredClientCapabilityError,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type ClientOptions,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import * as z from "zod";
import {
  FIXTURE_SERVER_INFO,
  FIXTURE_TOOL_NAMES,
  buildFixture,
  elicitationAnswer,
  startHttpFixture,
  stopProcess,
} from "../helpers/interop.js";

const REVISION = "2026-07-28";
const SERVER_INFO = FIXTURE_SERVER_INFO;
const TOOL_NAMES = FIXTURE_TOOL_NAMES;
const PROMPT_NAMES = [
  "test_simple_prompt",
  "test_prompt_with_arguments",
  "test_prompt_with_embedded_resource",
  "test_prompt_with_image",
  "test_input_required_result_prompt",
];

let fixture: string;
let removeFixture: (() => void) | undefined;

beforeAll(() => {
  ({ fixture, remove: removeFixture } = buildFixture());
});

afterAll(() => removeFixture?.());

/** Records what the client puts on the wire, without changing it. */
function tap(transport: Transport): JSONRPCMessage[] {
  const sent: JSONRPCMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  return sent;
}

type Kind = "stdio" | "http";

interface Session {
  client: Client;
  sent: JSONRPCMessage[];
  /** What reached the client, in wire order, before the SDK dispatched it. */
  received: JSONRPCMessage[];
  /** Errors the client reported out of band (`onerror`); none are expected. */
  errors: Error[];
  close(): Promise<void>;
}

/** Elicitation answers by the message the fixture asks with; every call is recorded. */
const elicitations: Array<{ message: string; requestedSchema: unknown }> = [];
const DEFAULT_CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} };

async function connect(kind: Kind, options: Partial<ClientOptions> = {}): Promise<Session> {
  const client = new Client(
    { name: "mcp-gen-interop", version: "0.0.1" },
    {
      capabilities: DEFAULT_CAPABILITIES,
      versionNegotiation: { mode: { pin: REVISION } },
      ...options,
    },
  );
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  // Handlers for the input requests, each only where its capability is declared (the SDK insists).
  const declared = (options.capabilities ?? DEFAULT_CAPABILITIES) as Record<string, unknown>;
  if (declared.elicitation) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { message: string; requestedSchema?: unknown };
      elicitations.push({ message: params.message, requestedSchema: params.requestedSchema });
      return { action: "accept", content: elicitationAnswer(params.message) };
    });
  }
  if (declared.sampling) {
    client.setRequestHandler("sampling/createMessage", async () => ({
      model: "interop-model",
      role: "assistant",
      content: { type: "text", text: "Hello from the sampled model." },
    }));
  }
  if (declared.roots)
    client.setRequestHandler("roots/list", async () => ({
      roots: [{ uri: "file:///tmp/interop", name: "interop" }],
    }));

  let transport: Transport;
  let child: ChildProcess | undefined;
  if (kind === "stdio") {
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [fixture, "--stdio"],
      stderr: "ignore",
    });
  } else {
    const started = await startHttpFixture(fixture);
    child = started.child;
    transport = new StreamableHTTPClientTransport(new URL(started.url));
  }
  const sent = tap(transport);
  await client.connect(transport);
  const received: JSONRPCMessage[] = [];
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    received.push(message);
    deliver(message, extra);
  };
  return {
    client,
    sent,
    received,
    errors,
    async close() {
      await client.close();
      await stopProcess(child);
    },
  };
}

describe.each<Kind>(["stdio", "http"])("the SDK v2 client against the fixture over %s", (kind) => {
  let session: Session;
  beforeAll(async () => {
    session = await connect(kind);
  });
  afterAll(async () => {
    expect(session?.errors ?? []).toEqual([]);
    await session?.close();
  });

  it("connects by server/discover and adopts 2026-07-28", () => {
    const { client, sent } = session;
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe(REVISION);
    expect(client.getServerVersion()).toEqual(SERVER_INFO);
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true },
      completions: {},
      logging: {},
    });
    expect(client.getDiscoverResult()?.supportedVersions).toEqual([REVISION]);
    if (kind === "http") {
      // The connection opened with server/discover (not initialize), carrying the per-request envelope.
      const first = sent[0] as { method?: string; params?: { _meta?: Record<string, unknown> } };
      expect(first.method).toBe("server/discover");
      expect(first.params?._meta?.[PROTOCOL_VERSION_META_KEY]).toBe(REVISION);
    } else {
      // On its own stdio transport the SDK discovers on a short-lived sibling process it spawns from
      // the same parameters, so the session's pipe carries no handshake at all.
      expect(sent).toEqual([]);
    }
    expect(sent.some((m) => (m as { method?: string }).method === "initialize")).toBe(false);
  });

  it("answers server/discover sent on the session itself", async () => {
    const discovered = await session.client.discover();
    expect(discovered).toMatchObject({
      supportedVersions: [REVISION],
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true },
        completions: {},
        logging: {},
      },
      _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
    });
    const sent = session.sent.at(-1) as {
      method?: string;
      params?: { _meta?: Record<string, unknown> };
    };
    expect(sent.method).toBe("server/discover");
    expect(sent.params?._meta?.[PROTOCOL_VERSION_META_KEY]).toBe(REVISION);
  });

  it("lists the tools", async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    // The tools of the 2025-11-25 scenarios take one required string each; the header tool's argument
    // is mirrored into a header and keeps its annotation through the SDK; every other tool takes none.
    const withArgument: Record<string, string> = {
      test_trigger_resource_update: "uri",
      test_sampling: "prompt",
      test_elicitation: "message",
    };
    for (const tool of tools.filter((t) => t.name !== "test_header_param")) {
      const argument = withArgument[tool.name];
      expect(tool.inputSchema).toEqual(
        argument
          ? { type: "object", properties: { [argument]: { type: "string" } }, required: [argument] }
          : { type: "object", properties: {} },
      );
    }
    expect(tools.find((t) => t.name === "test_header_param")?.inputSchema).toEqual({
      type: "object",
      properties: { region: { type: "string", "x-mcp-header": "Region" } },
      required: ["region"],
    });
    expect(tools.find((t) => t.name === "test_simple_text")?.description).toBe(
      "Answers with one text block.",
    );
  });

  it("calls test_simple_text", async () => {
    const result = await session.client.callTool({ name: "test_simple_text", arguments: {} });
    expect(result.content).toEqual([
      { type: "text", text: "A plain text answer from the mcp-gen fixture." },
    ]);
    expect(result.isError).toBeFalsy();
    expect(result._meta?.["io.modelcontextprotocol/serverInfo"]).toEqual(SERVER_INFO);
  });

  it("calls test_tool_with_progress: every progress notification reaches the client before the answer", async () => {
    const progress: unknown[] = [];
    const from = session.received.length;
    const result = await session.client.callTool(
      { name: "test_tool_with_progress", arguments: {} },
      { onprogress: (p) => progress.push({ ...p }) },
    );
    expect(result.content).toEqual([{ type: "text", text: "Done after three progress reports." }]);
    const answered = session.received.findIndex((m, i) => i >= from && "result" in m);
    const onTheWire = session.received
      .slice(from, answered)
      .filter(
        (
          m,
        ): m is JSONRPCMessage & { method: string; params: { progress: number; total: number } } =>
          "method" in m && m.method === "notifications/progress",
      )
      .map(({ params }) => ({ progress: params.progress, total: params.total }));
    const all = [
      { progress: 0, total: 100 },
      { progress: 50, total: 100 },
      { progress: 100, total: 100 },
    ];
    expect(onTheWire).toEqual(all);
    // The SDK runs notification handlers a microtask after it settles a response, so when the last
    // notification and the answer arrive in one read (a loaded machine) its callback misses that one,
    // and it reports each one it missed through onerror as a notification for an unknown token.
    expect(all.slice(0, progress.length)).toEqual(progress);
    await new Promise((resolve) => setImmediate(resolve));
    const unknownToken = (error: Error) =>
      error.message.startsWith("Received a progress notification for an unknown token");
    expect(session.errors.filter(unknownToken)).toHaveLength(all.length - progress.length);
    // Taken out in place: the array is the one the client's onerror pushes to.
    for (let i = session.errors.length - 1; i >= 0; i--)
      if (unknownToken(session.errors[i]!)) session.errors.splice(i, 1);
  });

  it("gets a tool error as a result (isError), and an unknown tool as a protocol error", async () => {
    const failed = await session.client.callTool({ name: "test_error_handling", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(failed.content).toEqual([{ type: "text", text: "The tool failed on purpose." }]);
    const unknown = await session.client
      .callTool({ name: "no_such_tool", arguments: {} })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ProtocolError);
    expect(unknown).toMatchObject({ code: -32602, message: "Unknown tool: no_such_tool" });
  });

  it("gets method not found for a method the server does not serve", async () => {
    const reported = session.errors.length;
    const error = await session.client
      .request({ method: "example/unknown", params: {} }, z.object({}))
      .catch((e: unknown) => e);
    if (kind === "stdio") {
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({ code: -32601, message: "Method not found: example/unknown" });
      return;
    }
    // The server answers as the transport document requires ("MUST respond with 404 Not Found and a
    // JSON-RPC error with code -32601"). SDK 2.4.0's StreamableHTTPClientTransport hands JSON-RPC
    // error bodies to the request only on 400 answers, so it reports this one as an HTTP failure
    // (SdkHttpError, CLIENT_HTTP_NOT_IMPLEMENTED) with the JSON-RPC error left in data.text.
    expect(error).toBeInstanceOf(SdkHttpError);
    const data = (error as SdkHttpError).data as { status: number; text: string };
    expect(data.status).toBe(404);
    expect(JSON.parse(data.text)).toEqual({
      jsonrpc: "2.0",
      id: expect.any(Number),
      error: { code: -32601, message: "Method not found: example/unknown" },
    });
    // The transport also reports that failure out of band (onerror); it is this one and nothing else.
    const outOfBand = session.errors.splice(reported);
    expect(outOfBand).toHaveLength(1);
    expect(outOfBand[0]).toBeInstanceOf(SdkHttpError);
    expect((outOfBand[0] as SdkHttpError).data).toMatchObject({ status: 404 });
  });

  it("reads test://static-text", async () => {
    const result = await session.client.readResource({ uri: "test://static-text" });
    expect(result.contents).toEqual([
      {
        uri: "test://static-text",
        mimeType: "text/plain",
        text: "Static text served by the mcp-gen fixture.",
      },
    ]);
  });

  it("lists resources and templates, and reads a templated resource", async () => {
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["test://static-text", "test://static-binary"]);
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: "test://template/{id}/data",
        name: "template",
        mimeType: "application/json",
        description: "Data by id.",
      },
    ]);
    const read = await session.client.readResource({ uri: "test://template/42/data" });
    expect(read.contents).toEqual([
      {
        uri: "test://template/42/data",
        mimeType: "application/json",
        text: '{"id":"42","source":"template"}',
      },
    ]);
  });

  it("lists prompts and gets test_prompt_with_arguments with its arguments", async () => {
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(PROMPT_NAMES);
    expect(prompts.find((p) => p.name === "test_prompt_with_arguments")?.arguments).toEqual([
      { name: "arg1", description: "First value", required: true },
      { name: "arg2", description: "Second value", required: true },
    ]);
    const result = await session.client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "alpha", arg2: "beta" },
    });
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "First: alpha; second: beta." } },
    ]);
  });

  it("completes an argument", async () => {
    const ref = { type: "ref/prompt", name: "test_prompt_with_arguments" } as const;
    const all = await session.client.complete({ ref, argument: { name: "arg1", value: "tes" } });
    expect(all.completion).toEqual({
      values: ["test", "testing", "tested"],
      total: 3,
      hasMore: false,
    });
    const one = await session.client.complete({ ref, argument: { name: "arg1", value: "testi" } });
    expect(one.completion).toEqual({ values: ["testing"], total: 1, hasMore: false });
  });

  it("fulfils an input_required elicitation (MRTR) through its elicitation handler", async () => {
    elicitations.length = 0;
    const sentBefore = session.sent.length;
    const result = await session.client.callTool({
      name: "test_input_required_result_elicitation",
      arguments: {},
    });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    expect(elicitations).toEqual([
      {
        message: "Your name, please?",
        requestedSchema: {
          type: "object",
          properties: { name: { type: "string" } },
          required: ["name"],
        },
      },
    ]);
    // Two tools/call on the wire: the first round, then the retry carrying the response and the sealed state.
    const calls = session.sent.slice(sentBefore) as Array<{
      method?: string;
      params?: Record<string, unknown>;
    }>;
    expect(calls.map((m) => m.method)).toEqual(["tools/call", "tools/call"]);
    expect(calls[0]!.params?.inputResponses).toBeUndefined();
    expect((calls[0]!.params?._meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY]).toBe(
      REVISION,
    );
    expect(calls[1]!.params?.inputResponses).toEqual({
      user_name: { action: "accept", content: { name: "Ada" } },
    });
    expect(calls[1]!.params?.requestState).toEqual(expect.any(String));
  });

  it("carries request state over several MRTR rounds", async () => {
    elicitations.length = 0;
    const result = await session.client.callTool({
      name: "test_input_required_result_multi_round",
      arguments: {},
    });
    expect(result.content).toEqual([{ type: "text", text: "Ada likes teal." }]);
    expect(elicitations.map((e) => e.message)).toEqual(["Your name, please?", "Favourite colour?"]);
    const confirmed = await session.client.callTool({
      name: "test_input_required_result_request_state",
      arguments: {},
    });
    expect(confirmed.content).toEqual([{ type: "text", text: "state-ok: confirmed=true" }]);
  });

  it("fulfils elicitation, sampling and roots asked for at once", async () => {
    const result = await session.client.callTool({
      name: "test_input_required_result_multiple_inputs",
      arguments: {},
    });
    expect(result.content).toEqual([{ type: "text", text: "Got all three inputs." }]);
    const sampled = await session.client.callTool({
      name: "test_input_required_result_sampling",
      arguments: {},
    });
    expect(sampled.content).toEqual([
      { type: "text", text: "The model said: Hello from the sampled model." },
    ]);
    const roots = await session.client.callTool({
      name: "test_input_required_result_list_roots",
      arguments: {},
    });
    expect(roots.content).toEqual([{ type: "text", text: "The client has 1 root(s)." }]);
  });

  it("fulfils an input_required prompt", async () => {
    const result = await session.client.getPrompt({ name: "test_input_required_result_prompt" });
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "With context: from the interop test" } },
    ]);
  });

  it("gets log notifications when the request opts in through _meta", async () => {
    const logs: unknown[] = [];
    session.client.setNotificationHandler("notifications/message", (notification) => {
      logs.push(notification.params);
    });
    const quiet = await session.client.callTool({ name: "test_logging_tool", arguments: {} });
    expect(quiet.content).toEqual([{ type: "text", text: "Logged only if asked to." }]);
    expect(logs).toEqual([]);
    await session.client.callTool({
      name: "test_logging_tool",
      arguments: {},
      _meta: { [LOG_LEVEL_META_KEY]: "debug" },
    });
    expect(logs).toEqual([{ level: "info", data: "the logging tool ran" }]);
  });

  it("listens for tools/list_changed on a subscriptions/listen stream", async () => {
    const changed: unknown[] = [];
    session.client.setNotificationHandler("notifications/tools/list_changed", (notification) => {
      changed.push(notification.params);
    });
    const subscription = await session.client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await session.client.callTool({ name: "test_trigger_tool_change", arguments: {} });
    const deadline = Date.now() + 5000;
    while (changed.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(changed).toHaveLength(1);
    expect(changed[0]).toEqual({
      _meta: { "io.modelcontextprotocol/subscriptionId": expect.anything() },
    });
    await subscription.close();
    await expect(subscription.closed).resolves.toBe("local");
  });
});

describe.each<Kind>(["stdio", "http"])(
  "an SDK v2 client declaring no capabilities, negotiating 'auto', over %s",
  (kind) => {
    let session: Session;
    beforeAll(async () => {
      session = await connect(kind, { versionNegotiation: { mode: "auto" }, capabilities: {} });
    });
    afterAll(async () => {
      expect(session?.errors ?? []).toEqual([]);
      await session?.close();
    });

    it("probes with server/discover and picks the modern era", async () => {
      expect(session.client.getProtocolEra()).toBe("modern");
      expect(session.client.getNegotiatedProtocolVersion()).toBe(REVISION);
      const result = await session.client.callTool({ name: "test_simple_text", arguments: {} });
      expect(result.content).toEqual([
        { type: "text", text: "A plain text answer from the mcp-gen fixture." },
      ]);
      expect(session.sent.some((m) => (m as { method?: string }).method === "initialize")).toBe(
        false,
      );
    });

    it("gets MissingRequiredClientCapability (-32021) as the SDK's typed error", async () => {
      const direct = await session.client
        .callTool({ name: "test_missing_capability", arguments: {} })
        .catch((e: unknown) => e);
      expect(direct).toBeInstanceOf(MissingRequiredClientCapabilityError);
      expect(direct).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { sampling: {} } },
      });
      // An input_required answer that needs a capability the client did not declare is refused the same way.
      const asked = await session.client
        .callTool({ name: "test_input_required_result_elicitation", arguments: {} })
        .catch((e: unknown) => e);
      expect(asked).toBeInstanceOf(MissingRequiredClientCapabilityError);
      expect(asked).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { elicitation: {} } },
      });
    });

    it("lets a tool see the declared capabilities", async () => {
      const result = await session.client.callTool({
        name: "test_input_required_result_capabilities",
        arguments: {},
      });
      expect(result.content).toEqual([
        { type: "text", text: "The client declared no input capability." },
      ]);
    });

    it("gets invalid params (-32602) with the failing path", async () => {
      const error = await session.client
        .getPrompt({
          name: "test_prompt_with_arguments",
          arguments: { arg1: 5 as unknown as string },
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({
        code: -32602,
        message: "Invalid params: /arguments/arg1 must be string",
        data: { path: "/arguments/arg1" },
      });
    });
  },
);
