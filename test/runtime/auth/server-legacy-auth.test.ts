/**
 * `bearerAuth` on a dual-era server's initialize-era sessions (generated/dual): the scopes a request
 * needs come from its body on every era (a false `Mcp-Method`/`Mcp-Name` header, or none at all,
 * cannot take a read-only token to a write tool), a legacy client's headers are checked against its
 * body, and a session answers only to the principal that opened it (another user's valid token with
 * its id gets 404 for requests, answers, the GET stream, its replay and DELETE); `ctx.principal` and
 * `ctx.auth` reach handlers on legacy requests.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  bearerAuth,
  createServer,
  InvalidTokenError,
  type VerifiedToken,
} from "../../../generated/dual/index.js";
import { parseSse, type Msg } from "../../helpers/server-harness.js";

const AS = "https://auth.example.com";
const LEGACY = "2025-11-25";
const TOKENS: Record<string, VerifiedToken> = {
  "alice-reader": { scopes: ["mcp:read"], subject: "alice", clientId: "app", issuer: AS },
  "alice-other-app": { scopes: ["mcp:read"], subject: "alice", clientId: "other", issuer: AS },
  "bob-writer": { scopes: ["mcp:read", "mcp:write"], subject: "bob", clientId: "app", issuer: AS },
};

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const erased: string[] = [];

async function serve() {
  const server = createServer({
    info: { name: "protected-dual", version: "1.0.0" },
    capabilities: { tools: { listChanged: true } },
    legacy: { inputTimeoutMs: 10_000 },
    log: () => undefined,
    handlers: {
      "tools/list": () => ({
        tools: [
          { name: "read", inputSchema: { type: "object" } },
          { name: "erase", inputSchema: { type: "object" } },
          { name: "ask", inputSchema: { type: "object" } },
        ],
      }),
      "tools/call": (params, ctx) => {
        if (params.name === "erase") erased.push(String(ctx.principal));
        if (params.name === "ask" && !ctx.inputResponses.ok)
          return ctx.inputRequired({
            ok: {
              method: "elicitation/create",
              params: {
                mode: "form",
                message: "sure?",
                requestedSchema: { type: "object", properties: {} },
              },
            },
          });
        return {
          content: [
            {
              type: "text",
              text: `${params.name} by ${String(ctx.principal)} with ${ctx.auth?.scopes.join(" ")}`,
            },
          ],
        };
      },
    },
  });
  // The resource identifier only names the metadata document, which these tests do not read.
  const resource = "http://127.0.0.1/mcp";
  const handle = await server.listen({
    port: 0,
    auth: bearerAuth({
      resource,
      authorizationServers: [AS],
      requiredScopes: ["mcp:read"],
      scopes: { "tools/call erase": ["mcp:write"] },
      verify: (token) => {
        const found = TOKENS[token];
        if (!found) throw new InvalidTokenError("the access token is not valid");
        return found;
      },
      log: () => undefined,
    }),
  });
  closers.push(() => handle.close(0));
  const url = handle.url;
  const post = (token: string, body: Msg, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: `Bearer ${token}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const open = async (token: string) => {
    const res = await post(token, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: LEGACY,
        capabilities: { elicitation: {} },
        clientInfo: { name: "legacy", version: "1" },
      },
    });
    expect(res.status).toBe(200);
    return res.headers.get("mcp-session-id")!;
  };
  const inSession = (session: string) => ({
    "Mcp-Session-Id": session,
    "MCP-Protocol-Version": LEGACY,
  });
  const stream = (token: string, session: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "GET",
      headers: {
        Accept: "text/event-stream",
        Authorization: `Bearer ${token}`,
        "Mcp-Session-Id": session,
        ...headers,
      },
    });
  return { server, url, post, open, inSession, stream };
}

const callTool = (id: number, name: string): Msg => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});

const textOf = async (res: Response): Promise<string> =>
  ((await res.json()) as Msg).result.content[0].text as string;

describe("scopes from the body, on legacy sessions", () => {
  it("a read-only token with a false Mcp-Method / Mcp-Name header cannot run a write tool (403); the tool never runs", async () => {
    erased.length = 0;
    const { post, open, inSession } = await serve();
    const session = await open("alice-reader");
    for (const lie of [
      { "Mcp-Method": "tools/list" },
      { "Mcp-Method": "tools/call", "Mcp-Name": "read" },
      {},
    ]) {
      const res = await post("alice-reader", callTool(2, "erase"), {
        ...inSession(session),
        ...lie,
      });
      expect(res.status).toBe(403);
      expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
      expect(res.headers.get("www-authenticate")).toContain('scope="mcp:read mcp:write"');
    }
    expect(erased).toEqual([]);
  });

  it("without method headers a read-only token still reads (the body, not the missing header, decides)", async () => {
    const { post, open, inSession } = await serve();
    const session = await open("alice-reader");
    const res = await post("alice-reader", callTool(2, "read"), inSession(session));
    expect(res.status).toBe(200);
    expect(await textOf(res)).toBe(`read by ${AS}#alice with mcp:read`);
  });

  it("a legacy request's headers are checked against its body: a false Mcp-Name is -32020 even with every scope", async () => {
    erased.length = 0;
    const { post, open, inSession } = await serve();
    const session = await open("bob-writer");
    const res = await post("bob-writer", callTool(2, "erase"), {
      ...inSession(session),
      "Mcp-Method": "tools/call",
      "Mcp-Name": "read",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Msg).error.code).toBe(-32020);
    const lied = await post("bob-writer", callTool(3, "read"), {
      ...inSession(session),
      "Mcp-Method": "tools/list",
    });
    expect(((await lied.json()) as Msg).error.code).toBe(-32020);
    expect(erased).toEqual([]);
    // The truth passes.
    const honest = await post("bob-writer", callTool(4, "erase"), {
      ...inSession(session),
      "Mcp-Method": "tools/call",
      "Mcp-Name": "erase",
    });
    expect(await textOf(honest)).toBe(`erase by ${AS}#bob with mcp:read mcp:write`);
  });
});

describe("a legacy session belongs to the principal that opened it", () => {
  it("another user's valid token with the session id gets 404 for a request, DELETE and the GET stream; the owner's session is untouched", async () => {
    const { url, post, open, inSession, stream } = await serve();
    const session = await open("alice-reader");
    const intruders = ["bob-writer", "alice-other-app"];
    for (const intruder of intruders) {
      expect((await post(intruder, callTool(2, "read"), inSession(session))).status).toBe(404);
      expect((await stream(intruder, session)).status).toBe(404);
      const deleted = await fetch(url, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${intruder}`, "Mcp-Session-Id": session },
      });
      expect(deleted.status).toBe(404);
    }
    const res = await post("alice-reader", callTool(3, "read"), inSession(session));
    expect(await textOf(res)).toBe(`read by ${AS}#alice with mcp:read`);
  });

  it("another user cannot replay the session's events (Last-Event-ID) or take its stream from the owner", async () => {
    const { server, stream, open } = await serve();
    const session = await open("alice-reader");
    const owned = await stream("alice-reader", session);
    expect(owned.status).toBe(200);
    const reader = owned.body!.pipeThrough(new TextDecoderStream()).getReader();
    server.publish({ method: "notifications/tools/list_changed" });
    let text = "";
    while (!text.includes("\n\n")) text += (await reader.read()).value ?? "";
    // Bob tries to resume from the start and to replace Alice's stream: neither happens.
    expect((await stream("bob-writer", session, { "Last-Event-ID": "0" })).status).toBe(404);
    server.publish({ method: "notifications/tools/list_changed" });
    while (parseSse(text).length < 2) text += (await reader.read()).value ?? "";
    expect(parseSse(text)).toHaveLength(2);
    await reader.cancel();
  });

  it("another user cannot answer the session's elicitation; the owner's answer goes through", async () => {
    const { post, open, inSession } = await serve();
    const session = await open("alice-reader");
    const call = await post("alice-reader", callTool(2, "ask"), inSession(session));
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("elicitation/create")) text += (await reader.read()).value ?? "";
    const asked = parseSse(text).find((m) => m.method === "elicitation/create")!;
    const answer = { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: {} } };
    expect((await post("bob-writer", answer, inSession(session))).status).toBe(404);
    expect((await post("alice-reader", answer, inSession(session))).status).toBe(202);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      text += chunk.value;
    expect(parseSse(text).find((m) => m.id === 2)?.result.content[0].text).toBe(
      `ask by ${AS}#alice with mcp:read`,
    );
  });

  it("ctx.principal and ctx.auth reach a legacy session's handler", async () => {
    const { post, open, inSession } = await serve();
    const session = await open("bob-writer");
    const res = await post("bob-writer", callTool(2, "read"), inSession(session));
    expect(await textOf(res)).toBe(`read by ${AS}#bob with mcp:read mcp:write`);
  });
});
