/**
 * `jwtVerifier` (runtime/auth/jwt-verifier.ts, emitted with `--auth`) against a JWKS served on loopback
 * that the test rotates: signature, issuer, audience, expiry, a key that appears later, a key that is
 * withdrawn, and a JWKS that cannot be fetched (an error to answer 503, not a 401).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { InvalidTokenError } from "../../../generated/2026-07-28/index.js";
import { jwtVerifier } from "../../../generated/2026-07-28/runtime/auth/jwt-verifier.js";

const ISSUER = "https://as.example.com";
const AUDIENCE = "https://mcp.example.com/mcp";
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))),
  );
});

async function key(kid: string): Promise<{ kid: string; privateKey: CryptoKey; jwk: JWK }> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  return {
    kid,
    privateKey,
    jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" },
  };
}

/** A JWKS endpoint publishing `published()`; counts fetches. */
async function jwks(published: () => JWK[] | "down") {
  let fetches = 0;
  const server = createServer((_req, res) => {
    fetches++;
    const keys = published();
    if (keys === "down") {
      res.writeHead(500);
      res.end();
      return;
    }
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    fetches: () => fetches,
  };
}

function token(
  signer: { kid: string; privateKey: CryptoKey },
  claims: Record<string, unknown> = {},
  expiresIn: string | number = "5m",
) {
  return new SignJWT({ scope: "mcp:read mcp:write", client_id: "app", ...claims })
    .setProtectedHeader({ alg: "ES256", kid: signer.kid, typ: "at+jwt" })
    .setIssuer(typeof claims.iss === "string" ? claims.iss : ISSUER)
    .setAudience(typeof claims.aud === "string" ? claims.aud : AUDIENCE)
    .setSubject("alice")
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(signer.privateKey);
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe("jwtVerifier", () => {
  it("verifies a token: subject, client, issuer, scopes and expiry come out", async () => {
    const a = await key("a");
    const set = await jwks(() => [a.jwk]);
    const verify = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwksUri: set.url });
    const verified = await verify(await token(a));
    expect(verified).toMatchObject({
      subject: "alice",
      clientId: "app",
      issuer: ISSUER,
      scopes: ["mcp:read", "mcp:write"],
    });
    expect(verified.expiresAt).toBeGreaterThan(Date.now());
  });

  it.each([
    ["another audience", { aud: "https://other.example.com/mcp" }, "aud"],
    ["another issuer", { iss: "https://evil.example.com" }, "iss"],
  ])(
    "refuses a token for %s as an invalid token, naming the claim, not quoting the token",
    async (_, claims, claim) => {
      const a = await key("a");
      const set = await jwks(() => [a.jwk]);
      const verify = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwksUri: set.url });
      const jwt = await token(a, claims);
      const error = await refusal(verify(jwt));
      expect(error).toBeInstanceOf(InvalidTokenError);
      expect(error.message).toContain(claim);
      expect(error.message).not.toContain(jwt);
    },
  );

  it("refuses an expired token, and one signed by a key the JWKS does not hold", async () => {
    const a = await key("a");
    const stranger = await key("a"); // same kid, other key: the signature fails
    const set = await jwks(() => [a.jwk]);
    const verify = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwksUri: set.url });
    expect(
      await refusal(verify(await token(a, {}, Math.floor(Date.now() / 1000) - 10))),
    ).toBeInstanceOf(InvalidTokenError);
    expect(await refusal(verify(await token(stranger)))).toBeInstanceOf(InvalidTokenError);
    expect(await refusal(verify("not.a.jwt"))).toBeInstanceOf(InvalidTokenError);
  });

  it("follows a rotating JWKS: a new key is fetched when a token names it, a withdrawn key stops verifying", async () => {
    const a = await key("a");
    const b = await key("b");
    let published = [a.jwk];
    const set = await jwks(() => published);
    const verify = jwtVerifier({
      issuer: ISSUER,
      audience: AUDIENCE,
      jwksUri: set.url,
      jwksCooldownMs: 0,
    });
    const old = await token(a);
    await verify(old);
    expect(set.fetches()).toBe(1);
    published = [b.jwk]; // rotated: b replaces a
    await verify(await token(b));
    expect(set.fetches()).toBe(2);
    expect(await refusal(verify(old))).toBeInstanceOf(InvalidTokenError);
  });

  it("throws a plain error (not InvalidTokenError) when the JWKS cannot be fetched", async () => {
    const a = await key("a");
    const set = await jwks(() => "down");
    const verify = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwksUri: set.url });
    const error = await refusal(verify(await token(a)));
    expect(error).not.toBeInstanceOf(InvalidTokenError);
  });
});
