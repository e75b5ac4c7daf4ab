/**
 * A bearer token verifier for `bearerAuth` (runtime/http-auth.ts) when access tokens are JWTs
 * (RFC 9068) signed with the authorization server's keys: `jose` checks the signature against the
 * JWKS (fetched and cached, fetched again when a token names a key it has not seen: keys rotate), the
 * issuer, the audience (this server's resource identifier, so a token minted for another resource is
 * refused) and the expiry. Emitted only with `--auth`: it imports `jose`. Revision-independent.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { InvalidTokenError, type VerifiedToken } from "./http-auth.js";

export interface JwtVerifierOptions {
  /** The issuer(s) whose tokens are accepted (`iss`, compared exactly). */
  issuer: string | readonly string[];
  /** This server's resource identifier: the `aud` the token must carry. */
  audience: string;
  /** The authorization server's JWKS URL (its metadata's `jwks_uri`). */
  jwksUri?: string | URL;
  /** Keys from elsewhere (a local key set, for instance) instead of `jwksUri`. */
  keys?: JWTVerifyGetKey;
  /** Accepted signature algorithms (default: what the keys allow, never `none`). */
  algorithms?: readonly string[];
  /** Leeway for `exp` and `nbf`, in seconds (default 0). */
  clockToleranceSeconds?: number;
  /** Minimum time between JWKS fetches when a token names an unknown key, in ms (jose's default: 30 s). */
  jwksCooldownMs?: number;
  /** The clock, in milliseconds (default `Date.now`). */
  now?: () => number;
  /** Require the `typ` header `at+jwt` of RFC 9068 (default false: many servers leave it out). */
  requireAccessTokenType?: boolean;
}

/** Verifies JWT access tokens; pass it as `bearerAuth({ verify: jwtVerifier({…}) })`. */
export function jwtVerifier(
  options: JwtVerifierOptions,
): (token: string) => Promise<VerifiedToken> {
  const keys = options.keys ?? remoteKeys(options);
  const issuer = typeof options.issuer === "string" ? options.issuer : [...options.issuer];
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer,
        audience: options.audience,
        ...(options.algorithms ? { algorithms: [...options.algorithms] } : {}),
        ...(options.clockToleranceSeconds !== undefined
          ? { clockTolerance: options.clockToleranceSeconds }
          : {}),
        ...(options.requireAccessTokenType ? { typ: "at+jwt" } : {}),
        requiredClaims: ["exp"],
        ...(options.now ? { currentDate: new Date(options.now()) } : {}),
      }));
    } catch (error) {
      throw refusal(error);
    }
    return verified(payload);
  };
}

function remoteKeys(options: JwtVerifierOptions): JWTVerifyGetKey {
  if (options.jwksUri === undefined) throw new TypeError("jwtVerifier: give jwksUri or keys");
  return createRemoteJWKSet(new URL(String(options.jwksUri)), {
    ...(options.jwksCooldownMs !== undefined ? { cooldownDuration: options.jwksCooldownMs } : {}),
  });
}

/**
 * jose's verdict as ours: a token that is not valid is `InvalidTokenError` (401), named by jose's
 * error code only (its messages may quote claims); a key set that cannot be had is thrown on (503).
 */
function refusal(error: unknown): Error {
  // The key set could not be had (jose's generic error is its failed JWKS response): not the token's fault.
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return error;
  if (error instanceof errors.JOSEError && error.code === "ERR_JOSE_GENERIC") return error;
  if (error instanceof errors.JWTExpired)
    return new InvalidTokenError("the access token has expired");
  if (error instanceof errors.JWTClaimValidationFailed)
    return new InvalidTokenError(`the access token's ${error.claim} claim is not accepted`);
  if (error instanceof errors.JOSEError)
    return new InvalidTokenError(`the access token is not valid (${error.code})`);
  // Not jose's own (the JWKS fetch failed): the verifier could not decide.
  return error instanceof Error ? error : new Error(String(error));
}

function verified(payload: JWTPayload): VerifiedToken {
  const scope = payload.scope;
  const scp = payload.scp;
  const scopes =
    typeof scope === "string"
      ? scope.split(" ").filter(Boolean)
      : Array.isArray(scp)
        ? scp.filter((s): s is string => typeof s === "string")
        : [];
  const token: VerifiedToken = { scopes, claims: payload as Record<string, unknown> };
  if (payload.sub !== undefined) token.subject = payload.sub;
  const client = payload.client_id ?? payload.azp;
  if (typeof client === "string") token.clientId = client;
  if (payload.iss !== undefined) token.issuer = payload.iss;
  if (payload.exp !== undefined) token.expiresAt = payload.exp * 1000;
  return token;
}
