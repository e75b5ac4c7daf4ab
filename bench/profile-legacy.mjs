// Profiling aid (not part of npm run bench): one legacy session over HTTP at c=1 against the
// dual-era echo server started with --cpu-prof; N calls, then the profile's path.
// PROF_INTERVAL: the sampling interval in µs (default 1000; at c=1 a request takes ~50 µs of CPU, so
// 1000 gives only one sample per twenty requests).
//   node bench/profile-legacy.mjs [calls] [profile dir]
import { Agent } from "node:http";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { listeningUrl, post, startServer, stop, TEXT } from "./server.mjs";
import { ROOT } from "./prepare.mjs";

const calls = Number(process.argv[2] ?? 20000);
const dir = process.argv[3] ?? join(ROOT, ".bench-tmp", "prof");
const jsDir = process.env.MCP_GEN_JS_DIR ?? join(ROOT, ".bench-tmp", "js", "2026-07-28+2025-11-25");
const server = { key: "ours", label: "ours", file: process.env.PROF_SERVER ?? "ours-echo.mjs" };
const proc = startServer(server, ["--port", "0"], jsDir, [
  "--cpu-prof",
  "--cpu-prof-dir",
  dir,
  "--cpu-prof-interval",
  process.env.PROF_INTERVAL ?? "1000",
]);
const url = await listeningUrl(server, proc);
// PROF_STRACE=file: the server's system calls counted (strace -c) over the calls.
let strace;
if (process.env.PROF_STRACE) {
  const { spawn } = await import("node:child_process");
  strace = spawn(
    "strace",
    ["-c", "-f", "-o", process.env.PROF_STRACE, "-p", String(proc.child.pid)],
    { stdio: "ignore" },
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const agent = new Agent({ keepAlive: true });
const base = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const init = await post(
  agent,
  url,
  `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"p","version":"1"}}}`,
  base,
);
const session = init.headers["mcp-session-id"];
const headers = {
  ...base,
  "MCP-Protocol-Version": "2025-11-25",
  ...(session ? { "Mcp-Session-Id": session } : {}),
};
await post(agent, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, headers);
for (let id = 1; id <= calls; id++) {
  const r = await post(
    agent,
    url,
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(TEXT)}}}}`,
    headers,
  );
  if (r.status !== 200) throw new Error(r.text);
}
agent.destroy();
if (strace) {
  strace.kill("SIGINT");
  await new Promise((resolve) => strace.on("exit", resolve));
}
await stop(proc);
const file = readdirSync(dir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .sort()
  .at(-1);
console.log(join(dir, file));
