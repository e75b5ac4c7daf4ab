/**
 * The oldest peers deployed: the official TypeScript SDK 1.0.1 (npm alias `sdk-v1-0-1`), which
 * speaks protocol 2024-11-05 only, against the output mcp-gen generates for 2026-07-28 with no
 * `--legacy` at all (the default: every released initialize-era revision, `npm run generate:dual`).
 *
 * - The SDK 1.0.1 Client against the example server compiled from that output, over stdio (the
 *   SDK predates Streamable HTTP; its HTTP+SSE transport of 2024-11-05 is not served).
 * - The generated client against an SDK 1.0.1 server (test/peers/sdk-v1-0-1-server.mjs) over
 *   stdio: it falls back to an initialize session at 2024-11-05 on its own.
 * - A server generated with `--legacy none` refuses such a client and tells its operator once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "sdk-v1-0-1/client/index.js";
import { StdioClientTransport } from "sdk-v1-0-1/client/stdio.js";
import { LATEST_PROTOCOL_VERSION } from "sdk-v1-0-1/types.js";
import { createServer } from "../../generated/2026-07-28/index.js";
import { PROTOCOL_DESCRIPTION } from "../../generated/dual/protocol.js";
import { FIXTURE_SERVER_INFO, FIXTURE_TOOL_NAMES, fixtureProcess } from "../helpers/interop.js";
import {
  expectValid,
  itEndsCleanly,
  openPeer,
  PEERS_DIR,
  textOf,
  versionOf,
  type PeerSession,
} from "../helpers/peers.js";

const OLD = "2024-11-05";

it("the alias is SDK 1.0.1, which speaks 2024-11-05, and the default output serves that era", () => {
  expect(versionOf("sdk-v1-0-1")).toBe("1.0.1");
  expect(LATEST_PROTOCOL_VERSION).toBe(OLD);
  expect(PROTOCOL_DESCRIPTION.eras.map((era) => era.protocolVersion)).toContain(OLD);
});

describe("the SDK 1.0.1 Client against the default-generated server over stdio", () => {
  const started = fixtureProcess();
  let client: Client;
  let transport: StdioClientTransport;

  beforeAll(async () => {
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [started.fixture, "--stdio"],
      stderr: "pipe",
    });
    client = new Client({ name: "sdk-v1-0-1-interop", version: "1.0.1" }, { capabilities: {} });
    await client.connect(transport); // initialize: throws unless the server chose 2024-11-05
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it("initializes at 2024-11-05 and sees the server as its handshake describes it", () => {
    expect(client.getServerVersion()).toEqual(FIXTURE_SERVER_INFO);
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
  });

  it("pings", async () => {
    expect(await client.ping()).toEqual({});
  });

  it("lists the tools and calls one", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(FIXTURE_TOOL_NAMES);
    const result = await client.callTool({ name: "test_simple_text", arguments: {} });
    expect((result.content as Array<{ text?: string }>)[0]?.text).toMatch(/\S/);
  });

  it("lists and reads resources, lists prompts", async () => {
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const read = await client.readResource({ uri: resources[0]!.uri });
    expect(read.contents[0]?.uri).toBe(resources[0]!.uri);
    const { prompts } = await client.listPrompts();
    expect(prompts.length).toBeGreaterThan(0);
  });
});

describe("the default-generated client against an SDK 1.0.1 server over stdio", () => {
  let peer: PeerSession;
  const script = `${PEERS_DIR}/sdk-v1-0-1-server.mjs`;

  beforeAll(async () => {
    peer = await openPeer({ transport: "stdio", args: [script] });
  });
  afterAll(async () => {
    await peer?.dispose();
  });

  it("opens an initialize session at 2024-11-05 on its own and describes the server", async () => {
    const described = await peer.client.discover();
    expectValid("DiscoverResult", described);
    expect(peer.client.era).toBe("legacy");
    expect(peer.client.protocolVersion).toBe(OLD);
    expect(described.supportedVersions).toEqual([OLD]);
    expect(JSON.stringify(described)).toContain("peer-sdk-v1-0-1");
  });

  it("calls its tools through the 2026-07-28 typed API", async () => {
    const listed = await peer.client.listTools();
    expectValid("ListToolsResult", listed);
    expect(listed.tools.map((tool) => tool.name)).toEqual(["add", "fail"]);
    const sum = await peer.client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expectValid("CallToolResult", sum);
    expect(textOf(sum)).toBe("42");
    const failed = await peer.client.callTool({ name: "fail", arguments: {} });
    expect(failed.isError).toBe(true);
  });

  it("reads a resource and gets a prompt", async () => {
    const read = await peer.client.readResource({ uri: "memo://greeting" });
    expectValid("ReadResourceResult", read);
    expect(read.contents[0]).toMatchObject({ text: "hello from 2024-11-05" });
    const prompt = await peer.client.getPrompt({ name: "greet", arguments: { who: "Ada" } });
    expectValid("GetPromptResult", prompt);
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Say hello to Ada" });
  });

  itEndsCleanly(() => peer);
});

describe("a server generated with --legacy none, hit by a 2024-11-05 client", () => {
  const handshake = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: OLD,
      capabilities: {},
      clientInfo: { name: "old", version: "1" },
    },
  });

  it("refuses it, and logs one hint to regenerate with --legacy, however many come", async () => {
    const logs: string[] = [];
    const server = createServer({
      info: { name: "modern-only", version: "1.0.0" },
      capabilities: {},
      log: (line) => logs.push(line),
    });
    const delivery = () => ({ notify: () => {}, signal: new AbortController().signal });
    for (const id of [1, 2, 3]) {
      const outcome = await server.dispatcher.handle(handshake(id), delivery());
      expect(outcome.response).toMatchObject({ id, error: { data: { requested: OLD } } });
    }
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(
      new RegExp(
        `^mcp-gen server: refused an initialize-era client \\(protocol version ${OLD}\\): this server was generated with --legacy none .*regenerate it without --legacy none`,
      ),
    );
  });

  it("logs nothing for a modern request without its _meta (no era to serve)", async () => {
    const logs: string[] = [];
    const server = createServer({
      info: { name: "modern-only", version: "1.0.0" },
      capabilities: {},
      log: (line) => logs.push(line),
    });
    await server.dispatcher.handle(
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { notify: () => {}, signal: new AbortController().signal },
    );
    expect(logs).toEqual([]);
  });
});
