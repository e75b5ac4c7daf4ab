/*
 * The server every host test serves (test/interop/hosts.test.ts): the dual-era output of this run
 * (generated/dual: 2026-07-28, and the initialize-era revisions for older clients), imported from
 * server.ts, the module that loads no `node:` built-in, so that the same file runs on Node, Bun,
 * Deno and workerd. Two tools: `ask` asks the client for a name (an `input_required` round on the
 * modern era, a real `elicitation/create` request on a legacy session), `announce` publishes a tool
 * list change, which reaches a legacy session on its GET stream.
 */
import { createServer, type McpServer } from "../../generated/dual/server.js";

export const ELICIT_MESSAGE = "Your name?";

export function hostServer(http: { allowedOrigins?: string[] } = {}): McpServer {
  const server: McpServer = createServer({
    info: { name: "host-fixture", version: "1.0.0" },
    capabilities: { tools: { listChanged: true } },
    log: () => undefined,
    http,
    handlers: {
      "tools/list": () => ({
        tools: [
          { name: "ask", inputSchema: { type: "object" } },
          { name: "announce", inputSchema: { type: "object" } },
        ],
      }),
      "tools/call": (params, ctx) => {
        if (params.name === "announce") {
          const reached = server.publish({ method: "notifications/tools/list_changed" });
          return { content: [{ type: "text", text: `announced to ${reached}` }] };
        }
        if (ctx.inputError)
          return { isError: true, content: [{ type: "text", text: ctx.inputError.message }] };
        const answer = ctx.inputResponses.name as { content?: { name?: string } } | undefined;
        if (!answer)
          return ctx.inputRequired(
            {
              name: {
                method: "elicitation/create",
                params: {
                  mode: "form",
                  message: ELICIT_MESSAGE,
                  requestedSchema: { type: "object", properties: { name: { type: "string" } } },
                },
              },
            },
            { round: 1 },
          );
        return {
          content: [
            { type: "text", text: `hello ${answer.content?.name} (${JSON.stringify(ctx.state)})` },
          ],
        };
      },
    },
  });
  return server;
}
