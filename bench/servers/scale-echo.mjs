// The echo server of bench/scale.mjs: the dual-era server generated with `--store redis`
// (compiled by bench/prepare.mjs into MCP_GEN_JS_DIR), its sessions in Redis when REDIS_URL is set,
// else in its own process (the in-memory default). Listens on 127.0.0.1:PORT (0: any free port) and
// prints "listening on <url>" on stderr.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const jsDir = process.env.MCP_GEN_JS_DIR;
if (!jsDir) throw new Error("MCP_GEN_JS_DIR names the compiled --store redis output");
const { createServer } = await import(pathToFileURL(join(jsDir, "server.js")).href);
const store = process.env.REDIS_URL
  ? new (
      await import(pathToFileURL(join(jsDir, "runtime", "server", "store-redis.js")).href)
    ).RedisStore({
      url: process.env.REDIS_URL,
    })
  : undefined;

const server = createServer({
  info: { name: "echo-scale", version: "1.0.0" },
  capabilities: { tools: {} },
  store,
  handlers: {
    "tools/list": () => ({
      tools: [
        {
          name: "echo",
          inputSchema: {
            type: "object",
            properties: { text: { type: "string" } },
            required: ["text"],
          },
        },
      ],
    }),
    "tools/call": (params) => ({
      content: [{ type: "text", text: String(params.arguments?.text) }],
    }),
  },
});

const listening = await server.listen({ port: Number(process.env.PORT ?? 0) });
process.stderr.write(`listening on ${listening.url}\n`);
process.on("SIGTERM", () => {
  server.close();
  void Promise.all([listening.close(0), store?.close()]).then(() => process.exit(0));
});
