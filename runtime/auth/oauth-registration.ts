/**
 * Who the OAuth client is to an authorization server (`oauth-client.ts`): stored or pre-registered
 * credentials, a Client ID Metadata Document URL, or Dynamic Client Registration (RFC 7591); and how
 * it authenticates at the token endpoint with them.
 */
import * as oauth from "oauth4webapi";
import { AuthorizationError } from "./oauth-errors.js";
import { authorizationFailure } from "./oauth-http.js";
import type { OAuthClientOptions, OAuthContext } from "./oauth-options.js";
import type { OAuthClientCredentials } from "./oauth-store.js";

/** Whether to ask for `offline_access`: the host allows it and the authorization server offers refresh. */
export function offersRefresh(options: OAuthClientOptions, as: oauth.AuthorizationServer): boolean {
  return (
    options.offlineAccess !== false &&
    (as.scopes_supported?.includes("offline_access") ?? false) &&
    (as.grant_types_supported?.includes("refresh_token") ?? false)
  );
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

/** Stored credentials, pre-registered ones, a metadata document URL, or a new registration. */
export async function identify(
  context: OAuthContext,
  as: oauth.AuthorizationServer,
  signal: AbortSignal,
): Promise<OAuthClientCredentials> {
  const { options, store, http } = context;
  const stored = await store.client(as.issuer);
  if (stored) return stored;
  const given = options.clients?.find((c) => c.issuer === as.issuer);
  if (given) return given;
  if (as.client_id_metadata_document_supported === true && options.clientMetadataUrl)
    return {
      issuer: as.issuer,
      clientId: options.clientMetadataUrl,
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
    redirect_uris: [options.redirectUri],
    application_type: options.applicationType ?? "native",
    grant_types: [
      "authorization_code",
      ...(offersRefresh(options, as) || as.grant_types_supported?.includes("refresh_token")
        ? ["refresh_token"]
        : []),
    ],
    response_types: ["code"],
    token_endpoint_auth_method: method,
    ...options.clientMetadata,
  };
  let response: Response;
  try {
    response = await oauth.dynamicClientRegistrationRequest(
      as,
      metadata,
      http.requestOptions(as.registration_endpoint, signal),
    );
  } catch (error) {
    throw authorizationFailure("registration", `registering at ${as.registration_endpoint}`, error);
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
  const registered = await http.json(response, as.registration_endpoint, "registration");
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
  await store.saveClient(credentials);
  context.log(`registered with ${as.issuer}`);
  return credentials;
}

/** The token endpoint authentication the credentials and the server agree on. */
export function clientAuth(
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
