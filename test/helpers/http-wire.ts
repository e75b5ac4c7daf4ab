/**
 * What a Streamable HTTP client puts on the wire in the transport tests: requests with the
 * conforming `_meta` and headers, raw node:http requests for what fetch will not send, and readers
 * of SSE bodies (whole or one message at a time).
 */
import { request as httpRequest } from "node:http";
import type { OutgoingHttpHeaders } from "node:http";
import { headerRulesOf } from "../../runtime/server/http/index.js";
import type { JsonRpcId } from "../../runtime/shared/jsonrpc.js";
import { PROTOCOL_DESCRIPTION } from "../../generated/2026-07-28/protocol.js";

export const VERSION = "2026-07-28";
/** The header rules of the revision the transport tests speak, as its generated server passes them. */
export const RULES = headerRulesOf(PROTOCOL_DESCRIPTION);
export const PV = RULES.protocolVersionMetaKey!;

let nextId = 1;
export function rpc(
  method: string,
  params: Record<string, unknown> = {},
  id: JsonRpcId = nextId++,
): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    method,
    params: {
      _meta: { [PV]: VERSION, "io.modelcontextprotocol/clientCapabilities": {} },
      ...params,
    },
  };
}

/** The headers a conforming client sends for `body`. */
export function headersFor(body: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": VERSION,
  };
  if (typeof body["method"] === "string" && "id" in body) {
    headers["Mcp-Method"] = body["method"];
    const param = RULES.nameParams[body["method"]];
    const params = body["params"] as Record<string, unknown> | undefined;
    if (param !== undefined && typeof params?.[param] === "string")
      headers["Mcp-Name"] = params[param] as string;
  }
  return headers;
}

/** POSTs `body` with conforming headers, `headers` overriding them (null removes one). */
export function post(
  url: string,
  body: Record<string, unknown>,
  headers: Record<string, string | null> = {},
  init: RequestInit = {},
): Promise<Response> {
  const merged: Record<string, string> = headersFor(body);
  for (const [name, value] of Object.entries(headers)) {
    for (const key of Object.keys(merged))
      if (key.toLowerCase() === name.toLowerCase()) delete merged[key];
    if (value !== null) merged[name] = value;
  }
  return fetch(url, { method: "POST", headers: merged, body: JSON.stringify(body), ...init });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http request, for what fetch will not send (a foreign Host, header-name casing). */
export function raw(
  url: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "POST", headers: options.headers ?? {} },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Parses a whole SSE body: every `data:` line must be one complete JSON message. */
export function parseSse(text: string): {
  messages: Array<Record<string, unknown>>;
  events: string[];
  comments: number;
} {
  const messages: Array<Record<string, unknown>> = [];
  const events: string[] = [];
  let comments = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith(":")) comments++;
    else if (line.startsWith("event:")) events.push(line.slice(6).trim());
    else if (line.startsWith("data:"))
      messages.push(JSON.parse(line.slice(5).trim()) as Record<string, unknown>);
    else throw new Error(`unexpected SSE line: ${line}`);
  }
  return { messages, events, comments };
}

/** Reads an SSE response incrementally, one message at a time. */
export function sseReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let done = false;
  const lines: string[] = [];
  async function nextLine(): Promise<string | undefined> {
    while (lines.length === 0) {
      if (done) return undefined;
      const chunk = await reader.read();
      if (chunk.done) {
        done = true;
        if (buffer !== "") lines.push(buffer);
        buffer = "";
      } else {
        buffer += decoder.decode(chunk.value, { stream: true });
        const parts = buffer.split("\n");
        buffer = parts.pop() ?? "";
        lines.push(...parts);
      }
    }
    return lines.shift();
  }
  return {
    /** The next message, or undefined when the stream ended. */
    async next(): Promise<Record<string, unknown> | undefined> {
      for (;;) {
        const line = await nextLine();
        if (line === undefined) return undefined;
        if (line.startsWith("data:"))
          return JSON.parse(line.slice(5).trim()) as Record<string, unknown>;
      }
    },
    cancel: () => reader.cancel(),
  };
}

export const errorOf = (body: unknown) =>
  (body as { error: { code: number; message: string } }).error;
