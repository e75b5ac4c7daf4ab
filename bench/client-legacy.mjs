// Client benchmark against a legacy server: sequential `tools/call` of the `echo` tool over stdio to
// the official reference server @modelcontextprotocol/server-everything 2026.8.31 (initialize-era,
// 2025-11-25), made by two clients in the same run, each spawning a server of its own:
//   SDK v1  the official SDK v1 client (@modelcontextprotocol/sdk 1.32.2, Client + StdioClientTransport),
//           which speaks 2025-11-25 from the start
//   ours    the dual-era client (2026-07-28 generated with --legacy 2025-11-25), told nothing about
//           the era: it probes, falls back to an initialize session, and maps and validates every
//           result to the 2026-07-28 types
// Measured as bench/client.mjs measures: calls per second, p50/p99 latency, and the CPU time this
// (client) process spends per call. Bounded loops, no timing assertions; ours ÷ SDK v1 as ratios.
//
//   node bench/client-legacy.mjs          # standalone (generates and compiles the dual-era output itself)
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, prepareRevision } from "./prepare.mjs";
import { INFO, TEXT, compareClients, ours } from "./client.mjs";

const EVERYTHING = join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-everything",
  "dist",
  "index.js",
);
const SERVER_ARGS = [EVERYTHING, "stdio"];
const ARGUMENTS = { message: TEXT };

/** One call of the echo tool; resolves with the text echoed, without the server's "Echo: " prefix. */
const callEcho = async (client) =>
  (await client.callTool({ name: "echo", arguments: ARGUMENTS })).content[0]?.text?.replace(
    /^Echo: /,
    "",
  );

/** Each client as { open() → { call(), close() } }; `call` resolves with the echoed text. */
function clients(jsDir) {
  return [
    {
      key: "sdk1",
      label: "SDK v1",
      async open() {
        const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
        const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
        const client = new Client(INFO, { capabilities: {} });
        await client.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: SERVER_ARGS,
            stderr: "ignore",
          }),
        );
        return { call: () => callEcho(client), close: () => client.close() };
      },
    },
    ours(jsDir, { args: SERVER_ARGS, onStderr: () => {} }, callEcho),
  ];
}

/** Runs the group with the dual-era client compiled in `jsDir`; prints the table, returns the figures. */
export async function benchClientLegacy(jsDir) {
  return compareClients(
    clients(jsDir),
    "Client against a legacy server: echo tool of server-everything 2026.8.31 over stdio",
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { MODERN, LEGACY } = await import("./legacy.mjs");
  await benchClientLegacy(prepareRevision(MODERN, LEGACY));
}
