// A server written with an older release of the official TypeScript SDK v1, named by its npm alias
// on the command line (sdk-v1-0-1: protocol 2024-11-05; sdk-v1-12-3: 2025-03-26; sdk-v1-17-5:
// 2025-06-18), over stdio, with the low-level Server every one of those releases has. Its tools
// use what such a server asks of its client: the log level it was set to, log messages, sampling
// and roots as requests of its own.
//
//   node test/peers/sdk-v1-era-server.mjs sdk-v1-12-3
//   node test/peers/sdk-v1-era-server.mjs @modelcontextprotocol/sdk --port 0
//
// With `--port` (the current SDK only: the HTTP transport is its) it serves Streamable HTTP with
// sessions on 127.0.0.1 (test/helpers/sdk-v1-serve.mjs), one server and log level per session, and
// its `forget` tool ends every session, so that the client's next request meets a 404.
const alias = process.argv[2];
if (!/^(sdk-v1-[0-9-]+|@modelcontextprotocol\/sdk)$/.test(alias ?? ""))
  throw new Error(`usage: sdk-v1-era-server.mjs <sdk alias>`);
const { Server } = await import(`${alias}/server/index.js`);
const { StdioServerTransport } = await import(`${alias}/server/stdio.js`);
const { CallToolRequestSchema, ListToolsRequestSchema, SetLevelRequestSchema } = await import(
  `${alias}/types.js`
);

// RFC 5424 severities, least severe first: what the protocol's levels are ordered by.
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const sessions = new Map();

function makeServer() {
  let level = null;

  const server = new Server(
    { name: `peer-${alias}`, version: "1.0.0" },
    { capabilities: { tools: {}, logging: {} } },
  );

  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    level = request.params.level;
    return {};
  });

  const tools = {
    level: async () => `level: ${level ?? "none"}`,
    log: async () => {
      if (level === null || LEVELS.indexOf("info") < LEVELS.indexOf(level)) return "filtered";
      await server.sendLoggingMessage({
        level: "info",
        logger: "peer",
        data: "hello from the peer",
      });
      return "logged";
    },
    sample: async () => {
      const answer = await server.createMessage({
        messages: [{ role: "user", content: { type: "text", text: "Hi?" } }],
        maxTokens: 10,
      });
      return `model said: ${answer.content.type === "text" ? answer.content.text : "?"}`;
    },
    roots: async () => (await server.listRoots()).roots.map((root) => root.uri).join(","),
    forget: async () => {
      setTimeout(() => {
        for (const transport of sessions.values()) void transport.close();
        sessions.clear();
      }, 10);
      return "forgotten";
    },
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.keys(tools).map((name) => ({
      name,
      inputSchema: { type: "object", properties: {} },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const run = tools[request.params.name];
    if (!run) throw new Error(`unknown tool ${request.params.name}`);
    return { content: [{ type: "text", text: await run() }] };
  });

  return server;
}

if (process.argv.includes("--port")) {
  const { serve } = await import("../helpers/sdk-v1-serve.mjs");
  await serve(makeServer, sessions);
} else await makeServer().connect(new StdioServerTransport());
