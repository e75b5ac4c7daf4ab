/**
 * What the OAuth client keeps between flows (`oauth-client.ts`): the client credentials an
 * authorization server issued and the tokens obtained for each MCP server, and where they live.
 * Dependency-free, so a host can implement `OAuthStore` without loading `oauth4webapi`.
 */

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
