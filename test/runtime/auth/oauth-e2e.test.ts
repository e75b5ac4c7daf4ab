/**
 * End to end against a real authorization server (`oidc-provider`, in-process on loopback): the
 * generated client registers, obtains a JWT access token with PKCE for the generated server's
 * resource, and calls a tool; the server verifies the token against the provider's JWKS
 * (`jwtVerifier`, with `jose`). Then: refresh after expiry, an expired token, a token for another
 * resource, and a token endpoint that answers garbage. (Key rotation: test/runtime/auth/jwt-verifier.test.ts.)
 */
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, httpTransport } from "../../../generated/2026-07-28/client.js";
import { bearerAuth, createServer } from "../../../generated/2026-07-28/index.js";
import {
  AuthorizationError,
  oauthClient,
} from "../../../generated/2026-07-28/runtime/auth/oauth-client.js";
import { jwtVerifier } from "../../../generated/2026-07-28/runtime/auth/jwt-verifier.js";
import { INFO, PV, CC } from "../../helpers/client-fake.js";
import { MCP_SCOPE, oidcProvider, type Oidc } from "../../helpers/oidc.js";

const REDIRECT = "http://127.0.0.1:1/callback";
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function listening(): Promise<{ http: Server; url: string }> {
  const http = createHttpServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  });
  return { http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` };
}

/** The generated server behind bearerAuth + jwtVerifier, trusting `oidc`; its tool answers who called. */
async function protectedServer(oidc: () => Oidc, now: () => number = Date.now) {
  const { http, url } = await listening();
  const logged: string[] = [];
  const server = createServer({
    info: { name: "e2e", version: "1.0.0" },
    capabilities: { tools: {} },
    log: (m) => logged.push(m),
    handlers: {
      "tools/list": () => ({
        tools: [{ name: "whoami", description: "who called", inputSchema: { type: "object" } }],
      }),
      "tools/call": (_params, ctx) => ({
        content: [{ type: "text", text: String(ctx.principal) }],
      }),
    },
  });
  let verify: ((token: string) => Promise<unknown>) | undefined;
  http.on(
    "request",
    server.httpHandler({
      auth: bearerAuth({
        resource: url,
        authorizationServers: [oidc().issuer],
        scopesSupported: [MCP_SCOPE],
        requiredScopes: [MCP_SCOPE],
        verify: (token) =>
          (verify ??= jwtVerifier({
            issuer: oidc().issuer,
            audience: url,
            jwksUri: oidc().jwksUri,
            jwksCooldownMs: 0,
            now,
          }))(token) as never,
        now,
        log: (m) => logged.push(m),
      }),
    }),
  );
  return { url, logged };
}

describe("OAuth end to end with oidc-provider", () => {
  let resources: string[] = [];
  async function provider(ttl?: number): Promise<Oidc> {
    const oidc = await oidcProvider({
      resources: () => resources,
      ...(ttl ? { accessTokenTtlSeconds: ttl } : {}),
    });
    open.push(oidc);
    return oidc;
  }

  it("registers, authorizes with PKCE, and calls a tool that sees the verified principal", async () => {
    resources = [];
    const oidc = await provider();
    const mcp = await protectedServer(() => oidc);
    resources.push(mcp.url);
    const logged: string[] = [];
    const authorization = oauthClient({
      redirectUri: REDIRECT,
      authorize: (u) => oidc.browser(u),
      log: (m) => logged.push(m),
    });
    const client = createClient({
      transport: httpTransport(mcp.url, { authorization }),
      info: INFO,
    });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["whoami"]);
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: `${oidc.issuer}#alice` }]);
    const tokens = await authorization.tokens(mcp.url);
    expect(tokens).toMatchObject({ issuer: oidc.issuer, resource: mcp.url });
    expect(tokens!.accessToken.split(".")).toHaveLength(3); // a JWT
    for (const line of [...logged, ...mcp.logged]) expect(line).not.toContain(tokens!.accessToken);
  });

  it("refreshes the access token once it has expired, and the new one is accepted", async () => {
    resources = [];
    const oidc = await provider(60);
    const mcp = await protectedServer(() => oidc);
    resources.push(mcp.url);
    let skew = 0;
    const authorization = oauthClient({
      redirectUri: REDIRECT,
      authorize: (u) => oidc.browser(u),
      now: () => Date.now() + skew,
    });
    const client = createClient({
      transport: httpTransport(mcp.url, { authorization }),
      info: INFO,
    });
    await client.listTools();
    const first = await authorization.tokens(mcp.url);
    expect(first!.refreshToken).toBeTruthy();
    skew = 61_000; // the client's clock says the token has expired
    await client.callTool({ name: "whoami", arguments: {} });
    const second = await authorization.tokens(mcp.url);
    expect(second!.accessToken).not.toBe(first!.accessToken);
    expect(second!.issuer).toBe(oidc.issuer);
  });

  it("refuses an expired token 401 invalid_token", async () => {
    resources = [];
    const oidc = await provider(60);
    let serverSkew = 0;
    const mcp = await protectedServer(
      () => oidc,
      () => Date.now() + serverSkew,
    );
    resources.push(mcp.url);
    const authorization = oauthClient({ redirectUri: REDIRECT, authorize: (u) => oidc.browser(u) });
    const client = createClient({
      transport: httpTransport(mcp.url, { authorization }),
      info: INFO,
    });
    await client.listTools();
    const expired = (await authorization.tokens(mcp.url))!.accessToken;
    serverSkew = 120_000;
    const raw = await rawCall(mcp.url, expired);
    expect(raw.status).toBe(401);
    expect(raw.headers.get("www-authenticate")).toContain('error="invalid_token"');
    serverSkew = 0;
    expect((await rawCall(mcp.url, expired)).status).toBe(200);
  });

  it("refuses a token minted for another resource", async () => {
    resources = [];
    const oidc = await provider();
    const a = await protectedServer(() => oidc);
    const b = await protectedServer(() => oidc);
    resources.push(a.url, b.url);
    const authorization = oauthClient({ redirectUri: REDIRECT, authorize: (u) => oidc.browser(u) });
    await createClient({
      transport: httpTransport(a.url, { authorization }),
      info: INFO,
    }).listTools();
    const forA = (await authorization.tokens(a.url))!.accessToken;
    expect((await rawCall(a.url, forA)).status).toBe(200);
    const atB = await rawCall(b.url, forA);
    expect(atB.status).toBe(401);
    expect(atB.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("turns a token endpoint that answers garbage into a typed error", async () => {
    resources = [];
    const oidc = await provider();
    const mcp = await protectedServer(() => oidc);
    resources.push(mcp.url);
    oidc.breakTokenEndpoint();
    const authorization = oauthClient({ redirectUri: REDIRECT, authorize: (u) => oidc.browser(u) });
    const error = await createClient({
      transport: httpTransport(mcp.url, { authorization }),
      info: INFO,
    })
      .listTools()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).reason).toBe("token_response");
  });
});

function rawCall(url: string, token: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/list",
      Authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: { [PV]: "2026-07-28", [CC]: {} } },
    }),
  });
}
