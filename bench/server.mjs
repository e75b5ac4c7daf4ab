// Server benchmark: one `echo` tool (returns its `text` argument as text content) served by three
// servers in the same run, each in a process of its own, driven from this process over loopback:
//   bare  bench/servers/bare-echo.mjs  no validation: JSON.parse, canned answer, JSON.stringify
//   SDK   bench/servers/sdk-echo.mjs   the official SDK v2 (@modelcontextprotocol/server 2.4.0)
//   ours  bench/servers/ours-echo.mjs  the generated 2026-07-28 server, full validation
// Measured for each: sequential tools/call over stdio, HTTP at concurrency 1 and 16 (req/s, p50 and
// p99 latency, and the server process's CPU time per request from /proc/<pid>/stat, which load from
// elsewhere on the machine disturbs less than wall-clock figures), the server's resident memory after the run (VmRSS), and start-up time (spawn → the
// answer to a `server/discover` written at once on stdin). Bounded loops, no timing assertions;
// ours is printed beside the anchors as ratios.
//
//   node bench/server.mjs                 # standalone (builds the generated server itself)
//   BENCH_SERVER_MS=3000 node bench/server.mjs
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, prepareRevision } from "./prepare.mjs";

const SERVERS = [
  { key: "bare", label: "bare", file: "bare-echo.mjs" },
  { key: "sdk", label: "SDK v2", file: "sdk-echo.mjs" },
  { key: "ours", label: "ours", file: "ours-echo.mjs" },
];
const REVISION = "2026-07-28";
/** Length of each measurement, after a warm-up of a quarter of it. */
export const DURATION_MS = Number(process.env.BENCH_SERVER_MS ?? 2000);
export const WARMUP_MS = Math.max(250, DURATION_MS / 4);
/** Start-ups timed per server (median reported), interleaved across servers. */
const STARTUPS = Number(process.env.BENCH_SERVER_STARTUPS ?? 5);
/** Rounds of the throughput measurements; the best round of each is reported. */
export const ROUNDS = Number(process.env.BENCH_SERVER_ROUNDS ?? 2);
/** The largest number of requests one measurement makes, whatever the time. */
export const MAX_REQUESTS = 200_000;
export const TEXT = "hello from the echo benchmark";

const META = JSON.stringify({
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "mcp-gen-bench", version: "1.0.0" },
});
export const callBody = (id) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(TEXT)}},"_meta":${META}}}`;
const discoverBody = (id) =>
  `{"jsonrpc":"2.0","id":${id},"method":"server/discover","params":{"_meta":${META}}}`;
const EXPECTED = `"text":${JSON.stringify(TEXT)}`;
export const HTTP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": REVISION,
  "Mcp-Method": "tools/call",
  "Mcp-Name": "echo",
};

export const now = () => Number(process.hrtime.bigint()) / 1e6; // ms

/**
 * One row per measurement: the bare, SDK and our figures (servers in that order, by `key`), and
 * ours as a ratio of each anchor measured in the same run.
 */
export function ratioTable(rows, servers, figures, sdkLabel) {
  return Object.fromEntries(
    rows.map(([name, get, digits]) => {
      const [bare, sdk, ours] = servers.map((s) => get(figures[s.key]));
      return [
        name,
        {
          bare: bare.toFixed(digits),
          [sdkLabel]: sdk.toFixed(digits),
          ours: ours.toFixed(digits),
          "ours ÷ bare": (ours / bare).toFixed(2),
          [`ours ÷ ${sdkLabel}`]: (ours / sdk).toFixed(2),
        },
      ];
    }),
  );
}

export function startServer(server, args, jsDir, nodeArgs = []) {
  const child = spawn(
    process.execPath,
    [...nodeArgs, join(ROOT, "bench", "servers", server.file), ...args],
    {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, MCP_GEN_JS_DIR: jsDir },
    },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { child, exited, stderr: () => stderr };
}

export async function stop({ child, exited }) {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
  await exited;
  clearTimeout(timer);
}

/** VmRSS of a live process, in MiB. */
export function rssMiB(pid) {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+)\s+kB/m);
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(line[1]) / 1024;
}

/** Lines of a child's stdout, each handed to `onLine`. */
export function readLines(stream, onLine) {
  let buffered = "";
  stream.setEncoding("utf8").on("data", (chunk) => {
    buffered += chunk;
    let at;
    while ((at = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      if (line.trim() !== "") onLine(line);
    }
  });
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) a live process has used, in ms; resolution one clock tick. */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
}

/** Requests/s, latency percentiles and, given the server's CPU ms over the run, its CPU µs per request. */
export function summarize(latencies, elapsedMs, serverCpuMs = NaN) {
  const sorted = Float64Array.from(latencies).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    requests: sorted.length,
    rps: (sorted.length / elapsedMs) * 1000,
    p50: at(0.5),
    p99: at(0.99),
    cpuUs: (serverCpuMs * 1000) / sorted.length,
  };
}

// ---------------------------------------------------------------------------------------------------
// stdio
// ---------------------------------------------------------------------------------------------------

/** Start-up: spawn, write `server/discover` at once, time its answer. */
async function startupMs(server, jsDir) {
  const started = now();
  const proc = startServer(server, ["--stdio"], jsDir);
  const answered = new Promise((resolve, reject) => {
    readLines(proc.child.stdout, (line) => resolve({ at: now(), line }));
    proc.exited.then((code) =>
      reject(new Error(`${server.label} exited (${code}) before answering:\n${proc.stderr()}`)),
    );
  });
  proc.child.stdin.write(`${discoverBody(1)}\n`);
  const { at, line } = await answered;
  if (!line.includes('"supportedVersions"'))
    throw new Error(`${server.label}: unexpected discover answer ${line}`);
  await stop(proc);
  return at - started;
}

/** A server over stdio, one request at a time: `call(body)` writes a line and resolves with the next line it answers. */
export function stdioCaller(server, proc) {
  let pending;
  readLines(proc.child.stdout, (line) => pending?.(line));
  proc.exited.then(() => pending?.(null));
  return (body) =>
    new Promise((resolve, reject) => {
      pending = (line) => {
        if (line === null) reject(new Error(`${server.label} (stdio) exited:\n${proc.stderr()}`));
        else resolve(line);
      };
      proc.child.stdin.write(`${body}\n`);
    });
}

/** Sequential calls for `ms` (at most MAX_REQUESTS), each answer checked for the echo; latencies and the server's CPU. */
export async function measureStdio(server, proc, call, ms, nextBody) {
  const latencies = [];
  const cpu = cpuMs(proc.child.pid);
  const start = now();
  const deadline = start + ms;
  while (latencies.length < MAX_REQUESTS) {
    const sent = now();
    if (sent >= deadline) break;
    const line = await call(nextBody());
    latencies.push(now() - sent);
    if (!line.includes(EXPECTED))
      throw new Error(`${server.label} (stdio): unexpected answer ${line}`);
  }
  return summarize(latencies, now() - start, cpuMs(proc.child.pid) - cpu);
}

async function benchStdio(server, jsDir) {
  const proc = startServer(server, ["--stdio"], jsDir);
  const call = stdioCaller(server, proc);
  let id = 0;
  const discovered = await call(discoverBody(++id));
  if (!discovered.includes('"supportedVersions"'))
    throw new Error(`${server.label}: unexpected discover answer ${discovered}`);
  const run = (ms) => measureStdio(server, proc, call, ms, () => callBody(++id));
  await run(WARMUP_MS);
  const result = await run(DURATION_MS);
  const rss = rssMiB(proc.child.pid);
  await stop(proc);
  return { ...result, rss };
}

// ---------------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------------

/** POSTs `body` (with `headers`, by default a modern request's); resolves with the status, body and headers. */
export function post(agent, url, body, headers = HTTP_HEADERS) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", agent, headers: { ...headers, "Content-Length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode, text, headers: res.headers }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The URL a server started with `--port 0` prints once it listens. */
export function listeningUrl(server, proc) {
  return new Promise((resolve, reject) => {
    proc.child.stderr.on("data", () => {
      const found = /listening on (http:\/\/\S+)/.exec(proc.stderr());
      if (found) resolve(new URL(found[1]));
    });
    proc.exited.then((code) =>
      reject(new Error(`${server.label} (HTTP) exited (${code}):\n${proc.stderr()}`)),
    );
  });
}

/** `concurrency` clients POSTing for `ms` (at most MAX_REQUESTS in all), each answer checked for the echo. */
export async function measureHttp(
  server,
  proc,
  url,
  concurrency,
  ms,
  nextBody,
  headers = HTTP_HEADERS,
) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  const cpu = cpuMs(proc.child.pid);
  const start = now();
  const deadline = start + ms;
  const worker = async () => {
    while (latencies.length < MAX_REQUESTS) {
      const sent = now();
      if (sent >= deadline) return;
      const { status, text } = await post(agent, url, nextBody(), headers);
      latencies.push(now() - sent);
      if (status !== 200 || !text.includes(EXPECTED))
        throw new Error(`${server.label} (HTTP): ${status} ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const result = summarize(latencies, now() - start, cpuMs(proc.child.pid) - cpu);
  agent.destroy();
  return result;
}

async function benchHttp(server, jsDir) {
  const proc = startServer(server, ["--port", "0"], jsDir);
  const url = await listeningUrl(server, proc);

  let id = 0;
  const run = (concurrency, ms) =>
    measureHttp(server, proc, url, concurrency, ms, () => callBody(++id));
  await run(1, WARMUP_MS);
  const c1 = await run(1, DURATION_MS);
  await run(16, WARMUP_MS / 2);
  const c16 = await run(16, DURATION_MS);
  const rss = rssMiB(proc.child.pid);
  await stop(proc);
  return { c1, c16, rss };
}

// ---------------------------------------------------------------------------------------------------
// The group
// ---------------------------------------------------------------------------------------------------

/** Runs the group against the generated server compiled in `jsDir`, prints the table and returns the figures. */
export async function benchServer(revision, jsDir) {
  if (revision !== REVISION) {
    console.log(`\nServer benchmark skipped: its echo servers speak ${REVISION}, not ${revision}`);
    return null;
  }
  const figures = Object.fromEntries(SERVERS.map((s) => [s.key, { startups: [] }]));
  const began = now();
  // Start-ups interleaved, so that drift in the machine's load falls on every server alike.
  for (let round = 0; round < STARTUPS; round++) {
    for (const server of SERVERS) figures[server.key].startups.push(await startupMs(server, jsDir));
  }
  for (const server of SERVERS)
    figures[server.key].startup = summarize(figures[server.key].startups, 1).p50;
  // Throughput in rounds, the order reversed every other round; each figure is the best round's
  // (the run least disturbed by whatever else the machine is doing), memory the largest seen.
  const best = (a, b) => (a === undefined || b.rps > a.rps ? b : a);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? SERVERS : [...SERVERS].reverse();
    for (const server of order) {
      const f = figures[server.key];
      const stdio = await benchStdio(server, jsDir);
      f.stdio = best(f.stdio, stdio);
      f.stdioRss = Math.max(f.stdioRss ?? 0, stdio.rss);
    }
    for (const server of order) {
      const f = figures[server.key];
      const http = await benchHttp(server, jsDir);
      f.c1 = best(f.c1, http.c1);
      f.c16 = best(f.c16, http.c16);
      f.httpRss = Math.max(f.httpRss ?? 0, http.rss);
    }
  }

  const rows = [
    ["stdio sequential: req/s", (f) => f.stdio.rps, 0],
    ["stdio sequential: p50 ms", (f) => f.stdio.p50, 3],
    ["stdio sequential: p99 ms", (f) => f.stdio.p99, 3],
    ["stdio sequential: server CPU µs/req", (f) => f.stdio.cpuUs, 0],
    ["HTTP c=1: req/s", (f) => f.c1.rps, 0],
    ["HTTP c=1: p50 ms", (f) => f.c1.p50, 3],
    ["HTTP c=1: p99 ms", (f) => f.c1.p99, 3],
    ["HTTP c=1: server CPU µs/req", (f) => f.c1.cpuUs, 0],
    ["HTTP c=16: req/s", (f) => f.c16.rps, 0],
    ["HTTP c=16: p50 ms", (f) => f.c16.p50, 3],
    ["HTTP c=16: p99 ms", (f) => f.c16.p99, 3],
    ["HTTP c=16: server CPU µs/req", (f) => f.c16.cpuUs, 0],
    ["RSS after stdio runs (max): MiB", (f) => f.stdioRss, 1],
    ["RSS after HTTP runs (max): MiB", (f) => f.httpRss, 1],
    [`start-up to discover answer (median of ${STARTUPS}): ms`, (f) => f.startup, 1],
  ];
  const table = ratioTable(rows, SERVERS, figures, "SDK v2");
  console.log(
    `\nServer, echo tool (${revision}; best of ${ROUNDS} rounds of ${DURATION_MS} ms per measurement after warm-up; client and servers share ${availableParallelism()} cores over loopback)`,
  );
  console.table(table);
  const counts = SERVERS.map(
    (s) =>
      `${s.label} ${figures[s.key].stdio.requests}/${figures[s.key].c1.requests}/${figures[s.key].c16.requests}`,
  ).join(", ");
  console.log(
    `requests measured (stdio/HTTP c=1/HTTP c=16): ${counts}; group took ${((now() - began) / 1000).toFixed(1)} s`,
  );
  console.log(
    "ratios are ours ÷ anchor: above 1 is more req/s, or more latency, CPU, memory or start-up time",
  );
  return figures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchServer(REVISION, prepareRevision(REVISION));
}
