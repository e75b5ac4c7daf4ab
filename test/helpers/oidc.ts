/**
 * A real authorization server for the end-to-end tests: `oidc-provider` (a certified OpenID
 * Provider) in-process on loopback, with Dynamic Client Registration, PKCE, resource indicators that
 * mint JWT access tokens for the MCP server's resource, refresh tokens, and a scripted user who
 * signs in and consents at once. `browser` is the headless user agent: it follows the redirects of
 * the authorization and interaction endpoints, carrying cookies, until the redirect to the client.
 */
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";

export interface Oidc {
  issuer: string;
  jwksUri: string;
  /** Makes the token endpoint answer garbage from now on. */
  breakTokenEndpoint(): void;
  browser(authorizationUrl: URL): Promise<string>;
  close(): Promise<void>;
}

export const MCP_SCOPE = "mcp:tools";

function signingKey(kid: string) {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid, use: "sig", alg: "RS256" };
}

export async function oidcProvider(options: {
  resources: () => string[];
  accessTokenTtlSeconds?: number;
}): Promise<Oidc> {
  let broken = false;
  const keys = [signingKey(`k-${randomUUID()}`)];
  const listen = createServer();
  await new Promise<void>((resolve) => listen.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(listen.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    jwks: { keys: [...keys] },
    scopes: ["openid", "offline_access", MCP_SCOPE],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: KoaContextWithOIDC, _client: unknown, oneOf?: readonly string[]) =>
          oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, resource: string) => {
          if (!options.resources().includes(resource))
            throw new Error(`unknown resource ${resource}`);
          return {
            scope: MCP_SCOPE,
            audience: resource,
            accessTokenTTL: options.accessTokenTtlSeconds ?? 600,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
    pkce: { required: () => true },
    issueRefreshToken: (
      _ctx: KoaContextWithOIDC,
      client: { grantTypeAllowed(grant: string): boolean },
    ) => client.grantTypeAllowed("refresh_token"),
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id }),
    }),
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) =>
        `/interaction/${interaction.uid}`,
    },
  });

  // The user: signs in as "alice" and grants every scope asked for.
  const interact = async (
    req: Parameters<Provider["interactionDetails"]>[0],
    res: Parameters<Provider["interactionDetails"]>[1],
  ) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === "login") {
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: "alice" } },
        { mergeWithLastSubmission: false },
      );
    }
    const grant = new provider.Grant({
      accountId: details.session!.accountId,
      clientId: details.params.client_id as string,
    });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(resource, scopes.join(" "));
    const grantId = await grant.save();
    return provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  };

  listen.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      interact(req, res).catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
      return;
    }
    if (broken && req.url?.startsWith("/token")) {
      req.resume();
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("<html>not a token</html>");
      return;
    }
    provider.callback()(req, res);
  });

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    breakTokenEndpoint() {
      broken = true;
    },
    async browser(authorizationUrl) {
      const cookies = new Map<string, string>();
      let url = authorizationUrl.href;
      for (let hop = 0; hop < 10; hop++) {
        const response = await fetch(url, {
          redirect: "manual",
          headers: { Cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(";");
          const eq = pair!.indexOf("=");
          cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
        }
        const location = response.headers.get("location");
        if (!location)
          throw new Error(
            `the authorization server answered ${response.status} without a redirect: ${(await response.text()).replace(/\s+/g, " ").slice(0, 900)}`,
          );
        await response.body?.cancel();
        const next = new URL(location, url);
        if (!next.href.startsWith(issuer)) return next.href;
        url = next.href;
      }
      throw new Error("too many redirects");
    },
    close: () =>
      new Promise<void>((resolve) => {
        listen.closeAllConnections();
        listen.close(() => resolve());
      }),
  };
}
