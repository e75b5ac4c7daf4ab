// The client side of `npm run stress`: the generated 2026-07-28 client (compiled by bench/prepare.mjs,
// folder in MCP_GEN_JS_DIR) against one hostile server, in a process of its own so that its memory
// is its own. Prints one JSON line: { held, detail, beforeMiB, peakMiB, afterMiB }.
//
//   node bench/stress-client.mjs <attack> <url>
import { INFO, log, logs, outcome, runAttack, status } from "./stress-client-kit.mjs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const jsDir = process.env.MCP_GEN_JS_DIR;
const { createClient, httpTransport, TimeoutError, TransportError } = await import(
  pathToFileURL(join(jsDir, "client.js")).href
);
const { stdioTransport } = await import(pathToFileURL(join(jsDir, "client-node.js")).href);

const [attack, url, goodUrl] = process.argv.slice(2);
const beforeMiB = status("VmRSS");

const ATTACKS = {
  /** No answer, or one byte a second: the default timeout is 60 s; this run uses 2 s. */
  async timeout() {
    const client = createClient({ transport: httpTransport(url), info: INFO, timeoutMs: 2000 });
    const { error } = await outcome(client.callTool({ name: "x" }));
    await client.close();
    return {
      held: error instanceof TimeoutError,
      detail: error ? `${error.name}: ${error.message}` : "answered",
    };
  },
  async "big-json"() {
    const client = createClient({ transport: httpTransport(url), info: INFO });
    const { error } = await outcome(client.callTool({ name: "x" }));
    await client.close();
    return {
      held: error instanceof TransportError && /larger than/.test(error.message),
      detail: error ? error.message : "answered",
    };
  },
  async sse() {
    const client = createClient({ transport: httpTransport(url), info: INFO });
    const { error } = await outcome(client.callTool({ name: "x" }));
    await client.close();
    return {
      held: error instanceof TransportError && /larger than/.test(error.message),
      detail: error ? error.message : "answered",
    };
  },
  async "stdio-line"() {
    // A server that writes one 300 MB line, then answers properly.
    const script = `
      const rl = require("node:readline").createInterface({ input: process.stdin });
      rl.on("line", (line) => {
        const m = JSON.parse(line);
        const write = (v) => process.stdout.write(JSON.stringify(v) + "\\n");
        if (m.method === "server/discover") return write({ jsonrpc: "2.0", id: m.id, result: { supportedVersions: ["2026-07-28"], capabilities: {}, ttlMs: 0, cacheScope: "public" } });
        const chunk = "z".repeat(1 << 20);
        let left = 300;
        const pump = () => { while (left > 0) { left--; if (!process.stdout.write(chunk)) return void process.stdout.once("drain", pump); } process.stdout.write("\\n"); write({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "after" }] } }); };
        pump();
      });`;
    const client = createClient({
      transport: stdioTransport({ command: process.execPath, args: ["-e", script] }),
      info: INFO,
      log,
    });
    const { value, error } = await outcome(client.callTool({ name: "x" }));
    await client.close();
    const dropped = logs.some((l) => /dropped a line longer than/.test(l));
    return {
      held: value?.content?.[0]?.text === "after" && dropped,
      detail: error
        ? error.message
        : `answered after the line was dropped (${dropped ? "logged" : "NOT logged"})`,
    };
  },
  async redirect() {
    const client = createClient({ transport: httpTransport(url), info: INFO });
    const { error } = await outcome(client.callTool({ name: "x" }));
    await client.close();
    return {
      held: error instanceof TransportError && /another origin/.test(error.message),
      detail: error ? error.message : "followed",
    };
  },
  async cursors() {
    const client = createClient({ transport: httpTransport(url), info: INFO, log });
    let count = 0;
    for await (const _tool of client.listToolsAll()) count++;
    await client.close();
    return {
      held: count === 1000 && logs.some((l) => /after 1000 pages/.test(l)),
      detail: `stopped after ${count} tools (${logs.at(-1) ?? "no log line"})`,
    };
  },
  async "wrong-id"() {
    const client = createClient({ transport: httpTransport(url), info: INFO });
    const { error } = await outcome(client.callTool({ name: "x" }));
    await client.close();
    return {
      held: error instanceof TransportError && /another request/.test(error.message),
      detail: error ? error.message : "accepted",
    };
  },
  async tools() {
    // The default parse guard refuses the 20,000-deep answer whole (a clear TransportError); with the
    // guard raised, the walk of each schema must drop only the hostile tool.
    const guarded = createClient({ transport: httpTransport(url), info: INFO });
    const refused = await outcome(guarded.listTools());
    const client = createClient({
      transport: httpTransport(url, { maxDepth: 100_000 }),
      info: INFO,
      log,
      validate: false,
    });
    const { value, error } = await outcome(client.listTools());
    await client.close();
    const names = value?.tools?.map((t) => t.name) ?? [];
    const held =
      refused.error instanceof TransportError &&
      /nests more than 1000/.test(refused.error.message) &&
      names.join() === "deep,fine";
    return {
      held,
      detail: error
        ? `${error.name}: ${error.message}`
        : `default: ${refused.error?.message ?? "accepted"}; raised guard: kept ${names.join(", ")}; ${logs.length} dropped`,
    };
  },
};

await runAttack(ATTACKS[attack], { createClient, httpTransport }, goodUrl, beforeMiB);
