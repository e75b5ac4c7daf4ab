/**
 * What the Streamable HTTP client transport is configured with: its options, the contract of the
 * authorization layer it may be given, and its defaults. Types and constants only. Browser-safe.
 * Revision-independent; copied verbatim into generated output.
 */
export interface HttpTransportOptions {
  /** Extra headers on every POST (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** The `fetch` to use; default the global one. */
  fetch?: typeof fetch;
  /** Largest JSON answer read, in bytes; default 16 MiB. A larger one fails the request. */
  maxResponseBytes?: number;
  /**
   * Largest SSE event read, in characters of its decoded text (never more than its bytes); default
   * 16 MiB. A larger one fails the request.
   */
  maxEventBytes?: number;
  /** Deepest nesting of arrays and objects accepted in an answer (checked before parsing); default 1000. */
  maxDepth?: number;
  /**
   * Legacy sessions: how long to wait before reconnecting a broken stream when the server named no
   * `retry`, in ms (default 1000), the least wait a server's `retry` may ask for (default 500: a
   * `retry: 0` would have the client reconnect in a loop), and how many reconnections in a row may
   * fail before the stream is given up (default 3).
   */
  reconnect?: { delayMs?: number; minDelayMs?: number; attempts?: number };
  /**
   * Legacy sessions: requests of the server's being answered at once (each answer is a POST of its
   * own); default 16. Beyond it a request is dropped, with a log line when drops begin.
   */
  maxServerRequests?: number;
  /**
   * Authorization for servers that demand it: supplies the `Authorization` header and answers 401
   * and 403 refusals (`runtime/auth/oauth-client.ts`, generated with `--auth`, is one).
   */
  authorization?: HttpAuthorization;
}

/** What the transport asks of an authorization layer; it keeps the OAuth mechanics out of here. */
export interface HttpAuthorization {
  /** The `Authorization` header value for a request to `url`; undefined sends none. */
  header(url: string, signal: AbortSignal): Promise<string | undefined>;
  /**
   * The server refused a request with 401 or 403. Resolves true to send the request again (with a
   * new header), false to hand the refusal to the caller; throws to end the request with its error.
   */
  refused(refusal: HttpRefusal, signal: AbortSignal): Promise<boolean>;
}

/** A 401 or 403 answer, as the transport hands it to `HttpAuthorization.refused`. */
export interface HttpRefusal {
  url: string;
  status: number;
  /** The `WWW-Authenticate` header. */
  challenge: string | null;
  /** This request's refusals so far, from 1. */
  attempt: number;
  /** The `Authorization` header the refused request carried. */
  sent: string | undefined;
}

export const DEFAULT_RECONNECT_MS = 1000;
export const DEFAULT_RECONNECT_ATTEMPTS = 3;
export const DEFAULT_MIN_RECONNECT_MS = 500;
export const DEFAULT_MAX_SERVER_REQUESTS = 16;
const MiB = 1024 * 1024;
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * MiB;
