import { createServer } from "./dist/generated/2026-07-28/index.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
const server = createServer({ info: { name: "t", version: "1" }, capabilities: { tools: {} }, log: () => {}, handlers: {
  "tools/list": () => ({ tools: [{ name: "boom", inputSchema: { type: "object" } }] }),
  "tools/call": () => { throw new Error("boom"); },
} });
const h = await server.listen({ port: 0 });
const client = new Client({ name: "c", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
await client.connect(new StreamableHTTPClientTransport(new URL(h.url)));
try { await client.callTool({ name: "boom", arguments: {} }); } catch (e) { console.log(e.constructor.name, e.code, e.message, JSON.stringify(e.data)); }
try { await client.complete({ ref: { type: "ref/prompt", name: "x" }, argument: { name: "a", value: "" } }); } catch (e) { console.log(e.constructor.name, e.code, e.message, JSON.stringify(e.data)); }
await client.close(); await h.close();
