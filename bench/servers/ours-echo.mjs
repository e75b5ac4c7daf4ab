// The echo server built with mcp-gen: the generated 2026-07-28 server (full validation of every
// request and result), compiled to JavaScript by bench/prepare.mjs. Its folder comes in
// MCP_GEN_JS_DIR (default .bench-tmp/js/2026-07-28); the dual-era output (`--legacy`) serves
// initialize-era clients with the same handlers. With `--expose-gc`, SIGUSR2 collects garbage and
// prints `heap <bytes used>` on stderr.
//
//   node bench/servers/ours-echo.mjs --stdio
//   node bench/servers/ours-echo.mjs --port 0     # prints "listening on <url>" on stderr
import { join, resolve } from "node:path";
import "./heap-report.mjs";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const jsDir = process.env.MCP_GEN_JS_DIR ?? join(ROOT, ".bench-tmp", "js", "2026-07-28");
const { createServer } = await import(pathToFileURL(join(jsDir, "server.js")).href);

const server = createServer({
  info: { name: "echo-mcp-gen", version: "1.0.0" },
  capabilities: { tools: {} },
  handlers: {
    "tools/list": () => ({
      tools: [
        {
          name: "echo",
          description: "Answers with its text argument.",
          inputSchema: {
            type: "object",
            properties: { text: { type: "string" } },
            required: ["text"],
          },
        },
      ],
    }),
    "tools/call": (params) => {
      const text = params.arguments?.text;
      if (params.name !== "echo" || typeof text !== "string")
        return { isError: true, content: [{ type: "text", text: "echo takes a text" }] };
      return { content: [{ type: "text", text }] };
    },
  },
});

const args = process.argv.slice(2);
if (args.includes("--stdio")) {
  server.serveStdio();
} else {
  const portAt = args.indexOf("--port");
  const listening = await server.listen({ port: portAt >= 0 ? Number(args[portAt + 1]) : 3000 });
  process.stderr.write(`listening on ${listening.url}\n`);
  process.on("SIGTERM", () => {
    server.close();
    void listening.close(0).then(() => process.exit(0));
  });
}
