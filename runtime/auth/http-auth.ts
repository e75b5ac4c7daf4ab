/**
 * A Streamable HTTP server as an OAuth 2.1 protected resource (MCP's authorization spec): it
 * publishes its Protected Resource Metadata (RFC 9728) at the path-based well-known URL, answers a
 * request without a valid bearer token 401 with a `WWW-Authenticate` challenge naming that metadata
 * (and the scope it needs), one whose token lacks a scope the request needs 403
 * `insufficient_scope`, and hands the verified principal to the dispatcher, which gives it to
 * handlers and binds `input_required` state to it. Tokens are verified by the host's function
 * (`runtime/jwt-verifier.ts`, emitted with `--auth`, verifies JWTs against a JWKS). Tokens never
 * appear in a log line, a response or an error message. Revision-independent; dependency-free.
 */
import type { HttpIn, HttpListener, HttpOut } from "../shared/http-wire.js";
import { utf8Length } from "../shared/http-wire.js";
import { bodyPending } from "../shared/http-headers.js";
import { decodeHeaderValue } from "../shared/param-headers.js";

type Listener = HttpListener;

/** What `HttpOptions.auth` takes: something that guards the endpoint's request listener. */
export interface HttpGuard {
  /** The listener that answers what the guard lets through. */
  guard(listener: Listener): Listener;
  /**
   * The request as its body says it (its method, and the target its `Mcp-Name` header would
   * mirror), once the body is read: a refusal, or `null` to serve it. Headers are only the
   * client's word, and initialize-era clients send none: what is served is the body, so the
   * transport asks again with it, on every era.
   */
  authorize?(req: HttpIn, method: string, target: string | undefined): HttpRefusal | null;
}

/** An answer a guard gives instead of serving the request. */
export interface HttpRefusal {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Who a request's bearer token says sent it, as the verifier established it. */
export interface Principal extends VerifiedToken {
  /**
   * A stable identity: `<issuer>#<subject>` (or `<issuer>#client:<client id>` for a token without a
   * subject). Handlers see it as `ctx.principal`; `input_required` state is bound to it.
   */
  id: string;
}

const PRINCIPAL: unique symbol = Symbol("mcp principal");

/** The principal `bearerAuth` admitted a request as; `undefined` for a request it did not guard. */
export function principalOf(req: HttpIn): Principal | undefined {
  return (req as { [PRINCIPAL]?: Principal })[PRINCIPAL];
}

type Refusal = HttpRefusal;

/** What a verifier establishes from a valid access token. */
export interface VerifiedToken {
  /** The scopes the token grants. */
  scopes: readonly string[];
  /** The resource owner (`sub`). */
  subject?: string;
  /** The client the token was issued to (`client_id` / `azp`). */
  clientId?: string;
  /** The authorization server that issued it (`iss`). */
  issuer?: string;
  /** Expiry, in milliseconds since the epoch; an expired token is refused even if the verifier passed it. */
  expiresAt?: number;
  /** Anything else the handlers may want (claims); never the token itself. */
  claims?: Record<string, unknown>;
}

/** Thrown (or `null` returned) by a verifier for a token that is not valid: the answer is 401 `invalid_token`. */
export class InvalidTokenError extends Error {
  override readonly name = "InvalidTokenError";
}

export interface BearerAuthOptions {
  /** This server's resource identifier: its MCP endpoint's canonical URL, as clients reach it. */
  resource: string;
  /** The issuers of the authorization servers whose tokens this server accepts. */
  authorizationServers: readonly string[];
  /** Published as `scopes_supported`. */
  scopesSupported?: readonly string[];
  /** More Protected Resource Metadata fields (`resource_name`, `resource_documentation`, …). */
  metadata?: Record<string, unknown>;
  /**
   * Verifies an access token (signature, issuer, audience = `resource`, expiry): resolves what it
   * establishes, or `null` (or throws `InvalidTokenError`) for a token that is not valid.
   */
  verify(token: string): VerifiedToken | null | Promise<VerifiedToken | null>;
  /** Scopes every request needs. */
  requiredScopes?: readonly string[];
  /**
   * Scopes particular requests need beyond those, keyed by method (`"tools/call"`) or by method, a
   * space and the request's target, the param its `Mcp-Name` header mirrors (`"tools/call delete_file"`).
   */
  scopes?: Readonly<Record<string, readonly string[]>>;
  /** The clock, in milliseconds (default `Date.now`). */
  now?: () => number;
  /** Diagnostics (never given a token); default stderr. */
  log?: (message: string) => void;
}

/** `HttpOptions.auth` for a server that demands bearer tokens: `server.listen({ port, auth: bearerAuth({…}) })`. */
export function bearerAuth(options: BearerAuthOptions): HttpGuard {
  return new BearerGuard(options);
}

/** The RFC 9728 well-known URL of a resource: the suffix inserted between its origin and its path. */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/+$/, "");
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

class BearerGuard implements HttpGuard {
  private readonly metadataUrl: string;
  private readonly metadataPath: string;
  private readonly document: string;
  private readonly now: () => number;

  constructor(private readonly options: BearerAuthOptions) {
    if (options.authorizationServers.length === 0)
      throw new TypeError("bearerAuth: name at least one authorization server");
    this.metadataUrl = resourceMetadataUrl(options.resource);
    this.metadataPath = new URL(this.metadataUrl).pathname;
    this.document = JSON.stringify({
      ...options.metadata,
      resource: options.resource,
      authorization_servers: options.authorizationServers,
      ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      bearer_methods_supported: ["header"],
    });
    this.now = options.now ?? Date.now;
  }

  guard(listener: Listener): Listener {
    return (req, res) => {
      if (pathOf(req.originalUrl ?? req.url) === this.metadataPath)
        return this.serveMetadata(req, res);
      this.admit(req).then(
        (admitted) => {
          if ("refusal" in admitted) return sendRefusal(req, res, admitted.refusal);
          (req as { [PRINCIPAL]?: Principal })[PRINCIPAL] = admitted.principal;
          listener(req, res);
        },
        (error: unknown) => {
          this.log(`mcp http auth: ${error instanceof Error ? error.message : String(error)}`);
          sendRefusal(req, res, { status: 500, headers: {}, body: { error: "server_error" } });
        },
      );
    };
  }

  private serveMetadata(req: HttpIn, res: HttpOut): void {
    const close = bodyPending(req);
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(
        405,
        close ? { Allow: "GET, HEAD", Connection: "close" } : { Allow: "GET, HEAD" },
      );
      res.end();
      return;
    }
    if (close) res.setHeader("Connection", "close");
    res.writeHead(200, {
      "Content-Type": "application/json",
      "Content-Length": utf8Length(this.document),
      // Browser-based clients read it from other origins.
      "Access-Control-Allow-Origin": "*",
    });
    res.end(req.method === "HEAD" ? undefined : this.document);
  }

  /** The token, verified, and the scopes the request needs, checked; before the body is read. */
  private async admit(req: HttpIn): Promise<{ principal: Principal } | { refusal: Refusal }> {
    const needed = this.needs(req);
    const header = req.headers.authorization;
    if (header === undefined)
      return { refusal: this.challenge(401, needed, null, "a bearer token is required") };
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match)
      return {
        refusal: this.challenge(
          401,
          needed,
          "invalid_request",
          "the Authorization header is not a bearer token",
        ),
      };
    let verified: VerifiedToken | null;
    try {
      verified = await this.options.verify(match[1]!);
    } catch (error) {
      if (error instanceof InvalidTokenError)
        return { refusal: this.challenge(401, needed, "invalid_token", error.message) };
      // The verifier could not decide (its key set unreachable, say): not the client's fault.
      this.log(
        `mcp http auth: the token verifier failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return {
        refusal: {
          status: 503,
          headers: { "Retry-After": "5" },
          body: { error: "temporarily_unavailable" },
        },
      };
    }
    if (verified === null)
      return {
        refusal: this.challenge(401, needed, "invalid_token", "the access token is not valid"),
      };
    if (verified.expiresAt !== undefined && verified.expiresAt <= this.now())
      return {
        refusal: this.challenge(401, needed, "invalid_token", "the access token has expired"),
      };
    if (!needed.every((s) => verified.scopes.includes(s)))
      return {
        refusal: this.challenge(
          403,
          needed,
          "insufficient_scope",
          `the request needs ${needed.join(" ")}`,
        ),
      };
    // An issuer is a URL without a fragment, so `#` cannot occur in it: the id is unambiguous.
    const who =
      verified.subject ?? (verified.clientId !== undefined ? `client:${verified.clientId}` : "");
    const id = `${verified.issuer ?? ""}#${who}`;
    return { principal: { ...verified, id } };
  }

  /** The scopes the body asks for, against those the token admitted with grants. */
  authorize(req: HttpIn, method: string, target: string | undefined): Refusal | null {
    const principal = principalOf(req);
    const needed = this.scopesFor(method, target);
    if (principal !== undefined && needed.every((s) => principal.scopes.includes(s))) return null;
    return this.challenge(
      403,
      needed,
      "insufficient_scope",
      `the request needs ${needed.join(" ")}`,
    );
  }

  /**
   * The scopes a request needs before its body is read: from the headers that mirror its method and
   * target (`Mcp-Method`, `Mcp-Name`) when it sends them, so that a client short of a scope learns
   * it without uploading; else the scopes every request needs. Either way the body decides
   * (`authorize`): a header cannot talk a request past a scope.
   */
  private needs(req: HttpIn): string[] {
    const method = req.headers["mcp-method"];
    if (typeof method !== "string") return [...(this.options.requiredScopes ?? [])];
    const name = req.headers["mcp-name"];
    const target = typeof name === "string" ? (decodeHeaderValue(name) ?? undefined) : undefined;
    return this.scopesFor(method, target);
  }

  /** `requiredScopes`, and those `scopes` names for the method and for the method and target. */
  private scopesFor(method: string, target: string | undefined): string[] {
    const required = this.options.requiredScopes ?? [];
    const scopes = this.options.scopes;
    if (!scopes) return [...required];
    const key = target === undefined ? undefined : `${method} ${target}`;
    return [
      ...new Set([
        ...required,
        ...(Object.hasOwn(scopes, method) ? scopes[method]! : []),
        ...(key !== undefined && Object.hasOwn(scopes, key) ? scopes[key]! : []),
      ]),
    ];
  }

  /** A refusal with its RFC 6750 challenge naming everything the request needs; never derived from the token. */
  private challenge(
    status: number,
    scopes: readonly string[],
    error: string | null,
    description: string,
  ): Refusal {
    const params = [`resource_metadata="${this.metadataUrl}"`];
    if (scopes.length > 0) params.push(`scope="${scopes.join(" ")}"`);
    if (error !== null)
      params.push(`error="${error}"`, `error_description="${description.replace(/["\\]/g, "")}"`);
    return {
      status,
      headers: { "WWW-Authenticate": `Bearer ${params.join(", ")}` },
      body: { error: error ?? "unauthorized", error_description: description },
    };
  }

  private log(message: string): void {
    if (this.options.log) this.options.log(message);
    else console.error(message);
  }
}

/**
 * Sends a refusal. A body still on its way is not read: draining it would let an unauthenticated
 * client upload forever, so the answer says `Connection: close` and the connection ends with it.
 */
export function sendRefusal(req: HttpIn, res: HttpOut, refusal: Refusal): void {
  const body = JSON.stringify(refusal.body);
  res.writeHead(refusal.status, {
    ...refusal.headers,
    ...(bodyPending(req) ? { Connection: "close" } : {}),
    "Content-Type": "application/json",
    "Content-Length": utf8Length(body),
  });
  res.end(body);
}

function pathOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return undefined;
  }
}
