// The echo server written with the official SDK v1 (@modelcontextprotocol/sdk 1.32.2) on its
// web-standard transport (`WebStandardStreamableHTTPServerTransport`: Request in, Response out), in
// its documented stateless pattern: a server and a transport per request, JSON answers. Run by Bun
// or Deno (bundled by bench/hosting.mjs). Prints "listening on <url>" on stderr.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import * as z from "zod";

async function fetch(request) {
  const server = new McpServer(
    { name: "echo-sdk-v1", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  return transport.handleRequest(request);
}

const listening = (port) => console.error(`listening on http://127.0.0.1:${port}/mcp`);
if (globalThis.Bun) listening(globalThis.Bun.serve({ hostname: "127.0.0.1", port: 0, fetch }).port);
else
  globalThis.Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => listening(port) },
    fetch,
  );
