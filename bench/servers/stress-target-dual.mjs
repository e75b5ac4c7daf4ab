// The dual-era server `npm run stress` attacks for issue 25's server findings: the generated
// 2026-07-28 server that also serves 2025-11-25 (folder in MCP_GEN_DUAL_JS_DIR), with its default
// limits, subscribable resources, the tools `echo` (answers its text) and `ask` (asks the client for
// input it may never give: an elicitation on a legacy session), and two resource templates:
// `file:///{a}{b}` (adjacent captures: quadratic for a backtracking matcher) and `files:///{+path}`
// (answers the variables it was handed, so that the attack sees what a handler would get).
//
// Issue 33's attacks add `--redis <url>` (its state in Redis, keys under `stress:`; the output is
// generated with `--store redis`) and `--idle <ms>` (sessionIdleMs), and use the tools `touch`
// (publishes a tool list change) and `region` (its `region` argument mirrored in `Mcp-Param-Region`).
//
//   node bench/servers/stress-target-dual.mjs --port 0 [--body-timeout ms] [--redis url] [--idle ms]   # "listening on <url>" on stderr
//   node bench/servers/stress-target-dual.mjs --stdio
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const jsDir = process.env.MCP_GEN_DUAL_JS_DIR;
if (!jsDir) throw new Error("MCP_GEN_DUAL_JS_DIR names the compiled dual-era output");
const { createServer, ServerDefinitions } = await import(
  pathToFileURL(join(jsDir, "server.js")).href
);

const definitions = new ServerDefinitions();
for (const uriTemplate of ["file:///{a}{b}", "files:///{+path}"])
  definitions.resourceTemplate({
    uriTemplate,
    name: uriTemplate,
    read: (uri, variables) => ({ contents: [{ uri, text: JSON.stringify(variables) }] }),
  });

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const redisUrl = option("--redis");
const store = redisUrl
  ? new (
      await import(pathToFileURL(join(jsDir, "runtime", "server", "store-redis.js")).href)
    ).RedisStore({ url: redisUrl, prefix: "stress:" })
  : undefined;

const server = createServer({
  info: { name: "stress-target-dual", version: "1.0.0" },
  capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
  log: () => {},
  definitions,
  ...(store ? { store } : {}),
  handlers: {
    "tools/list": () => ({
      tools: [
        { name: "echo", inputSchema: { type: "object" } },
        { name: "ask", inputSchema: { type: "object" } },
        { name: "touch", inputSchema: { type: "object" } },
        {
          name: "region",
          inputSchema: {
            type: "object",
            properties: { region: { type: "string", "x-mcp-header": "Region" } },
          },
        },
      ],
    }),
    "tools/call": (params, ctx) => {
      if (params.name === "touch") server.publish({ method: "notifications/tools/list_changed" });
      if (params.name === "region")
        return { content: [{ type: "text", text: JSON.stringify(params.arguments.region) }] };
      if (params.name !== "ask" || ctx.inputResponses.ok)
        return { content: [{ type: "text", text: String(params.arguments?.text ?? "") }] };
      return ctx.inputRequired({
        ok: {
          method: "elicitation/create",
          params: {
            mode: "form",
            message: "?",
            requestedSchema: { type: "object", properties: {} },
          },
        },
      });
    },
  },
});

const number = (name) => (option(name) === undefined ? undefined : Number(option(name)));
if (args.includes("--stdio")) server.serveStdio();
else {
  const bodyTimeoutMs = number("--body-timeout");
  const sessionIdleMs = number("--idle");
  const listening = await server.listen({
    port: number("--port") ?? 0,
    ...(bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs }),
    ...(sessionIdleMs === undefined ? {} : { sessionIdleMs }),
  });
  process.stderr.write(`listening on ${listening.url}\n`);
  process.on("SIGTERM", () => void listening.close(0).then(() => process.exit(0)));
}
