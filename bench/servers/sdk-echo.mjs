// The echo server written with the official SDK v2 (@modelcontextprotocol/server 2.4.0), served the
// way its documentation serves it: `serveStdio(factory)` for stdio, and `createMcpHandler(factory)`
// mounted on node:http through `toNodeHandler` (@modelcontextprotocol/node 2.1.2, the adapter
// release that pairs with server 2.4.0) behind the localhost Host/Origin guards.
//
//   node bench/servers/sdk-echo.mjs --stdio
//   node bench/servers/sdk-echo.mjs --port 0     # prints "listening on <url>" on stderr
import { createServer } from "node:http";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import {
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import * as z from "zod";

function factory() {
  const server = new McpServer(
    { name: "echo-sdk", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    "echo",
    { description: "Answers with its text argument.", inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
}

const args = process.argv.slice(2);
if (args.includes("--stdio")) {
  serveStdio(factory, { legacy: "reject" });
} else {
  const handler = createMcpHandler(factory, { legacy: "reject" });
  const node = toNodeHandler(handler);
  const host = localhostHostValidation();
  const origin = localhostOriginValidation();
  const http = createServer((req, res) => {
    if (!host(req, res) || !origin(req, res)) return;
    if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    void node(req, res);
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
