import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
const META = JSON.stringify({ "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} });
const body = (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":${META}}}`;
const H = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo" };
async function one(file) {
  const c = spawn(process.execPath, [file, "--port", "0"], { stdio: ["ignore", "inherit", "pipe"], env: { ...process.env, MCP_GEN_JS_DIR: "/work/main/.bench-tmp/server-js/2026-07-28" } });
  const url = await new Promise((r) => c.stderr.on("data", (d) => { const m = /http:\S+/.exec(String(d)); if (m) r(m[0]); }));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let n = 0; const t0 = performance.now();
  while (performance.now() - t0 < 1500) {
    await new Promise((res, rej) => { const b = body(++n); const q = request(url, { method: "POST", agent, headers: { ...H, "Content-Length": Buffer.byteLength(b) } }, (r) => { r.resume(); r.on("end", res); }); q.on("error", rej); q.end(b); });
  }
  c.kill();
  return (n / 1.5) | 0;
}
for (let i = 0; i < 3; i++) for (const f of ["bare", "ours"]) console.log(f, await one(`bench/servers/${f}-echo.mjs`));
