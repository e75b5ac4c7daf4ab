// A real legacy (initialize-era) peer for the dual-era client tests: the official TypeScript SDK v1
// (`@modelcontextprotocol/sdk` 1.32.2) server, as servers deployed today are built.
//
//   node sdk-v1-server.mjs --stdio         serves stdin/stdout
//   node sdk-v1-server.mjs --port 0        serves Streamable HTTP with sessions on 127.0.0.1, and
//                                          prints "listening on <url>" on stderr
//
// Its tools ask the client what a legacy server can ask (elicitation, sampling, roots, as real
// requests), send notifications (progress, log messages, a tool list change), and one ends every
// HTTP session, so that the client's next request meets a 404.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { serve } from "./sdk-v1-serve.mjs";

const sessions = new Map();

function makeServer() {
  const server = new McpServer(
    { name: "sdk-v1-legacy", version: "1.32.2" },
    { capabilities: { logging: {}, tools: { listChanged: true } } },
  );
  const text = (value) => ({ content: [{ type: "text", text: value }] });
  server.tool("echo", "Echoes its text", { text: z.string() }, async ({ text: value }) =>
    text(`echo: ${value}`),
  );
  server.tool("ask", "Asks the user their name", async () => {
    const answer = await server.server.elicitInput({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    return text(`${answer.action}: ${JSON.stringify(answer.content ?? {})}`);
  });
  server.tool("sample", "Asks the model", async () => {
    const answer = await server.server.createMessage({
      messages: [{ role: "user", content: { type: "text", text: "Hi?" } }],
      maxTokens: 10,
    });
    return text(`model said: ${answer.content.type === "text" ? answer.content.text : "?"}`);
  });
  server.tool("roots", "Lists the client's roots", async () => {
    const { roots } = await server.server.listRoots();
    return text(roots.map((r) => r.uri).join(","));
  });
  server.tool("progress", "Reports progress, then logs", async (extra) => {
    const token = extra._meta?.progressToken;
    for (const progress of [1, 2]) {
      if (token !== undefined)
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress, total: 2 },
        });
    }
    await server.sendLoggingMessage({ level: "info", data: "progress done" });
    return text("done");
  });
  server.tool("change", "Adds a tool (the list changes)", async () => {
    server.tool(`added_${randomUUID().slice(0, 8)}`, "Added", async () => text("added"));
    return text("changed");
  });
  server.tool("forget", "Ends every HTTP session on the server side", async () => {
    setTimeout(() => {
      for (const transport of sessions.values()) void transport.close();
      sessions.clear();
    }, 10);
    return text("forgotten");
  });
  server.resource("readme", "test://readme", async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "read me" }],
  }));
  server.prompt("greet", { name: z.string() }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Hello, ${name}` } }],
  }));
  return server;
}

await serve(makeServer, sessions);
