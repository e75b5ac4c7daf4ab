/**
 * The server the official conformance suite tests: every tool, resource and prompt its 2026-07-28
 * and 2025-11-25 scenarios call, written once against the generated 2026-07-28 output of
 * `mcp-gen --revision 2026-07-28` (generated/dual; `--legacy` left at its default, every released
 * initialize-era revision): modern clients are served per request, initialize-era clients (2024-11-05
 * to 2025-11-25) in sessions, by the same handlers.
 *
 *   node dist/examples/conformance-server.js --port 3000   # Streamable HTTP on 127.0.0.1:3000/mcp
 *   node dist/examples/conformance-server.js --stdio       # newline-delimited JSON on stdin/stdout
 *
 * The tools are conformance-tools.ts, the resources conformance-resources.ts, the prompts
 * conformance-prompts.ts.
 */
import { createServer, RpcError, type Handlers } from "../generated/dual/index.js";
import { getPrompt, PROMPTS } from "./conformance-prompts.js";
import { readResource, RESOURCES } from "./conformance-resources.js";
import { objectSchema } from "./conformance-fixtures.js";
import { conformanceTools } from "./conformance-tools.js";

// The tools announce changes through the server, created below with the handlers that list them.
const TOOLS = conformanceTools((notification) => server.publish(notification));

const handlers: Handlers = {
  "tools/list": () => ({
    tools: Object.entries(TOOLS).map(([name, tool]) => ({
      name,
      description: tool.description,
      inputSchema: tool.inputSchema ?? objectSchema(),
    })),
    ttlMs: 300_000,
    cacheScope: "public",
  }),
  "tools/call": (params, ctx) => {
    const tool = TOOLS[params.name];
    if (!tool) throw new RpcError(-32602, `Unknown tool: ${params.name}`);
    return tool.run(params.arguments ?? {}, ctx);
  },
  "resources/list": () => ({ resources: RESOURCES, ttlMs: 300_000, cacheScope: "public" }),
  "resources/templates/list": () => ({
    resourceTemplates: [
      {
        uriTemplate: "test://template/{id}/data",
        name: "template",
        mimeType: "application/json",
        description: "Data by id.",
      },
    ],
    ttlMs: 300_000,
    cacheScope: "public",
  }),
  "resources/read": (params) => ({
    contents: readResource(params.uri),
    ttlMs: 60_000,
    cacheScope: "private",
  }),
  "prompts/list": () => ({ prompts: PROMPTS, ttlMs: 300_000, cacheScope: "public" }),
  "prompts/get": getPrompt,
  "completion/complete": (params) => {
    const prefix = params.argument.value;
    const values = ["test", "testing", "tested"].filter((v) => v.startsWith(prefix));
    return { completion: { values, total: values.length, hasMore: false } };
  },
};

const server = createServer({
  info: { name: "mcp-gen-conformance-fixture", version: "1.0.0" },
  capabilities: {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { subscribe: true },
    completions: {},
    logging: {},
  },
  handlers,
  cache: { ttlMs: 0, cacheScope: "private" },
  ...(process.env.MCP_SERVER_SECRET ? { secret: process.env.MCP_SERVER_SECRET } : {}),
});

const args = process.argv.slice(2);
if (args.includes("--stdio")) {
  server.serveStdio();
} else {
  const portAt = args.indexOf("--port");
  const port = portAt >= 0 ? Number(args[portAt + 1]) : 3000;
  const listening = await server.listen({ port });
  process.stderr.write(`conformance fixture listening on ${listening.url}\n`);
  const stop = () => {
    server.close();
    void listening.close().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
