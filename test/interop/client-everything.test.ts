/**
 * Interop of the generated 2025-11-25 client (stateful: initialize handshake, then requests) with
 * the official reference server @modelcontextprotocol/server-everything 2026.8.31, which speaks
 * 2025-11-25 over stdio. Every result is checked again by the generated 2025-11-25 validators
 * (the client validates too; this makes sure it validated against the right definitions).
 *
 * The server registers its tools according to the client capabilities of the handshake: with none
 * declared it offers 13 tools (no roots, elicitation or sampling demos), 7 resources and 4 prompts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { createClient, McpError, type McpClient } from "../../generated/2025-11-25/client.js";
import { stdioTransport } from "../../generated/2025-11-25/client-node.js";
import { validators } from "../../generated/2025-11-25/validators.js";
import { ROOT } from "../helpers/spec.js";
import { validIn } from "../helpers/interop.js";

const expectValid = validIn(validators);

const EVERYTHING = join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-everything",
  "dist",
  "index.js",
);

const TOOLS = [
  "echo",
  "get-annotated-message",
  "get-env",
  "get-resource-links",
  "get-resource-reference",
  "get-structured-content",
  "get-sum",
  "get-tiny-image",
  "gzip-file-as-resource",
  "toggle-simulated-logging",
  "toggle-subscriber-updates",
  "trigger-long-running-operation",
  "simulate-research-query",
];
const RESOURCES = [
  "architecture",
  "extension",
  "features",
  "how-it-works",
  "instructions",
  "startup",
  "structure",
].map((name) => `demo://resource/static/document/${name}.md`);
const PROMPTS = ["simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"];

/** Tools whose calls are safe here (no network, no background timers) and the arguments to call them with. */
const CALLS: Record<string, Record<string, unknown>> = {
  echo: { message: "hello from mcp-gen" },
  "get-annotated-message": { messageType: "success", includeImage: true },
  "get-resource-links": { count: 2 },
  "get-resource-reference": { resourceType: "Text", resourceId: 1 },
  "get-structured-content": { location: "Chicago" },
  "get-sum": { a: 2, b: 40 },
  "get-tiny-image": {},
  "trigger-long-running-operation": { duration: 0.2, steps: 2 },
};

/** Prompt arguments, by prompt. */
const PROMPT_ARGS: Record<string, Record<string, string>> = {
  "simple-prompt": {},
  "args-prompt": { city: "Lisbon", state: "Lisboa" },
  "completable-prompt": { department: "Engineering", name: "Alice" },
  "resource-prompt": { resourceType: "Text", resourceId: "1" },
};

interface Session {
  client: McpClient;
  notifications: Array<{ method: string }>;
  logs: string[];
}

function open(options: Record<string, unknown> = {}): Session {
  const notifications: Array<{ method: string }> = [];
  const logs: string[] = [];
  const client = createClient({
    transport: stdioTransport({
      command: process.execPath,
      args: [EVERYTHING, "stdio"],
      onStderr: (line) => logs.push(`stderr: ${line}`),
    }),
    info: { name: "mcp-gen-interop", version: "0.0.1" },
    log: (message) => logs.push(message),
    onNotification: (notification) => notifications.push(notification as { method: string }),
    ...options,
  });
  return { client, notifications, logs };
}

describe("the generated 2025-11-25 client against server-everything over stdio", () => {
  let session: Session;
  beforeAll(() => {
    session = open();
  });
  afterAll(async () => {
    await session?.client.close();
  });

  it("runs the initialize handshake itself and adopts 2025-11-25", async () => {
    const outcome = await session.client.connect();
    expect(outcome).toMatchObject({ era: "modern", protocolVersion: "2025-11-25" });
    const result = (outcome as { discover: Record<string, unknown> }).discover;
    expectValid("InitializeResult", result);
    expect(result.serverInfo).toMatchObject({ name: "mcp-servers/everything", version: "2.0.0" });
    expect(result.capabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
    expect(session.client.protocolVersion).toBe("2025-11-25");
  });

  it("lists 13 tools", async () => {
    const listed = await session.client.listTools();
    expectValid("ListToolsResult", listed);
    expect(listed.tools.map((t) => t.name)).toEqual(TOOLS);
    const all = [];
    for await (const tool of session.client.listToolsAll()) all.push(tool.name);
    expect(all).toEqual(TOOLS);
  });

  it("lists 7 resources and reads every one", async () => {
    const listed = await session.client.listResources();
    expectValid("ListResourcesResult", listed);
    expect(listed.resources.map((r) => r.uri)).toEqual(RESOURCES);
    for (const resource of listed.resources) {
      const read = await session.client.readResource({ uri: resource.uri });
      expectValid("ReadResourceResult", read);
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0]).toMatchObject({ uri: resource.uri, mimeType: "text/markdown" });
      expect((read.contents[0] as { text?: string }).text?.length).toBeGreaterThan(0);
    }
  });

  it("lists the resource templates and reads a dynamic text and blob resource", async () => {
    const listed = await session.client.listResourceTemplates();
    expectValid("ListResourceTemplatesResult", listed);
    expect(listed.resourceTemplates.map((t) => t.uriTemplate)).toEqual(
      expect.arrayContaining([
        "demo://resource/dynamic/text/{resourceId}",
        "demo://resource/dynamic/blob/{resourceId}",
      ]),
    );
    const text = await session.client.readResource({ uri: "demo://resource/dynamic/text/3" });
    expectValid("ReadResourceResult", text);
    expect(text.contents[0]).toMatchObject({
      uri: "demo://resource/dynamic/text/3",
      text: expect.any(String),
    });
    const blob = await session.client.readResource({ uri: "demo://resource/dynamic/blob/3" });
    expectValid("ReadResourceResult", blob);
    expect(blob.contents[0]).toMatchObject({
      uri: "demo://resource/dynamic/blob/3",
      blob: expect.any(String),
    });
  });

  it("lists 4 prompts and gets every one", async () => {
    const listed = await session.client.listPrompts();
    expectValid("ListPromptsResult", listed);
    expect(listed.prompts.map((p) => p.name)).toEqual(PROMPTS);
    for (const prompt of listed.prompts) {
      const got = await session.client.getPrompt({
        name: prompt.name,
        arguments: PROMPT_ARGS[prompt.name]!,
      });
      expectValid("GetPromptResult", got);
      expect(got.messages.length).toBeGreaterThan(0);
    }
    const args = await session.client.getPrompt({
      name: "args-prompt",
      arguments: { city: "Lisbon" },
    });
    expect(JSON.stringify(args.messages)).toContain("Lisbon");
  });

  it("calls every tool that is safe to call here and validates each result", async () => {
    for (const [name, args] of Object.entries(CALLS)) {
      const result = await session.client.callTool({ name, arguments: args });
      expectValid("CallToolResult", result);
      expect(result.isError, name).toBeFalsy();
      expect(result.content.length, name).toBeGreaterThan(0);
    }
    const sum = await session.client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
    expect(JSON.stringify(sum.content)).toContain("42");
    const structured = await session.client.callTool({
      name: "get-structured-content",
      arguments: { location: "Chicago" },
    });
    expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });

  it("reports progress of a long-running operation", async () => {
    const progress: unknown[] = [];
    const result = await session.client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } },
      { onProgress: (p) => progress.push(p) },
    );
    expectValid("CallToolResult", result);
    expect(progress.length).toBe(2);
  });

  it("completes a prompt argument", async () => {
    const completed = await session.client.complete({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "department", value: "Eng" },
    });
    expectValid("CompleteResult", completed);
    expect(completed.completion.values).toContain("Engineering");
  });

  it("gets an unknown tool as a typed error", async () => {
    const error = await session.client
      .callTool({ name: "no-such-tool", arguments: {} })
      .catch((e: unknown) => e);
    if (error instanceof Error) expect(error).toBeInstanceOf(McpError);
    else expect((error as { isError?: boolean }).isError).toBe(true);
  });

  it("logged no client diagnostics", () => {
    expect(session.logs.filter((line) => !line.startsWith("stderr: "))).toEqual([]);
  });
});

describe("the generated 2025-11-25 client declaring elicitation, against server-everything", () => {
  // The 2025-11-25 wire carries elicitation as a server→client JSON-RPC request during the tool
  // call; the generated client answers it through onElicit.
  it("answers the server's elicitation/create request through onElicit", async () => {
    const elicited: unknown[] = [];
    const session = open({
      capabilities: { elicitation: {} },
      onElicit: async (params: unknown) => {
        elicited.push(params);
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name)).toContain("trigger-elicitation-request");
      const result = await session.client.callTool({
        name: "trigger-elicitation-request",
        arguments: {},
      });
      expectValid("CallToolResult", result);
      expect(elicited).toHaveLength(1);
      expect(JSON.stringify(result.content)).toContain("accept");
    } finally {
      await session.client.close();
    }
  });
});
