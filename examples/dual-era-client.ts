/**
 * One client for servers of either era, as docs/older-clients.md shows it: the 2026-07-28 client generated with
 * the default legacy revisions (`npm run generate:dual`), given each server named on the command line and
 * told nothing about which protocol it speaks. For each it prints the era and version it settled
 * on and the server's tools, read through the same typed API.
 *
 *   node dist/examples/dual-era-client.js npx -y @modelcontextprotocol/server-memory -- http://127.0.0.1:3000/mcp
 *
 * A server is a command line (run over stdio) or an http(s) URL; `--` separates them.
 */
import { createClient, httpTransport, type McpClient } from "../generated/dual/client.js";
import { stdioTransport } from "../generated/dual/client-node.js";

const info = { name: "mcp-gen-dual-era-example", version: "1.0.0" };
// Answers a modern server's input_required round and a legacy server's elicitation/create alike.
const onElicit = async () => ({ action: "decline" as const });

function clientFor([target, ...args]: string[]): McpClient {
  return /^https?:\/\//.test(target!)
    ? createClient({ info, onElicit, transport: httpTransport(target!) })
    : createClient({ info, onElicit, transport: stdioTransport({ command: target!, args }) });
}

/** The command line split at each `--`. */
function servers(argv: string[]): string[][] {
  const groups: string[][] = [[]];
  for (const arg of argv) {
    if (arg === "--") groups.push([]);
    else groups.at(-1)!.push(arg);
  }
  return groups.filter((group) => group.length > 0);
}

for (const client of servers(process.argv.slice(2)).map(clientFor)) {
  try {
    const { tools } = await client.listTools(); // the 2026-07-28 types, whatever the server speaks
    console.log(`${client.era} ${client.protocolVersion}: ${tools.map((t) => t.name).join(", ")}`);
  } finally {
    await client.close();
  }
}
