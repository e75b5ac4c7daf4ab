/**
 * The HTTP transport's requests to the server's one URL: a POST (with the authorization layer's
 * header and its answer to 401/403 refusals, redirects followed only within the server's origin,
 * the legacy session's id taken from the answer and its end noticed), and the session's GET.
 * Browser-safe. Revision-independent; copied verbatim into generated output.
 */
import { SessionExpiredError, TransportError } from "./errors.js";
import type { HttpTransportOptions } from "./http-options.js";

/** Redirects followed per request, each to the same origin. */
const MAX_REDIRECTS = 5;
const SESSION_HEADER = "mcp-session-id";

/**
 * A legacy session as HTTP carries it: the id the server named in `Mcp-Session-Id` (if any) and
 * the negotiated version.
 */
export interface SessionIds {
  id: string | null;
  version: string | null;
}

export class HttpFetch {
  constructor(
    readonly url: string,
    private readonly options: HttpTransportOptions,
    /** The legacy session now; `null` outside one (modern requests carry no session). */
    private readonly session: () => SessionIds | null,
  ) {}

  /** The headers every request of `session` carries: the options' own, the session id and version. */
  sessionHeaders(session: SessionIds | null = this.session()): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers };
    if (session?.id) headers["Mcp-Session-Id"] = session.id;
    if (session?.version) headers["MCP-Protocol-Version"] = session.version;
    return headers;
  }

  /** `headers` with the authorization layer's `Authorization`, for the session's GET and DELETE. */
  async authorized(
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<Record<string, string>> {
    const value = await this.options.authorization?.header(this.url, signal);
    return value === undefined ? headers : { ...headers, Authorization: value };
  }

  /** The session's GET stream, resumed after `lastId` when there is one. */
  async get(lastId: string | null, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {
      ...this.sessionHeaders(),
      Accept: "text/event-stream",
    };
    if (lastId !== null) headers["Last-Event-ID"] = lastId;
    try {
      return await (this.options.fetch ?? fetch)(this.url, {
        method: "GET",
        headers: await this.authorized(headers, signal),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new TransportError(
        `GET ${this.url} failed: ${error instanceof Error ? error.message : String(error)}`,
        undefined,
        { cause: error },
      );
    }
  }

  /**
   * POSTs one message. A refusal the authorization layer answers is sent again; on a legacy
   * session the answer names the session's id, and a 404 says the server ended the session.
   */
  async post(
    body: unknown,
    headers: Readonly<Record<string, string>>,
    signal: AbortSignal,
  ): Promise<Response> {
    const session = this.session();
    const all: Record<string, string> = {
      ...this.sessionHeaders(session),
      ...headers,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    const auth = this.options.authorization;
    const text = JSON.stringify(body);
    let response: Response;
    for (let attempt = 1; ; attempt++) {
      if (auth) {
        const authorization = await auth.header(this.url, signal);
        if (authorization === undefined) delete all.Authorization;
        else all.Authorization = authorization;
      }
      response = await this.send(all, text, signal);
      if (!auth || (response.status !== 401 && response.status !== 403)) break;
      const challenge = response.headers.get("www-authenticate");
      const sent = all.Authorization;
      const refusal = { url: this.url, status: response.status, challenge, attempt, sent };
      if (!(await auth.refused(refusal, signal))) break;
      await response.body?.cancel().catch(() => {});
    }
    if (session) {
      // A session the server no longer knows: the core opens a new one and sends the request again.
      if (response.status === 404 && session.id !== null) {
        await response.body?.cancel().catch(() => {});
        throw new SessionExpiredError(`the server ended the session (HTTP 404)`);
      }
      const named = response.headers.get(SESSION_HEADER);
      if (named !== null && session.id === null && session === this.session()) session.id = named;
    }
    return response;
  }

  /**
   * One POST. Redirects are followed here, and only within the server's origin: another origin
   * would get the request (headers and body) and be trusted with the answer.
   */
  private async send(
    all: Record<string, string>,
    text: string,
    signal: AbortSignal,
  ): Promise<Response> {
    const doFetch = this.options.fetch ?? fetch;
    let url = this.url;
    let response: Response;
    for (let hops = 0; ; hops++) {
      try {
        response = await doFetch(url, {
          method: "POST",
          headers: all,
          body: text,
          signal,
          redirect: "manual",
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw new TransportError(
          `POST ${url} failed: ${error instanceof Error ? error.message : String(error)}`,
          undefined,
          { cause: error },
        );
      }
      if (response.status < 300 || response.status > 399 || response.status === 304) break;
      await response.body?.cancel().catch(() => {});
      const location = response.headers.get("location");
      let next: URL | null;
      try {
        next = location === null ? null : new URL(location, url);
      } catch {
        next = null;
      }
      if (next === null || next.origin !== new URL(this.url).origin)
        throw new TransportError(
          `POST ${url} was redirected (HTTP ${response.status}) to ${next === null ? "an invalid location" : `another origin (${next.origin})`}; only redirects within ${new URL(this.url).origin} are followed`,
          response.status,
        );
      if (hops + 1 >= MAX_REDIRECTS)
        throw new TransportError(
          `POST ${this.url} was redirected more than ${MAX_REDIRECTS} times`,
          response.status,
        );
      url = next.href;
    }
    return response;
  }
}
