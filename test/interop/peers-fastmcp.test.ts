/**
 * The dual-era client against a legacy peer written with fastmcp 4.20.16
 * (test/peers/fastmcp-server.mjs, an initialize-era server on the SDK v1 through mcp-proxy), over
 * stdio and Streamable HTTP. Told nothing about the era, the client finds the server speaks
 * 2025-11-25, opens a session, and gives the 2026-07-28 typed API: tools (structured output,
 * progress, log messages, an elicitation the server sends as a request of its own), resources and
 * their templates with completion, prompts. Every result is checked by the 2026-07-28 validators.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { InvalidParamsError, MethodNotInEraError } from "../../generated/dual/client.js";
import {
  expectValid,
  itEndsCleanly,
  openPeer,
  PEERS_DIR,
  textOf,
  type PeerSession,
  type PeerSpec,
} from "../helpers/peers.js";

const SERVER = join(PEERS_DIR, "fastmcp-server.mjs");
const SPECS: Record<string, PeerSpec> = {
  stdio: { transport: "stdio", args: [SERVER] },
  http: { transport: "http", args: [SERVER, "--http"], preload: true, path: "/mcp" },
};

describe.each(Object.keys(SPECS))("the dual-era client against fastmcp over %s", (kind) => {
  let peer: PeerSession;
  const elicited: unknown[] = [];
  beforeAll(async () => {
    peer = await openPeer(SPECS[kind]!, {
      onElicit: (params) => {
        elicited.push(params);
        return { action: "accept", content: { guests: 4 } };
      },
    });
  });
  afterAll(async () => {
    await peer?.dispose();
  });

  it("falls back to an initialize session on its own and adopts 2025-11-25", async () => {
    const listed = await peer.client.listTools();
    expectValid("ListToolsResult", listed);
    expect(peer.client.era).toBe("legacy");
    expect(peer.client.protocolVersion).toBe("2025-11-25");
    expect(listed.tools.map((tool) => tool.name)).toEqual(["add", "shout", "count", "book"]);
    expect(listed.tools[1]!.annotations).toEqual({ readOnlyHint: true, title: "Shout" });
    expect(listed.tools[0]!.outputSchema).toMatchObject({
      type: "object",
      properties: { sum: { type: "number" } },
      required: ["sum"],
    });
  });

  it("calls tools: text and structured output", async () => {
    const added = await peer.client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    expectValid("CallToolResult", added);
    expect(added.structuredContent).toEqual({ sum: 3 });
    const shouted = await peer.client.callTool({ name: "shout", arguments: { text: "hi" } });
    expectValid("CallToolResult", shouted);
    expect(shouted.content).toEqual([{ type: "text", text: "HI" }]);
  });

  it("rejects what 2025-11-25 lacks (subscriptions/listen) with a typed error naming both", async () => {
    // The raw request; `listen` maps to the legacy mechanics (client-legacy-listen.test.ts).
    const failure = await peer.client
      .subscriptionsListen({ notifications: { toolsListChanged: true } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MethodNotInEraError);
    expect(failure).toMatchObject({ revision: "2025-11-25", method: "subscriptions/listen" });
  });

  it("gets fastmcp's refusal of bad arguments as a typed InvalidParamsError", async () => {
    const refused = await peer.client
      .callTool({ name: "add", arguments: { a: "one", b: 2 } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidParamsError);
    expect(String(refused)).toMatch(/parameter validation failed/);
  });

  it("passes the call's progress to onProgress and the server's log messages to the listeners", async () => {
    const progress: Array<Record<string, unknown>> = [];
    const counted = await peer.client.callTool(
      { name: "count", arguments: { n: 2 } },
      { onProgress: (update) => progress.push(update) },
    );
    expectValid("CallToolResult", counted);
    expect(textOf(counted)).toBe("counted to 2");
    expect(progress.map(({ progress, total }) => ({ progress, total }))).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
    // fastmcp does not await its log calls, and sends them apart from the call's own response
    // (on the session's GET stream): the last can come in after the result.
    const messages = () => peer.notifications.filter((n) => n.method === "notifications/message");
    for (let waited = 0; messages().length < 2 && waited < 5_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(messages().map((n) => n.params)).toEqual([
      { level: "info", data: { message: "step 1" } },
      { level: "info", data: { message: "step 2" } },
    ]);
  });

  it("answers the server's elicitation/create request through onElicit", async () => {
    elicited.length = 0;
    const booked = await peer.client.callTool({
      name: "book",
      arguments: { restaurant: "Chez Ada" },
    });
    expectValid("CallToolResult", booked);
    expect(textOf(booked)).toBe("booked Chez Ada for 4");
    expect(elicited).toEqual([
      expect.objectContaining({
        message: "How many guests at Chez Ada?",
        requestedSchema: {
          type: "object",
          properties: { guests: { type: "integer", minimum: 1 } },
          required: ["guests"],
        },
      }),
    ]);
  });

  it("lists and reads resources, a templated one, and completes the template's argument", async () => {
    const listed = await peer.client.listResources();
    expectValid("ListResourcesResult", listed);
    expect(listed.resources).toEqual([
      { uri: "notes://today", name: "today", description: "Today's note.", mimeType: "text/plain" },
    ]);
    const today = await peer.client.readResource({ uri: "notes://today" });
    expectValid("ReadResourceResult", today);
    expect(today.contents).toEqual([
      expect.objectContaining({ uri: "notes://today", text: "Water the plants." }),
    ]);
    const templates = await peer.client.listResourceTemplates();
    expectValid("ListResourceTemplatesResult", templates);
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(["notes://day/{day}"]);
    const monday = await peer.client.readResource({ uri: "notes://day/monday" });
    expectValid("ReadResourceResult", monday);
    expect(monday.contents).toEqual([
      expect.objectContaining({ uri: "notes://day/monday", text: "Nothing planned on monday." }),
    ]);
    const completed = await peer.client.complete({
      ref: { type: "ref/resource", uri: "notes://day/{day}" },
      argument: { name: "day", value: "t" },
    });
    expectValid("CompleteResult", completed);
    expect(completed.completion.values).toEqual(["tuesday"]);
  });

  it("lists prompts and gets one", async () => {
    const listed = await peer.client.listPrompts();
    expectValid("ListPromptsResult", listed);
    expect(listed.prompts).toEqual([
      {
        name: "greet",
        description: "Greets someone.",
        arguments: [{ name: "name", description: "Who to greet.", required: true }],
      },
    ]);
    const prompt = await peer.client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
    expectValid("GetPromptResult", prompt);
    expect(prompt.messages).toEqual([
      { role: "user", content: { type: "text", text: "Say hello to Ada." } },
    ]);
  });

  itEndsCleanly(() => peer);
});
