/**
 * OAuth 2.1 authorization for the HTTP client transport (MCP's authorization spec): on a 401 or a
 * 403 `insufficient_scope` it discovers the server's Protected Resource Metadata (RFC 9728) and its
 * authorization server's metadata (RFC 8414, OpenID Connect discovery), identifies the client
 * (stored or pre-registered credentials, a Client ID Metadata Document, or Dynamic Client
 * Registration), runs the authorization code flow with PKCE and the `resource` indicator (RFC 8707),
 * checks the redirect's `iss` (RFC 9207), and keeps and refreshes the tokens.
 *
 * The OAuth mechanics (PKCE, registration, the token endpoint, response validation) are
 * `oauth4webapi`'s; this module decides what to ask for and where. Emitted only with `--auth`: it is
 * the one module of the client that has a dependency. Revision-independent.
 */
import * as oauth from "oauth4webapi";
import type { HttpAuthorization, HttpRefusal } from "../client/http.js";

type Awaitable<T> = T | Promise<T>;

/** Client credentials, always bound to the authorization server (`issuer`) that issued them. */
export interface OAuthClientCredentials {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** Default: the best the authorization server advertises for a client with (or without) a secret. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
}

/** The tokens obtained for one MCP server. */
export interface OAuthTokens {
  /** The authorization server that issued them. */
  issuer: string;
  /** The `resource` they were requested for, as the server's metadata published it. */
  resource: string;
  accessToken: string;
  refreshToken?: string;
  /** Milliseconds since the epoch. */
  expiresAt?: number;
  /** The granted scope (or, when the server did not say, the requested one). */
  scope?: string;
}

/**
 * Where client credentials and tokens live: credentials by issuer, tokens by MCP server URL. The
 * default keeps them in memory; a host persists them (e.g. in the OS keychain).
 */
export interface OAuthStore {
  client(issuer: string): Awaitable<OAuthClientCredentials | undefined>;
  saveClient(credentials: OAuthClientCredentials): Awaitable<void>;
  tokens(serverUrl: string): Awaitable<OAuthTokens | undefined>;
  saveTokens(serverUrl: string, tokens: OAuthTokens | undefined): Awaitable<void>;
}

export function memoryStore(): OAuthStore {
  const clients = new Map<string, OAuthClientCredentials>();
  const tokens = new Map<string, OAuthTokens>();
  return {
    client: (issuer) => clients.get(issuer),
    saveClient: (credentials) => void clients.set(credentials.issuer, credentials),
    tokens: (serverUrl) => tokens.get(serverUrl),
    saveTokens: (serverUrl, value) =>
      void (value === undefined ? tokens.delete(serverUrl) : tokens.set(serverUrl, value)),
  };
}

export interface OAuthClientOptions {
  /** The redirect URI the authorization server sends the user back to. */
  redirectUri: string;
  /**
   * The browser step: show the user `authorizationUrl` and resolve with the URL the authorization
   * server redirected to (carrying `code`, `state` and `iss`).
   */
  authorize(authorizationUrl: URL, context: { signal: AbortSignal }): Promise<string | URL>;
  /** Pre-registered credentials, each used only with the authorization server that issued it. */
  clients?: readonly OAuthClientCredentials[];
  /** This client's metadata document URL (HTTPS), used as `client_id` where the server supports it. */
  clientMetadataUrl?: string;
  /** Dynamic Client Registration: `native` (default; loopback or custom-scheme redirects) or `web`. */
  applicationType?: "native" | "web";
  /** More client metadata for Dynamic Client Registration (`client_name`, `logo_uri`, …). */
  clientMetadata?: Record<string, unknown>;
  /** Ask for `offline_access` and refresh tokens where the authorization server offers them (default true). */
  offlineAccess?: boolean;
  /** Authorization flows for one request before it fails (default 3). */
  maxAttempts?: number;
  store?: OAuthStore;
  fetch?: typeof fetch;
  /**
   * Largest answer read from a metadata, registration or token endpoint, in bytes; default 1 MiB
   * (such documents are a few kilobytes). A larger one is refused as soon as it gets there.
   */
  maxResponseBytes?: number;
  /** Plain-HTTP endpoints off loopback (default false: only localhost, 127.0.0.1 and [::1] may be http). */
  allowInsecureRequests?: boolean;
  /** Progress messages; never given a token, a secret or a code. */
  log?: (message: string) => void;
  /** The clock, in milliseconds (default `Date.now`). */
  now?: () => number;
}

/** Why authorization failed; each a step a host can explain to its user. */
export type AuthorizationFailure =
  | "resource_metadata" // no usable Protected Resource Metadata
  | "resource_mismatch" // the metadata names another resource than the server
  | "server_metadata" // no usable authorization server metadata
  | "issuer_mismatch" // the metadata's issuer is not the authorization server asked
  | "pkce_unsupported" // the authorization server does not advertise PKCE S256
  | "registration" // the client could not be identified or registered
  | "authorization_response" // the redirect was refused (state, iss, or an error from the server)
  | "token_response" // the token endpoint's answer was an error or not a valid token response
  | "insufficient_scope" // the server kept refusing for scope after the allowed attempts
  | "unauthorized" // the server kept refusing the tokens after the allowed attempts
  | "insecure_url"; // an endpoint is plain HTTP off loopback

/** A failed authorization. Messages name steps and URLs, never tokens, secrets or codes. */
export class AuthorizationError extends Error {
  override readonly name = "AuthorizationError";
  constructor(
    readonly reason: AuthorizationFailure,
    message: string,
    /** The authorization server's `error` code, or oauth4webapi's code for the check that failed. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** An `HttpAuthorization` for `httpTransport({ authorization })` that runs OAuth 2.1 as MCP specifies it. */
export function oauthClient(options: OAuthClientOptions): HttpAuthorization & {
  /** The stored tokens for a server URL, if any. */
  tokens(serverUrl: string): Promise<OAuthTokens | undefined>;
} {
  return new OAuthClient(options);
}

/** A challenge's auth-params (`resource_metadata`, `scope`, `error`), from the `Bearer` challenge. */
export function bearerChallenge(header: string | null): Record<string, string> {
  const params: Record<string, string> = {};
  if (!header) return params;
  const start = header.search(/(^|[\s,])Bearer(\s|$)/i);
  if (start < 0) return params;
  const rest = header.slice(start).replace(/^[\s,]*Bearer/i, "");
  // auth-param = token BWS "=" BWS ( token / quoted-string ); a new scheme ends the challenge
  const param = /^[\s,]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^\s,]*)/;
  let at = rest;
  for (let match = param.exec(at); match; match = param.exec(at)) {
    const name = match[1]!.toLowerCase();
    const value = match[3] !== undefined ? match[3].replace(/\\(.)/g, "$1") : match[2]!;
    if (!(name in params)) params[name] = value;
    at = at.slice(match[0].length);
  }
  return params;
}

/** Whether the metadata's `resource` identifies `serverUrl`: same origin, and a path prefix of it on a segment boundary. */
export function resourceCovers(resource: string, serverUrl: string): boolean {
  let published: URL;
  let server: URL;
  try {
    published = new URL(resource);
    server = new URL(serverUrl);
  } catch {
    return false;
  }
  if (published.origin !== server.origin || published.search || published.hash) return false;
  const prefix = published.pathname.replace(/\/+$/, "");
  const path = server.pathname.replace(/\/+$/, "");
  return path === prefix || path.startsWith(`${prefix}/`);
}

interface ResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** An answer larger than `maxResponseBytes`. */
class ResponseTooLargeError extends Error {
  constructor(max: number) {
    super(`answered more than ${max} bytes`);
    this.name = "ResponseTooLargeError";
  }
}

/**
 * `fetch` whose answers can be read up to `max` bytes: a larger declared length is refused before
 * the body is read, and a body that grows past it fails its reader there, which stops the download
 * (the rest is never read, let alone held).
 */
function capped(inner: typeof fetch, max: number): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (Number(response.headers.get("content-length")) > max) {
      await response.body?.cancel().catch(() => {});
      throw new ResponseTooLargeError(max);
    }
    if (!response.body) return response;
    let seen = 0;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > max) controller.error(new ResponseTooLargeError(max));
          else controller.enqueue(chunk);
        },
      }),
    );
    const limited = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(limited, "url", { value: response.url });
    return limited;
  };
}

/**
 * `client_secret_basic` with the form encoding of RFC 6749 (2.3.1) as `URLSearchParams` applies it.
 * oauth4webapi's own also escapes `-`, `_`, `.`, `!`, `~`, `*`, `'`, `(` and `)`, which authorization
 * servers that skip the decoding step (common) then fail to match against the registered client_id.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}

class OAuthClient implements HttpAuthorization {
  private readonly store: OAuthStore;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  /** Validated authorization server metadata by issuer (discovered once per process). */
  private readonly servers = new Map<string, oauth.AuthorizationServer>();
  /** One flow at a time per server URL: concurrent refusals wait for the flow in progress. */
  private readonly flows = new Map<string, Promise<void>>();

  constructor(private readonly options: OAuthClientOptions) {
    this.store = options.store ?? memoryStore();
    this.fetch = capped(
      options.fetch ?? ((input, init) => fetch(input, init)),
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    );
    this.now = options.now ?? Date.now;
  }

  private log(message: string): void {
    this.options.log?.(`mcp oauth: ${message}`);
  }

  async tokens(serverUrl: string): Promise<OAuthTokens | undefined> {
    return this.store.tokens(serverUrl);
  }

  async header(url: string, signal: AbortSignal): Promise<string | undefined> {
    // A flow in progress for this server decides the header; its failure is its own request's to report.
    await this.flows.get(url)?.catch(() => {});
    let tokens = await this.store.tokens(url);
    if (tokens?.expiresAt !== undefined && tokens.expiresAt <= this.now() && tokens.refreshToken) {
      const as = this.servers.get(tokens.issuer);
      if (as) tokens = (await this.refresh(url, as, tokens, signal)) ?? tokens;
    }
    return tokens ? `Bearer ${tokens.accessToken}` : undefined;
  }

  async refused(refusal: HttpRefusal, signal: AbortSignal): Promise<boolean> {
    const challenge = bearerChallenge(refusal.challenge);
    // A 403 for anything but scope is not ours to fix.
    if (refusal.status === 403 && challenge.error !== "insufficient_scope") return false;
    const limit = this.options.maxAttempts ?? 3;
    if (refusal.attempt > limit) {
      throw refusal.status === 403
        ? new AuthorizationError(
            "insufficient_scope",
            `${refusal.url} still refuses for insufficient scope after ${limit} authorizations${challenge.scope ? ` (it asks for "${challenge.scope}")` : ""}`,
            "insufficient_scope",
          )
        : new AuthorizationError(
            "unauthorized",
            `${refusal.url} still refuses the access token after ${limit} authorizations`,
            challenge.error,
          );
    }
    const pending = this.flows.get(refusal.url);
    if (pending) {
      await pending;
      return true;
    }
    // Requests sent together are refused together: one flow serves them all, and a request refused
    // with the tokens that flow replaced is simply sent again with the new ones.
    const stored = await this.store.tokens(refusal.url);
    if (stored && `Bearer ${stored.accessToken}` !== refusal.sent) return true;
    const flow = this.authorize(refusal.url, refusal.status, challenge, signal);
    this.flows.set(refusal.url, flow);
    try {
      await flow;
    } finally {
      this.flows.delete(refusal.url);
    }
    return true;
  }

  /** Obtains new tokens for `url`: by refresh where that can work, else by the authorization code flow. */
  private async authorize(
    url: string,
    status: number,
    challenge: Record<string, string>,
    signal: AbortSignal,
  ): Promise<void> {
    const current = await this.store.tokens(url);
    const prm = await this.resourceMetadata(url, challenge.resource_metadata, signal);
    const issuer = prm.authorization_servers[0]!;
    const as = await this.serverMetadata(issuer, signal);
    if (status === 401 && current?.refreshToken && current.issuer === as.issuer) {
      if (await this.refresh(url, as, current, signal)) return;
    }
    const scopes = new Set<string>();
    const add = (scope: string | undefined) => {
      for (const s of (scope ?? "").split(" ")) if (s) scopes.add(s);
    };
    if (status === 403) {
      // Step-up: keep what was granted, add what the challenge asks for.
      if (current?.issuer === as.issuer) add(current.scope);
      add(challenge.scope);
    } else if (challenge.scope !== undefined) add(challenge.scope);
    else add(prm.scopes_supported?.join(" "));
    if (this.offersRefresh(as)) scopes.add("offline_access");
    await this.codeFlow(url, prm, as, [...scopes].join(" "), signal);
  }

  private offersRefresh(as: oauth.AuthorizationServer): boolean {
    return (
      this.options.offlineAccess !== false &&
      (as.scopes_supported?.includes("offline_access") ?? false) &&
      (as.grant_types_supported?.includes("refresh_token") ?? false)
    );
  }

  /** RFC 9728: the URL the challenge names, else the path-based then the root well-known URL. */
  private async resourceMetadata(
    serverUrl: string,
    named: string | undefined,
    signal: AbortSignal,
  ): Promise<ResourceMetadata> {
    const server = new URL(serverUrl);
    const path = server.pathname.replace(/\/+$/, "");
    const candidates = named
      ? [named]
      : [
          ...(path ? [`${server.origin}/.well-known/oauth-protected-resource${path}`] : []),
          `${server.origin}/.well-known/oauth-protected-resource`,
        ];
    for (const candidate of candidates) {
      const response = await this.get(candidate, signal, "resource_metadata");
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        continue;
      }
      const body = await this.json(response, candidate, "resource_metadata");
      const servers = body.authorization_servers;
      if (
        typeof body.resource !== "string" ||
        !Array.isArray(servers) ||
        servers.length === 0 ||
        !servers.every((s): s is string => typeof s === "string")
      ) {
        throw new AuthorizationError(
          "resource_metadata",
          `${candidate} is not Protected Resource Metadata with a resource and authorization servers`,
        );
      }
      if (!resourceCovers(body.resource, serverUrl)) {
        throw new AuthorizationError(
          "resource_mismatch",
          `${candidate} describes the resource ${body.resource}, not ${serverUrl}`,
        );
      }
      const scopes = body.scopes_supported;
      return {
        resource: body.resource,
        authorization_servers: servers,
        ...(Array.isArray(scopes)
          ? { scopes_supported: scopes.filter((s) => typeof s === "string") }
          : {}),
      };
    }
    throw new AuthorizationError(
      "resource_metadata",
      `no Protected Resource Metadata for ${serverUrl} (tried ${candidates.join(", ")})`,
    );
  }

  /** RFC 8414 and OpenID Connect discovery, path insertion before path appending; the issuer must match exactly. */
  private async serverMetadata(
    issuer: string,
    signal: AbortSignal,
  ): Promise<oauth.AuthorizationServer> {
    const known = this.servers.get(issuer);
    if (known) return known;
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      throw new AuthorizationError(
        "server_metadata",
        `the authorization server ${issuer} is not a URL`,
      );
    }
    const path = url.pathname.replace(/\/+$/, "");
    const candidates = path
      ? [
          `${url.origin}/.well-known/oauth-authorization-server${path}`,
          `${url.origin}/.well-known/openid-configuration${path}`,
          `${url.origin}${path}/.well-known/openid-configuration`,
        ]
      : [
          `${url.origin}/.well-known/oauth-authorization-server`,
          `${url.origin}/.well-known/openid-configuration`,
        ];
    for (const candidate of candidates) {
      const response = await this.get(candidate, signal, "server_metadata");
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        continue;
      }
      let as: oauth.AuthorizationServer;
      try {
        as = await oauth.processDiscoveryResponse(url, response);
      } catch (error) {
        if (
          error instanceof oauth.OperationProcessingError &&
          error.code === oauth.JSON_ATTRIBUTE_COMPARISON
        )
          throw new AuthorizationError(
            "issuer_mismatch",
            `${candidate} names another issuer than ${issuer}`,
            error.code,
          );
        throw this.wrap("server_metadata", `${candidate}`, error);
      }
      // oauth4webapi compares normalized URLs; the issuer must be identical.
      if (as.issuer !== issuer)
        throw new AuthorizationError(
          "issuer_mismatch",
          `${candidate} names the issuer ${as.issuer}, not ${issuer}`,
        );
      if (!as.code_challenge_methods_supported?.includes("S256"))
        throw new AuthorizationError(
          "pkce_unsupported",
          `${issuer} does not advertise PKCE with S256`,
        );
      this.servers.set(issuer, as);
      return as;
    }
    throw new AuthorizationError(
      "server_metadata",
      `no authorization server metadata for ${issuer} (tried ${candidates.join(", ")})`,
    );
  }

  /** Stored credentials, pre-registered ones, a metadata document URL, or a new registration. */
  private async identify(
    as: oauth.AuthorizationServer,
    signal: AbortSignal,
  ): Promise<OAuthClientCredentials> {
    const stored = await this.store.client(as.issuer);
    if (stored) return stored;
    const given = this.options.clients?.find((c) => c.issuer === as.issuer);
    if (given) return given;
    if (as.client_id_metadata_document_supported === true && this.options.clientMetadataUrl)
      return {
        issuer: as.issuer,
        clientId: this.options.clientMetadataUrl,
        tokenEndpointAuthMethod: "none",
      };
    if (!as.registration_endpoint) {
      throw new AuthorizationError(
        "registration",
        `${as.issuer} offers no registration endpoint and no credentials for it were given`,
      );
    }
    const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
    const method = (["none", "client_secret_basic", "client_secret_post"] as const).find((m) =>
      supported.includes(m),
    );
    if (!method)
      throw new AuthorizationError(
        "registration",
        `${as.issuer} supports none of none, client_secret_basic, client_secret_post`,
      );
    const metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>> = {
      redirect_uris: [this.options.redirectUri],
      application_type: this.options.applicationType ?? "native",
      grant_types: [
        "authorization_code",
        ...(this.offersRefresh(as) || as.grant_types_supported?.includes("refresh_token")
          ? ["refresh_token"]
          : []),
      ],
      response_types: ["code"],
      token_endpoint_auth_method: method,
      ...this.options.clientMetadata,
    };
    let response: Response;
    try {
      response = await oauth.dynamicClientRegistrationRequest(
        as,
        metadata,
        this.requestOptions(as.registration_endpoint, signal),
      );
    } catch (error) {
      throw this.wrap("registration", `registering at ${as.registration_endpoint}`, error);
    }
    // Read here rather than by processDynamicClientRegistrationResponse, which also demands
    // `client_secret_expires_at` with a secret: servers commonly leave it out, and nothing here uses it.
    if (response.status !== 201 && response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      throw new AuthorizationError(
        "registration",
        `registering at ${as.registration_endpoint}: HTTP ${response.status}`,
      );
    }
    const registered = await this.json(response, as.registration_endpoint, "registration");
    if (typeof registered.client_id !== "string" || registered.client_id === "")
      throw new AuthorizationError(
        "registration",
        `registering at ${as.registration_endpoint}: the answer has no client_id`,
      );
    const credentials: OAuthClientCredentials = {
      issuer: as.issuer,
      clientId: registered.client_id,
    };
    if (typeof registered.client_secret === "string")
      credentials.clientSecret = registered.client_secret;
    const registeredMethod = registered.token_endpoint_auth_method;
    if (
      registeredMethod === "none" ||
      registeredMethod === "client_secret_basic" ||
      registeredMethod === "client_secret_post"
    )
      credentials.tokenEndpointAuthMethod = registeredMethod;
    await this.store.saveClient(credentials);
    this.log(`registered with ${as.issuer}`);
    return credentials;
  }

  /** The token endpoint authentication the credentials and the server agree on. */
  private clientAuth(
    as: oauth.AuthorizationServer,
    credentials: OAuthClientCredentials,
  ): oauth.ClientAuth {
    const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
    const secret = credentials.clientSecret;
    const method =
      credentials.tokenEndpointAuthMethod ??
      (secret === undefined
        ? "none"
        : supported.includes("client_secret_post") && !supported.includes("client_secret_basic")
          ? "client_secret_post"
          : "client_secret_basic");
    if (method === "none" || secret === undefined) return oauth.None();
    return method === "client_secret_post"
      ? oauth.ClientSecretPost(secret)
      : clientSecretBasic(secret);
  }

  /** The authorization code flow with PKCE S256, `state`, the `resource` indicator, and `iss` checked. */
  private async codeFlow(
    serverUrl: string,
    prm: ResourceMetadata,
    as: oauth.AuthorizationServer,
    scope: string,
    signal: AbortSignal,
  ): Promise<void> {
    if (!as.authorization_endpoint || !as.token_endpoint)
      throw new AuthorizationError(
        "server_metadata",
        `${as.issuer} publishes no authorization or token endpoint`,
      );
    const credentials = await this.identify(as, signal);
    const client: oauth.Client = { client_id: credentials.clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint);
    this.checkProtocol(url);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", credentials.clientId);
    url.searchParams.set("redirect_uri", this.options.redirectUri);
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set("code_challenge_method", "S256");
    url.searchParams.set("state", state);
    url.searchParams.set("resource", prm.resource);
    if (scope) url.searchParams.set("scope", scope);
    this.log(
      `authorizing at ${as.issuer} for ${prm.resource}${scope ? ` (scope "${scope}")` : ""}`,
    );
    const redirect = await this.options.authorize(url, { signal });
    let callback: URLSearchParams;
    try {
      callback = oauth.validateAuthResponse(as, client, new URL(String(redirect)), state);
    } catch (error) {
      throw this.wrap("authorization_response", `the redirect from ${as.issuer}`, error);
    }
    let answer: oauth.TokenEndpointResponse;
    try {
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        this.clientAuth(as, credentials),
        callback,
        this.options.redirectUri,
        verifier,
        {
          ...this.requestOptions(as.token_endpoint, signal),
          additionalParameters: { resource: prm.resource },
        },
      );
      answer = await oauth.processAuthorizationCodeResponse(as, client, response);
    } catch (error) {
      throw this.wrap("token_response", `the token endpoint of ${as.issuer}`, error);
    }
    await this.save(serverUrl, as, prm.resource, answer, scope);
  }

  /** Refreshes `tokens`; resolves undefined (tokens dropped) when the server refuses. */
  private async refresh(
    serverUrl: string,
    as: oauth.AuthorizationServer,
    tokens: OAuthTokens,
    signal: AbortSignal,
  ): Promise<OAuthTokens | undefined> {
    const credentials = await this.identify(as, signal);
    const client: oauth.Client = { client_id: credentials.clientId };
    try {
      const response = await oauth.refreshTokenGrantRequest(
        as,
        client,
        this.clientAuth(as, credentials),
        tokens.refreshToken!,
        {
          ...this.requestOptions(as.token_endpoint ?? as.issuer, signal),
          additionalParameters: { resource: tokens.resource },
        },
      );
      const answer = await oauth.processRefreshTokenResponse(as, client, response);
      this.log(`refreshed the access token for ${tokens.resource}`);
      return await this.save(
        serverUrl,
        as,
        tokens.resource,
        answer,
        tokens.scope ?? "",
        tokens.refreshToken,
      );
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const why = this.wrap("token_response", "refresh", error);
      this.log(
        `refreshing the access token for ${tokens.resource} failed (${why.message}); authorizing again`,
      );
      const kept: OAuthTokens = { ...tokens };
      delete kept.refreshToken;
      await this.store.saveTokens(serverUrl, kept);
      return undefined;
    }
  }

  private async save(
    serverUrl: string,
    as: oauth.AuthorizationServer,
    resource: string,
    answer: oauth.TokenEndpointResponse,
    requested: string,
    previousRefresh?: string,
  ): Promise<OAuthTokens> {
    const tokens: OAuthTokens = { issuer: as.issuer, resource, accessToken: answer.access_token };
    const refresh = answer.refresh_token ?? previousRefresh;
    if (refresh !== undefined) tokens.refreshToken = refresh;
    if (typeof answer.expires_in === "number")
      tokens.expiresAt = this.now() + answer.expires_in * 1000;
    const scope = answer.scope ?? requested;
    if (scope) tokens.scope = scope;
    await this.store.saveTokens(serverUrl, tokens);
    return tokens;
  }

  private insecureAllowed(url: URL): boolean {
    return this.options.allowInsecureRequests === true || LOOPBACK.has(url.hostname);
  }

  private checkProtocol(url: URL): void {
    if (url.protocol !== "https:" && !(url.protocol === "http:" && this.insecureAllowed(url)))
      throw new AuthorizationError(
        "insecure_url",
        `${url.origin} is not HTTPS (only loopback may be plain HTTP)`,
      );
  }

  /** oauth4webapi's request options for an endpoint: our fetch, the signal, plain HTTP only where allowed. */
  private requestOptions(endpoint: string, signal: AbortSignal) {
    const url = new URL(endpoint);
    this.checkProtocol(url);
    return {
      signal,
      [oauth.customFetch]: this.fetch,
      [oauth.allowInsecureRequests]: this.insecureAllowed(url),
    };
  }

  private async get(
    url: string,
    signal: AbortSignal,
    step: AuthorizationFailure,
  ): Promise<Response> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new AuthorizationError(step, `${url} is not a URL`);
    }
    this.checkProtocol(parsed);
    try {
      return await this.fetch(parsed.href, {
        headers: { Accept: "application/json" },
        signal,
        redirect: "error",
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new AuthorizationError(
        step,
        `GET ${url} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private async json(
    response: Response,
    url: string,
    step: AuthorizationFailure,
  ): Promise<Record<string, unknown>> {
    let value: unknown;
    try {
      value = await response.json();
    } catch (error) {
      if (error instanceof ResponseTooLargeError)
        throw new AuthorizationError(step, `${url} ${error.message}`);
      throw new AuthorizationError(step, `${url} did not answer JSON`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new AuthorizationError(step, `${url} did not answer a JSON object`);
    return value as Record<string, unknown>;
  }

  /** oauth4webapi's failure as ours: its messages and the server's error code, never the parameters or bodies it carries. */
  private wrap(step: AuthorizationFailure, what: string, error: unknown): AuthorizationError {
    if (error instanceof AuthorizationError) return error;
    if (error instanceof oauth.ResponseBodyError)
      return new AuthorizationError(
        step,
        `${what}: the server answered ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`,
        error.error,
      );
    if (error instanceof oauth.AuthorizationResponseError)
      return new AuthorizationError(
        step,
        `${what}: the server answered ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`,
        error.error,
      );
    if (error instanceof oauth.OperationProcessingError)
      return new AuthorizationError(step, `${what}: ${error.message}`, error.code);
    const message = error instanceof Error ? error.message : String(error);
    return new AuthorizationError(step, `${what}: ${message}`);
  }
}
