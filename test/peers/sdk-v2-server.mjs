// A server written with the official SDK v2 (@modelcontextprotocol/server 2.4.0; over HTTP through
// @modelcontextprotocol/node 2.1.2), left to its default era handling: it serves 2026-07-28 and also
// answers an initialize-era client (stdio: `legacy: "serve"`, HTTP: `legacy: "stateless"`), so a
// dual-era client that falls back too eagerly would be seen. Its tools ask for input the
// 2026-07-28 way (input_required): an elicitation, a sampling request, the client's roots.
//
//   node test/peers/sdk-v2-server.mjs --stdio
//   node test/peers/sdk-v2-server.mjs --port 0     # prints "listening on <url>" on stderr
import { createServer } from "node:http";
import {
  McpServer,
  ResourceTemplate,
  acceptedContent,
  createMcpHandler,
  inputRequired,
  inputResponse,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import {
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import * as z from "zod";

function factory() {
  const server = new McpServer(
    { name: "peer-sdk-v2", version: "2.4.0" },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  server.registerTool(
    "add",
    {
      description: "Adds two numbers.",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    async ({ a, b }) => ({
      content: [{ type: "text", text: String(a + b) }],
      structuredContent: { sum: a + b },
    }),
  );
  server.registerTool(
    "confirm",
    {
      description: "Asks for a confirmation first.",
      inputSchema: z.object({ action: z.string() }),
    },
    async ({ action }, ctx) => {
      const schema = z.object({ confirmed: z.boolean() });
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm", schema);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Really ${action}?`,
              requestedSchema: schema,
            }),
          },
        });
      }
      return {
        content: [{ type: "text", text: `${action}: ${answer.confirmed ? "done" : "kept"}` }],
      };
    },
  );
  server.registerTool(
    "summarize",
    {
      description: "Asks the client's model for a summary.",
      inputSchema: z.object({ text: z.string() }),
    },
    async ({ text }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "summary");
      if (answer.kind !== "sampling") {
        return inputRequired({
          inputRequests: {
            summary: inputRequired.createMessage({
              messages: [{ role: "user", content: { type: "text", text: `Summarize: ${text}` } }],
              maxTokens: 50,
            }),
          },
        });
      }
      return { content: [{ type: "text", text: `summary: ${answer.result.content.text}` }] };
    },
  );
  server.registerTool(
    "roots",
    { description: "Names the client's roots.", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "roots");
      if (answer.kind !== "roots") {
        return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
      }
      return { content: [{ type: "text", text: answer.roots.map((r) => r.uri).join(" ") }] };
    },
  );
  server.registerResource(
    "readme",
    "docs://readme",
    { description: "The readme.", mimeType: "text/plain" },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: "Read me first." }],
    }),
  );
  server.registerResource(
    "page",
    new ResourceTemplate("docs://pages/{n}", { list: undefined }),
    { description: "A numbered page.", mimeType: "text/plain" },
    async (uri, { n }) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: `Page ${n}.` }],
    }),
  );
  server.registerPrompt(
    "greet",
    { description: "Greets someone.", argsSchema: z.object({ name: z.string() }) },
    ({ name }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Say hello to ${name}.` } }],
    }),
  );
  return server;
}

const args = process.argv.slice(2);
if (args.includes("--stdio")) {
  serveStdio(factory);
} else {
  const node = toNodeHandler(createMcpHandler(factory));
  const host = localhostHostValidation();
  const origin = localhostOriginValidation();
  const http = createServer((req, res) => {
    if (!host(req, res) || !origin(req, res)) return;
    void node(req, res);
  });
  const portAt = args.indexOf("--port");
  http.listen(portAt >= 0 ? Number(args[portAt + 1]) : 0, "127.0.0.1", () => {
    process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`);
  });
  process.on("SIGTERM", () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
}
