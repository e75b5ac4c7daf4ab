// The server `npm run stress` attacks: the generated 2026-07-28 server (compiled by bench/prepare.mjs,
// folder in MCP_GEN_JS_DIR) with its default limits, and two tools: `echo` (answers its text) and
// `slow` (answers after `ms` milliseconds, default 2000, or when its request is cancelled).
//
//   node bench/servers/stress-target.mjs --port 0 [--max-containers N]   # prints "listening on <url>" on stderr
//   node bench/servers/stress-target.mjs --stdio [--max-requests N]
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const jsDir = process.env.MCP_GEN_JS_DIR ?? join(ROOT, ".bench-tmp", "js", "2026-07-28");
const { createServer } = await import(pathToFileURL(join(jsDir, "server.js")).href);

const text = (value) => ({ content: [{ type: "text", text: value }] });
const server = createServer({
  info: { name: "stress-target", version: "1.0.0" },
  capabilities: { tools: {} },
  log: () => {},
  handlers: {
    "tools/list": () => ({
      tools: [
        { name: "echo", inputSchema: { type: "object" } },
        { name: "slow", inputSchema: { type: "object" } },
      ],
    }),
    "tools/call": (params, ctx) => {
      if (params.name !== "slow") return text(String(params.arguments?.text ?? ""));
      const ms = Number(params.arguments?.ms ?? 2000);
      return new Promise((done) => {
        const timer = setTimeout(() => done(text("slept")), ms);
        ctx.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          done(text("cancelled"));
        });
      });
    },
  },
});

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : undefined);
if (args.includes("--stdio")) {
  const maxRequestsInFlight = option("--max-requests");
  server.serveStdio(maxRequestsInFlight === undefined ? {} : { maxRequestsInFlight });
} else {
  const maxContainers = option("--max-containers");
  const listening = await server.listen({
    port: option("--port") ?? 0,
    ...(maxContainers === undefined ? {} : { maxContainers }),
  });
  process.stderr.write(`listening on ${listening.url}\n`);
  process.on("SIGTERM", () => void listening.close(0).then(() => process.exit(0)));
}
