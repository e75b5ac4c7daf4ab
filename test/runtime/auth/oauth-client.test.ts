/**
 * The OAuth client (`runtime/auth/oauth-client.ts`, emitted with `--auth`) on the HTTP transport, against
 * a scriptable loopback OAuth world: discovery, registration, PKCE, `resource`, `iss`, scopes and
 * step-up, refresh, a change of authorization server, and every refusal as a typed error that
 * carries no secret.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createClient,
  httpTransport,
  TransportError,
} from "../../../generated/2026-07-28/client.js";
import {
  AuthorizationError,
  bearerChallenge,
  memoryStore,
  oauthClient,
  resourceCovers,
  type OAuthClientOptions,
} from "../../../generated/2026-07-28/runtime/auth/oauth-client.js";
import { INFO } from "../../helpers/client-fake.js";
import { approve, oauthWorld, type World, type WorldOptions } from "../../helpers/oauth-world.js";

const REDIRECT = "http://127.0.0.1:1/callback";
const worlds: World[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(options?: WorldOptions): Promise<World> {
  const w = await oauthWorld(options);
  worlds.push(w);
  return w;
}

function connect(w: World, options: Partial<OAuthClientOptions> = {}) {
  const logged: string[] = [];
  const authorize = vi.fn(approve);
  const authorization = oauthClient({
    redirectUri: REDIRECT,
    authorize,
    log: (m) => logged.push(m),
    ...options,
  });
  const client = createClient({
    transport: httpTransport(w.mcpUrl, { authorization }),
    info: INFO,
  });
  return { client, authorization, authorize, logged };
}

/** The error a promise rejects with. */
async function failure(promise: Promise<unknown>): Promise<AuthorizationError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthorizationError);
  return error as AuthorizationError;
}

describe("oauthClient: the authorization code flow", () => {
  it("registers, authorizes with PKCE S256 and the published resource, and retries with the token", async () => {
    const w = await world({ needs: { "tools/list": "mcp:read" } });
    const { client, authorize } = connect(w);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo"]);
    expect(authorize).toHaveBeenCalledTimes(1);
    const [registration] = w.seen.registrations;
    expect(registration!.body).toMatchObject({
      application_type: "native",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      response_types: ["code"],
    });
    const { query } = w.seen.authorizations[0]!;
    expect(query).toMatchObject({
      response_type: "code",
      client_id: "main-client",
      code_challenge_method: "S256",
      resource: w.mcpUrl,
      scope: "mcp:read",
      redirect_uri: REDIRECT,
    });
    expect(query.state).toBeTruthy();
    // The mock checked the verifier against the challenge and the resource against the code's.
    expect(w.seen.tokenRequests[0]!.body).toMatchObject({
      grant_type: "authorization_code",
      resource: w.mcpUrl,
      client_id: "main-client",
    });
    expect(w.seen.mcp.map((m) => m.authorization?.startsWith("Bearer tok-") ?? false)).toEqual([
      false,
      true,
    ]);
    // A second call reuses the token: no new flow.
    await client.callTool({ name: "echo", arguments: {} });
    expect(authorize).toHaveBeenCalledTimes(1);
  });

  it("runs one flow for requests refused together", async () => {
    const w = await world();
    const { client, authorize } = connect(w);
    await Promise.all([
      client.listTools(),
      client.listTools(),
      client.callTool({ name: "echo", arguments: {} }),
    ]);
    expect(authorize).toHaveBeenCalledTimes(1);
    expect(w.seen.tokenRequests).toHaveLength(1);
  });

  it("finds the metadata without a named URL: the path-based PRM URL first, then the root one", async () => {
    const w = await world({
      prmAt: "/.well-known/oauth-protected-resource",
      prmInChallenge: false,
      resource: (origin) => origin,
    });
    const { client } = connect(w);
    await client.listTools();
    const wellKnown = w.seen.paths.filter((p) =>
      p.startsWith("/.well-known/oauth-protected-resource"),
    );
    expect(wellKnown.slice(0, 2)).toEqual([
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]);
    // A resource without a path goes out exactly as published: no trailing slash added.
    expect(w.seen.authorizations[0]!.query.resource).toBe(w.url);
    expect(w.seen.tokenRequests[0]!.body.resource).toBe(w.url);
  });

  it("tries RFC 8414 path insertion, then OIDC insertion, then OIDC appending for an issuer with a path", async () => {
    const w = await world({
      servers: { t: { path: "/tenant1", metadataAt: "/tenant1/.well-known/openid-configuration" } },
    });
    const { client } = connect(w);
    await client.listTools();
    expect(
      w.seen.paths.filter(
        (p) => p.includes("openid-configuration") || p.includes("oauth-authorization-server"),
      ),
    ).toEqual([
      "/.well-known/oauth-authorization-server/tenant1",
      "/.well-known/openid-configuration/tenant1",
      "/tenant1/.well-known/openid-configuration",
    ]);
  });

  it("asks for the challenge's scope, else every scopes_supported, else none; offline_access only where offered", async () => {
    const fromSupported = await world({
      scopesSupported: ["a", "b"],
      servers: { main: { path: "", scopesSupported: ["a", "b", "offline_access"] } },
    });
    await connect(fromSupported).client.listTools();
    expect(fromSupported.seen.authorizations[0]!.query.scope).toBe("a b offline_access");
    expect(fromSupported.seen.registrations[0]!.body.grant_types).toEqual([
      "authorization_code",
      "refresh_token",
    ]);

    const none = await world({ servers: { main: { path: "", scopesSupported: ["x"] } } });
    await connect(none).client.listTools();
    expect(none.seen.authorizations[0]!.query).not.toHaveProperty("scope");

    const noRefreshGrant = await world({
      servers: {
        main: { path: "", scopesSupported: ["offline_access"], grantTypes: ["authorization_code"] },
      },
    });
    await connect(noRefreshGrant).client.listTools();
    expect(noRefreshGrant.seen.authorizations[0]!.query).not.toHaveProperty("scope");
  });

  it("steps up on 403 insufficient_scope with the union of granted and challenged scopes", async () => {
    const w = await world({ needs: { "tools/list": "mcp:read", "tools/call": "mcp:write" } });
    const { client, authorize } = connect(w);
    await client.listTools();
    await client.callTool({ name: "echo", arguments: {} });
    expect(authorize).toHaveBeenCalledTimes(2);
    expect(w.seen.authorizations.map((a) => a.query.scope)).toEqual([
      "mcp:read",
      "mcp:read mcp:write",
    ]);
    // The widened token still lists tools without another flow.
    await client.listTools();
    expect(authorize).toHaveBeenCalledTimes(2);
  });

  it("gives up after three authorizations when the server keeps answering 403", async () => {
    const w = await world({ alwaysForbidden: true, needs: { "tools/list": "mcp:admin" } });
    const { client, authorize } = connect(w);
    const error = await failure(client.listTools());
    expect(error.reason).toBe("insufficient_scope");
    expect(authorize).toHaveBeenCalledTimes(3);
    expect(w.seen.mcp).toHaveLength(4);
  });

  it("hands a 403 for anything but scope to the caller as it is, without a new authorization", async () => {
    const w = await world({ alwaysForbidden: true, forbiddenError: "access_denied" });
    const { client, authorize } = connect(w);
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).status).toBe(403);
    expect(authorize).toHaveBeenCalledTimes(1); // the first 401 only
  });

  it("refreshes an expired access token with the refresh token, sending the resource again", async () => {
    let now = 1_000_000;
    const w = await world({
      servers: {
        main: { path: "", refreshTokens: true, expiresIn: 60, scopesSupported: ["offline_access"] },
      },
    });
    const { client, authorize, authorization } = connect(w, { now: () => now });
    await client.listTools();
    const first = await authorization.tokens(w.mcpUrl);
    now += 61_000;
    await client.listTools();
    expect(authorize).toHaveBeenCalledTimes(1);
    const refresh = w.seen.tokenRequests.find((r) => r.body.grant_type === "refresh_token");
    expect(refresh?.body).toMatchObject({ refresh_token: first!.refreshToken, resource: w.mcpUrl });
    expect((await authorization.tokens(w.mcpUrl))!.accessToken).not.toBe(first!.accessToken);
  });

  it("refreshes on a 401 (a revoked token), and authorizes again when the refresh is refused", async () => {
    const w = await world({
      servers: { main: { path: "", refreshTokens: true, scopesSupported: ["offline_access"] } },
    });
    const { client, authorize } = connect(w);
    await client.listTools();
    w.tokens.clear();
    await client.listTools();
    expect(authorize).toHaveBeenCalledTimes(1);
    expect(w.seen.tokenRequests.map((r) => r.body.grant_type)).toEqual([
      "authorization_code",
      "refresh_token",
    ]);
    w.revokeAll();
    await client.callTool({ name: "echo", arguments: {} });
    expect(authorize).toHaveBeenCalledTimes(2);
    expect(w.seen.tokenRequests.map((r) => r.body.grant_type)).toEqual([
      "authorization_code",
      "refresh_token",
      "refresh_token",
      "authorization_code",
    ]);
  });

  it("registers again when the resource moves to another authorization server, never reusing the old client", async () => {
    let active = "one";
    const w = await world({
      servers: { one: { path: "/one" }, two: { path: "/two" } },
      current: () => active,
    });
    const store = memoryStore();
    const { client } = connect(w, { store });
    await client.listTools();
    active = "two";
    await client.callTool({ name: "echo", arguments: {} });
    expect(w.seen.registrations.map((r) => r.as)).toEqual(["one", "two"]);
    expect(
      w.seen.authorizations.filter((a) => a.as === "two").map((a) => a.query.client_id),
    ).toEqual(["two-client"]);
    expect(await store.client(w.issuer("one"))).toMatchObject({ clientId: "one-client" });
    expect(await store.client(w.issuer("two"))).toMatchObject({ clientId: "two-client" });
  });

  it("uses pre-registered credentials with the advertised client_secret_basic, and only at their issuer", async () => {
    const w = await world({
      servers: { main: { path: "", registration: false, authMethods: ["client_secret_basic"] } },
    });
    const { client, logged } = connect(w, {
      clients: [{ issuer: "placeholder", clientId: "x", clientSecret: "y" }],
    });
    // Credentials for another issuer are never used: with no registration endpoint, a typed refusal.
    const error = await failure(client.listTools());
    expect(error.reason).toBe("registration");
    expect(w.seen.tokenRequests).toHaveLength(0);
    const ok = connect(w, {
      clients: [
        {
          issuer: w.issuer("main"),
          clientId: "pre-registered.client",
          clientSecret: "s3cret-(value)",
        },
      ],
    });
    await ok.client.listTools();
    const basic = w.seen.tokenRequests[0]!.authorization!;
    expect(Buffer.from(basic.slice(6), "base64").toString()).toBe(
      "pre-registered.client:s3cret-%28value%29",
    );
    expect(w.seen.tokenRequests[0]!.body).not.toHaveProperty("client_secret");
    expect([...logged, ...ok.logged].join("\n")).not.toContain("s3cret");
  });

  it("sends client_secret_post where that is the advertised method", async () => {
    const w = await world({
      servers: {
        main: { path: "", authMethods: ["client_secret_post"], clientSecret: "post-secret" },
      },
    });
    await connect(w).client.listTools();
    expect(w.seen.registrations[0]!.body.token_endpoint_auth_method).toBe("client_secret_post");
    expect(w.seen.tokenRequests[0]!.body).toMatchObject({
      client_id: "main-client",
      client_secret: "post-secret",
    });
    expect(w.seen.tokenRequests[0]!.authorization).toBeUndefined();
  });

  it("uses the client metadata document URL as client_id where the server supports it", async () => {
    const w = await world();
    // The world does not advertise support: registration is used and the URL never sent.
    const { client } = connect(w, { clientMetadataUrl: "https://client.example/metadata.json" });
    await client.listTools();
    expect(w.seen.registrations).toHaveLength(1);
    expect(w.seen.authorizations[0]!.query.client_id).toBe("main-client");
    const supported = await world({ servers: { main: { path: "", cimd: true } } });
    await connect(supported, {
      clientMetadataUrl: "https://client.example/metadata.json",
    }).client.listTools();
    expect(supported.seen.registrations).toHaveLength(0);
    expect(supported.seen.authorizations[0]!.query.client_id).toBe(
      "https://client.example/metadata.json",
    );
    expect(supported.seen.tokenRequests[0]!.body.client_id).toBe(
      "https://client.example/metadata.json",
    );
  });
});

describe("oauthClient: refusals are typed errors and nothing reaches the token endpoint", () => {
  it("refuses Protected Resource Metadata for another resource before any authorization", async () => {
    const w = await world({ resource: () => "https://evil.example.com/mcp" });
    const { client, authorize } = connect(w);
    const error = await failure(client.listTools());
    expect(error.reason).toBe("resource_mismatch");
    expect(authorize).not.toHaveBeenCalled();
    expect(w.seen.registrations).toHaveLength(0);
  });

  it("refuses authorization server metadata whose issuer differs, using none of its endpoints", async () => {
    const w = await world({
      servers: { main: { path: "", issuer: () => "https://attacker.example.com" } },
    });
    const { client, authorize } = connect(w);
    expect((await failure(client.listTools())).reason).toBe("issuer_mismatch");
    expect(authorize).not.toHaveBeenCalled();
    expect(w.seen.registrations).toHaveLength(0);
  });

  it("refuses metadata whose issuer only matches after normalization (a trailing slash)", async () => {
    const w = await world({ servers: { main: { path: "", issuer: (issuer) => `${issuer}/` } } });
    expect((await failure(connect(w).client.listTools())).reason).toBe("issuer_mismatch");
    expect(w.seen.registrations).toHaveLength(0);
  });

  it.each([
    ["a wrong iss", { iss: "wrong" as const }],
    ["a missing iss where it is advertised", { iss: "omit" as const }],
    ["an iss that matches only after normalization", { iss: "normalized" as const }],
    ["an unadvertised but wrong iss", { iss: "wrong" as const, issAdvertised: false }],
  ])("rejects a redirect with %s", async (_, as) => {
    const w = await world({ servers: { main: { path: "", ...as } } });
    const { client } = connect(w);
    const error = await failure(client.listTools());
    expect(error.reason).toBe("authorization_response");
    expect(w.seen.tokenRequests).toHaveLength(0);
    expect(error.message).not.toMatch(/code-[0-9a-f]/);
  });

  it("accepts a redirect without iss where the server does not advertise it", async () => {
    const w = await world({ servers: { main: { path: "", iss: "omit", issAdvertised: false } } });
    await connect(w).client.listTools();
    expect(w.seen.tokenRequests).toHaveLength(1);
  });

  it("refuses an authorization server without PKCE S256", async () => {
    const w = await world({ servers: { main: { path: "", pkce: false } } });
    expect((await failure(connect(w).client.listTools())).reason).toBe("pkce_unsupported");
    expect(w.seen.authorizations).toHaveLength(0);
  });

  it.each([
    ["HTML", { status: 200, body: "<html>oops</html>" }],
    ["JSON without a token", { status: 200, body: '{"token_type":"Bearer"}' }],
    ["an OAuth error", { status: 400, body: '{"error":"invalid_grant","error_description":"no"}' }],
  ])(
    "turns a token endpoint answering %s into a typed error without the code or secret",
    async (_, garbage) => {
      const w = await world({
        servers: {
          main: {
            path: "",
            tokenGarbage: garbage,
            authMethods: ["client_secret_post"],
            clientSecret: "do-not-leak",
          },
        },
      });
      const { client, logged } = connect(w);
      const error = await failure(client.listTools());
      expect(error.reason).toBe("token_response");
      const code = w.seen.tokenRequests[0]!.body.code!;
      for (const text of [error.message, String(error.stack), ...logged]) {
        expect(text).not.toContain(code);
        expect(text).not.toContain("do-not-leak");
      }
    },
  );

  it("refuses plain-HTTP endpoints off loopback", async () => {
    const w = await world();
    const { client } = connect(w, {
      fetch: async (input, init) => {
        // The PRM names an authorization server on a non-loopback plain-HTTP origin.
        const answer = await fetch(input, init);
        if (String(input).includes("oauth-protected-resource"))
          return new Response(
            JSON.stringify({
              resource: w.mcpUrl,
              authorization_servers: ["http://auth.example.com"],
            }),
            { headers: { "Content-Type": "application/json" } },
          );
        return answer;
      },
    });
    expect((await failure(client.listTools())).reason).toBe("insecure_url");
  });
});

describe("bearerChallenge and resourceCovers", () => {
  it("reads the Bearer challenge's parameters, quoted or not, among other schemes", () => {
    expect(
      bearerChallenge(
        'Bearer resource_metadata="https://x/.well-known/a", scope="a b", error=insufficient_scope',
      ),
    ).toEqual({
      resource_metadata: "https://x/.well-known/a",
      scope: "a b",
      error: "insufficient_scope",
    });
    expect(bearerChallenge('Basic realm="r", Bearer scope="s \\"q\\""')).toEqual({
      scope: 's "q"',
    });
    expect(bearerChallenge(null)).toEqual({});
    expect(bearerChallenge("Basic realm=x")).toEqual({});
  });

  it("matches a resource that is the server URL or a path prefix of it on the same origin", () => {
    expect(resourceCovers("http://h:1/mcp", "http://h:1/mcp")).toBe(true);
    expect(resourceCovers("http://h:1", "http://h:1/mcp")).toBe(true);
    expect(resourceCovers("http://h:1/", "http://h:1/mcp")).toBe(true);
    expect(resourceCovers("http://h:1/m", "http://h:1/mcp")).toBe(false);
    expect(resourceCovers("https://h:1/mcp", "http://h:1/mcp")).toBe(false);
    expect(resourceCovers("https://evil.example.com/mcp", "http://h:1/mcp")).toBe(false);
    expect(resourceCovers("not a url", "http://h:1/mcp")).toBe(false);
  });
});
