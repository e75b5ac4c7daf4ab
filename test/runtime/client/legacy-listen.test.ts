/**
 * `listen` on a legacy session: the dual-era client (generated/dual, no era option) against real
 * initialize-era servers (the SDK v1 server) over stdio and Streamable HTTP. The modern filter
 * becomes the legacy mechanics: a subscribe per resource it names, the session's notifications it
 * asks for delivered into the stream, an unsubscribe per resource when the stream is left or the
 * client closed; the acknowledgement reports what the session honours, as a modern server's does.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, httpTransport, type McpClient } from "../../../generated/dual/client.js";
import { stdioTransport } from "../../../generated/dual/client-node.js";
import * as V from "../../../generated/dual/validators.js";
import { startListening, stopProcess, validIn } from "../../helpers/interop.js";
import { ROOT } from "../../helpers/spec.js";
import { SDK_V1_SERVER } from "../../helpers/legacy-servers.js";

const SUBSCRIBE_SERVER = join(ROOT, "test", "helpers", "sdk-v1-subscribe-server.mjs");
const INFO = { name: "legacy-listen-test", version: "1.0.0" };
const valid = validIn(V.validators);

const dir = mkdtempSync(join(tmpdir(), "mcp-gen-legacy-listen-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The subscribe and unsubscribe requests the server was sent, in order. */
const logged = (file: string): string[] => {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

describe.each(["stdio", "http"] as const)("listen on a legacy session over %s", (kind) => {
  const log = join(dir, `${kind}.log`);
  let server: { url: string; child: ChildProcess } | undefined;
  const clients: McpClient[] = [];

  const connect = (): McpClient => {
    const client = createClient({
      transport:
        kind === "stdio"
          ? stdioTransport({
              command: process.execPath,
              args: [SUBSCRIBE_SERVER, "--log", log, "--stdio"],
              onStderr: () => {},
            })
          : httpTransport(server!.url),
      info: INFO,
      log: () => undefined,
      onDeprecated: () => undefined,
    });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    if (kind === "http")
      server = await startListening(
        [SUBSCRIBE_SERVER, "--log", log, "--port", "0"],
        "the SDK v1 subscribe server",
      );
  }, 30_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    await stopProcess(server?.child);
  });

  it("subscribes to each resource named, streams what the filter asks for, unsubscribes when left", async () => {
    const client = connect();
    const stream = client.listen({
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ["test://a"],
    });
    // The server declared no prompts: that key is not honoured, as a modern server would say.
    expect(await stream.acknowledged).toEqual({
      notifications: { toolsListChanged: true, resourceSubscriptions: ["test://a"] },
    });
    expect(client.era).toBe("legacy");
    expect(logged(log)).toEqual(["subscribe test://a"]);

    const touched = await client.callTool({ name: "touch" });
    valid("CallToolResult", touched);
    // The update of a resource the listen did not name stays out of the stream.
    const first = await stream.next();
    const second = await stream.next();
    expect([first.value, second.value]).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri: "test://a" },
      },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    ]);
    for (const notification of [first.value, second.value])
      valid("ServerNotification", notification);

    expect(await stream.return!()).toEqual({ value: undefined, done: true });
    await stream.finished;
    expect(logged(log)).toEqual(["subscribe test://a", "unsubscribe test://a"]);
  });

  it("unsubscribes when the client is closed with the stream open", async () => {
    const client = connect();
    const stream = client.listen({ resourceSubscriptions: ["test://b", "test://a"] });
    await stream.acknowledged;
    expect(logged(log).slice(-2)).toEqual(["subscribe test://b", "subscribe test://a"]);
    await client.close();
    expect(logged(log).slice(-2)).toEqual(["unsubscribe test://b", "unsubscribe test://a"]);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });
});

describe("listen on a legacy session whose server cannot subscribe (stdio)", () => {
  let client: McpClient;
  afterAll(() => client?.close());

  it("sends no subscribe, acknowledges only what the server sends anyway, and streams it", async () => {
    client = createClient({
      transport: stdioTransport({
        command: process.execPath,
        args: [SDK_V1_SERVER, "--stdio"],
        onStderr: () => {},
      }),
      info: INFO,
      log: () => undefined,
      onDeprecated: () => undefined,
    });
    // The SDK v1 server declares tool list changes and no resource subscriptions (a subscribe
    // request sent to it would fail the listen).
    const stream = client.listen({
      toolsListChanged: true,
      resourceSubscriptions: ["test://readme"],
    });
    expect(await stream.acknowledged).toEqual({ notifications: { toolsListChanged: true } });
    await client.callTool({ name: "change" });
    const next = await stream.next();
    expect(next.value).toMatchObject({ method: "notifications/tools/list_changed" });
    await stream.return!();
  });
});
