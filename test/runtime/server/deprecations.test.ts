import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generatedDir } from "../../helpers/spec.js";

/**
 * The generated server reports a deprecated feature once, the first time it is used on the wire;
 * advertising one (declaring a deprecated capability nobody uses) reports nothing.
 */
type Outcome = { response: { result?: Record<string, unknown>; error?: unknown } | null };
type Server = { dispatcher: { handle(message: unknown, delivery: unknown): Promise<Outcome> } };
let createServer: (options: unknown) => Server;

beforeAll(async () => {
  ({ createServer } = (await import(join(generatedDir("2026-07-28"), "index.ts"))) as {
    createServer: typeof createServer;
  });
});

const delivery = { notify: () => undefined, signal: new AbortController().signal };
let id = 0;
const call = (
  name: string,
  meta: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = {},
) => ({
  jsonrpc: "2.0",
  id: ++id,
  method: "tools/call",
  params: {
    name,
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": capabilities,
      ...meta,
    },
  },
});

function serverReporting() {
  const notices: string[] = [];
  const lines: string[] = [];
  const server = createServer({
    info: { name: "d", version: "1" },
    capabilities: { tools: {} },
    log: (line: string) => lines.push(line),
    onDeprecated: (notice: string) => notices.push(notice),
    handlers: {
      "tools/call": (
        params: { name: string },
        ctx: { inputRequired(r: object): unknown; log(l: string, d: unknown): void },
      ) => {
        if (params.name === "sample")
          return ctx.inputRequired({
            s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } },
          });
        if (params.name === "log") ctx.log("info", "hello");
        return { content: [{ type: "text", text: "ok" }] };
      },
    },
  });
  return { server, notices, lines };
}

describe("deprecation reports of the generated server", () => {
  it("reports a deprecated _meta key received, once", async () => {
    const { server, notices } = serverReporting();
    for (let i = 0; i < 3; i++)
      await server.dispatcher.handle(
        call("plain", { "io.modelcontextprotocol/logLevel": "debug" }),
        delivery,
      );
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^RequestMetaObject\.io\.modelcontextprotocol\/logLevel is deprecated \(as of 2026-07-28, SEP-2577\); earliest removal: first revision released on or after 2027-07-28\./,
    );
  });

  it("reports a deprecated input request and the deprecated capability it uses, when declared and used", async () => {
    const { server, notices } = serverReporting();
    const answer = await server.dispatcher.handle(call("sample", {}, { sampling: {} }), delivery);
    expect(answer.response?.result?.resultType).toBe("input_required");
    expect(notices.map((n) => n.split(" ")[0])).toEqual([
      "CreateMessageRequest",
      "ClientCapabilities.sampling",
    ]);
  });

  it("reports nothing for a deprecated capability that is only declared", async () => {
    const { server, notices } = serverReporting();
    await server.dispatcher.handle(call("plain", {}, { sampling: {}, roots: {} }), delivery);
    expect(notices).toEqual([]);
  });

  it("reports a deprecated notification when the server sends it", async () => {
    const { server, notices } = serverReporting();
    await server.dispatcher.handle(call("log"), delivery); // not opted in: nothing sent, nothing reported
    expect(notices).toEqual([]);
    await server.dispatcher.handle(
      call("log", { "io.modelcontextprotocol/logLevel": "info" }),
      delivery,
    );
    expect(notices.map((n) => n.split(" ")[0])).toEqual([
      "RequestMetaObject.io.modelcontextprotocol/logLevel",
      "LoggingMessageNotification",
    ]);
  });

  it("writes the notice to the log when no hook is given", async () => {
    const lines: string[] = [];
    const server = createServer({
      info: { name: "d", version: "1" },
      capabilities: { tools: {} },
      log: (line: string) => lines.push(line),
      handlers: { "tools/call": () => ({ content: [] }) },
    });
    await server.dispatcher.handle(
      call("plain", { "io.modelcontextprotocol/logLevel": "debug" }),
      delivery,
    );
    await server.dispatcher.handle(
      call("plain", { "io.modelcontextprotocol/logLevel": "debug" }),
      delivery,
    );
    expect(
      lines.filter((l) =>
        l.startsWith("mcp-gen server: deprecated feature used: RequestMetaObject"),
      ),
    ).toHaveLength(1);
  });
});
