// Client benchmark: sequential `tools/call` of the `echo` tool made by four clients in the same run
// against the same server program (bench/servers/ours-echo.mjs, the generated dual-era server,
// 2026-07-28 with 2025-11-25), each client with a server process of its own, over stdio and over
// Streamable HTTP:
//   bare    a JSON-lines client with nothing but the wire: it writes the same `tools/call` line a
//           2026-07-28 request is (its `_meta` included), reads lines and matches the id; over HTTP
//           it POSTs that body with the request's headers through a keep-alive agent (the anchor)
//   SDK v1  @modelcontextprotocol/sdk 1.32.2 (Client + its stdio / Streamable HTTP transport), which
//           speaks 2025-11-25: the server serves it an initialize-era session
//   SDK v2  @modelcontextprotocol/client 2.4.0, version pinned to 2026-07-28
//   ours    the generated client (createClient + stdioTransport / httpTransport with nodeFetch(),
//           its requests over node:http), validating every result
// Measured for each: calls per second, p50/p99 latency, and the CPU time this (client) process spends
// per call (process.cpuUsage), which load from elsewhere on the machine disturbs less than wall
// time. Bounded loops, no timing assertions; ours is printed beside each anchor as ratios.
//
//   node bench/client.mjs                 # standalone (generates and compiles the dual-era output itself)
//   BENCH_CLIENT_MS=3000 BENCH_CLIENT_ROUNDS=3 node bench/client.mjs
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ROOT, prepareRevision } from "./prepare.mjs";

const REVISION = "2026-07-28";
const LEGACY = ["2025-11-25"];
/** Length of each measurement, after a warm-up of a quarter of it. */
export const DURATION_MS = Number(process.env.BENCH_CLIENT_MS ?? 2000);
const WARMUP_MS = Math.max(250, DURATION_MS / 4);
/** Rounds (order reversed every other round); the best round of each client is reported. */
export const ROUNDS = Number(process.env.BENCH_CLIENT_ROUNDS ?? 2);
const MAX_CALLS = 200_000;
export const TEXT = "hello from the client benchmark";
const SERVER = join(ROOT, "bench", "servers", "ours-echo.mjs");
export const INFO = { name: "mcp-gen-bench-client", version: "1.0.0" };

export const now = () => Number(process.hrtime.bigint()) / 1e6; // ms

/** One call of the echo tool; resolves with the text echoed. */
const callEcho = async (client) =>
  (await client.callTool({ name: "echo", arguments: { text: TEXT } })).content[0]?.text;

/** The server (the generated echo server compiled in `jsDir`), listening on loopback; resolves with its URL and a stop(). */
function startHttpServer(jsDir) {
  const child = spawn(process.execPath, [SERVER, "--port", "0"], {
    env: { ...process.env, MCP_GEN_JS_DIR: jsDir },
    stdio: ["ignore", "inherit", "pipe"],
  });
  let stderr = "";
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(stderr);
      if (found)
        resolve({
          url: found[1],
          stop: async () => {
            child.kill("SIGTERM");
            await exited;
          },
        });
    });
    exited.then((code) => reject(new Error(`echo server exited (${code}):\n${stderr}`)));
  });
}

/** A client measured over HTTP: a server process of its own for the measurement, stopped with the client. */
function overHttp(jsDir, key, label, connect) {
  return {
    key,
    label,
    async open() {
      const server = await startHttpServer(jsDir);
      try {
        const session = await connect(server.url);
        return {
          call: session.call,
          close: async () => {
            await session.close();
            await server.stop();
          },
        };
      } catch (error) {
        await server.stop();
        throw error;
      }
    },
  };
}

const META = JSON.stringify({
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": INFO,
});
const callLine = (id) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(TEXT)}},"_meta":${META}}}`;
/** The echoed text of a bare client's answer line (parsed, as any client must). */
const echoed = (line) => JSON.parse(line).result?.content?.[0]?.text;

/** The bare JSON-lines client over stdio: writes a line, resolves with the answer whose id matches. */
function bareStdio(jsDir) {
  return {
    key: "bare",
    label: "bare",
    async open() {
      const child = spawn(process.execPath, [SERVER, "--stdio"], {
        env: { ...process.env, MCP_GEN_JS_DIR: jsDir },
        stdio: ["pipe", "pipe", "inherit"],
      });
      const waiting = new Map();
      let buffered = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk) => {
        buffered += chunk;
        let at;
        while ((at = buffered.indexOf("\n")) >= 0) {
          const line = buffered.slice(0, at);
          buffered = buffered.slice(at + 1);
          const id = /^\{"jsonrpc":"2.0","id":(\d+)/.exec(line)?.[1];
          const resolve = id === undefined ? undefined : waiting.get(Number(id));
          if (resolve) {
            waiting.delete(Number(id));
            resolve(echoed(line));
          }
        }
      });
      const exited = new Promise((resolve) => child.on("exit", resolve));
      let id = 0;
      return {
        call: () =>
          new Promise((resolve) => {
            const mine = ++id;
            waiting.set(mine, resolve);
            child.stdin.write(`${callLine(mine)}\n`);
          }),
        close: async () => {
          child.stdin.end();
          child.kill("SIGTERM");
          await exited;
        },
      };
    },
  };
}

/** The bare client over HTTP: POSTs the same body with a modern request's headers, keep-alive. */
function bareHttp(jsDir) {
  const headers = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": REVISION,
    "Mcp-Method": "tools/call",
    "Mcp-Name": "echo",
  };
  return overHttp(jsDir, "bare", "bare", async (url) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let id = 0;
    const call = () =>
      new Promise((resolve, reject) => {
        const body = callLine(++id);
        const req = request(
          url,
          {
            method: "POST",
            agent,
            headers: { ...headers, "Content-Length": Buffer.byteLength(body) },
          },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (chunk) => (text += chunk));
            res.on("end", () => resolve(echoed(text)));
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    return { call, close: async () => agent.destroy() };
  });
}

/** SDK v1 (@modelcontextprotocol/sdk 1.32.2): `transport(url)` makes its transport. */
async function sdk1Client(transport) {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const client = new Client(INFO, { capabilities: {} });
  await client.connect(transport);
  return { call: () => callEcho(client), close: () => client.close() };
}

/** SDK v2 (@modelcontextprotocol/client 2.4.0), pinned to the server's revision. */
async function sdk2Client(transport) {
  const { Client } = await import("@modelcontextprotocol/client");
  const client = new Client(INFO, {
    capabilities: {},
    versionNegotiation: { mode: { pin: REVISION } },
  });
  await client.connect(transport);
  return { call: () => callEcho(client), close: () => client.close() };
}

/** Our generated client (compiled in `jsDir`) over `transport`. */
async function oursClient(jsDir, transport) {
  const { createClient } = await import(pathToFileURL(join(jsDir, "client.js")).href);
  const client = createClient({ transport, info: INFO });
  await client.connect();
  return { call: () => callEcho(client), close: () => client.close() };
}

/**
 * Our generated client (compiled in `jsDir`) over stdio, spawning `node` with the `stdio` options,
 * as a member of a group: `call(client)` makes one call and resolves with what it checks.
 */
export function ours(jsDir, stdio, call) {
  return {
    key: "ours",
    label: "ours",
    async open() {
      const { createClient } = await import(pathToFileURL(join(jsDir, "client.js")).href);
      const { stdioTransport } = await import(pathToFileURL(join(jsDir, "client-node.js")).href);
      const client = createClient({
        transport: stdioTransport({ command: process.execPath, ...stdio }),
        info: INFO,
      });
      await client.connect();
      return { call: () => call(client), close: () => client.close() };
    },
  };
}

/** The stdio group, the anchor first: each client spawning a server of its own. */
function stdioClients(jsDir) {
  const env = { MCP_GEN_JS_DIR: jsDir };
  const args = [SERVER, "--stdio"];
  return [
    bareStdio(jsDir),
    {
      key: "sdk1",
      label: "SDK v1",
      async open() {
        const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
        return sdk1Client(
          new StdioClientTransport({
            command: process.execPath,
            args,
            env: { ...process.env, ...env },
            stderr: "inherit",
          }),
        );
      },
    },
    {
      key: "sdk2",
      label: "SDK v2",
      async open() {
        const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
        return sdk2Client(
          new StdioClientTransport({
            command: process.execPath,
            args,
            env: { ...process.env, ...env },
            stderr: "inherit",
          }),
        );
      },
    },
    ours(jsDir, { args, env }, callEcho),
  ];
}

/** The HTTP group, the anchor first: each client with a server listening on loopback of its own. */
function httpClients(jsDir) {
  return [
    bareHttp(jsDir),
    overHttp(jsDir, "sdk1", "SDK v1", async (url) => {
      const { StreamableHTTPClientTransport } =
        await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
      return sdk1Client(new StreamableHTTPClientTransport(new URL(url)));
    }),
    overHttp(jsDir, "sdk2", "SDK v2", async (url) => {
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
      return sdk2Client(new StreamableHTTPClientTransport(new URL(url)));
    }),
    overHttp(jsDir, "ours", "ours", async (url) => {
      const { httpTransport } = await import(pathToFileURL(join(jsDir, "client.js")).href);
      const { nodeFetch } = await import(pathToFileURL(join(jsDir, "client-node.js")).href);
      return oursClient(jsDir, httpTransport(url, { fetch: nodeFetch() }));
    }),
  ];
}

function summarize(latencies, elapsedMs, cpuMicros) {
  const sorted = Float64Array.from(latencies).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    calls: sorted.length,
    rps: (sorted.length / elapsedMs) * 1000,
    p50: at(0.5),
    p99: at(0.99),
    cpuUs: cpuMicros / sorted.length,
  };
}

/** Opens `client`, checks its first answer, warms up, and measures sequential calls. */
export async function measure(client) {
  const session = await client.open();
  try {
    const first = await session.call();
    if (first !== TEXT)
      throw new Error(`${client.label}: unexpected echo ${JSON.stringify(first)}`);
    const run = async (ms) => {
      const latencies = [];
      const cpu = process.cpuUsage();
      const start = now();
      const deadline = start + ms;
      while (latencies.length < MAX_CALLS) {
        const sent = now();
        if (sent >= deadline) break;
        const text = await session.call();
        latencies.push(now() - sent);
        if (text !== TEXT)
          throw new Error(`${client.label}: unexpected echo ${JSON.stringify(text)}`);
      }
      const used = process.cpuUsage(cpu);
      return summarize(latencies, now() - start, used.user + used.system);
    };
    await run(WARMUP_MS);
    return await run(DURATION_MS);
  } finally {
    await session.close();
  }
}

/**
 * Measures each client of `group` ROUNDS times (order reversed every other round) and keeps each
 * one's best round; prints every client's figures and ours (the group's last client) as a ratio of
 * each of the others (the first is the anchor).
 */
export async function compareClients(group, title, transport = "stdio") {
  const ours = group.at(-1);
  const others = group.slice(0, -1);
  const best = {};
  const began = now();
  for (let round = 0; round < ROUNDS; round++) {
    for (const client of round % 2 === 0 ? group : [...group].reverse()) {
      const figures = await measure(client);
      if (best[client.key] === undefined || figures.rps > best[client.key].rps)
        best[client.key] = figures;
    }
  }
  const rows = [
    [`${transport} sequential tools/call: calls/s`, (f) => f.rps, 0],
    [`${transport} sequential tools/call: p50 ms`, (f) => f.p50, 3],
    [`${transport} sequential tools/call: p99 ms`, (f) => f.p99, 3],
    ["client process CPU µs/call", (f) => f.cpuUs, 0],
  ];
  const table = Object.fromEntries(
    rows.map(([name, get, digits]) => {
      const row = {};
      for (const client of group) row[client.label] = get(best[client.key]).toFixed(digits);
      for (const other of others)
        row[`${ours.label} ÷ ${other.label}`] = (
          get(best[ours.key]) / get(best[other.key])
        ).toFixed(2);
      return [name, row];
    }),
  );
  console.log(
    `\n${title} (best of ${ROUNDS} rounds of ${DURATION_MS} ms after warm-up; client and server share ${availableParallelism()} cores)`,
  );
  console.table(table);
  console.log(
    `calls measured: ${group.map((c) => `${c.label} ${best[c.key].calls}`).join(", ")}; group took ${((now() - began) / 1000).toFixed(1)} s`,
  );
  console.log(
    `ratios are ${ours.label} ÷ each other client: above 1 is more calls/s, or more latency or CPU`,
  );
  return best;
}

/**
 * Runs both groups (stdio, then HTTP) against the generated dual-era echo server compiled in
 * `jsDir` with our client from the same output; prints the tables and returns the figures.
 */
export async function benchClient(jsDir) {
  const stdio = await compareClients(
    stdioClients(jsDir),
    `Client, echo tool over stdio against the generated server (${REVISION} with ${LEGACY.join(", ")})`,
  );
  const http = await compareClients(
    httpClients(jsDir),
    `Client, echo tool over Streamable HTTP against the generated server (${REVISION} with ${LEGACY.join(", ")})`,
    "HTTP",
  );
  return { stdio, http };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchClient(prepareRevision(REVISION, LEGACY));
}
