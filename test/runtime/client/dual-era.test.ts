/**
 * One client for both eras: the client generated for 2026-07-28 with the default `--legacy` (every released initialize-era revision)
 * (generated/dual), given no era option, against
 * - a real legacy peer, the SDK v1 server (1.32.2), over stdio and Streamable HTTP: the legacy
 *   handshake after the failed probe, every result checked by the modern validators after the
 *   legacy ones, the legacy server's requests answered by the same input handlers, notifications
 *   to the listeners, a session the server ends re-opened;
 * - servers generated for one initialize-era revision alone (2025-11-25, 2025-06-18), over both
 *   transports: the version negotiated picks that revision's validators;
 * - our dual-era server (the conformance fixture), over both transports: the client stays modern,
 *   and the same handlers answer `input_required`.
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createClient,
  httpTransport as baseHttpTransport,
  MethodNotInEraError,
  type McpClient,
} from "../../../generated/dual/client.js";
import { stdioTransport } from "../../../generated/dual/client-node.js";
import * as V from "../../../generated/dual/validators.js";
import { fixtureProcess, startListening, stopProcess, validIn } from "../../helpers/interop.js";
import {
  LEGACY_RESOURCE,
  LEGACY_TOOL,
  SDK_V1_SERVER,
  legacyServerProgram,
} from "../../helpers/legacy-servers.js";
import { withClientFetch } from "../../helpers/client-fetch.js";

/** The transport with the fetch the test file chose (test/helpers/client-fetch.ts). */
const httpTransport: typeof baseHttpTransport = (url, options) =>
  baseHttpTransport(url, withClientFetch(options));

const INFO = { name: "dual-era-client-test", version: "1.0.0" };
const valid = validIn(V.validators);

/** What the tests' input handlers were asked, by handler. */
interface Asked {
  elicit: unknown[];
  sample: unknown[];
  roots: unknown[];
  notifications: Array<{ method: string; params?: unknown }>;
}

function dualClient(transport: Parameters<typeof createClient>[0]["transport"]): {
  client: McpClient;
  asked: Asked;
} {
  const asked: Asked = { elicit: [], sample: [], roots: [], notifications: [] };
  const client = createClient({
    transport,
    info: INFO,
    log: () => undefined,
    onDeprecated: () => undefined,
    onElicit: (params) => {
      asked.elicit.push(params);
      return { action: "accept", content: { name: "Ada" } };
    },
    onSample: (params) => {
      asked.sample.push(params);
      return {
        role: "assistant",
        content: { type: "text", text: "hello" },
        model: "test-model",
      };
    },
    onListRoots: (params) => {
      asked.roots.push(params);
      return { roots: [{ uri: "file:///work/a" }] };
    },
    onNotification: (notification) =>
      asked.notifications.push(notification as { method: string; params?: unknown }),
  });
  return { client, asked };
}

const textOf = (result: { content: Array<{ type: string }> }): string =>
  result.content.map((block) => ("text" in block ? String(block.text) : "")).join(" ");

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  expect(condition(), what).toBe(true);
}

describe.each(["stdio", "http"] as const)("against the SDK v1 server over %s", (kind) => {
  let server: { url: string; child: ChildProcess } | undefined;
  let peer: ReturnType<typeof dualClient>;

  beforeAll(async () => {
    if (kind === "http")
      server = await startListening([SDK_V1_SERVER, "--port", "0"], "the SDK v1 server");
    peer = dualClient(
      kind === "stdio"
        ? stdioTransport({
            command: process.execPath,
            args: [SDK_V1_SERVER, "--stdio"],
            onStderr: () => {},
          })
        : httpTransport(server!.url),
    );
  }, 30_000);

  afterAll(async () => {
    await peer?.client.close();
    await stopProcess(server?.child);
  });

  it("falls back to the legacy handshake after the probe, with no era option", async () => {
    const outcome = await peer.client.connect();
    expect(outcome).toMatchObject({
      era: "legacy",
      protocolVersion: "2025-11-25",
      revision: "2025-11-25",
      initialize: { serverInfo: { name: "sdk-v1-legacy", version: "1.32.2" } },
    });
    expect(peer.client.era).toBe("legacy");
    expect(peer.client.protocolVersion).toBe("2025-11-25");
  });

  it("describes the server from its handshake, as a modern discovery result", async () => {
    const discovered = await peer.client.discover();
    valid("DiscoverResult", discovered);
    expect(discovered.supportedVersions).toEqual(["2025-11-25"]);
    expect(discovered.capabilities).toMatchObject({ tools: { listChanged: true }, logging: {} });
    expect(discovered._meta?.["io.modelcontextprotocol/serverInfo"]).toEqual({
      name: "sdk-v1-legacy",
      version: "1.32.2",
    });
  });

  it("lists and calls tools through the modern API; each result is a valid modern one", async () => {
    const listed = await peer.client.listTools();
    valid("ListToolsResult", listed);
    // Put back as the legacy answer means them: complete, and not cacheable.
    expect(listed).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    expect(listed.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["echo", "ask", "sample", "roots", "progress"]),
    );
    const echoed = await peer.client.callTool({ name: "echo", arguments: { text: "hi" } });
    valid("CallToolResult", echoed);
    expect(textOf(echoed)).toBe("echo: hi");
  });

  it("reads resources and gets prompts", async () => {
    const read = await peer.client.readResource({ uri: "test://readme" });
    valid("ReadResourceResult", read);
    expect(read.contents[0]).toMatchObject({ uri: "test://readme", text: "read me" });
    const prompt = await peer.client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
    valid("GetPromptResult", prompt);
    expect(prompt.messages[0]!.content).toEqual({ type: "text", text: "Hello, Ada" });
  });

  it("answers the server's elicitation, sampling and roots requests with the same input handlers", async () => {
    expect(textOf(await peer.client.callTool({ name: "ask" }))).toBe('accept: {"name":"Ada"}');
    expect(textOf(await peer.client.callTool({ name: "sample" }))).toBe("model said: hello");
    expect(textOf(await peer.client.callTool({ name: "roots" }))).toBe("file:///work/a");
    expect(peer.asked.elicit).toEqual([
      expect.objectContaining({ message: "Your name?", requestedSchema: expect.any(Object) }),
    ]);
    expect(peer.asked.sample).toHaveLength(1);
    expect(peer.asked.roots).toHaveLength(1);
  });

  it("delivers progress to the call and log messages and list changes to the listeners", async () => {
    const progress: unknown[] = [];
    await peer.client.callTool(
      { name: "progress" },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(progress).toEqual([1, 2]);
    await until(
      () => peer.asked.notifications.some((n) => n.method === "notifications/message"),
      "the log message reached the listener",
    );
    await peer.client.callTool({ name: "change" });
    await until(
      () => peer.asked.notifications.some((n) => n.method === "notifications/tools/list_changed"),
      "the list change reached the listener",
    );
  });

  it("rejects a modern method the legacy revision lacks with a typed error naming it and the revision", async () => {
    // (`listen` maps to the legacy mechanics: client-legacy-listen.test.ts; the raw request has none.)
    const failure = await peer.client
      .subscriptionsListen({ notifications: { toolsListChanged: true } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MethodNotInEraError);
    expect(failure).toMatchObject({ revision: "2025-11-25", method: "subscriptions/listen" });
  });

  if (kind === "http")
    it("opens a new session when the server ends its own (404) and sends the request again", async () => {
      expect(textOf(await peer.client.callTool({ name: "forget" }))).toBe("forgotten");
      await new Promise((resolve) => setTimeout(resolve, 100));
      const echoed = await peer.client.callTool({ name: "echo", arguments: { text: "again" } });
      expect(textOf(echoed)).toBe("echo: again");
      expect(peer.client.era).toBe("legacy");
    });
});

describe.each(["2025-11-25", "2025-06-18"] as const)(
  "against a server generated for %s alone",
  (revision) => {
    let program: { entry: string; remove(): void };
    let http: { url: string; child: ChildProcess } | undefined;

    beforeAll(async () => {
      program = legacyServerProgram(revision);
      http = await startListening([program.entry, "--port", "0"], `the ${revision} server`);
    }, 60_000);

    afterAll(async () => {
      await stopProcess(http?.child);
      program?.remove();
    });

    it.each(["stdio", "http"] as const)(
      "speaks the version it answers over %s, with that revision's validators",
      async (kind) => {
        const { client } = dualClient(
          kind === "stdio"
            ? stdioTransport({ command: process.execPath, args: [program.entry, "--stdio"] })
            : httpTransport(http!.url),
        );
        try {
          // The client offers 2025-11-25; a 2025-06-18 server answers its own, which it accepts.
          expect(await client.connect()).toMatchObject({
            era: "legacy",
            protocolVersion: revision,
            revision,
          });
          const tools = await client.listTools();
          valid("ListToolsResult", tools);
          expect(tools.tools).toEqual([LEGACY_TOOL]);
          const called = await client.callTool({ name: "greet" });
          valid("CallToolResult", called);
          expect(textOf(called)).toBe(`hello from ${revision}: greet`);
          const resources = await client.listResources();
          valid("ListResourcesResult", resources);
          expect(resources.resources).toEqual([LEGACY_RESOURCE]);
          const all: string[] = [];
          for await (const resource of client.listResourcesAll()) all.push(resource.uri);
          expect(all).toEqual([LEGACY_RESOURCE.uri]);
        } finally {
          await client.close();
        }
      },
    );
  },
);

describe("against our dual-era server (the conformance fixture)", () => {
  const fixture = fixtureProcess();

  it.each(["stdio", "http"] as const)(
    "stays modern over %s, and the same handler answers input_required",
    async (kind) => {
      const { client, asked } = dualClient(
        kind === "stdio"
          ? stdioTransport({
              command: process.execPath,
              args: [fixture.fixture, "--stdio"],
              onStderr: () => {},
            })
          : httpTransport(fixture.url),
      );
      try {
        expect(await client.connect()).toMatchObject({
          era: "modern",
          protocolVersion: "2026-07-28",
        });
        expect(client.era).toBe("modern");
        const greeted = await client.callTool({ name: "test_input_required_result_elicitation" });
        valid("CallToolResult", greeted);
        expect(greeted.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
        expect(asked.elicit).toHaveLength(1);
      } finally {
        await client.close();
      }
    },
  );

  it("setLogLevel on a modern server: the level travels in every later request's _meta, and the tool's log messages come", async () => {
    const { client, asked } = dualClient(httpTransport(fixture.url));
    const messages = () =>
      asked.notifications
        .filter((n) => n.method === "notifications/message")
        .map((n) => (n.params as { data?: unknown }).data);
    try {
      await client.callTool({ name: "test_tool_with_logging" });
      expect(messages()).toEqual([]);
      await client.setLogLevel("info");
      expect(client.era).toBe("modern");
      await client.callTool({ name: "test_tool_with_logging" });
      expect(messages()).toEqual([
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
      ]);
    } finally {
      await client.close();
    }
  });
});
