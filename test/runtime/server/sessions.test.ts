import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedDir } from "../../helpers/spec.js";

/**
 * Sessions over Streamable HTTP: a stateful revision's initialize handshake opens a session named
 * in `Mcp-Session-Id`, whose later requests see what the client declared; a stateless revision
 * never opens one.
 */
type Listening = { url: string; close(): Promise<void> };
type ServerModule = {
  createServer(options: unknown): { listen(options: { port: number }): Promise<Listening> };
};

const load = async (revision: string) =>
  (await import(join(generatedDir(revision), "index.ts"))) as ServerModule;

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });

const handlers = {
  "tools/call": (
    _params: unknown,
    ctx: { requireCapabilities(c: object): void; clientCapabilities: object },
  ) => {
    ctx.requireCapabilities({ sampling: {} });
    return { content: [{ type: "text", text: JSON.stringify(ctx.clientCapabilities) }] };
  },
};

describe("stateful revision (2025-11-25) over HTTP", () => {
  let listening: Listening;
  beforeAll(async () => {
    const { createServer } = await load("2025-11-25");
    listening = await createServer({
      info: { name: "s", version: "1" },
      capabilities: { tools: {} },
      handlers,
    }).listen({ port: 0 });
  });
  afterAll(() => listening.close());

  const initialize = (capabilities: object) => ({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities,
      clientInfo: { name: "t", version: "1" },
    },
  });
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "x" } };

  it("names a session after the handshake, and its requests see the declared capabilities", async () => {
    const opened = await post(listening.url, initialize({ sampling: {} }));
    expect(opened.status).toBe(200);
    const session = opened.headers.get("mcp-session-id");
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const answer = await post(listening.url, call, { "mcp-session-id": session! });
    expect(await answer.json()).toMatchObject({
      id: 2,
      result: { content: [{ type: "text", text: '{"sampling":{}}' }] },
    });
  });

  it("keeps sessions apart", async () => {
    const withSampling = (await post(listening.url, initialize({ sampling: {} }))).headers.get(
      "mcp-session-id",
    )!;
    const without = (await post(listening.url, initialize({}))).headers.get("mcp-session-id")!;
    expect(without).not.toBe(withSampling);
    const refused = await (await post(listening.url, call, { "mcp-session-id": without })).json();
    expect(refused.error.data).toEqual({ requiredCapabilities: { sampling: {} } });
  });

  it("answers an unknown session with 404, and a request outside any session sees no capabilities", async () => {
    const unknown = await post(listening.url, call, {
      "mcp-session-id": "00000000-0000-0000-0000-000000000000",
    });
    expect(unknown.status).toBe(404);
    const outside = await (await post(listening.url, call)).json();
    expect(outside.error.data).toEqual({ requiredCapabilities: { sampling: {} } });
  });
});

describe("stateless revision (2026-07-28) over HTTP", () => {
  it("never opens a session", async () => {
    const { createServer } = await load("2026-07-28");
    const listening = await createServer({
      info: { name: "s", version: "1" },
      capabilities: { tools: {} },
      handlers,
    }).listen({ port: 0 });
    try {
      const meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { sampling: {} },
      };
      const answer = await post(
        listening.url,
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", _meta: meta } },
        { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "x" },
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get("mcp-session-id")).toBeNull();
    } finally {
      await listening.close();
    }
  });
});
