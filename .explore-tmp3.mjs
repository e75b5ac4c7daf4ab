import { Client, StreamableHTTPClientTransport, LOG_LEVEL_META_KEY } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { spawn } from "node:child_process";
const mode = process.argv[2] ?? "stdio";
console.log(LOG_LEVEL_META_KEY);
const client = new Client({ name: "interop", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
client.setNotificationHandler("notifications/message", (n) => console.log("LOG", JSON.stringify(n)));
let child, transport;
if (mode === "stdio") transport = new StdioClientTransport({ command: process.execPath, args: ["dist/examples/conformance-server.js", "--stdio"], stderr: "inherit" });
else {
  child = spawn(process.execPath, ["dist/examples/conformance-server.js", "--port", "0"], { stdio: ["ignore", "inherit", "pipe"] });
  const url = await new Promise((r) => child.stderr.once("data", (d) => r(/http:\S+/.exec(String(d))[0])));
  console.log(url);
  transport = new StreamableHTTPClientTransport(new URL(url));
}
await client.connect(transport);
console.log(client.getProtocolEra());
console.log(JSON.stringify(await client.callTool({ name: "test_logging_tool", arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: "debug" } })));
const ac = new AbortController();
const p = client.callTool({ name: "test_tool_with_progress", arguments: {} }, { signal: ac.signal, onprogress: () => ac.abort("stop") });
try { await p; } catch (e) { console.log("aborted:", e?.constructor?.name, e?.message); }
console.log(JSON.stringify(await client.callTool({ name: "test_simple_text", arguments: {} })));
await client.close(); child?.kill();
