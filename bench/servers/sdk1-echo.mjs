// The echo server written with the official SDK v1 (@modelcontextprotocol/sdk 1.32.2), which serves
// the initialize era: `StdioServerTransport` for stdio, and over HTTP a `StreamableHTTPServerTransport`
// and `McpServer` per session (its documented stateful pattern), with JSON answers.
// With `--expose-gc`, SIGUSR2 collects garbage and prints `heap <bytes used>` on stderr.
//
//   node bench/servers/sdk1-echo.mjs --stdio
//   node bench/servers/sdk1-echo.mjs --port 0     # prints "listening on <url>" on stderr
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as z from "zod";
import "./heap-report.mjs";

function echoServer() {
  const server = new McpServer(
    { name: "echo-sdk-v1", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    "echo",
    { description: "Answers with its text argument.", inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: "text", text }],
    }),
  );
  return server;
}

const args = process.argv.slice(2);
if (args.includes("--stdio")) {
  await echoServer().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const http = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", async () => {
      const body =
        chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport && body?.method === "initialize") {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
        });
        transport.onclose = () => sessions.delete(transport.sessionId);
        await echoServer().connect(transport);
      }
      if (!transport) {
        res.writeHead(404).end();
        return;
      }
      await transport.handleRequest(req, res, body);
    });
  });
  const portAt = args.indexOf("--port");
  http.listen(portAt >= 0 ? Number(args[portAt + 1]) : 3000, "127.0.0.1", () => {
    process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`);
  });
  process.on("SIGTERM", () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
}
