// A real legacy (initialize-era) peer with per-resource subscriptions, for the dual-era client's
// `listen` on a legacy session: the official TypeScript SDK v1 server declaring
// `resources.subscribe`. (A server generated for an initialize-era revision alone has no way to
// send a notification outside a request, so it cannot be this peer.)
//
//   node sdk-v1-subscribe-server.mjs --log FILE --stdio     serves stdin/stdout
//   node sdk-v1-subscribe-server.mjs --log FILE --port 0    serves Streamable HTTP with sessions on
//                                                           127.0.0.1 ("listening on <url>" on stderr)
//
// Every subscribe and unsubscribe it is sent is appended to FILE ("subscribe <uri>"), so a test can
// see them after the client has gone. Its tool "touch" sends resources/updated for every resource
// it has a subscription to and for one it has none to (which a legacy server would not: the client
// must still keep it out of the stream), and adds a tool (a tool list change).
import { appendFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { serve } from "./sdk-v1-serve.mjs";

const args = process.argv.slice(2);
const log = args[args.indexOf("--log") + 1];

function makeServer() {
  const server = new McpServer(
    { name: "sdk-v1-subscribe", version: "1.32.2" },
    { capabilities: { tools: { listChanged: true }, resources: { subscribe: true } } },
  );
  const subscribed = new Set();
  const text = (value) => ({ content: [{ type: "text", text: value }] });
  for (const name of ["a", "b"])
    server.resource(name, `test://${name}`, async (uri) => ({
      contents: [{ uri: uri.href, text: name }],
    }));
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    appendFileSync(log, `subscribe ${request.params.uri}\n`);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    appendFileSync(log, `unsubscribe ${request.params.uri}\n`);
    return {};
  });
  server.tool("touch", "Updates the subscribed resources (and one more), adds a tool", async () => {
    for (const uri of [...subscribed, "test://unsubscribed"])
      await server.server.sendResourceUpdated({ uri });
    server.tool(`added_${randomUUID().slice(0, 8)}`, "Added", async () => text("added"));
    return text("touched");
  });
  return server;
}

await serve(makeServer);
