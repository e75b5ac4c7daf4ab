/**
 * The generated server hosted where users deploy it (issue #30), each host started for real:
 * Express 5 (mounted under a prefix, behind `express.json()`), Fastify 5 (its parsed body handed
 * on), Hono 4 on @hono/node-server, Bun, Deno and workerd (without `nodejs_compat`), the last three
 * through the web-standard `fetch` handler. Each runs the same two sessions against the host
 * fixture (test/hosts/fixture.ts): the official SDK v1 client on protocol 2025-11-25, answering an
 * elicitation request and hearing a list change on its GET stream before ending its session with
 * DELETE; and the generated 2026-07-28 client answering an `input_required` round.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createClient, httpTransport } from "../../generated/dual/client.js";
import { ELICIT_MESSAGE } from "../hosts/fixture.js";
import { HOSTS, type Hosted } from "../helpers/hosts.js";

describe.each(HOSTS)("the generated server in $name", (host) => {
  let hosted: Hosted;
  beforeAll(async () => {
    hosted = await host.start();
  }, 120_000);
  afterAll(() => hosted?.stop());

  it("serves an SDK v1 session on 2025-11-25: an elicitation, a GET stream, DELETE", async () => {
    const client = new Client(
      { name: "host-test", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { name: "Ada" } };
    });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changes++;
    });
    const transport = new StreamableHTTPClientTransport(new URL(hosted.url));
    await client.connect(transport);
    expect(transport.protocolVersion).toBe("2025-11-25");
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()).toEqual({ name: "host-fixture", version: "1.0.0" });

    const answered = await client.callTool({ name: "ask", arguments: {} });
    expect(asked).toEqual([ELICIT_MESSAGE]);
    expect(answered.content).toEqual([{ type: "text", text: 'hello Ada ({"round":1})' }]);

    // The client opens its GET stream on its own after the handshake: announced until it hears.
    for (let attempt = 0; attempt < 50 && changes === 0; attempt++) {
      const announced = await client.callTool({ name: "announce", arguments: {} });
      expect(announced.content).toEqual([{ type: "text", text: "announced to 1" }]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(changes).toBeGreaterThan(0);

    const id = transport.sessionId!;
    await transport.terminateSession();
    await client.close();
    // The session is gone: its id is answered 404.
    const after = await fetch(hosted.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": id,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    expect(after.status).toBe(404);
  });

  it("serves the generated 2026-07-28 client through an input_required round", async () => {
    const elicited: string[] = [];
    const client = createClient({
      transport: httpTransport(hosted.url),
      info: { name: "host-test", version: "1.0.0" },
      onElicit: async (params) => {
        elicited.push((params as { message: string }).message);
        return { action: "accept", content: { name: "Grace" } };
      },
    });
    try {
      const result = await client.callTool({ name: "ask", arguments: {} });
      expect(elicited).toEqual([ELICIT_MESSAGE]);
      expect(result.content).toEqual([{ type: "text", text: 'hello Grace ({"round":1})' }]);
      expect(client.era).toBe("modern");
    } finally {
      await client.close();
    }
  });
});
