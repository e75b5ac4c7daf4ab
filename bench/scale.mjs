// `npm run bench:scale` (issue 23): throughput of initialize-era sessions when the server scales out,
// Redis-backed processes behind haproxy round-robin, against the in-memory single process measured
// in the same run. The echo tool, called on legacy (2025-11-25) sessions opened through the endpoint
// measured, over HTTP on loopback:
//   memory ×1           one process, no store (the default; the anchor)
//   memory ×1 + haproxy the same behind haproxy (what the proxy costs)
//   redis ×1            one process, sessions in Redis (what the store costs)
//   redis ×3 + haproxy  three processes sharing Redis behind haproxy (the scale-out)
// at concurrency 1 and 16 (each client its own session), best of ROUNDS rounds of DURATION_MS,
// each loop bounded by MAX_REQUESTS. Beside them, what spreading alone costs on this machine: the
// same echo as modern requests (stateless, `_meta`, no store needed) to one in-memory process, alone
// and behind haproxy, and to three behind haproxy; and the same three setups of the bare echo server
// (bench/servers/bare-echo.mjs), the floor any node:http server stands on. redis-server and haproxy
// are started here (Debian's packages: apt-get install -y redis-server haproxy). A table of figures,
// then one of ratios, each setup ÷ the setups it is compared against (SETUPS' `against`).
//
//   node bench/scale.mjs     # after npm run build
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent } from "node:http";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareRevision, ROOT } from "./prepare.mjs";
import {
  findBinary,
  missingBinaries,
  startHaproxy,
  startRedis,
  waitForLine,
} from "./scale-world.mjs";
import {
  DURATION_MS,
  MAX_REQUESTS,
  ROUNDS,
  TEXT,
  WARMUP_MS,
  cpuMs,
  now,
  post,
  summarize,
} from "./server.mjs";

const VERSION = "2025-11-25";
/**
 * A setup: which server (`memory`: ours, no store; `redis`: ours, sessions in Redis; `bare`:
 * bench/servers/bare-echo.mjs, what spreading costs any node:http server here), how many processes,
 * behind haproxy or not, and the setups its figures are divided by (`against`): the store and the
 * proxy against one process alone, the spread also against one process behind the same haproxy
 * (what spreading adds to the proxy's own cost).
 */
function setup(key, server, processes, proxy, against = []) {
  const label = `${server} ×${processes}${proxy ? " + haproxy" : ""}`;
  return {
    key,
    label,
    processes,
    proxy,
    redis: server === "redis",
    bare: server === "bare",
    against,
  };
}
const SETUPS = [
  setup("memory", "memory", 1, false),
  setup("memoryProxy", "memory", 1, true, ["memory"]),
  setup("redis", "redis", 1, false, ["memory"]),
  setup("redis3", "redis", 3, true, ["memory", "memoryProxy"]),
  setup("memory3", "memory", 3, true, ["memory", "memoryProxy"]),
  setup("bare", "bare", 1, false),
  setup("bareProxy", "bare", 1, true, ["bare"]),
  setup("bare3", "bare", 3, true, ["bare", "bareProxy"]),
];
/** Which setups serve which workload: sessions need one process or a shared store (bare has neither). */
const WORKLOADS = {
  legacy: ["memory", "memoryProxy", "redis", "redis3"],
  modern: ["memory", "memoryProxy", "memory3", "bare", "bareProxy", "bare3"],
};
const HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};
const initializeBody = (id) =>
  `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"${VERSION}","capabilities":{},"clientInfo":{"name":"mcp-gen-bench","version":"1.0.0"}}}`;
const INITIALIZED = `{"jsonrpc":"2.0","method":"notifications/initialized"}`;
const callBody = (id) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(TEXT)}}}}`;
const MODERN = "2026-07-28";
const META = JSON.stringify({
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "mcp-gen-bench", version: "1.0.0" },
});
const modernBody = (id) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(TEXT)}},"_meta":${META}}}`;
const MODERN_HEADERS = {
  ...HEADERS,
  "MCP-Protocol-Version": MODERN,
  "Mcp-Method": "tools/call",
  "Mcp-Name": "echo",
};
const EXPECTED = `"text":${JSON.stringify(TEXT)}`;

/**
 * Servers on the last core, this client, haproxy and redis-server on the others (BENCH_SCALE_PIN=0:
 * wherever the scheduler puts them). Unpinned, the five processes wander between the two cores and
 * each server wakes, at c=1, on a core whose caches another process has just filled: three
 * in-memory servers then spent 2.2× one server's CPU per request where three bare servers spent
 * 1.2× (the anchor's own figure moved with them), a cost of this machine's scheduling, not of the
 * spread. Pinned, that cost is out of every setup alike, the anchor included.
 */
const TASKSET = findBinary("taskset");
const PIN =
  process.env.BENCH_SCALE_PIN !== "0" && TASKSET !== undefined && availableParallelism() >= 2;
const SERVER_CORE = String(availableParallelism() - 1);

function pinClientSide() {
  if (!PIN) return;
  // -a: every thread of this process; what it starts later (haproxy, redis-server) inherits it.
  execFileSync(
    TASKSET,
    ["-a", "-p", "-c", `0-${availableParallelism() - 2}`, String(process.pid)],
    {
      stdio: "ignore",
    },
  );
}

/** One echo server process: ours (scale-echo.mjs, REDIS_URL in `env` for the store) or the bare one. */
function startEcho(jsDir, env, bare) {
  const node = bare
    ? [process.execPath, join(ROOT, "bench", "servers", "bare-echo.mjs"), "--port", "0"]
    : [process.execPath, join(ROOT, "bench", "servers", "scale-echo.mjs")];
  const [command, args] = PIN ? [TASKSET, ["-c", SERVER_CORE, ...node]] : [node[0], node.slice(1)];
  const child = spawn(command, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, MCP_GEN_JS_DIR: jsDir, PORT: "0", ...env },
  });
  return waitForLine(child, /listening on (\S+)/).then(([, url]) => ({ child, url }));
}

/** A legacy session through `url`: initialize, then initialized; the headers its requests carry. */
async function openSession(agent, url, id) {
  const opened = await post(agent, url, initializeBody(id), HEADERS);
  if (opened.status !== 200) throw new Error(`initialize: ${opened.status} ${opened.text}`);
  const headers = {
    ...HEADERS,
    "MCP-Protocol-Version": VERSION,
    "Mcp-Session-Id": opened.headers["mcp-session-id"],
  };
  const notified = await post(agent, url, INITIALIZED, headers);
  if (notified.status >= 300) throw new Error(`initialized: ${notified.status} ${notified.text}`);
  return headers;
}

/**
 * `concurrency` clients calling echo for `ms`, each on its own legacy session or (modern) with
 * `_meta` and no session; CPU summed over `pids`.
 */
async function measure(url, concurrency, ms, pids, workload, aux = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let id = 0;
  const sessions = await Promise.all(
    Array.from({ length: concurrency }, () =>
      workload === "legacy" ? openSession(agent, url, ++id) : MODERN_HEADERS,
    ),
  );
  const body = workload === "legacy" ? callBody : modernBody;
  const latencies = [];
  const cpu = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  // Where the rest of the two cores go: haproxy, redis-server, and this (client) process.
  const auxCpu = () => ({
    proxy: aux.proxy === undefined ? NaN : cpuMs(aux.proxy),
    redis: aux.redis === undefined ? NaN : cpuMs(aux.redis),
    client: process.cpuUsage(),
  });
  const aux0 = auxCpu();
  const cpu0 = cpu();
  const start = now();
  const deadline = start + ms;
  const worker = async (headers) => {
    while (latencies.length < MAX_REQUESTS) {
      const sent = now();
      if (sent >= deadline) return;
      const { status, text } = await post(agent, url, body(++id), headers);
      latencies.push(now() - sent);
      if (status !== 200 || !text.includes(EXPECTED))
        throw new Error(`${url}: ${status} ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(sessions.map(worker));
  const result = summarize(latencies, now() - start, cpu() - cpu0);
  const aux1 = auxCpu();
  const perRequest = (msUsed) => (msUsed * 1000) / latencies.length;
  const client = process.cpuUsage(aux0.client);
  result.proxyUs = perRequest(aux1.proxy - aux0.proxy);
  result.redisUs = perRequest(aux1.redis - aux0.redis);
  result.clientUs = (client.user + client.system) / latencies.length;
  agent.destroy();
  return result;
}

/** One setup started, measured at c=1 and c=16 for each workload it serves, stopped. */
async function runSetup(setup, jsDir, dir) {
  const started = [];
  try {
    const redis = setup.redis ? await startRedis(dir) : undefined;
    if (redis) started.push(redis);
    const servers = [];
    for (let i = 0; i < setup.processes; i++) {
      const server = await startEcho(jsDir, redis ? { REDIS_URL: redis.url } : {}, setup.bare);
      started.push({ stop: () => stopChild(server.child) });
      servers.push(server);
    }
    const proxy = setup.proxy
      ? await startHaproxy(
          dir,
          servers.map((s) => Number(new URL(s.url).port)),
        )
      : undefined;
    if (proxy) started.push(proxy);
    const url = proxy ? proxy.url : servers[0].url;
    const pids = servers.map((s) => s.child.pid);
    const aux = { proxy: proxy?.child.pid, redis: redis?.child.pid };
    const figures = {};
    for (const [workload, keys] of Object.entries(WORKLOADS)) {
      if (!keys.includes(setup.key)) continue;
      // Each process optimises its own hot code, and needs some 10,000 requests to finish (three
      // pinned in-memory servers at c=1: 287 µs of CPU per request after 2,000 requests each, 100
      // after 6,700, 88 after 13,000): so each is warmed as long as one process alone would be, at
      // c=16 where requests come fastest. With a third of one process's warm-up each, three
      // processes were measured while still optimising, V8's compiler threads a third of their CPU.
      await measure(url, 16, WARMUP_MS * 4 * setup.processes, pids, workload, aux);
      await measure(url, 1, WARMUP_MS, pids, workload, aux);
      const c1 = await measure(url, 1, DURATION_MS, pids, workload, aux);
      await measure(url, 16, WARMUP_MS / 2, pids, workload, aux);
      const c16 = await measure(url, 16, DURATION_MS, pids, workload, aux);
      figures[workload] = { c1, c16 };
    }
    return figures;
  } finally {
    for (const thing of started.reverse()) await thing.stop();
  }
}

function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

export async function benchScale() {
  const missing = missingBinaries();
  if (missing) throw new Error(`bench:scale needs ${missing}`);
  const began = now();
  const jsDir = prepareRevision("2026-07-28", [VERSION], ["--store", "redis"]);
  pinClientSide();
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-bench-scale-"));
  // figures[workload][setup] = { c1, c16 }
  const figures = Object.fromEntries(
    Object.entries(WORKLOADS).map(([w, keys]) => [w, Object.fromEntries(keys.map((k) => [k, {}]))]),
  );
  const best = (a, b) => (a === undefined || b.rps > a.rps ? b : a);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? SETUPS : [...SETUPS].reverse();
      for (const setup of order) {
        for (const [workload, { c1, c16 }] of Object.entries(await runSetup(setup, jsDir, dir))) {
          const kept = figures[workload][setup.key];
          kept.c1 = best(kept.c1, c1);
          kept.c16 = best(kept.c16, c16);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rows = [
    ["HTTP c=1: req/s", (f) => f.c1.rps, 0],
    ["HTTP c=1: p99 ms", (f) => f.c1.p99, 3],
    ["HTTP c=1: servers' CPU µs/req", (f) => f.c1.cpuUs, 0],
    ["HTTP c=16: req/s", (f) => f.c16.rps, 0],
    ["HTTP c=16: p99 ms", (f) => f.c16.p99, 3],
    ["HTTP c=16: servers' CPU µs/req", (f) => f.c16.cpuUs, 0],
    // The rest of each request's CPU, to say why the servers' is what it is.
    ["HTTP c=1 / c=16: haproxy CPU µs/req", (f) => [f.c1.proxyUs, f.c16.proxyUs], 0],
    ["HTTP c=1 / c=16: redis-server CPU µs/req", (f) => [f.c1.redisUs, f.c16.redisUs], 0],
    ["HTTP c=1 / c=16: client CPU µs/req", (f) => [f.c1.clientUs, f.c16.clientUs], 0],
  ];
  const setupsOf = (workload) => SETUPS.filter((s) => WORKLOADS[workload].includes(s.key));
  const table = (workload) => {
    const measured = figures[workload];
    return Object.fromEntries(
      rows.map(([name, get, digits]) => {
        const row = {};
        for (const setup of setupsOf(workload)) {
          const value = get(measured[setup.key]);
          row[setup.label] = Array.isArray(value)
            ? value.map((v) => (Number.isNaN(v) ? "-" : v.toFixed(digits))).join(" / ")
            : value.toFixed(digits);
        }
        return [name, row];
      }),
    );
  };
  const ratioColumns = [
    ["c=1 req/s", (f) => f.c1.rps],
    ["c=1 servers' CPU/req", (f) => f.c1.cpuUs],
    ["c=16 req/s", (f) => f.c16.rps],
    ["c=16 servers' CPU/req", (f) => f.c16.cpuUs],
  ];
  const ratios = (workload) => {
    const measured = figures[workload];
    const label = (key) => SETUPS.find((s) => s.key === key).label;
    const table = {};
    for (const setup of setupsOf(workload))
      for (const anchor of setup.against.filter((key) => WORKLOADS[workload].includes(key)))
        table[`${setup.label} ÷ ${label(anchor)}`] = Object.fromEntries(
          ratioColumns.map(([name, get]) => [
            name,
            (get(measured[setup.key]) / get(measured[anchor])).toFixed(2),
          ]),
        );
    return table;
  };
  const cores = PIN
    ? `the servers on core ${SERVER_CORE}, the client, haproxy and redis-server on the other${availableParallelism() > 2 ? "s" : ""} (BENCH_SCALE_PIN=0: unpinned)`
    : `${availableParallelism()} cores shared by the client, the servers, haproxy and redis-server`;
  const where = `best of ${ROUNDS} rounds of ${DURATION_MS} ms; ${cores}; over loopback`;
  console.log(`\nScale-out: legacy sessions (${VERSION}) calling echo; ${where}`);
  console.table(table("legacy"));
  console.table(ratios("legacy"));
  console.log(`\nSpreading alone: modern requests (${MODERN}, stateless) calling echo; ${where}`);
  console.table(table("modern"));
  console.table(ratios("modern"));
  console.log(
    `group took ${((now() - began) / 1000).toFixed(1)} s; ratios are each setup ÷ the one named`,
  );
  return figures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchScale();
