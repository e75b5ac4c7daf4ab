/**
 * How the OAuth client (`oauth-client.ts`) fails: one error class whose `reason` names the step, so
 * a host can explain it to its user. Dependency-free; `oauth-http.ts` turns `oauth4webapi`'s errors
 * into these.
 */

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
