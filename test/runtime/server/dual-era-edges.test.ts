/**
 * What a legacy session of the dual-era server (generated/dual) receives holds only what its
 * revision defines (issue #32): a tool listing without the schema keywords only 2026-07-28
 * documents (`x-mcp-header`), and no 2026-07-28 deprecation reported for what the session's
 * revision does not deprecate. The same server's modern requests keep both.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Handlers } from "../../../generated/dual/index.js";
import { PROTOCOL_DESCRIPTION } from "../../../generated/dual/protocol.js";
import { closeAll, closers, initialize, modernMeta, stdio } from "../../helpers/dual-era-server.js";
import { LOG_LEVEL } from "../../helpers/server-harness.js";

afterEach(closeAll);

const inputSchema = {
  type: "object",
  "x-mcp-header": "Root",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    nested: {
      type: "object",
      properties: { zone: { type: "string", "x-mcp-header": "Zone", minLength: 1 } },
    },
    // A property named like the keyword is a name, not the keyword.
    "x-mcp-header": { type: "string" },
  },
  required: ["region"],
} as const;
const tool = { name: "mirror", inputSchema: structuredClone(inputSchema) as never };

function makeServer(notices: string[]) {
  const handlers: Handlers = {
    "tools/list": () => ({ tools: [tool] }),
    "tools/call": (_params, ctx) => {
      ctx.log("info", "ran");
      return { content: [{ type: "text", text: "done" }] };
    },
  };
  return createServer({
    info: { name: "edges", version: "1.0.0" },
    capabilities: { tools: {}, logging: {} },
    handlers,
    legacy: {},
    log: () => undefined,
    onDeprecated: (notice) => notices.push(notice),
  });
}

function open(notices: string[], version: string) {
  const c = stdio(makeServer(notices) as never);
  closers.push(c.close);
  c.send(initialize(1, version, {}));
  return c;
}

describe.each(PROTOCOL_DESCRIPTION.eras.map((era) => era.protocolVersion))(
  "a %s session",
  (version) => {
    it("lists tools without x-mcp-header, wherever properties reach; the handler's definition is untouched", async () => {
      const c = open([], version);
      await c.reply(1);
      c.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      expect((await c.reply(2)).result).toEqual({
        tools: [
          {
            name: "mirror",
            inputSchema: {
              type: "object",
              properties: {
                region: { type: "string" },
                nested: {
                  type: "object",
                  properties: { zone: { type: "string", minLength: 1 } },
                },
                "x-mcp-header": { type: "string" },
              },
              required: ["region"],
            },
          },
        ],
      });
      expect(tool.inputSchema).toEqual(inputSchema);
    });

    it("reports no 2026-07-28 deprecation for its log level, a logLevel key it sends, or log messages", async () => {
      const notices: string[] = [];
      const c = open(notices, version);
      await c.reply(1);
      c.send({ jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "debug" } });
      await c.reply(2);
      // Even a client that also sends the modern key in its request's _meta.
      c.send({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "mirror", _meta: { [LOG_LEVEL]: "debug" } },
      });
      await c.reply(3);
      expect(c.received.filter((m) => m.method === "notifications/message")).toHaveLength(1);
      expect(notices).toEqual([]);
    });
  },
);

describe("the same server's modern requests", () => {
  it("list tools with x-mcp-header and report the deprecated log level and log messages", async () => {
    const notices: string[] = [];
    const c = stdio(makeServer(notices) as never);
    closers.push(c.close);
    c.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: modernMeta },
    });
    expect((await c.reply(1)).result.tools[0].inputSchema).toEqual(inputSchema);
    c.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "mirror", _meta: { ...modernMeta, [LOG_LEVEL]: "debug" } },
    });
    await c.reply(2);
    expect(notices.map((notice) => notice.split(" ")[0])).toEqual([
      "RequestMetaObject.io.modelcontextprotocol/logLevel",
      "LoggingMessageNotification",
    ]);
  });
});
