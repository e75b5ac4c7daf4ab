/**
 * A scriptable OAuth world on one loopback port for the OAuth client tests: an MCP resource (which
 * demands bearer tokens and answers tools/list and tools/call), its Protected Resource Metadata, and
 * authorization servers (metadata, registration, an authorization endpoint that approves at once,
 * a token endpoint). Every knob a test turns is in `WorldOptions`; everything the client sent is
 * recorded in `seen`.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { results } from "./client-fake.js";

export interface AsOptions {
  /** The path the issuer has (e.g. "/tenant1"); "" for none. */
  path: string;
  /** Where its metadata is served, relative to the origin (default the RFC 8414 path insertion). */
  metadataAt?: string;
  /** Overrides the metadata's `issuer` (given the real one). */
  issuer?: (issuer: string) => string;
  /** `iss` in the redirect: the issuer, another one, absent, or the issuer with a trailing slash. */
  iss?: "correct" | "wrong" | "omit" | "normalized";
  /** `authorization_response_iss_parameter_supported` (default true). */
  issAdvertised?: boolean;
  registration?: boolean;
  /** `client_id_metadata_document_supported`. */
  cimd?: boolean;
  pkce?: boolean;
  authMethods?: string[];
  scopesSupported?: string[];
  grantTypes?: string[];
  /** The token endpoint answers this (status, body) instead of tokens. */
  tokenGarbage?: { status: number; body: string };
  expiresIn?: number;
  refreshTokens?: boolean;
  /** Credentials the registration endpoint hands out. */
  clientId?: string;
  clientSecret?: string;
}

export interface WorldOptions {
  /** Where the PRM is served (default the path-based well-known URL of /mcp). */
  prmAt?: string;
  /** Whether the 401 names the PRM (default true). */
  prmInChallenge?: boolean;
  /** Overrides the PRM's `resource` (given the server's origin). */
  resource?: (origin: string) => string;
  scopesSupported?: string[];
  /** The scope each method needs (the 401/403 challenge names it). */
  needs?: Record<string, string>;
  /** Whether challenges carry `scope` (default true when a method needs one). */
  scopeInChallenge?: boolean;
  /** Authorization servers by name; `current()` picks the one the PRM names. */
  servers?: Record<string, AsOptions>;
  current?: () => string;
  /** Every call answers 403 whatever the token, with this error (default insufficient_scope). */
  alwaysForbidden?: boolean;
  forbiddenError?: string;
}

export interface Token {
  as: string;
  scope: string[];
  expires: number;
  resource: string | null;
  clientId: string | null;
}

export interface World {
  url: string;
  mcpUrl: string;
  issuer(name: string): string;
  seen: {
    paths: string[];
    registrations: Array<{ as: string; body: Record<string, unknown> }>;
    authorizations: Array<{ as: string; query: Record<string, string> }>;
    tokenRequests: Array<{
      as: string;
      body: Record<string, string>;
      authorization: string | undefined;
    }>;
    mcp: Array<{ method: string; authorization: string | undefined }>;
  };
  tokens: Map<string, Token>;
  /** Revokes every access and refresh token. */
  revokeAll(): void;
  close(): Promise<void>;
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export async function oauthWorld(options: WorldOptions = {}): Promise<World> {
  const servers = options.servers ?? { main: { path: "" } };
  const current = options.current ?? (() => Object.keys(servers)[0]!);
  const prmAt = options.prmAt ?? "/.well-known/oauth-protected-resource/mcp";
  const seen: World["seen"] = {
    paths: [],
    registrations: [],
    authorizations: [],
    tokenRequests: [],
    mcp: [],
  };
  const tokens = new Map<string, Token>();
  const codes = new Map<
    string,
    { as: string; challenge: string; scope: string[]; resource: string | null; clientId: string }
  >();
  const refreshTokens = new Map<string, Token>();
  let origin = "";
  const issuerOf = (name: string) => `${origin}${servers[name]!.path}`;
  const published = (name: string) => servers[name]!.issuer?.(issuerOf(name)) ?? issuerOf(name);
  const resourceId = () => options.resource?.(origin) ?? `${origin}/mcp`;
  const asAt = (path: string) =>
    Object.entries(servers).find(
      ([, as]) =>
        path.startsWith(`${as.path}/as/`) ||
        path === (as.metadataAt ?? `/.well-known/oauth-authorization-server${as.path}`),
    );
  const mint = (as: string, scope: string[], resource: string | null, clientId: string | null) => {
    const token = `tok-${randomBytes(8).toString("hex")}`;
    const o = servers[as]!;
    tokens.set(token, {
      as,
      scope,
      expires: Date.now() + (o.expiresIn ?? 3600) * 1000,
      resource,
      clientId,
    });
    const answer: Record<string, unknown> = {
      access_token: token,
      token_type: "Bearer",
      expires_in: o.expiresIn ?? 3600,
      scope: scope.join(" "),
    };
    if (o.refreshTokens) {
      const refresh = `ref-${randomBytes(8).toString("hex")}`;
      refreshTokens.set(refresh, tokens.get(token)!);
      answer.refresh_token = refresh;
    }
    return answer;
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const path = url.pathname;
    seen.paths.push(path);
    const body = await read(req);
    if (path === prmAt && req.method === "GET") {
      return json(res, 200, {
        resource: resourceId(),
        authorization_servers: [issuerOf(current())],
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      });
    }
    if (path === "/mcp" && req.method === "POST") {
      const message = JSON.parse(body) as { id: number; method: string };
      const authorization = req.headers.authorization;
      seen.mcp.push({ method: message.method, authorization });
      const need = options.needs?.[message.method];
      const challenge = (error?: string) =>
        [
          "Bearer",
          [
            options.prmInChallenge === false ? null : `resource_metadata="${origin}${prmAt}"`,
            need && options.scopeInChallenge !== false ? `scope="${need}"` : null,
            error ? `error="${error}"` : null,
          ]
            .filter(Boolean)
            .join(", "),
        ].join(" ");
      const token = authorization?.startsWith("Bearer ")
        ? tokens.get(authorization.slice(7))
        : undefined;
      if (
        !token ||
        token.expires <= Date.now() ||
        token.as !== current() ||
        token.resource !== resourceId()
      )
        return json(
          res,
          401,
          { error: "invalid_token" },
          { "WWW-Authenticate": challenge(authorization ? "invalid_token" : undefined) },
        );
      if (
        options.alwaysForbidden ||
        (need && !need.split(" ").every((s) => token.scope.includes(s)))
      )
        return json(
          res,
          403,
          { error: options.forbiddenError ?? "insufficient_scope" },
          { "WWW-Authenticate": challenge(options.forbiddenError ?? "insufficient_scope") },
        );
      const result =
        message.method === "tools/list"
          ? results.tools([results.tool("echo")])
          : results.call("done");
      return json(res, 200, {
        jsonrpc: "2.0",
        id: message.id,
        result: { resultType: "complete", ...result },
      });
    }
    const found = asAt(path);
    if (!found) return json(res, 404, { error: "not_found" });
    const [name, as] = found;
    const base = `${origin}${as.path}/as`;
    if (req.method === "GET" && !path.startsWith(`${as.path}/as/`)) {
      return json(res, 200, {
        issuer: published(name),
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        ...(as.registration === false ? {} : { registration_endpoint: `${base}/register` }),
        response_types_supported: ["code"],
        grant_types_supported: as.grantTypes ?? ["authorization_code", "refresh_token"],
        ...(as.pkce === false ? {} : { code_challenge_methods_supported: ["S256"] }),
        token_endpoint_auth_methods_supported: as.authMethods ?? ["none"],
        ...(as.issAdvertised === false
          ? {}
          : { authorization_response_iss_parameter_supported: true }),
        ...(as.scopesSupported ? { scopes_supported: as.scopesSupported } : {}),
        ...(as.cimd ? { client_id_metadata_document_supported: true } : {}),
      });
    }
    if (path === `${as.path}/as/register`) {
      const registration = JSON.parse(body) as Record<string, unknown>;
      seen.registrations.push({ as: name, body: registration });
      return json(res, 201, {
        client_id: as.clientId ?? `${name}-client`,
        ...(as.clientSecret ? { client_secret: as.clientSecret } : {}),
        redirect_uris: registration.redirect_uris,
      });
    }
    if (path === `${as.path}/as/authorize`) {
      const query = Object.fromEntries(url.searchParams);
      seen.authorizations.push({ as: name, query });
      const code = `code-${randomBytes(8).toString("hex")}`;
      codes.set(code, {
        as: name,
        challenge: query.code_challenge ?? "",
        scope: (query.scope ?? "").split(" ").filter(Boolean),
        resource: query.resource ?? null,
        clientId: query.client_id ?? "",
      });
      const back = new URL(query.redirect_uri!);
      back.searchParams.set("code", code);
      if (query.state) back.searchParams.set("state", query.state);
      const iss = as.iss ?? "correct";
      if (iss === "correct") back.searchParams.set("iss", published(name));
      if (iss === "wrong") back.searchParams.set("iss", "https://evil.example.com");
      if (iss === "normalized") back.searchParams.set("iss", `${issuerOf(name)}/`);
      res.writeHead(302, { Location: back.href });
      return res.end();
    }
    if (path === `${as.path}/as/token`) {
      const form = Object.fromEntries(new URLSearchParams(body));
      seen.tokenRequests.push({ as: name, body: form, authorization: req.headers.authorization });
      if (as.tokenGarbage) {
        res.writeHead(as.tokenGarbage.status, { "Content-Type": "application/json" });
        return res.end(as.tokenGarbage.body);
      }
      if (form.grant_type === "refresh_token") {
        const previous = refreshTokens.get(form.refresh_token ?? "");
        if (!previous) return json(res, 400, { error: "invalid_grant" });
        refreshTokens.delete(form.refresh_token!);
        return json(
          res,
          200,
          mint(previous.as, previous.scope, form.resource ?? null, previous.clientId),
        );
      }
      const grant = codes.get(form.code ?? "");
      codes.delete(form.code ?? "");
      const verified =
        grant &&
        createHash("sha256")
          .update(form.code_verifier ?? "")
          .digest("base64url") === grant.challenge;
      if (!grant || !verified || grant.as !== name || grant.resource !== (form.resource ?? null))
        return json(res, 400, { error: "invalid_grant" });
      return json(res, 200, mint(name, grant.scope, grant.resource, grant.clientId));
    }
    return json(res, 404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    mcpUrl: `${origin}/mcp`,
    issuer: issuerOf,
    seen,
    tokens,
    revokeAll: () => {
      tokens.clear();
      refreshTokens.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The browser step, headless: follow the authorization endpoint's redirect without following it. */
export async function approve(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  await response.body?.cancel();
  return response.headers.get("location")!;
}
