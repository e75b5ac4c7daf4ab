/**
 * Obtaining and keeping tokens (`oauth-client.ts`): the authorization code flow with PKCE S256,
 * `state`, the `resource` indicator (RFC 8707) and the redirect's `iss` checked (RFC 9207); the
 * refresh grant; and saving what the token endpoint granted.
 */
import * as oauth from "oauth4webapi";
import type { ResourceMetadata } from "./oauth-discovery.js";
import { AuthorizationError } from "./oauth-errors.js";
import { authorizationFailure } from "./oauth-http.js";
import type { OAuthContext } from "./oauth-options.js";
import { clientAuth, identify } from "./oauth-registration.js";
import type { OAuthTokens } from "./oauth-store.js";

/** The authorization code flow with PKCE S256, `state`, the `resource` indicator, and `iss` checked. */
export async function codeFlow(
  context: OAuthContext,
  serverUrl: string,
  prm: ResourceMetadata,
  as: oauth.AuthorizationServer,
  scope: string,
  signal: AbortSignal,
): Promise<void> {
  const { options, http } = context;
  if (!as.authorization_endpoint || !as.token_endpoint)
    throw new AuthorizationError(
      "server_metadata",
      `${as.issuer} publishes no authorization or token endpoint`,
    );
  const credentials = await identify(context, as, signal);
  const client: oauth.Client = { client_id: credentials.clientId };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  http.checkProtocol(url);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", credentials.clientId);
  url.searchParams.set("redirect_uri", options.redirectUri);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("resource", prm.resource);
  if (scope) url.searchParams.set("scope", scope);
  context.log(
    `authorizing at ${as.issuer} for ${prm.resource}${scope ? ` (scope "${scope}")` : ""}`,
  );
  const redirect = await options.authorize(url, { signal });
  let callback: URLSearchParams;
  try {
    callback = oauth.validateAuthResponse(as, client, new URL(String(redirect)), state);
  } catch (error) {
    throw authorizationFailure("authorization_response", `the redirect from ${as.issuer}`, error);
  }
  let answer: oauth.TokenEndpointResponse;
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth(as, credentials),
      callback,
      options.redirectUri,
      verifier,
      {
        ...http.requestOptions(as.token_endpoint, signal),
        additionalParameters: { resource: prm.resource },
      },
    );
    answer = await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (error) {
    throw authorizationFailure("token_response", `the token endpoint of ${as.issuer}`, error);
  }
  await save(context, serverUrl, as, prm.resource, answer, scope);
}

/** Refreshes `tokens`; resolves undefined (tokens dropped) when the server refuses. */
export async function refresh(
  context: OAuthContext,
  serverUrl: string,
  as: oauth.AuthorizationServer,
  tokens: OAuthTokens,
  signal: AbortSignal,
): Promise<OAuthTokens | undefined> {
  const credentials = await identify(context, as, signal);
  const client: oauth.Client = { client_id: credentials.clientId };
  try {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      client,
      clientAuth(as, credentials),
      tokens.refreshToken!,
      {
        ...context.http.requestOptions(as.token_endpoint ?? as.issuer, signal),
        additionalParameters: { resource: tokens.resource },
      },
    );
    const answer = await oauth.processRefreshTokenResponse(as, client, response);
    context.log(`refreshed the access token for ${tokens.resource}`);
    return await save(
      context,
      serverUrl,
      as,
      tokens.resource,
      answer,
      tokens.scope ?? "",
      tokens.refreshToken,
    );
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const why = authorizationFailure("token_response", "refresh", error);
    context.log(
      `refreshing the access token for ${tokens.resource} failed (${why.message}); authorizing again`,
    );
    const kept: OAuthTokens = { ...tokens };
    delete kept.refreshToken;
    await context.store.saveTokens(serverUrl, kept);
    return undefined;
  }
}

/** Stores what the token endpoint granted, keeping the previous refresh token when it sent none. */
async function save(
  context: OAuthContext,
  serverUrl: string,
  as: oauth.AuthorizationServer,
  resource: string,
  answer: oauth.TokenEndpointResponse,
  requested: string,
  previousRefresh?: string,
): Promise<OAuthTokens> {
  const tokens: OAuthTokens = { issuer: as.issuer, resource, accessToken: answer.access_token };
  const refreshToken = answer.refresh_token ?? previousRefresh;
  if (refreshToken !== undefined) tokens.refreshToken = refreshToken;
  if (typeof answer.expires_in === "number")
    tokens.expiresAt = context.now() + answer.expires_in * 1000;
  const scope = answer.scope ?? requested;
  if (scope) tokens.scope = scope;
  await context.store.saveTokens(serverUrl, tokens);
  return tokens;
}
