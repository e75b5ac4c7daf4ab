// Hosting benchmark (issue #30): the generated server's web-standard `fetch` handler under Bun and
// Deno against the official SDK v1's web-standard transport on the same runtime (its documented
// stateless pattern), and, on Node, the fetch handler behind @hono/node-server against the
// `node:http` listener. One `echo` tool; each server a process of its own, driven from this process
// over loopback at concurrency 1 and 16; the server's CPU per request from /proc. Ours is a modern
// (2026-07-28) stateless call, SDK v1's a 2025-11-25 stateless call: each server's own cheapest way
// to answer a tool call. Bounded loops, no timing assertions; ratios printed.
//
//   node bench/hosting.mjs
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { ROOT, TMP, prepareRevision } from "./prepare.mjs";
import {
  callBody,
  DURATION_MS,
  HTTP_HEADERS,
  listeningUrl,
  measureHttp,
  ROUNDS,
  stop,
  TEXT,
  WARMUP_MS,
} from "./server.mjs";

const REVISION = "2026-07-28";
const RUNTIMES = {
  bun: [join(ROOT, "node_modules", "bun", "bin", "bun.exe")],
  deno: [join(ROOT, "node_modules", "deno", "deno"), "run", "-A"],
  node: [process.execPath],
};
const SDK1_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2025-11-25",
};
const sdk1Body = (id) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(TEXT)}}}}`;

/** Bundles a bench server for a runtime, with the generated server compiled in `jsDir`. */
async function bundle(file, jsDir, platform) {
  const outfile = join(TMP, "hosting", `${file.replace(/\.mjs$/, "")}.${platform}.mjs`);
  await build({
    entryPoints: [join(ROOT, "bench", "servers", file)],
    bundle: true,
    format: "esm",
    platform,
    target: "es2022",
    outfile,
    alias: { GENERATED_SERVER: join(jsDir, "server.js") },
    // Reached only on Node, which resolves it from the project's node_modules.
    external: platform === "neutral" ? ["@hono/node-server"] : [],
    logLevel: "warning",
  });
  return outfile;
}

function spawnServer(label, [command, ...args], script) {
  const child = spawn(command, [...args, script], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { server: { label }, proc: { child, exited, stderr: () => stderr } };
}

async function measure(label, runtime, script, nextBody, headers) {
  const { server, proc } = spawnServer(label, runtime, script);
  const url = await listeningUrl(server, proc);
  const run = (concurrency, ms) =>
    measureHttp(server, proc, url, concurrency, ms, nextBody, headers);
  await run(1, WARMUP_MS);
  const c1 = await run(1, DURATION_MS);
  await run(16, WARMUP_MS / 2);
  const c16 = await run(16, DURATION_MS);
  await stop(proc);
  return { c1, c16 };
}

export async function benchHosting(jsDir) {
  let id = 0;
  const ours = () => callBody(++id);
  const sdk1 = () => sdk1Body(++id);
  const neutral = await bundle("fetch-echo.mjs", jsDir, "neutral");
  const sdk = await bundle("sdk1-fetch-echo.mjs", jsDir, "node");
  const onNode = await bundle("fetch-echo.mjs", jsDir, "node");
  const contenders = [
    ...["bun", "deno"].flatMap((runtime) => [
      {
        key: `${runtime} ours`,
        run: () => measure("ours", RUNTIMES[runtime], neutral, ours, HTTP_HEADERS),
      },
      {
        key: `${runtime} SDK v1`,
        run: () => measure("SDK v1", RUNTIMES[runtime], sdk, sdk1, SDK1_HEADERS),
      },
    ]),
    { key: "node fetch", run: () => measure("fetch", RUNTIMES.node, onNode, ours, HTTP_HEADERS) },
    {
      key: "node listener",
      run: () =>
        measure(
          "listener",
          RUNTIMES.node,
          join(ROOT, "bench", "servers", "ours-echo.mjs"),
          ours,
          HTTP_HEADERS,
        ),
    },
  ];
  const best = {};
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? contenders : [...contenders].reverse();
    for (const contender of order) {
      process.env.MCP_GEN_JS_DIR = jsDir;
      const figures = await contender.run();
      const had = best[contender.key];
      best[contender.key] = {
        c1: had && had.c1.rps > figures.c1.rps ? had.c1 : figures.c1,
        c16: had && had.c16.rps > figures.c16.rps ? had.c16 : figures.c16,
      };
    }
  }
  // One row per measurement: ours (the first of a pair) beside its anchor, measured in the same run.
  const pair = (label, a, b) => {
    const row = (name, get, digits) => ({
      [`${label}: ${name}`]: {
        ours: `${get(best[a]).toFixed(digits)} (${a})`,
        anchor: `${get(best[b]).toFixed(digits)} (${b})`,
        "ours ÷ anchor": (get(best[a]) / get(best[b])).toFixed(2),
      },
    });
    return {
      ...row("c=1 req/s", (f) => f.c1.rps, 0),
      ...row("c=1 server CPU µs/req", (f) => f.c1.cpuUs, 0),
      ...row("c=16 req/s", (f) => f.c16.rps, 0),
      ...row("c=16 server CPU µs/req", (f) => f.c16.cpuUs, 0),
    };
  };
  console.log(
    `\nHosting, echo tool (best of ${ROUNDS} rounds of ${DURATION_MS} ms after warm-up; ${availableParallelism()} cores shared over loopback)`,
  );
  console.table({
    ...pair("Bun", "bun ours", "bun SDK v1"),
    ...pair("Deno", "deno ours", "deno SDK v1"),
    ...pair("Node", "node fetch", "node listener"),
  });
  return best;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchHosting(prepareRevision(REVISION));
}
