/**
 * The dual-era client (generated/dual: 2026-07-28 with 2025-11-25 and 2025-06-18) against a modern
 * peer: a server written with the official SDK v2 (test/peers/sdk-v2-server.mjs), which also
 * serves initialize-era clients. Told nothing about the era, the client must speak 2026-07-28 to it
 * (never fall back to initialize), over stdio and HTTP, and answer the server's input_required
 * rounds (elicitation, sampling, roots) through the same handlers it uses for legacy servers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import {
  expectValid,
  itEndsCleanly,
  openPeer,
  PEERS_DIR,
  textOf,
  type PeerSession,
  type PeerSpec,
} from "../helpers/peers.js";

const SERVER = join(PEERS_DIR, "sdk-v2-server.mjs");
const SPECS: Record<string, PeerSpec> = {
  stdio: { transport: "stdio", args: [SERVER, "--stdio"] },
  http: { transport: "http", args: [SERVER, "--port", "0"] },
};

describe.each(Object.keys(SPECS))(
  "the dual-era client against an SDK v2 server over %s",
  (kind) => {
    let peer: PeerSession;
    const asked: unknown[] = [];
    beforeAll(async () => {
      peer = await openPeer(SPECS[kind]!, {
        onElicit: (params) => {
          asked.push(params);
          return { action: "accept", content: { confirmed: true } };
        },
        onSample: (params) => {
          asked.push(params);
          return {
            role: "assistant",
            content: { type: "text", text: "short" },
            model: "test-model",
          };
        },
        onListRoots: () => ({ roots: [{ uri: "file:///srv/a", name: "a" }] }),
      });
    });
    afterAll(async () => {
      await peer?.dispose();
    });

    it("speaks 2026-07-28 to it, with no era option", async () => {
      const discovered = await peer.client.discover();
      expectValid("DiscoverResult", discovered);
      expect(discovered.supportedVersions).toContain("2026-07-28");
      expect(discovered._meta?.["io.modelcontextprotocol/serverInfo"]).toEqual({
        name: "peer-sdk-v2",
        version: "2.4.0",
      });
      expect(peer.client.era).toBe("modern");
      expect(peer.client.protocolVersion).toBe("2026-07-28");
    });

    it("lists and calls its tools, with structured output", async () => {
      const listed = await peer.client.listTools();
      expectValid("ListToolsResult", listed);
      expect(listed.tools.map((tool) => tool.name)).toEqual([
        "add",
        "confirm",
        "summarize",
        "roots",
      ]);
      const added = await peer.client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
      expectValid("CallToolResult", added);
      expect(added.structuredContent).toEqual({ sum: 42 });
      expect(textOf(added)).toBe("42");
    });

    it("answers its input_required rounds through onElicit, onSample and onListRoots", async () => {
      asked.length = 0;
      const confirmed = await peer.client.callTool({
        name: "confirm",
        arguments: { action: "deploy" },
      });
      expectValid("CallToolResult", confirmed);
      expect(textOf(confirmed)).toBe("deploy: done");
      const summary = await peer.client.callTool({
        name: "summarize",
        arguments: { text: "a long story" },
      });
      expectValid("CallToolResult", summary);
      expect(textOf(summary)).toBe("summary: short");
      const roots = await peer.client.callTool({ name: "roots", arguments: {} });
      expectValid("CallToolResult", roots);
      expect(textOf(roots)).toBe("file:///srv/a");
      // Sampling and roots are deprecated as of 2026-07-28: the client says so once each.
      expect(peer.deprecations.join("\n")).toMatch(/CreateMessageRequest is deprecated/);
      expect(peer.deprecations.join("\n")).toMatch(/ListRootsRequest is deprecated/);
      expect(asked).toEqual([
        expect.objectContaining({ message: "Really deploy?" }),
        expect.objectContaining({
          messages: [{ role: "user", content: { type: "text", text: "Summarize: a long story" } }],
          maxTokens: 50,
        }),
      ]);
    });

    it("reads resources, static and templated, and gets a prompt", async () => {
      const listed = await peer.client.listResources();
      expectValid("ListResourcesResult", listed);
      expect(listed.resources.map((resource) => resource.uri)).toEqual(["docs://readme"]);
      const templates = await peer.client.listResourceTemplates();
      expectValid("ListResourceTemplatesResult", templates);
      expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(["docs://pages/{n}"]);
      const page = await peer.client.readResource({ uri: "docs://pages/7" });
      expectValid("ReadResourceResult", page);
      expect(page.contents).toEqual([
        { uri: "docs://pages/7", mimeType: "text/plain", text: "Page 7." },
      ]);
      const prompt = await peer.client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
      expectValid("GetPromptResult", prompt);
      expect(prompt.messages).toEqual([
        { role: "user", content: { type: "text", text: "Say hello to Ada." } },
      ]);
    });

    itEndsCleanly(() => peer);
  },
);
