// Legacy-session benchmark: the echo tool served to initialize-era clients (protocol 2025-11-25) by
//   bare    bench/servers/bare-echo.mjs   no validation, no sessions (the floor)
//   SDK v1  bench/servers/sdk1-echo.mjs   @modelcontextprotocol/sdk 1.32.2, a session per client
//   ours    bench/servers/ours-echo.mjs   the dual-era server (2026-07-28 --legacy 2025-11-25)
// each in a process of its own, driven from this process over loopback after the handshake:
// sequential tools/call over stdio, HTTP at concurrency 1 and 16 on one session (req/s, p50, p99,
// the server's CPU per request). Then memory per idle HTTP session: ours and SDK v1 open 1,000
// sessions (initialize + initialized) after a warm-up of 50, and the heap the server holds after a
// full collection (`--expose-gc`, SIGUSR2) grows by so many KiB per session. Bounded loops, no
// timing assertions; ours is printed beside the anchors as ratios.
//
//   node bench/legacy.mjs        # standalone (builds the dual-era server itself)
import { Agent } from "node:http";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { prepareRevision } from "./prepare.mjs";
import {
  DURATION_MS,
  ROUNDS,
  TEXT,
  WARMUP_MS,
  listeningUrl,
  measureHttp,
  measureStdio,
  now,
  post,
  rssMiB,
  ratioTable,
  startServer,
  stdioCaller,
  stop,
} from "./server.mjs";

const SERVERS = [
  { key: "bare", label: "bare", file: "bare-echo.mjs" },
  { key: "sdk1", label: "SDK v1", file: "sdk1-echo.mjs" },
  { key: "ours", label: "ours", file: "ours-echo.mjs" },
];
export const MODERN = "2026-07-28";
export const LEGACY = ["2025-11-25"];
const VERSION = LEGACY[0];
const SESSIONS = Number(process.env.BENCH_LEGACY_SESSIONS ?? 1000);
const WARM_SESSIONS = 50;

const initializeBody = (id) =>
  `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"${VERSION}","capabilities":{},"clientInfo":{"name":"mcp-gen-bench","version":"1.0.0"}}}`;
const INITIALIZED = `{"jsonrpc":"2.0","method":"notifications/initialized"}`;
const callBody = (id) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(TEXT)}}}}`;
const BASE_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

async function benchStdio(server, jsDir) {
  const proc = startServer(server, ["--stdio"], jsDir);
  const call = stdioCaller(server, proc);
  let id = 0;
  await call(initializeBody(++id));
  proc.child.stdin.write(`${INITIALIZED}\n`);
  const run = (ms) => measureStdio(server, proc, call, ms, () => callBody(++id));
  await run(WARMUP_MS);
  const result = await run(DURATION_MS);
  await stop(proc);
  return result;
}

/** Opens a legacy session over HTTP: initialize, then initialized; returns the headers its requests carry. */
async function openSession(agent, url, id) {
  const opened = await post(agent, url, initializeBody(id), BASE_HEADERS);
  if (opened.status !== 200)
    throw new Error(`initialize: ${opened.status} ${opened.text.slice(0, 300)}`);
  const session = opened.headers["mcp-session-id"];
  const headers = {
    ...BASE_HEADERS,
    "MCP-Protocol-Version": VERSION,
    ...(session ? { "Mcp-Session-Id": session } : {}),
  };
  const notified = await post(agent, url, INITIALIZED, headers);
  if (notified.status >= 300)
    throw new Error(`initialized: ${notified.status} ${notified.text.slice(0, 300)}`);
  return headers;
}

async function benchHttp(server, jsDir) {
  const proc = startServer(server, ["--port", "0"], jsDir);
  const url = await listeningUrl(server, proc);
  let id = 0;
  const headers = await openSession(new Agent({ keepAlive: true }), url, ++id);
  const run = (concurrency, ms) =>
    measureHttp(server, proc, url, concurrency, ms, () => callBody(++id), headers);
  // Warmed at c=16 first, where requests come fastest: at c=1 alone, the server's hot code was
  // still being optimised when the measurement began, and V8's compiler threads took CPU beside it
  // (ours, more code to optimise than the bare server's, paid most: 275 against 83 µs per request).
  await run(16, WARMUP_MS);
  await run(1, WARMUP_MS);
  const c1 = await run(1, DURATION_MS);
  await run(16, WARMUP_MS / 2);
  const c16 = await run(16, DURATION_MS);
  await stop(proc);
  return { c1, c16 };
}

/** Heap used after a full collection in the server process (it prints it on SIGUSR2). */
async function heapAfterGc(proc) {
  const before = proc.stderr().length;
  proc.child.kill("SIGUSR2");
  for (;;) {
    const found = /heap (\d+)\n/.exec(proc.stderr().slice(before));
    if (found) return Number(found[1]);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** KiB of heap (and of RSS) per idle legacy HTTP session, over `SESSIONS` sessions. */
async function sessionMemory(server, jsDir) {
  const proc = startServer(server, ["--port", "0"], jsDir, ["--expose-gc"]);
  const url = await listeningUrl(server, proc);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let id = 0;
  const open = async (count) => {
    for (let done = 0; done < count; done += 8)
      await Promise.all(
        Array.from({ length: Math.min(8, count - done) }, () => openSession(agent, url, ++id)),
      );
  };
  await open(WARM_SESSIONS);
  const heap0 = await heapAfterGc(proc);
  const rss0 = rssMiB(proc.child.pid);
  await open(SESSIONS);
  const heap1 = await heapAfterGc(proc);
  const rss1 = rssMiB(proc.child.pid);
  agent.destroy();
  await stop(proc);
  return { heapKiB: (heap1 - heap0) / 1024 / SESSIONS, rssKiB: ((rss1 - rss0) * 1024) / SESSIONS };
}

export async function benchLegacy(jsDir) {
  const began = now();
  const figures = Object.fromEntries(SERVERS.map((s) => [s.key, {}]));
  const best = (a, b) => (a === undefined || b.rps > a.rps ? b : a);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? SERVERS : [...SERVERS].reverse();
    for (const server of order)
      figures[server.key].stdio = best(figures[server.key].stdio, await benchStdio(server, jsDir));
    for (const server of order) {
      const http = await benchHttp(server, jsDir);
      figures[server.key].c1 = best(figures[server.key].c1, http.c1);
      figures[server.key].c16 = best(figures[server.key].c16, http.c16);
    }
  }
  const memory = {
    sdk1: await sessionMemory(SERVERS[1], jsDir),
    ours: await sessionMemory(SERVERS[2], jsDir),
  };

  const rows = [
    ["stdio sequential: req/s", (f) => f.stdio.rps, 0],
    ["stdio sequential: p99 ms", (f) => f.stdio.p99, 3],
    ["stdio sequential: server CPU µs/req", (f) => f.stdio.cpuUs, 0],
    ["HTTP c=1: req/s", (f) => f.c1.rps, 0],
    ["HTTP c=1: p99 ms", (f) => f.c1.p99, 3],
    ["HTTP c=1: server CPU µs/req", (f) => f.c1.cpuUs, 0],
    ["HTTP c=16: req/s", (f) => f.c16.rps, 0],
    ["HTTP c=16: p99 ms", (f) => f.c16.p99, 3],
    ["HTTP c=16: server CPU µs/req", (f) => f.c16.cpuUs, 0],
  ];
  const table = ratioTable(rows, SERVERS, figures, "SDK v1");
  console.log(
    `\nServer, legacy session (protocol ${VERSION} after initialize; dual-era ${MODERN} --legacy ${LEGACY.join(",")}; best of ${ROUNDS} rounds of ${DURATION_MS} ms; ${availableParallelism()} cores shared over loopback)`,
  );
  console.table(table);
  console.log(
    `\nMemory per idle legacy HTTP session (${SESSIONS} sessions after ${WARM_SESSIONS}, heap after a full GC; RSS growth for reference)`,
  );
  console.table({
    "heap KiB/session": {
      "SDK v1": memory.sdk1.heapKiB.toFixed(2),
      ours: memory.ours.heapKiB.toFixed(2),
      "ours ÷ SDK v1": (memory.ours.heapKiB / memory.sdk1.heapKiB).toFixed(3),
    },
    "RSS KiB/session": {
      "SDK v1": memory.sdk1.rssKiB.toFixed(2),
      ours: memory.ours.rssKiB.toFixed(2),
      "ours ÷ SDK v1": (memory.ours.rssKiB / memory.sdk1.rssKiB).toFixed(3),
    },
  });
  console.log(`group took ${((now() - began) / 1000).toFixed(1)} s; ratios are ours ÷ anchor`);
  return { figures, memory };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchLegacy(prepareRevision(MODERN, LEGACY));
}
