/**
 * The dual-era client against the official reference server @modelcontextprotocol/server-everything
 * 2026.8.31 (initialize-era, 2025-11-25, on the SDK v1), over stdio and over its Streamable HTTP
 * server (which picks port 3001 on every interface: test/peers/loopback.mjs keeps it on loopback,
 * port 0). Told nothing about the era, the client falls back to an initialize session and gives
 * the 2026-07-28 typed API. The client declares elicitation, sampling and roots (it has a handler
 * for each), so the server adds the tools that use them, and sends those requests on the session;
 * the client answers them through the same onElicit, onSample and onListRoots that answer a modern
 * server's input_required rounds. Every result is checked by the 2026-07-28 validators.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  binOf,
  expectValid,
  itEndsCleanly,
  openPeer,
  textOf,
  type PeerSession,
  type PeerSpec,
} from "../helpers/peers.js";

const EVERYTHING = binOf("@modelcontextprotocol/server-everything");
const SPECS: Record<string, PeerSpec> = {
  stdio: { transport: "stdio", args: [EVERYTHING, "stdio"] },
  http: { transport: "http", args: [EVERYTHING, "streamableHttp"], preload: true, path: "/mcp" },
};

/** Called below. */
const CALLED_TOOLS = [
  "echo",
  "get-sum",
  "get-structured-content",
  "get-tiny-image",
  "get-resource-links",
  "trigger-long-running-operation",
  "toggle-simulated-logging",
];
/** Added once the session's client has declared roots, elicitation and sampling. */
const CONDITIONAL_TOOLS = [
  "get-roots-list",
  "trigger-elicitation-request",
  "trigger-sampling-request",
];

describe.each(Object.keys(SPECS))(
  "the dual-era client against server-everything over %s",
  (kind) => {
    let peer: PeerSession;
    const asked: Array<[string, unknown]> = [];
    beforeAll(async () => {
      peer = await openPeer(SPECS[kind]!, {
        onElicit: (params) => {
          asked.push(["elicit", params]);
          return { action: "accept", content: { name: "Ada Lovelace", check: true, integer: 7 } };
        },
        onSample: (params) => {
          asked.push(["sample", params]);
          return {
            role: "assistant",
            content: { type: "text", text: "forty-two" },
            model: "test-model",
          };
        },
        onListRoots: () => {
          asked.push(["roots", null]);
          return { roots: [{ uri: "file:///srv/project", name: "project" }] };
        },
      });
    });
    afterAll(async () => {
      await peer?.dispose();
    });

    it("opens an initialize session on its own and lists the tools its capabilities unlock", async () => {
      const listed = await peer.client.listTools();
      expectValid("ListToolsResult", listed);
      expect(peer.client.era).toBe("legacy");
      expect(peer.client.protocolVersion).toBe("2025-11-25");
      const names = listed.tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining([...CALLED_TOOLS, ...CONDITIONAL_TOOLS]));
      const all = [];
      for await (const tool of peer.client.listToolsAll()) all.push(tool.name);
      expect(all).toEqual(names);
    });

    // Over HTTP the server sends these while it handles notifications/initialized, on the GET
    // stream, which no client can have open yet (its event store replays only to a Last-Event-ID).
    if (kind === "stdio") {
      it("passes the server's tools/list_changed notifications to the listeners", () => {
        // The server registers the conditional tools once the session is initialized, and says so.
        expect(peer.notifications.map((n) => n.method)).toContain(
          "notifications/tools/list_changed",
        );
      });
    }

    it("passes the log messages the server sends on its own to the listeners", async () => {
      // Only the simulated messages: the server also logs on its own when the client's roots arrive,
      // sometimes after the toggle.
      const logged = () =>
        peer.notifications.filter(
          (n) =>
            n.method === "notifications/message" &&
            /message/.test(String((n.params as { data?: unknown } | undefined)?.data)),
        );
      const toggled = await peer.client.callTool({
        name: "toggle-simulated-logging",
        arguments: {},
      });
      expectValid("CallToolResult", toggled);
      try {
        // The first message goes out at once (over HTTP on the GET stream), then one every 5 s.
        for (let waited = 0; logged().length === 0 && waited < 5000; waited += 50)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(logged()[0]?.params).toMatchObject({
          level: expect.any(String),
          data: expect.stringMatching(/message/),
        });
      } finally {
        await peer.client.callTool({ name: "toggle-simulated-logging", arguments: {} });
      }
    });

    it("calls tools: text, structured output, an image, resource links and progress", async () => {
      const echoed = await peer.client.callTool({ name: "echo", arguments: { message: "hello" } });
      expectValid("CallToolResult", echoed);
      expect(textOf(echoed)).toBe("Echo: hello");
      const sum = await peer.client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } });
      expectValid("CallToolResult", sum);
      expect(textOf(sum)).toMatch(/\b42\b/);
      const weather = await peer.client.callTool({
        name: "get-structured-content",
        arguments: { location: "Chicago" },
      });
      expectValid("CallToolResult", weather);
      expect(weather.structuredContent).toMatchObject({ temperature: expect.any(Number) });
      const image = await peer.client.callTool({ name: "get-tiny-image", arguments: {} });
      expectValid("CallToolResult", image);
      expect(image.content.map((block) => block.type)).toContain("image");
      const links = await peer.client.callTool({
        name: "get-resource-links",
        arguments: { count: 2 },
      });
      expectValid("CallToolResult", links);
      expect(links.content.filter((block) => block.type === "resource_link")).toHaveLength(2);
      const progress: Array<Record<string, unknown>> = [];
      const long = await peer.client.callTool(
        { name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } },
        { onProgress: (update) => progress.push(update) },
      );
      expectValid("CallToolResult", long);
      expect(progress.map((p) => p.progress)).toEqual([1, 2]);
    });

    /** What the handlers were asked, of one kind. */
    const askedFor = (which: string) => asked.filter(([kind]) => kind === which).map(([, p]) => p);

    it("answers its elicitation/create request through onElicit", async () => {
      const result = await peer.client.callTool({
        name: "trigger-elicitation-request",
        arguments: {},
      });
      expectValid("CallToolResult", result);
      expect(textOf(result)).toContain("- Name: Ada Lovelace\n- Agreed to terms: true");
      expect(askedFor("elicit")).toEqual([
        expect.objectContaining({ message: "Please provide inputs for the following fields:" }),
      ]);
    });

    it("answers its sampling/createMessage request through onSample", async () => {
      const result = await peer.client.callTool({
        name: "trigger-sampling-request",
        arguments: { prompt: "meaning of life", maxTokens: 20 },
      });
      expectValid("CallToolResult", result);
      expect(textOf(result)).toContain('"text": "forty-two"');
      expect(askedFor("sample")).toEqual([
        expect.objectContaining({
          messages: [
            {
              role: "user",
              content: {
                type: "text",
                text: "Resource trigger-sampling-request context: meaning of life",
              },
            },
          ],
          maxTokens: 20,
        }),
      ]);
    });

    it("answers its roots/list request through onListRoots", async () => {
      const result = await peer.client.callTool({ name: "get-roots-list", arguments: {} });
      expectValid("CallToolResult", result);
      // The server asks once the session is initialized, and again (or from its copy) on this call.
      expect(textOf(result)).toContain("1. project\n   URI: file:///srv/project");
      expect(askedFor("roots").length).toBeGreaterThan(0);
    });

    it("lists and reads resources and templates", async () => {
      const listed = await peer.client.listResources();
      expectValid("ListResourcesResult", listed);
      expect(listed.resources.length).toBeGreaterThan(0);
      const first = listed.resources[0]!;
      const read = await peer.client.readResource({ uri: first.uri });
      expectValid("ReadResourceResult", read);
      expect(read.contents[0]).toMatchObject({ uri: first.uri });
      const templates = await peer.client.listResourceTemplates();
      expectValid("ListResourceTemplatesResult", templates);
      expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain(
        "demo://resource/dynamic/text/{resourceId}",
      );
      const dynamic = await peer.client.readResource({ uri: "demo://resource/dynamic/text/3" });
      expectValid("ReadResourceResult", dynamic);
      expect(dynamic.contents[0]).toMatchObject({ uri: "demo://resource/dynamic/text/3" });
    });

    it("lists prompts, gets one with arguments, and completes an argument", async () => {
      const listed = await peer.client.listPrompts();
      expectValid("ListPromptsResult", listed);
      expect(listed.prompts.map((prompt) => prompt.name)).toEqual(
        expect.arrayContaining(["simple-prompt", "args-prompt", "completable-prompt"]),
      );
      const prompt = await peer.client.getPrompt({
        name: "args-prompt",
        arguments: { city: "Lisbon", state: "Lisboa" },
      });
      expectValid("GetPromptResult", prompt);
      expect(JSON.stringify(prompt.messages)).toContain("Lisbon");
      const completed = await peer.client.complete({
        ref: { type: "ref/prompt", name: "completable-prompt" },
        argument: { name: "department", value: "Eng" },
      });
      expectValid("CompleteResult", completed);
      expect(completed.completion.values).toContain("Engineering");
    });

    itEndsCleanly(() => peer);
  },
);
