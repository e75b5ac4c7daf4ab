/**
 * Every initialize era, with the real package of its time (issue #32): the official TypeScript SDK
 * v1 at 1.0.1 (protocol 2024-11-05), 1.12.3 (2025-03-26), 1.17.5 (2025-06-18) and 1.32.2
 * (2025-11-25), installed as exact aliases, against the output mcp-gen generates for 2026-07-28 by
 * default (every released initialize-era revision), over stdio.
 *
 * - Each SDK's Client against the example server compiled from that output: a tool that asks for
 *   elicitation is refused the same way in every era (the handler falls back on `ctx.inputError`,
 *   or the call gets -32021 naming the capability), never -32603; the tool listing carries no
 *   keyword only 2026-07-28 defines (`x-mcp-header`); the server reports no 2026-07-28 deprecation
 *   for what the session's own revision does not deprecate (logging).
 * - The generated client against a server of each SDK (test/peers/sdk-v1-era-server.mjs): `ping`
 *   and the log level of the era are sent (`setLogLevel`), sampling, roots and log messages are
 *   answered, and no 2026-07-28 deprecation notice is reported while talking to them; over
 *   Streamable HTTP (the current SDK), the level is set again on a session reopened after a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROTOCOL_DESCRIPTION } from "../../generated/dual/protocol.js";
import { fixtureProcess } from "../helpers/interop.js";
import {
  itEndsCleanly,
  openPeer,
  PEERS_DIR,
  textOf,
  versionOf,
  type PeerSession,
} from "../helpers/peers.js";
import { until } from "../helpers/server-harness.js";

/** Each SDK v1 release, the protocol version it speaks, and whether that revision has elicitation. */
const SDKS = [
  { alias: "sdk-v1-0-1", version: "1.0.1", protocol: "2024-11-05", elicitation: false },
  { alias: "sdk-v1-12-3", version: "1.12.3", protocol: "2025-03-26", elicitation: false },
  { alias: "sdk-v1-17-5", version: "1.17.5", protocol: "2025-06-18", elicitation: true },
  {
    alias: "@modelcontextprotocol/sdk",
    version: "1.32.2",
    protocol: "2025-11-25",
    elicitation: true,
  },
] as const;

type Sdk = (typeof SDKS)[number];

/** The slice of an SDK v1 Client (any of these releases) the tests use. */
interface SdkClient {
  connect(transport: unknown): Promise<void>;
  listTools(): Promise<{ tools: Array<{ name: string; inputSchema: Record<string, unknown> }> }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  setLoggingLevel(level: string): Promise<unknown>;
  setNotificationHandler(schema: unknown, handler: (notification: unknown) => void): void;
  close(): Promise<void>;
}

interface SdkModules {
  Client: new (info: object, options: object) => SdkClient;
  StdioClientTransport: new (params: object) => { stderr: NodeJS.ReadableStream | null };
  types: {
    LATEST_PROTOCOL_VERSION: string;
    LoggingMessageNotificationSchema: unknown;
  };
}

async function load(alias: string): Promise<SdkModules> {
  const client = (await import(`${alias}/client/index.js`)) as { Client: SdkModules["Client"] };
  const stdio = (await import(`${alias}/client/stdio.js`)) as {
    StdioClientTransport: SdkModules["StdioClientTransport"];
  };
  const types = (await import(`${alias}/types.js`)) as SdkModules["types"];
  return { Client: client.Client, StdioClientTransport: stdio.StdioClientTransport, types };
}

it("the aliases are the SDK releases of each era, and the default output serves every one", async () => {
  const served = PROTOCOL_DESCRIPTION.eras.map((era) => era.protocolVersion);
  for (const sdk of SDKS) {
    expect(versionOf(sdk.alias)).toBe(sdk.version);
    expect((await load(sdk.alias)).types.LATEST_PROTOCOL_VERSION).toBe(sdk.protocol);
    expect(served).toContain(sdk.protocol);
    const era = PROTOCOL_DESCRIPTION.eras.find((e) => e.protocolVersion === sdk.protocol)!;
    expect(Object.keys(era.serverRequests).includes("elicitation/create")).toBe(sdk.elicitation);
  }
});

describe("each SDK v1 Client against the default-generated server over stdio", () => {
  const started = fixtureProcess();

  describe.each(SDKS)("SDK $version (protocol $protocol)", (sdk: Sdk) => {
    let client: SdkClient;
    let stderr = "";
    const logged: unknown[] = [];

    beforeAll(async () => {
      const { Client, StdioClientTransport, types } = await load(sdk.alias);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [started.fixture, "--stdio"],
        stderr: "pipe",
      });
      client = new Client({ name: `era-${sdk.alias}`, version: sdk.version }, { capabilities: {} });
      client.setNotificationHandler(types.LoggingMessageNotificationSchema, (notification) =>
        logged.push((notification as { params: { data: unknown } }).params.data),
      );
      await client.connect(transport); // throws unless the server chose the SDK's version
      transport.stderr?.setEncoding("utf8");
      transport.stderr?.on("data", (chunk: string) => (stderr += chunk));
    }, 60_000);
    afterAll(async () => {
      await client?.close();
    });

    it("a tool asking for elicitation falls back on ctx.inputError: the missing capability", async () => {
      const result = (await client.callTool({
        name: "test_elicitation",
        arguments: { message: "Who are you?" },
      })) as { isError?: boolean; content: Array<{ type: string; text?: string }> };
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("Elicitation failed: Missing required client capability");
    });

    it("a tool asking for elicitation with no fallback: -32021 naming elicitation, never -32603", async () => {
      const refused = await client
        .callTool({ name: "test_input_required_result_elicitation", arguments: {} })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(refused).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { elicitation: {} } },
      });
    });

    it("lists tools with no keyword only 2026-07-28 defines (x-mcp-header)", async () => {
      const { tools } = await client.listTools();
      const header = tools.find((tool) => tool.name === "test_header_param")!;
      expect(header.inputSchema).toEqual({
        type: "object",
        properties: { region: { type: "string" } },
        required: ["region"],
      });
      expect(JSON.stringify(tools)).not.toContain("x-mcp-header");
    });

    it("sets the log level and gets the log messages, and the server reports no deprecation", async () => {
      expect(await client.setLoggingLevel("info")).toEqual({});
      await client.callTool({ name: "test_tool_with_logging", arguments: {} });
      await until(() => logged.length === 3, "three log messages");
      expect(logged).toEqual([
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
      ]);
      expect(stderr).not.toMatch(/deprecat/i);
    });
  });
});

describe("the default-generated client against a server of each SDK v1 release over stdio", () => {
  const script = `${PEERS_DIR}/sdk-v1-era-server.mjs`;

  describe.each(SDKS)("SDK $version (protocol $protocol)", (sdk: Sdk) => {
    let peer: PeerSession;
    const asked: string[] = [];

    beforeAll(async () => {
      peer = await openPeer(
        { transport: "stdio", args: [script, sdk.alias] },
        {
          onSample: () => {
            asked.push("sample");
            return { role: "assistant", content: { type: "text", text: "hi" }, model: "m" };
          },
          onListRoots: () => {
            asked.push("roots");
            return { roots: [{ uri: "file:///work" }] };
          },
        },
      );
    });
    afterAll(async () => {
      await peer?.dispose();
    });

    it("opens a session at the SDK's version and pings it", async () => {
      expect(await peer.client.core.request("ping", {})).toEqual({});
      expect(peer.client.era).toBe("legacy");
      expect(peer.client.protocolVersion).toBe(sdk.protocol);
    });

    it("sets the server's log level: messages at or above it come, below it none", async () => {
      await peer.client.setLogLevel("info");
      expect(textOf(await peer.client.callTool({ name: "level", arguments: {} }))).toBe(
        "level: info",
      );
      expect(textOf(await peer.client.callTool({ name: "log", arguments: {} }))).toBe("logged");
      await until(
        () => peer.notifications.some((n) => n.method === "notifications/message"),
        "the log message",
      );
      expect(peer.notifications.find((n) => n.method === "notifications/message")?.params).toEqual({
        level: "info",
        logger: "peer",
        data: "hello from the peer",
      });
      await peer.client.setLogLevel("error");
      expect(textOf(await peer.client.callTool({ name: "log", arguments: {} }))).toBe("filtered");
    });

    it("answers the server's sampling and roots requests", async () => {
      expect(textOf(await peer.client.callTool({ name: "sample", arguments: {} }))).toBe(
        "model said: hi",
      );
      expect(textOf(await peer.client.callTool({ name: "roots", arguments: {} }))).toBe(
        "file:///work",
      );
      expect(asked).toEqual(["sample", "roots"]);
    });

    it("reports no 2026-07-28 deprecation (sampling, roots, logging) to a server of this era", () => {
      expect(peer.deprecations).toEqual([]);
    });

    itEndsCleanly(() => peer);
  });
});

describe("the generated client against the current SDK's server over Streamable HTTP", () => {
  let peer: PeerSession;

  beforeAll(async () => {
    peer = await openPeer({
      transport: "http",
      args: [`${PEERS_DIR}/sdk-v1-era-server.mjs`, "@modelcontextprotocol/sdk", "--port", "0"],
    });
  }, 60_000);
  afterAll(async () => {
    await peer?.dispose();
  });

  it("pings, and sets the log level again on the session it opens after the server ended its own", async () => {
    expect(await peer.client.core.request("ping", {})).toEqual({});
    await peer.client.setLogLevel("warning");
    expect(textOf(await peer.client.callTool({ name: "level", arguments: {} }))).toBe(
      "level: warning",
    );
    expect(textOf(await peer.client.callTool({ name: "forget", arguments: {} }))).toBe("forgotten");
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The next request meets a 404: a new session is opened, and told the level first.
    expect(textOf(await peer.client.callTool({ name: "level", arguments: {} }))).toBe(
      "level: warning",
    );
    expect(peer.client.era).toBe("legacy");
    expect(peer.deprecations).toEqual([]);
  });
});
