// How the SDK v1 test servers are served, from their command line: `--stdio` serves stdin/stdout;
// `--port N` serves Streamable HTTP with sessions on 127.0.0.1, printing "listening on <url>" on
// stderr (a request naming an unknown session gets a 404). `makeServer` makes one server per
// session; `sessions` (session id → transport) is the caller's, so that it can end them.
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export async function serve(makeServer, sessions = new Map()) {
  const args = process.argv.slice(2);
  if (args.includes("--stdio")) {
    await makeServer().connect(new StdioServerTransport());
  } else {
    const http = createServer(async (req, res) => {
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport) {
        if (typeof id === "string") {
          res.writeHead(404, { "Content-Type": "application/json" });
          res.end(
            JSON.stringify({
              jsonrpc: "2.0",
              id: null,
              error: { code: -32001, message: "Session not found" },
            }),
          );
          return;
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await makeServer().connect(transport);
      }
      await transport.handleRequest(req, res);
    });
    http.listen(Number(args[args.indexOf("--port") + 1] ?? 0), "127.0.0.1", () => {
      process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`);
    });
    process.on("SIGTERM", () => {
      http.closeAllConnections();
      http.close(() => process.exit(0));
    });
  }
}
