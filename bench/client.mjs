// Client benchmark: sequential `tools/call` of the `echo` tool over stdio, made by two clients in the
// same run against the same server process kind (bench/servers/ours-echo.mjs, the generated
// 2026-07-28 server), each client spawning a server of its own:
//   SDK   the official SDK v2 client (@modelcontextprotocol/client 2.4.0, Client + StdioClientTransport,
//         version pinned to 2026-07-28)
//   ours  the generated 2026-07-28 client (createClient + stdioTransport), validating every result
// Measured for each: calls per second, p50/p99 latency, and the CPU time this (client) process spends
// per call (process.cpuUsage), which load from elsewhere on the machine disturbs less than wall
// time. Bounded loops, no timing assertions; ours is printed beside the SDK as ratios.
//
//   node bench/client.mjs                 # standalone (generates and compiles 2026-07-28 itself)
//   BENCH_CLIENT_MS=3000 node bench/client.mjs
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ROOT, prepareRevision } from "./prepare.mjs";

const REVISION = "2026-07-28";
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

/** Each client as { open() → { call(), close() } }; `call` resolves with the echoed text. */
function clients(jsDir) {
  const env = { MCP_GEN_JS_DIR: jsDir };
  return [
    {
      key: "sdk",
      label: "SDK v2",
      async open() {
        const { Client } = await import("@modelcontextprotocol/client");
        const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
        const client = new Client(INFO, {
          capabilities: {},
          versionNegotiation: { mode: { pin: REVISION } },
        });
        await client.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [SERVER, "--stdio"],
            env: { ...process.env, ...env },
            stderr: "inherit",
          }),
        );
        return { call: () => callEcho(client), close: () => client.close() };
      },
    },
    ours(jsDir, { args: [SERVER, "--stdio"], env }, callEcho),
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
 * one's best round; prints ours beside the anchor (the group's first client) as ratios.
 */
export async function compareClients(group, title) {
  const [anchor, ours] = group;
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
    ["stdio sequential tools/call: calls/s", (f) => f.rps, 0],
    ["stdio sequential tools/call: p50 ms", (f) => f.p50, 3],
    ["stdio sequential tools/call: p99 ms", (f) => f.p99, 3],
    ["client process CPU µs/call", (f) => f.cpuUs, 0],
  ];
  const table = Object.fromEntries(
    rows.map(([name, get, digits]) => {
      const theirs = get(best[anchor.key]);
      const mine = get(best[ours.key]);
      return [
        name,
        {
          [anchor.label]: theirs.toFixed(digits),
          [ours.label]: mine.toFixed(digits),
          [`${ours.label} ÷ ${anchor.label}`]: (mine / theirs).toFixed(2),
        },
      ];
    }),
  );
  console.log(
    `\n${title} (best of ${ROUNDS} rounds of ${DURATION_MS} ms after warm-up; client and server share ${availableParallelism()} cores)`,
  );
  console.table(table);
  console.log(
    `calls measured: ${anchor.label} ${best[anchor.key].calls}, ${ours.label} ${best[ours.key].calls}; group took ${((now() - began) / 1000).toFixed(1)} s`,
  );
  console.log(
    `ratios are ${ours.label} ÷ ${anchor.label}: above 1 is more calls/s, or more latency or CPU`,
  );
  return best;
}

/** Runs the group against the generated client compiled in `jsDir`, prints the table and returns the figures. */
export async function benchClient(revision, jsDir) {
  if (revision !== REVISION) {
    console.log(`\nClient benchmark skipped: its echo server speaks ${REVISION}, not ${revision}`);
    return null;
  }
  return compareClients(
    clients(jsDir),
    `Client, echo tool over stdio against the generated server (${revision})`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchClient(REVISION, prepareRevision(REVISION));
}
