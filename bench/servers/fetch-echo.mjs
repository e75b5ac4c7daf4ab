// The echo server built with mcp-gen, served through its web-standard `fetch` handler: the same
// handlers as ours-echo.mjs. Bundled by bench/hosting.mjs with the generated server it imports
// (GENERATED_SERVER, replaced at bundle time) for Bun or Deno, or run by Node behind
// @hono/node-server. Prints "listening on <url>" on stderr.
import { createServer } from "GENERATED_SERVER";

const server = createServer({
  info: { name: "echo-mcp-gen", version: "1.0.0" },
  capabilities: { tools: {} },
  handlers: {
    "tools/list": () => ({
      tools: [
        { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
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

await serve(server.fetch);

async function serve(fetch) {
  const listening = (port) => console.error(`listening on http://127.0.0.1:${port}/mcp`);
  if (globalThis.Bun)
    listening(globalThis.Bun.serve({ hostname: "127.0.0.1", port: 0, fetch }).port);
  else if (globalThis.Deno)
    globalThis.Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => listening(port) },
      fetch,
    );
  else {
    const { serve: serveNode } = await import("@hono/node-server");
    serveNode({ fetch, hostname: "127.0.0.1", port: 0 }, ({ port }) => listening(port));
  }
}
