/**
 * OAuth 2.1 authorization for the HTTP client transport (MCP's authorization spec): on a 401 or a
 * 403 `insufficient_scope` it discovers the server's Protected Resource Metadata (RFC 9728) and its
 * authorization server's metadata (RFC 8414, OpenID Connect discovery), identifies the client
 * (stored or pre-registered credentials, a Client ID Metadata Document, or Dynamic Client
 * Registration), runs the authorization code flow with PKCE and the `resource` indicator (RFC 8707),
 * checks the redirect's `iss` (RFC 9207), and keeps and refreshes the tokens.
 *
 * The OAuth mechanics (PKCE, registration, the token endpoint, response validation) are
 * `oauth4webapi`'s; this module decides what to ask for and when, and its steps live beside it:
 * `oauth-discovery.ts`, `oauth-registration.ts`, `oauth-grants.ts`, over `oauth-http.ts`'s requests
 * and `oauth-store.ts`'s store. Emitted only with `--auth`, with them: the one part of the client
 * that has a dependency. This is the module users import. Revision-independent.
 */
import type * as oauth from "oauth4webapi";
import type { HttpAuthorization, HttpRefusal } from "../client/http.js";
import { bearerChallenge } from "./oauth-challenge.js";
import { resourceMetadata, serverMetadata } from "./oauth-discovery.js";
import { AuthorizationError } from "./oauth-errors.js";
import { codeFlow, refresh } from "./oauth-grants.js";
import { OAuthHttp } from "./oauth-http.js";
import type { OAuthClientOptions, OAuthContext } from "./oauth-options.js";
import { offersRefresh } from "./oauth-registration.js";
import { memoryStore, type OAuthTokens } from "./oauth-store.js";

export { bearerChallenge, resourceCovers } from "./oauth-challenge.js";
export { AuthorizationError, type AuthorizationFailure } from "./oauth-errors.js";
export type { OAuthClientOptions } from "./oauth-options.js";
export {
  memoryStore,
  type OAuthClientCredentials,
  type OAuthStore,
  type OAuthTokens,
} from "./oauth-store.js";

/** An `HttpAuthorization` for `httpTransport({ authorization })` that runs OAuth 2.1 as MCP specifies it. */
export function oauthClient(options: OAuthClientOptions): HttpAuthorization & {
  /** The stored tokens for a server URL, if any. */
  tokens(serverUrl: string): Promise<OAuthTokens | undefined>;
} {
  return new OAuthClient(options);
}

class OAuthClient implements HttpAuthorization {
  private readonly context: OAuthContext;
  /** Validated authorization server metadata by issuer (discovered once per process). */
  private readonly servers = new Map<string, oauth.AuthorizationServer>();
  /** One flow at a time per server URL: concurrent refusals wait for the flow in progress. */
  private readonly flows = new Map<string, Promise<void>>();

  constructor(private readonly options: OAuthClientOptions) {
    this.context = {
      options,
      store: options.store ?? memoryStore(),
      http: new OAuthHttp(options),
      now: options.now ?? Date.now,
      log: (message) => options.log?.(`mcp oauth: ${message}`),
    };
  }

  async tokens(serverUrl: string): Promise<OAuthTokens | undefined> {
    return this.context.store.tokens(serverUrl);
  }

  async header(url: string, signal: AbortSignal): Promise<string | undefined> {
    // A flow in progress for this server decides the header; its failure is its own request's to report.
    await this.flows.get(url)?.catch(() => {});
    let tokens = await this.context.store.tokens(url);
    if (
      tokens?.expiresAt !== undefined &&
      tokens.expiresAt <= this.context.now() &&
      tokens.refreshToken
    ) {
      const as = this.servers.get(tokens.issuer);
      if (as) tokens = (await refresh(this.context, url, as, tokens, signal)) ?? tokens;
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
    const stored = await this.context.store.tokens(refusal.url);
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
    const current = await this.context.store.tokens(url);
    const prm = await resourceMetadata(this.context.http, url, challenge.resource_metadata, signal);
    const issuer = prm.authorization_servers[0]!;
    const as = await this.serverMetadata(issuer, signal);
    if (status === 401 && current?.refreshToken && current.issuer === as.issuer) {
      if (await refresh(this.context, url, as, current, signal)) return;
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
    if (offersRefresh(this.options, as)) scopes.add("offline_access");
    await codeFlow(this.context, url, prm, as, [...scopes].join(" "), signal);
  }

  /** An authorization server's metadata, discovered once per issuer. */
  private async serverMetadata(
    issuer: string,
    signal: AbortSignal,
  ): Promise<oauth.AuthorizationServer> {
    const known = this.servers.get(issuer);
    if (known) return known;
    const as = await serverMetadata(this.context.http, issuer, signal);
    this.servers.set(issuer, as);
    return as;
  }
}
