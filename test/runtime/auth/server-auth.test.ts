/**
 * The generated server as an OAuth protected resource (`bearerAuth` of runtime/auth/http-auth.ts): its
 * Protected Resource Metadata, 401 and 403 challenges, a verifier that fails, the principal handed
 * to handlers and bound into `input_required` state, and no token in any answer or log line.
 */
import { createServer as createHttpServer } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  bearerAuth,
  createServer,
  InvalidTokenError,
  type BearerAuthOptions,
  type VerifiedToken,
} from "../../../generated/2026-07-28/index.js";
import { PV, CC } from "../../helpers/client-fake.js";
import { handlerOn, httpPath } from "../../helpers/http-paths.js";

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const AS = "https://auth.example.com";
const TOKENS: Record<string, VerifiedToken> = {
  "reader-token": { scopes: ["mcp:read"], subject: "alice", clientId: "app", issuer: AS },
  "writer-token": {
    scopes: ["mcp:read", "mcp:write"],
    subject: "bob",
    clientId: "app",
    issuer: AS,
  },
  "expired-token": {
    scopes: ["mcp:read", "mcp:write"],
    subject: "carol",
    issuer: AS,
    expiresAt: 1,
  },
};

async function serve(auth: Partial<BearerAuthOptions> = {}) {
  const logged: string[] = [];
  const server = createServer({
    info: { name: "protected", version: "1.0.0" },
    capabilities: { tools: {} },
    log: (m) => logged.push(m),
    handlers: {
      "tools/list": () => ({
        tools: [
          { name: "read", description: "r", inputSchema: { type: "object" } },
          { name: "erase", description: "e", inputSchema: { type: "object" } },
        ],
      }),
      "tools/call": (params, ctx) => {
        // "confirm" asks for input first; its retry carries the sealed state back.
        if (params.name === "confirm" && ctx.state === undefined)
          return ctx.inputRequired(
            {
              ok: {
                method: "elicitation/create",
                params: { message: "sure?", requestedSchema: { type: "object", properties: {} } },
              },
            },
            { by: ctx.principal },
          );
        return {
          content: [
            {
              type: "text",
              text: `${params.name} by ${String(ctx.principal)} with ${ctx.auth?.scopes.join(" ")} for ${ctx.auth?.clientId}`,
            },
          ],
        };
      },
    },
  });
  // The resource identifier is the endpoint's URL: known once the port is.
  const http = createHttpServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const listener = handlerOn(server, {
    auth: bearerAuth({
      resource: url,
      authorizationServers: [AS],
      scopesSupported: ["mcp:read", "mcp:write"],
      requiredScopes: ["mcp:read"],
      scopes: { "tools/call erase": ["mcp:write"] },
      verify: (token) => {
        if (token === "broken-verifier") throw new Error("JWKS unreachable");
        const found = TOKENS[token];
        if (!found) throw new InvalidTokenError("the access token is not valid");
        return found;
      },
      log: (m) => logged.push(m),
      ...auth,
    }),
  });
  http.on("request", listener);
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  });
  return { url, logged };
}

const meta = { [PV]: "2026-07-28", [CC]: { elicitation: {} } };
function post(
  url: string,
  method: string,
  params: Record<string, unknown>,
  token?: string,
  name?: string,
) {
  return fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(name ? { "Mcp-Name": name } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
  });
}

const challenge = (response: Response) => response.headers.get("www-authenticate") ?? "";

describe("bearerAuth", () => {
  it("publishes Protected Resource Metadata at the path-based well-known URL", async () => {
    const { url } = await serve();
    const response = await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({
      resource: url,
      authorization_servers: [AS],
      scopes_supported: ["mcp:read", "mcp:write"],
      bearer_methods_supported: ["header"],
    });
  });

  it("answers a request without a token 401 naming the metadata and the scope it needs", async () => {
    const { url } = await serve();
    const response = await post(url, "tools/list", {});
    expect(response.status).toBe(401);
    expect(challenge(response)).toBe(
      `Bearer resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:read"`,
    );
  });

  it("answers an unknown, malformed or expired token 401 invalid_token, without echoing it", async () => {
    const { url, logged } = await serve();
    for (const token of ["forged-token", "expired-token"]) {
      const response = await post(url, "tools/list", {}, token);
      expect(response.status).toBe(401);
      expect(challenge(response)).toContain('error="invalid_token"');
      const text = `${challenge(response)} ${await response.text()}`;
      expect(text).not.toContain(token);
    }
    const malformed = await fetch(url, {
      method: "POST",
      headers: { Authorization: "Basic abc", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(malformed.status).toBe(401);
    expect(challenge(malformed)).toContain('error="invalid_request"');
    expect(logged.join("\n")).not.toMatch(/forged-token|expired-token/);
  });

  it("serves a token with the required scope; 403 insufficient_scope where a tool needs more", async () => {
    const { url } = await serve();
    const listed = await post(url, "tools/list", {}, "reader-token");
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(
      2,
    );
    const read = await post(
      url,
      "tools/call",
      { name: "read", arguments: {} },
      "reader-token",
      "read",
    );
    expect(read.status).toBe(200);
    const erase = await post(
      url,
      "tools/call",
      { name: "erase", arguments: {} },
      "reader-token",
      "erase",
    );
    expect(erase.status).toBe(403);
    expect(challenge(erase)).toContain('error="insufficient_scope"');
    expect(challenge(erase)).toContain('scope="mcp:read mcp:write"');
    const written = await post(
      url,
      "tools/call",
      { name: "erase", arguments: {} },
      "writer-token",
      "erase",
    );
    expect(written.status).toBe(200);
  });

  it("cannot be talked past by a header that disagrees with the body", async () => {
    const { url } = await serve();
    // Mcp-Name says "read" (no extra scope), the body says "erase": the body's scopes are checked.
    const response = await post(
      url,
      "tools/call",
      { name: "erase", arguments: {} },
      "reader-token",
      "read",
    );
    expect(response.status).toBe(403);
    expect(challenge(response)).toContain('scope="mcp:read mcp:write"');
    // With the scopes, the transport still refuses the mismatch.
    const lied = await post(
      url,
      "tools/call",
      { name: "erase", arguments: {} },
      "writer-token",
      "read",
    );
    expect(lied.status).toBe(400);
  });

  it("checks a request that does not name its method in headers by its body", async () => {
    const { url } = await serve();
    const headerless = (name: string) =>
      fetch(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          Authorization: "Bearer reader-token",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name, arguments: {}, _meta: meta },
        }),
      });
    // The transport also wants the mirrored headers of a modern request: 400 once the scopes pass.
    expect((await headerless("read")).status).toBe(400);
    const erase = await headerless("erase");
    expect(erase.status).toBe(403);
    expect(challenge(erase)).toContain('error="insufficient_scope"');
    expect(challenge(erase)).toContain('scope="mcp:read mcp:write"');
  });

  // A connection is node:http's to close: a fetch handler has none.
  it.runIf(httpPath() === "node")(
    "does not read the body of a request it refuses: an endless upload without a token gets 401 and its connection closed",
    async () => {
      const { url } = await serve();
      const { port } = new URL(url);
      const socket = connect(Number(port), "127.0.0.1");
      let answer = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
      const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      socket.on("error", () => undefined);
      socket.write(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
      );
      // Up to 256 MiB, 64 KiB a chunk, for as long as the server keeps the connection open.
      const chunk = `10000\r\n${"x".repeat(0x10000)}\r\n`;
      let sent = 0;
      let open = true;
      void closed.then(() => (open = false));
      while (open && sent < 256 * 1024 * 1024) {
        if (!socket.write(chunk))
          await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), closed]);
        sent += 0x10000;
      }
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer.toLowerCase()).toContain("connection: close");
      expect(sent).toBeLessThan(256 * 1024 * 1024);
    },
  );

  it("answers 503 when the verifier cannot decide, logging why without the token", async () => {
    const { url, logged } = await serve();
    const response = await post(url, "tools/list", {}, "broken-verifier");
    expect(response.status).toBe(503);
    expect(logged.join("\n")).toContain("JWKS unreachable");
    expect(logged.join("\n")).not.toContain("broken-verifier");
  });
});

describe("bearerAuth: the principal", () => {
  it("reaches the handler as ctx.principal (<issuer>#<subject>), the rest of what the token said as ctx.auth", async () => {
    const { url } = await serve();
    const response = await post(
      url,
      "tools/call",
      { name: "read", arguments: {} },
      "reader-token",
      "read",
    );
    const body = (await response.json()) as { result: { content: Array<{ text: string }> } };
    expect(body.result.content[0]!.text).toBe(`read by ${AS}#alice with mcp:read for app`);
  });

  it("binds input_required state to it: alice's state does not open for bob", async () => {
    const { url } = await serve({ scopes: {} });
    const first = (await (
      await post(url, "tools/call", { name: "confirm", arguments: {} }, "reader-token", "confirm")
    ).json()) as { result: { resultType: string; requestState: string } };
    expect(first.result.resultType).toBe("input_required");
    const retry = (token: string) =>
      post(
        url,
        "tools/call",
        {
          name: "confirm",
          arguments: {},
          requestState: first.result.requestState,
          inputResponses: { ok: { action: "accept", content: {} } },
        },
        token,
        "confirm",
      );
    const asBob = (await (await retry("writer-token")).json()) as {
      error?: { code: number; message: string };
    };
    expect(asBob.error?.code).toBe(-32602);
    const asAlice = (await (await retry("reader-token")).json()) as {
      result: { content: Array<{ text: string }> };
    };
    expect(asAlice.result.content[0]!.text).toBe(`confirm by ${AS}#alice with mcp:read for app`);
  });
});
