/**
 * The OAuth client's options (`oauthClient` in `oauth-client.ts`) and what its steps share while it
 * runs: the options, the store, the requests, the clock and the log. Dependency-free.
 */
import type { OAuthHttp } from "./oauth-http.js";
import type { OAuthClientCredentials, OAuthStore } from "./oauth-store.js";

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

/** What registration and the token grants read of the client that runs them. */
export interface OAuthContext {
  readonly options: OAuthClientOptions;
  readonly store: OAuthStore;
  readonly http: OAuthHttp;
  readonly now: () => number;
  log(message: string): void;
}
