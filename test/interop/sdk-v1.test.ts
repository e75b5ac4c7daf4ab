/**
 * The clients deployed today: the official TypeScript SDK v1 (`@modelcontextprotocol/sdk` 1.32.2),
 * which opens with `initialize` (protocol 2025-11-25), against the example server generated for
 * 2026-07-28 with the default `--legacy` (compiled from this run's generated/dual), over
 * stdio (spawned by the SDK's StdioClientTransport) and Streamable HTTP. Its handlers are modern
 * ones: what they ask for with `input_required` reaches the SDK client as real requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type JSONRPCMessage,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  FIXTURE_SERVER_INFO,
  FIXTURE_TOOL_NAMES,
  elicitationAnswer,
  fixtureProcess,
} from "../helpers/interop.js";
import { until } from "../helpers/server-harness.js";

const started = fixtureProcess();

interface Connected {
  client: Client;
  /** The requests the server sent to the client, by method. */
  asked: string[];
  transport: StdioClientTransport | StreamableHTTPClientTransport;
  /** What reached the client, in wire order, before the SDK dispatched it. */
  received: JSONRPCMessage[];
}

const ROOTS = [
  { uri: "file:///work/a", name: "a" },
  { uri: "file:///work/b", name: "b" },
];

async function connect(kind: "stdio" | "http"): Promise<Connected> {
  const transport =
    kind === "stdio"
      ? new StdioClientTransport({
          command: process.execPath,
          args: [started.fixture, "--stdio"],
          stderr: "pipe",
        })
      : new StreamableHTTPClientTransport(new URL(started.url));
  const client = new Client(
    { name: "sdk-v1-interop", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  );
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.method);
    return { action: "accept", content: elicitationAnswer(request.params.message) };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    asked.push(request.method);
    return {
      role: "assistant",
      content: { type: "text", text: "Hi from the model" },
      model: "test-model",
      stopReason: "endTurn",
    };
  });
  client.setRequestHandler(ListRootsRequestSchema, async (request) => {
    asked.push(request.method);
    return { roots: ROOTS };
  });
  await client.connect(transport);
  const received: JSONRPCMessage[] = [];
  const deliver = transport.onmessage!;
  transport.onmessage = (message: JSONRPCMessage) => {
    received.push(message);
    deliver(message);
  };
  return { client, asked, transport, received };
}

const textOf = (result: unknown): string =>
  (result as { content: Array<{ text?: string }> }).content[0]?.text ?? "";

describe.each(["stdio", "http"] as const)("SDK v1 Client over %s", (kind) => {
  let peer: Connected;

  beforeAll(async () => {
    peer = await connect(kind);
  }, 30_000);

  afterAll(async () => {
    if (kind === "http")
      await (peer.transport as StreamableHTTPClientTransport)
        .terminateSession()
        .catch(() => undefined);
    await peer?.client.close();
  });

  it("initializes at 2025-11-25 and sees the server as the handshake describes it", () => {
    expect(peer.client.getServerVersion()).toEqual(FIXTURE_SERVER_INFO);
    expect(peer.client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true },
      logging: {},
    });
    if (kind === "http") {
      expect((peer.transport as StreamableHTTPClientTransport).protocolVersion).toBe("2025-11-25");
      expect((peer.transport as StreamableHTTPClientTransport).sessionId).toMatch(/^[\x21-\x7e]+$/);
    }
  });

  it("pings", async () => {
    expect(await peer.client.ping()).toEqual({});
  });

  it("lists tools in the legacy shape (no resultType, no caching hints, no modern _meta)", async () => {
    const listed = await peer.client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(FIXTURE_TOOL_NAMES);
    expect(listed).not.toHaveProperty("resultType");
    expect(listed).not.toHaveProperty("ttlMs");
    expect(listed).not.toHaveProperty("cacheScope");
    expect(listed._meta ?? {}).not.toHaveProperty("io.modelcontextprotocol/serverInfo");
  });

  it("calls a tool", async () => {
    const result = await peer.client.callTool({ name: "test_simple_text", arguments: {} });
    expect(textOf(result)).toBe("A plain text answer from the mcp-gen fixture.");
    expect(result).not.toHaveProperty("resultType");
  });

  it("a modern handler's input_required elicitation reaches the SDK's elicitation handler, and the tool completes", async () => {
    const before = peer.asked.length;
    const result = await peer.client.callTool({
      name: "test_input_required_result_elicitation",
      arguments: {},
    });
    expect(peer.asked.slice(before)).toEqual(["elicitation/create"]);
    expect(textOf(result)).toBe("Hello, Ada!");
  });

  it("the same for sampling and roots", async () => {
    const before = peer.asked.length;
    expect(
      textOf(
        await peer.client.callTool({ name: "test_input_required_result_sampling", arguments: {} }),
      ),
    ).toBe("The model said: Hi from the model");
    expect(
      textOf(
        await peer.client.callTool({
          name: "test_input_required_result_list_roots",
          arguments: {},
        }),
      ),
    ).toBe("The client has 2 root(s).");
    expect(peer.asked.slice(before)).toEqual(["sampling/createMessage", "roots/list"]);
  });

  it("several rounds, with the handler's state kept between them", async () => {
    const result = await peer.client.callTool({
      name: "test_input_required_result_multi_round",
      arguments: {},
    });
    expect(textOf(result)).toBe("Ada likes teal.");
  });

  it("reads a resource, subscribes to it and gets its update; unsubscribed, no more", async () => {
    const read = await peer.client.readResource({ uri: "test://static-text" });
    expect(read.contents).toEqual([
      {
        uri: "test://static-text",
        mimeType: "text/plain",
        text: "Static text served by the mcp-gen fixture.",
      },
    ]);
    const updates: string[] = [];
    peer.client.setNotificationHandler(
      ResourceUpdatedNotificationSchema,
      (n) => void updates.push(n.params.uri),
    );
    expect(await peer.client.subscribeResource({ uri: "test://static-text" })).toEqual({});
    const published = await peer.client.callTool({
      name: "test_trigger_resource_update",
      arguments: { uri: "test://static-text" },
    });
    expect(textOf(published)).toBe("resources/updated published to 1 subscriber(s).");
    await until(() => updates.length === 1, "the resources/updated notification");
    expect(updates).toEqual(["test://static-text"]);
    // Another resource's update is not sent to this session.
    await peer.client.callTool({
      name: "test_trigger_resource_update",
      arguments: { uri: "test://static-binary" },
    });
    expect(await peer.client.unsubscribeResource({ uri: "test://static-text" })).toEqual({});
    const after = await peer.client.callTool({
      name: "test_trigger_resource_update",
      arguments: { uri: "test://static-text" },
    });
    expect(textOf(after)).toBe("resources/updated published to 0 subscriber(s).");
    expect(updates).toEqual(["test://static-text"]);
  });

  it("gets a tools/list_changed notification outside any request", async () => {
    let changed = 0;
    peer.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await peer.client.callTool({ name: "test_trigger_tool_change", arguments: {} });
    await until(() => changed === 1, "notifications/tools/list_changed");
  });

  it("gets prompts", async () => {
    const listed = await peer.client.listPrompts();
    expect(listed.prompts.map((p) => p.name)).toContain("test_prompt_with_arguments");
    const prompt = await peer.client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "x", arg2: "y" },
    });
    expect(prompt.messages).toEqual([
      { role: "user", content: { type: "text", text: "First: x; second: y." } },
    ]);
    expect(prompt).not.toHaveProperty("resultType");
  });

  it("sets the log level and gets the tool's log messages at or above it", async () => {
    const logs: unknown[] = [];
    peer.client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n) => void logs.push(n.params.data),
    );
    expect(await peer.client.setLoggingLevel("info")).toEqual({});
    await peer.client.callTool({ name: "test_tool_with_logging", arguments: {} });
    await until(() => logs.length === 3, "three log messages");
    expect(logs).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    await peer.client.setLoggingLevel("error");
    await peer.client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toHaveLength(3);
  });

  it("gets progress with its own progress token: every notification reaches the client before the answer", async () => {
    const progress: number[] = [];
    const from = peer.received.length;
    await peer.client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    });
    const answered = peer.received.findIndex((m, i) => i >= from && "result" in m);
    const onTheWire = peer.received
      .slice(from, answered)
      .filter(
        (m): m is JSONRPCMessage & { method: string; params: { progress: number } } =>
          "method" in m && m.method === "notifications/progress",
      )
      .map(({ params }) => params.progress);
    expect(onTheWire).toEqual([0, 50, 100]);
    // The SDK runs notification handlers after it settles a response, so when the last
    // notifications and the answer arrive in one read (a loaded machine) its callback misses them.
    expect(onTheWire.slice(0, progress.length)).toEqual(progress);
  });

  it("completes an argument", async () => {
    const completed = await peer.client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "test" },
    });
    expect(completed.completion.values).toEqual(["test", "testing", "tested"]);
  });
});
