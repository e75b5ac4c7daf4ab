/**
 * Reading what an MCP server says when it refuses a request (`oauth-client.ts`): the `Bearer`
 * challenge's auth-params, and whether the resource its metadata publishes is this server.
 * Dependency-free string and URL work.
 */

/** A challenge's auth-params (`resource_metadata`, `scope`, `error`), from the `Bearer` challenge. */
export function bearerChallenge(header: string | null): Record<string, string> {
  const params: Record<string, string> = {};
  if (!header) return params;
  const start = header.search(/(^|[\s,])Bearer(\s|$)/i);
  if (start < 0) return params;
  const rest = header.slice(start).replace(/^[\s,]*Bearer/i, "");
  // auth-param = token BWS "=" BWS ( token / quoted-string ); a new scheme ends the challenge
  const param = /^[\s,]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^\s,]*)/;
  let at = rest;
  for (let match = param.exec(at); match; match = param.exec(at)) {
    const name = match[1]!.toLowerCase();
    const value = match[3] !== undefined ? match[3].replace(/\\(.)/g, "$1") : match[2]!;
    if (!(name in params)) params[name] = value;
    at = at.slice(match[0].length);
  }
  return params;
}

/** Whether the metadata's `resource` identifies `serverUrl`: same origin, and a path prefix of it on a segment boundary. */
export function resourceCovers(resource: string, serverUrl: string): boolean {
  let published: URL;
  let server: URL;
  try {
    published = new URL(resource);
    server = new URL(serverUrl);
  } catch {
    return false;
  }
  if (published.origin !== server.origin || published.search || published.hash) return false;
  const prefix = published.pathname.replace(/\/+$/, "");
  const path = server.pathname.replace(/\/+$/, "");
  return path === prefix || path.startsWith(`${prefix}/`);
}
