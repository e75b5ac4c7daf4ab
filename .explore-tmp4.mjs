import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
const file = process.argv[2];
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" } };
const child = spawn(process.execPath, [file, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
const rl = createInterface({ input: child.stdout });
rl.on("line", (l) => console.log("<", l));
child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } }) + "\n");
child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "hi" }, _meta: meta } }) + "\n");
setTimeout(async () => {
  const h = spawn(process.execPath, [file, "--port", "0"], { stdio: ["ignore", "inherit", "pipe"] });
  const url = await new Promise((r) => h.stderr.on("data", (d) => { const m = /http:\S+/.exec(String(d)); if (m) r(m[0]); else process.stderr.write(d); }));
  for (const [id, method, params] of [[1, "server/discover", {}], [2, "tools/call", { name: "echo", arguments: { text: "hi" } }]]) {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(params.name ? { "mcp-name": params.name } : {}) }, body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }) });
    console.log("HTTP", res.status, res.headers.get("content-type"), await res.text());
  }
  h.kill(); child.kill();
}, 1500);
