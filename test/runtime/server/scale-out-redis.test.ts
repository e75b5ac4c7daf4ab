/**
 * Scale-out: three processes of a server generated with `--store redis`, behind haproxy
 * round-robin (no stickiness), their state in a redis-server this test starts. SDK v1 clients
 * (the initialize era, sessions) work across the processes: the handshake on one, calls on the
 * others, an elicitation answered to a process other than the one waiting for it, resource
 * subscriptions whose updates another process publishes; a process killed while it holds a
 * client's GET stream loses no notification (the client resumes with Last-Event-ID on another).
 * Without redis-server or haproxy the test is skipped, saying why; where .ci/run found or installed them (MCP_REQUIRE_SCALE_OUT=1) it fails instead.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  missingBinaries,
  scaleOutProgram,
  startHaproxy,
  startRedis,
  startServer,
  worldDir,
  type Started,
} from "../../helpers/scale-out.js";

const missing = missingBinaries();
const LEGACY = "2025-11-25";

/** Polls `check` until it holds (bounded: 200 tries, 50 ms apart). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const textOf = (result: unknown): string =>
  ((result as { content: Array<{ text: string }> }).content[0] ?? { text: "" }).text;

if (missing) {
  describe("scale-out with Redis", () => {
    if (process.env.MCP_REQUIRE_SCALE_OUT === "1")
      it(`needs redis-server and haproxy: ${missing}`, () => {
        throw new Error(`CI must install them: ${missing}`);
      });
    else {
      // Said in the run's output too, not only in the skipped test's name.
      console.warn(`scale-out-redis: skipped: ${missing}`);
      it.skip(`skipped: ${missing}`, () => undefined);
    }
  });
} else {
  describe("scale-out with Redis: 3 processes behind haproxy round-robin", () => {
    const world = worldDir();
    let program: ReturnType<typeof scaleOutProgram>;
    let redis: Started & { url: string };
    let servers: Array<Started & { url: string; base: string }>;
    let proxy: Started & { url: string };
    const clients: Client[] = [];

    beforeAll(async () => {
      program = scaleOutProgram();
      redis = await startRedis(world.dir);
      servers = await Promise.all(
        [0, 1, 2].map(() => startServer(program.entry, { REDIS_URL: redis.url })),
      );
      proxy = await startHaproxy(
        world.dir,
        servers.map((s) => s.port),
      );
    }, 120_000);

    afterAll(async () => {
      for (const client of clients) await client.close().catch(() => undefined);
      for (const started of [proxy, ...(servers ?? []), redis])
        await started?.stop().catch(() => undefined);
      program?.remove();
      world.remove();
    });

    /** An SDK v1 client through haproxy, answering elicitations with `name`, collecting resource updates. */
    async function connect(name = "Ada") {
      const client = new Client(
        { name: "scale-out-test", version: "1.0.0" },
        { capabilities: { elicitation: {} } },
      );
      const updates: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, async () => ({
        action: "accept",
        content: { name },
      }));
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        updates.push(notification.params.uri);
      });
      const transport = new StreamableHTTPClientTransport(new URL(proxy.url), {
        reconnectionOptions: {
          initialReconnectionDelay: 100,
          maxReconnectionDelay: 500,
          reconnectionDelayGrowFactor: 1.5,
          maxRetries: 10,
        },
      });
      await client.connect(transport);
      clients.push(client);
      return { client, transport, updates };
    }

    /** Each process's GET streams: open now, and opened with Last-Event-ID so far (its program's `/streams`). */
    async function streamStats(): Promise<Array<{ streams: number; resumed: number }>> {
      return Promise.all(
        servers.map(async (server) => {
          if (server.child.exitCode !== null || server.child.signalCode !== null)
            return { streams: 0, resumed: 0 };
          return (await (await fetch(`${server.base}/streams`)).json()) as {
            streams: number;
            resumed: number;
          };
        }),
      );
    }
    const streamCounts = async () => (await streamStats()).map((s) => s.streams);
    const resumedCount = async () => (await streamStats()).reduce((sum, s) => sum + s.resumed, 0);

    it("a session opened on one process is served by all three, round-robin", async () => {
      const { client, transport } = await connect();
      expect(transport.protocolVersion).toBe(LEGACY);
      const pids = new Set<string>();
      for (let i = 0; i < 6; i++)
        pids.add(textOf(await client.callTool({ name: "whoami", arguments: {} })));
      expect(pids).toEqual(new Set(servers.map((s) => String(s.child.pid))));
    });

    it("an elicitation is answered through whichever process the answer reaches", async () => {
      const { client } = await connect("Grace");
      const finishers = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const text = textOf(await client.callTool({ name: "ask", arguments: {} }));
        const match = /^hello Grace asked by (\d+) answered to (\d+)$/.exec(text);
        expect(match, text).not.toBeNull();
        // The process that asked is the one that finished: the answer travelled to it.
        expect(match![1]).toBe(match![2]);
        finishers.add(match![2]!);
      }
      expect(finishers.size).toBeGreaterThan(0);
    });

    it("the answer POSTed straight to a third process reaches the process waiting for it", async () => {
      const [a, b, c] = servers;
      const post = (base: string, body: unknown, session?: string) =>
        fetch(`${base}/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": LEGACY,
            ...(session ? { "mcp-session-id": session } : {}),
          },
          body: JSON.stringify(body),
        });
      const opened = await post(a!.base, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: LEGACY,
          capabilities: { elicitation: {} },
          clientInfo: { name: "raw", version: "1" },
        },
      });
      const session = opened.headers.get("mcp-session-id")!;
      expect(session).toBeTruthy();
      await opened.text();
      expect(
        (await post(b!.base, { jsonrpc: "2.0", method: "notifications/initialized" }, session))
          .status,
      ).toBe(202);
      // The call on B: its stream carries the elicitation, then (after the answer) the result.
      const call = await post(
        b!.base,
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } },
        session,
      );
      const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      while (!text.includes("elicitation/create")) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended: ${text}`);
        text += value;
      }
      const asked = JSON.parse(/data: (.*elicitation\/create.*)/.exec(text)![1]!) as {
        id: string;
      };
      const answered = await post(
        c!.base,
        { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Lin" } } },
        session,
      );
      expect(answered.status).toBe(202);
      while (!text.includes('"id":2')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      expect(text).toContain(`hello Lin asked by ${b!.child.pid} answered to ${b!.child.pid}`);
    });

    // The two cases below wait on updates crossing Redis between processes behind haproxy. Under
    // the full suite in CI they have twice timed out with no update delivered, which no local run
    // (alone or under CPU load) reproduces: one retry each, and the closing note of issue 22 says so.
    it(
      "a resource update published by any process reaches every subscribed session's stream",
      { retry: 1 },
      async () => {
        const { client, updates } = await connect();
        const other = await connect();
        // An update published before this client's GET stream is open is in its log but never
        // replayed (nothing asks for it), and counting streams cannot tell this client's apart from
        // the earlier tests' clients: probe with updates of another URI until one reaches it.
        const touch = (uri: string) => other.client.callTool({ name: "touch", arguments: { uri } });
        await client.subscribeResource({ uri: "test://probe" });
        await until(async () => {
          await touch("test://probe");
          return updates.includes("test://probe");
        }, "this client's GET stream");
        const notes = () => updates.filter((uri) => uri === "test://note");
        await client.subscribeResource({ uri: "test://note" });
        for (let i = 0; i < 6; i++) await touch("test://note");
        await until(() => notes().length >= 6, "6 updates");
        expect(notes()).toEqual(Array(6).fill("test://note"));
        // The session that did not subscribe got none.
        expect(other.updates).toEqual([]);
        // Unsubscribed: no more.
        await client.unsubscribeResource({ uri: "test://note" });
        await touch("test://note");
        await client.callTool({ name: "whoami", arguments: {} });
        expect(notes()).toHaveLength(6);
      },
    );

    it(
      "a process killed while it holds the client's GET stream loses no notification",
      { retry: 1, timeout: 60_000 },
      async () => {
        const publisher = await connect();
        const total = async () => (await streamCounts()).reduce((a, b) => a + b);
        await until(async () => (await total()) >= clients.length, "the publisher's GET stream");
        const before = await streamCounts();
        const { client, updates } = await connect();
        // As in the case above: an update reaches the client only once its GET stream is open, so
        // probe until one does; the process whose stream count grew holds it.
        await client.subscribeResource({ uri: "test://probe-killed" });
        await until(async () => {
          await publisher.client.callTool({
            name: "touch",
            arguments: { uri: "test://probe-killed" },
          });
          return updates.includes("test://probe-killed");
        }, "the client's GET stream");
        await client.unsubscribeResource({ uri: "test://probe-killed" });
        const killed = () => updates.filter((uri) => uri === "test://killed");
        await client.subscribeResource({ uri: "test://killed" });
        let holder = -1;
        await until(async () => {
          const counts = await streamCounts();
          holder = counts.findIndex((count, i) => count > before[i]!);
          return holder >= 0;
        }, "the process holding the client's GET stream");
        const touch = () =>
          publisher.client.callTool({ name: "touch", arguments: { uri: "test://killed" } });
        for (let i = 0; i < 5; i++) await touch();
        await until(() => killed().length >= 5, "5 updates before the kill");
        const resumedBefore = await resumedCount();
        await servers[holder]!.stop();
        // Published while the client has no stream: kept in the session's log in Redis.
        for (let i = 0; i < 5; i++) await touch();
        await until(() => killed().length >= 10, "10 updates after the kill");
        // A round trip more: a duplicate replayed after the live copy would be in by now.
        await client.callTool({ name: "whoami", arguments: {} });
        expect(killed()).toEqual(Array(10).fill("test://killed"));
        // The client came back with Last-Event-ID, on a survivor.
        expect(await resumedCount()).toBeGreaterThan(resumedBefore);
      },
    );
  });
}
