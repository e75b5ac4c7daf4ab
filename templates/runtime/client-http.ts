/**
 * Streamable HTTP client transport on the global `fetch`: one POST per message to the URL exactly
 * as given, JSON or SSE answers, no GET stream. The client core computes the request metadata
 * headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`); this module sends
 * them. Revision-independent; copied verbatim into generated output.
 */
import { classify } from "./jsonrpc.js";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "./jsonrpc.js";
import {
  TransportError,
  type ClientTransport,
  type TransportPeer,
  type TransportRequestOptions,
} from "./client.js";

export interface HttpTransportOptions {
  /** Extra headers on every POST (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** The `fetch` to use; default the global one. */
  fetch?: typeof fetch;
}

const SESSION_HEADER = "mcp-session-id";

export function httpTransport(
  url: string | URL,
  options: HttpTransportOptions = {},
): ClientTransport {
  return new HttpTransport(String(url), options);
}

class HttpTransport implements ClientTransport {
  readonly mirrorsHeaders = true;
  readonly cacheKey: string;
  private peer: TransportPeer | null = null;
  private readonly open = new Set<AbortController>();
  /** Stateful revisions over HTTP: the session the server named in `Mcp-Session-Id`. */
  private session: string | null = null;

  constructor(
    private readonly url: string,
    private readonly options: HttpTransportOptions,
  ) {
    this.cacheKey = `http ${url}`;
  }

  attach(peer: TransportPeer): void {
    this.peer = peer;
  }

  private log(message: string): void {
    this.peer?.log(message);
  }

  private async post(
    body: unknown,
    headers: Readonly<Record<string, string>>,
    signal: AbortSignal,
  ): Promise<Response> {
    const all: Record<string, string> = {
      ...this.options.headers,
      ...headers,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    if (this.session !== null) all["Mcp-Session-Id"] = this.session;
    const doFetch = this.options.fetch ?? fetch;
    let response: Response;
    try {
      response = await doFetch(this.url, {
        method: "POST",
        headers: all,
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new TransportError(
        `POST ${this.url} failed: ${error instanceof Error ? error.message : String(error)}`,
        undefined,
        { cause: error },
      );
    }
    const session = response.headers.get(SESSION_HEADER);
    if (session !== null) this.session = session;
    return response;
  }

  async request(
    message: JsonRpcRequest,
    options: TransportRequestOptions,
  ): Promise<JsonRpcResponse> {
    const controller = new AbortController();
    const signal = AbortSignal.any([options.signal, controller.signal]);
    this.open.add(controller);
    try {
      const response = await this.post(message, options.headers, signal);
      const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (type === "text/event-stream") {
        const answer = await this.readStream(response, message, options, signal);
        controller.abort();
        return answer;
      }
      const text = await response.text().catch((error: unknown) => {
        if (signal.aborted) throw signal.reason;
        throw new TransportError(
          `reading the answer to ${message.method} failed`,
          response.status,
          { cause: error },
        );
      });
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new TransportError(
          `HTTP ${response.status}: the answer to ${message.method} is not JSON${text ? `: ${text.slice(0, 200)}` : ""}`,
          response.status,
        );
      }
      const incoming = classify(value);
      // A JSON-RPC error answered with an error status (400, 404) is still the server's answer.
      if (incoming.kind === "response") return incoming.message;
      if (
        incoming.kind === "invalid" &&
        typeof value === "object" &&
        value !== null &&
        "error" in value
      ) {
        const error = (value as { error: unknown }).error;
        if (
          typeof error === "object" &&
          error !== null &&
          typeof (error as { code?: unknown }).code === "number"
        ) {
          return {
            jsonrpc: "2.0",
            id: message.id,
            error: error as { code: number; message: string },
          };
        }
      }
      throw new TransportError(
        `HTTP ${response.status}: the answer to ${message.method} is not a JSON-RPC response`,
        response.status,
      );
    } finally {
      this.open.delete(controller);
    }
  }

  /** Reads SSE events up to the response to `message`; notifications before it go to `onNotification`. */
  private async readStream(
    response: Response,
    message: JsonRpcRequest,
    options: TransportRequestOptions,
    signal: AbortSignal,
  ): Promise<JsonRpcResponse> {
    if (!response.body)
      throw new TransportError(`the SSE answer to ${message.method} has no body`, response.status);
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    let buffer = "";
    let data: string[] = [];
    const dispatch = (): JsonRpcResponse | null => {
      if (data.length === 0) return null;
      const text = data.join("\n");
      data = [];
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        this.log(`mcp http client: skipped an SSE event that is not JSON: ${text.slice(0, 200)}`);
        return null;
      }
      const incoming = classify(value);
      if (incoming.kind === "response") {
        if (incoming.message.id === message.id) return incoming.message;
        this.log(
          `mcp http client: skipped a response to another request (${String(incoming.message.id)})`,
        );
      } else if (incoming.kind === "notification") {
        options.onNotification(incoming.message);
      } else if (incoming.kind === "request") {
        this.log(
          `mcp http client: ignored a server request on the response stream (${incoming.message.method})`,
        );
      } else {
        this.log(`mcp http client: skipped an SSE event that is not a JSON-RPC message`);
      }
      return null;
    };
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          throw new TransportError(`the SSE stream of ${message.method} broke`, response.status, {
            cause: error,
          });
        }
        if (chunk.done) buffer += decoder.decode();
        else buffer += decoder.decode(chunk.value, { stream: true });
        let newline: number;
        while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
          if (line === "") {
            const answer = dispatch();
            if (answer) return answer;
            continue;
          }
          if (line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? "" : line.slice(colon + 1);
          if (value.startsWith(" ")) value = value.slice(1);
          if (field === "data") data.push(value);
        }
        if (chunk.done) {
          if (buffer !== "") {
            const colon = buffer.indexOf(":");
            if (colon >= 0 && buffer.slice(0, colon) === "data")
              data.push(buffer.slice(colon + 1).replace(/^ /, ""));
          }
          const answer = dispatch();
          if (answer) return answer;
          throw new TransportError(
            `the SSE stream of ${message.method} ended without a response`,
            response.status,
          );
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  async notify(
    message: JsonRpcNotification,
    options: { headers?: Readonly<Record<string, string>> } = {},
  ): Promise<void> {
    const controller = new AbortController();
    this.open.add(controller);
    try {
      const response = await this.post(
        message,
        options.headers ?? { "Mcp-Method": message.method },
        controller.signal,
      );
      await response.body?.cancel().catch(() => {});
      if (response.status >= 400)
        this.log(`mcp http client: ${message.method} was refused with HTTP ${response.status}`);
    } finally {
      this.open.delete(controller);
    }
  }

  async close(): Promise<void> {
    for (const controller of this.open)
      controller.abort(new TransportError("the transport was closed"));
    this.open.clear();
  }
}
