/**
 * Discovery for the OAuth client (`oauth-client.ts`): the MCP server's Protected Resource Metadata
 * (RFC 9728), which names its authorization servers, and an authorization server's metadata
 * (RFC 8414, OpenID Connect discovery), validated by `oauth4webapi` and held to an exact issuer and
 * PKCE S256.
 */
import * as oauth from "oauth4webapi";
import { resourceCovers } from "./oauth-challenge.js";
import { AuthorizationError } from "./oauth-errors.js";
import { authorizationFailure, type OAuthHttp } from "./oauth-http.js";

/** The Protected Resource Metadata the client uses. */
export interface ResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
}

/** RFC 9728: the URL the challenge names, else the path-based then the root well-known URL. */
export async function resourceMetadata(
  http: OAuthHttp,
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
    const response = await http.get(candidate, signal, "resource_metadata");
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      continue;
    }
    const body = await http.json(response, candidate, "resource_metadata");
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
export async function serverMetadata(
  http: OAuthHttp,
  issuer: string,
  signal: AbortSignal,
): Promise<oauth.AuthorizationServer> {
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
    const response = await http.get(candidate, signal, "server_metadata");
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
      throw authorizationFailure("server_metadata", `${candidate}`, error);
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
    return as;
  }
  throw new AuthorizationError(
    "server_metadata",
    `no authorization server metadata for ${issuer} (tried ${candidates.join(", ")})`,
  );
}
