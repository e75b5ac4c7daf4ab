/**
 * The OAuth client's requests (`oauth-client.ts`): one `fetch` whose answers are capped in size, the
 * HTTPS-only rule (plain HTTP on loopback or when allowed), plain GETs of metadata documents, their
 * JSON, and `oauth4webapi`'s failures turned into `AuthorizationError`s that carry no secret.
 */
import * as oauth from "oauth4webapi";
import { AuthorizationError, type AuthorizationFailure } from "./oauth-errors.js";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** An answer larger than `maxResponseBytes`. */
class ResponseTooLargeError extends Error {
  constructor(max: number) {
    super(`answered more than ${max} bytes`);
    this.name = "ResponseTooLargeError";
  }
}

/**
 * `fetch` whose answers can be read up to `max` bytes: a larger declared length is refused before
 * the body is read, and a body that grows past it fails its reader there, which stops the download
 * (the rest is never read, let alone held).
 */
function capped(inner: typeof fetch, max: number): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (Number(response.headers.get("content-length")) > max) {
      await response.body?.cancel().catch(() => {});
      throw new ResponseTooLargeError(max);
    }
    if (!response.body) return response;
    let seen = 0;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > max) controller.error(new ResponseTooLargeError(max));
          else controller.enqueue(chunk);
        },
      }),
    );
    const limited = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(limited, "url", { value: response.url });
    return limited;
  };
}

/** The options of `oauthClient` that govern its requests (see `OAuthClientOptions`). */
export interface OAuthHttpOptions {
  fetch?: typeof fetch;
  maxResponseBytes?: number;
  allowInsecureRequests?: boolean;
}

/** How the OAuth client reaches metadata, registration and token endpoints. */
export class OAuthHttp {
  readonly fetch: typeof fetch;

  constructor(private readonly options: OAuthHttpOptions) {
    this.fetch = capped(
      options.fetch ?? ((input, init) => fetch(input, init)),
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    );
  }

  private insecureAllowed(url: URL): boolean {
    return this.options.allowInsecureRequests === true || LOOPBACK.has(url.hostname);
  }

  checkProtocol(url: URL): void {
    if (url.protocol !== "https:" && !(url.protocol === "http:" && this.insecureAllowed(url)))
      throw new AuthorizationError(
        "insecure_url",
        `${url.origin} is not HTTPS (only loopback may be plain HTTP)`,
      );
  }

  /** oauth4webapi's request options for an endpoint: our fetch, the signal, plain HTTP only where allowed. */
  requestOptions(endpoint: string, signal: AbortSignal) {
    const url = new URL(endpoint);
    this.checkProtocol(url);
    return {
      signal,
      [oauth.customFetch]: this.fetch,
      [oauth.allowInsecureRequests]: this.insecureAllowed(url),
    };
  }

  async get(url: string, signal: AbortSignal, step: AuthorizationFailure): Promise<Response> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new AuthorizationError(step, `${url} is not a URL`);
    }
    this.checkProtocol(parsed);
    try {
      return await this.fetch(parsed.href, {
        headers: { Accept: "application/json" },
        signal,
        redirect: "error",
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new AuthorizationError(
        step,
        `GET ${url} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async json(
    response: Response,
    url: string,
    step: AuthorizationFailure,
  ): Promise<Record<string, unknown>> {
    let value: unknown;
    try {
      value = await response.json();
    } catch (error) {
      if (error instanceof ResponseTooLargeError)
        throw new AuthorizationError(step, `${url} ${error.message}`);
      throw new AuthorizationError(step, `${url} did not answer JSON`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new AuthorizationError(step, `${url} did not answer a JSON object`);
    return value as Record<string, unknown>;
  }
}

/** oauth4webapi's failure as ours: its messages and the server's error code, never the parameters or bodies it carries. */
export function authorizationFailure(
  step: AuthorizationFailure,
  what: string,
  error: unknown,
): AuthorizationError {
  if (error instanceof AuthorizationError) return error;
  if (error instanceof oauth.ResponseBodyError)
    return new AuthorizationError(
      step,
      `${what}: the server answered ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`,
      error.error,
    );
  if (error instanceof oauth.AuthorizationResponseError)
    return new AuthorizationError(
      step,
      `${what}: the server answered ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`,
      error.error,
    );
  if (error instanceof oauth.OperationProcessingError)
    return new AuthorizationError(step, `${what}: ${error.message}`, error.code);
  const message = error instanceof Error ? error.message : String(error);
  return new AuthorizationError(step, `${what}: ${message}`);
}
