/**
 * The dispatcher's rules for methods and their results, one table of cases run directly, over stdio
 * and over Streamable HTTP: unknown and undeclared methods, server/discover, params validation,
 * handler outcomes, notifications, progress, logging; invalid results and the caching defaults.
 */
import { describe, expect, it } from "vitest";
import {
  LOG_LEVEL,
  SERVER_INFO,
  TRANSPORTS,
  connect,
  type Msg,
} from "../../helpers/server-harness.js";
import {
  CACHE,
  CAPABILITIES,
  INFO,
  INSTRUCTIONS,
  REVISION,
  call,
  makeFixture,
  meta,
  rpc,
} from "../../helpers/server-fixture.js";
import { dispatcherRules, type Case } from "../../helpers/dispatch-rules.js";

const CASES: Case[] = [
  // ---- methods ------------------------------------------------------------------------------------
  ...[
    "unknown/method",
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
    "toString",
    "__proto__",
    "constructor",
    "hasOwnProperty",
  ].map((method): Case => ({
    name: `${method} → -32601`,
    message: rpc(method),
    status: 404,
    error: { code: -32601, message: `Method not found: ${method}` },
  })),
  {
    name: "a method whose server capability is not declared (completions) → -32601, handler or not",
    message: rpc("completion/complete", {
      ref: { type: "ref/prompt", name: "p" },
      argument: { name: "a", value: "b" },
    }),
    status: 404,
    error: { code: -32601, message: "Method not found: completion/complete" },
  },
  {
    name: "a declared method without a handler (resources/templates/list) → -32601",
    message: rpc("resources/templates/list"),
    status: 404,
    error: { code: -32601, message: "Method not found: resources/templates/list" },
  },
  {
    name: "a declared method without a handler (prompts/get) → -32601",
    message: rpc("prompts/get", { name: "p" }),
    status: 404,
    error: { code: -32601, message: "Method not found: prompts/get" },
  },

  // ---- server/discover and results ----------------------------------------------------------------
  {
    name: "server/discover answers info, capabilities, versions, instructions, caching hints",
    message: rpc("server/discover"),
    status: 200,
    check: ({ response }) =>
      expect(response?.result).toEqual({
        supportedVersions: [REVISION],
        capabilities: CAPABILITIES,
        instructions: INSTRUCTIONS,
        resultType: "complete",
        ttlMs: CACHE.ttlMs,
        cacheScope: CACHE.cacheScope,
        _meta: { [SERVER_INFO]: INFO },
      }),
  },
  {
    name: "resultType complete is added; no caching hints on an uncacheable result",
    message: call("echo", { arguments: { a: 1 } }),
    status: 200,
    check: ({ response }) =>
      expect(response?.result).toEqual({
        content: [{ type: "text", text: '{"a":1}' }],
        resultType: "complete",
        _meta: { [SERVER_INFO]: INFO },
      }),
  },
  {
    name: "cacheable result without hints gets the cache option's",
    message: rpc("tools/list"),
    status: 200,
    check: ({ response }) => {
      expect(response?.result).toMatchObject({
        resultType: "complete",
        ttlMs: CACHE.ttlMs,
        cacheScope: CACHE.cacheScope,
        _meta: { [SERVER_INFO]: INFO },
      });
      expect(response?.result?.tools.map((t: Msg) => t.name)).toContain("echo");
    },
  },
  {
    name: "resources/read is cacheable too",
    message: rpc("resources/read", { uri: "test://a" }),
    status: 200,
    check: ({ response }) =>
      expect(response?.result).toEqual({
        contents: [{ uri: "test://a", text: "hello" }],
        resultType: "complete",
        ttlMs: CACHE.ttlMs,
        cacheScope: CACHE.cacheScope,
        _meta: { [SERVER_INFO]: INFO },
      }),
  },
  {
    name: "handler-provided caching hints are kept",
    message: rpc("resources/list"),
    status: 200,
    check: ({ response }) =>
      expect(response?.result).toMatchObject({
        ttlMs: 99,
        cacheScope: "public",
        resultType: "complete",
      }),
  },

  // ---- invalid params -----------------------------------------------------------------------------
  {
    name: "a missing required param → -32602 at /",
    message: rpc("tools/call", { arguments: {} }),
    status: 400,
    error: {
      code: -32602,
      message: "Invalid params: / must have required property 'name'",
      data: { path: "" },
    },
  },
  {
    name: "a param of the wrong type → -32602 naming its pointer",
    message: call("echo", { arguments: "not-an-object" }),
    status: 400,
    error: {
      code: -32602,
      message: "Invalid params: /arguments must be object",
      data: { path: "/arguments" },
    },
  },
  {
    name: "an invalid optional param → -32602 naming its pointer",
    message: rpc("tools/list", { cursor: 5 }),
    status: 400,
    error: {
      code: -32602,
      message: "Invalid params: /cursor must be string",
      data: { path: "/cursor" },
    },
  },
  {
    name: "an invalid _meta field → -32602 naming its pointer",
    message: rpc("tools/list", { _meta: meta(undefined, { progressToken: { not: "a token" } }) }),
    status: 400,
    error: { code: -32602, data: { path: "/_meta/progressToken" } },
  },
  {
    name: "an invalid log level → -32602 naming its (escaped) pointer",
    message: rpc("tools/list", { _meta: meta(undefined, { [LOG_LEVEL]: "loud" }) }),
    status: 400,
    error: { code: -32602, data: { path: "/_meta/io.modelcontextprotocol~1logLevel" } },
  },

  // ---- handler outcomes ---------------------------------------------------------------------------
  {
    name: "an invalid result → -32603, logged with its pointer",
    message: rpc("prompts/list", { cursor: "bad" }),
    status: 200, // internal errors travel in a 200 answer (dispatch.ts statusFor)
    error: { code: -32603, message: "Internal error: the server produced an invalid result" },
    check: (_exchange, { logs }) =>
      expect(
        logs.some((l) => l.includes("prompts/list returned an invalid result at /prompts")),
      ).toBe(true),
  },
  {
    name: "a null result → -32603, logged",
    message: call("null_result"),
    status: 200, // internal errors travel in a 200 answer (dispatch.ts statusFor)
    error: { code: -32603, message: "Internal error" },
    check: (_exchange, { logs }) =>
      expect(
        logs.some((l) => l.includes("handler for tools/call returned null, not a result object")),
      ).toBe(true),
  },
  {
    name: "a thrown RpcError passes through with its code and data",
    message: call("rpc_error"),
    status: 200,
    error: { code: -32042, message: "custom failure", data: { detail: [1, 2] } },
  },
  {
    name: "a thrown RpcError with a protocol code gets that code's status",
    message: call("rpc_invalid"),
    status: 400,
    error: { code: -32602, message: "Unknown widget", data: { uri: "widget://nope" } },
  },
  {
    name: "a thrown Error → -32603 without its message; the log has it",
    message: call("throws"),
    status: 200, // internal errors travel in a 200 answer (dispatch.ts statusFor)
    error: { code: -32603, message: "Internal error" },
    check: ({ response, body }, { logs }) => {
      expect(JSON.stringify(response)).not.toContain("s3cr3t");
      if (body !== null) expect(body).not.toContain("s3cr3t");
      expect(
        logs.some(
          (l) => l.includes("handler for tools/call failed") && l.includes("s3cr3t-db-password"),
        ),
      ).toBe(true);
    },
  },
  {
    name: "state that cannot be sealed → -32603 (the dispatcher answers, never throws), logged",
    message: call("unsealable_state"),
    status: 200, // internal errors travel in a 200 answer (dispatch.ts statusFor)
    error: { code: -32603, message: "Internal error" },
    check: (_exchange, { logs }) =>
      expect(logs.some((l) => l.includes("tools/call failed") && l.includes("BigInt"))).toBe(true),
  },
  {
    name: "an input request of an unknown method → -32603, logged",
    message: call("unknown_input"),
    status: 200, // internal errors travel in a 200 answer (dispatch.ts statusFor)
    error: { code: -32603, message: "Internal error" },
    check: (_exchange, { logs }) =>
      expect(logs.some((l) => l.includes("asked for unknown input request tools/list"))).toBe(true),
  },

  // ---- notifications ------------------------------------------------------------------------------
  {
    name: "a notification gets no answer",
    message: {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 424242, reason: "changed my mind" },
    },
    status: 202,
    silent: true,
  },
  {
    name: "an unknown notification gets no answer either",
    message: { jsonrpc: "2.0", method: "notifications/whatever", params: {} },
    status: 202,
    silent: true,
  },

  // ---- progress -----------------------------------------------------------------------------------
  {
    name: "progress notifications when the request carried a progressToken, before the response",
    message: call("progress", { _meta: meta(undefined, { progressToken: "tok-1" }) }),
    status: 200,
    check: ({ notifications, messages, contentType, response }) => {
      expect(notifications).toEqual([
        {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: "tok-1", progress: 1, total: 3, message: "one" },
        },
        {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: "tok-1", progress: 2, total: 3 },
        },
        {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: "tok-1", progress: 3, total: 3, message: "three" },
        },
      ]);
      expect(messages.indexOf(response!)).toBeGreaterThan(messages.indexOf(notifications[2]!));
      if (contentType !== null) expect(contentType).toBe("text/event-stream");
    },
  },
  {
    name: "a numeric progressToken is echoed as a number",
    message: call("progress", { _meta: meta(undefined, { progressToken: 7 }) }),
    status: 200,
    check: ({ notifications }) =>
      expect(notifications.map((n) => n.params.progressToken)).toEqual([7, 7, 7]),
  },
  {
    name: "no progress notifications without a progressToken",
    message: call("progress"),
    status: 200,
    check: ({ notifications, contentType, response }) => {
      expect(notifications).toEqual([]);
      expect(response?.result?.content).toEqual([{ type: "text", text: "progressed" }]);
      if (contentType !== null) expect(contentType).toBe("application/json");
    },
  },

  // ---- logging ------------------------------------------------------------------------------------
  {
    name: "log notifications at or above the requested level only",
    message: call("log", { _meta: meta(undefined, { [LOG_LEVEL]: "warning" }) }),
    status: 200,
    check: ({ notifications }) =>
      expect(notifications).toEqual([
        {
          jsonrpc: "2.0",
          method: "notifications/message",
          params: { level: "warning", data: { at: "warning" }, logger: "fixture" },
        },
        {
          jsonrpc: "2.0",
          method: "notifications/message",
          params: { level: "error", data: { at: "error" }, logger: "fixture" },
        },
      ]),
  },
  {
    name: "logLevel debug gets every level",
    message: call("log", { _meta: meta(undefined, { [LOG_LEVEL]: "debug" }) }),
    status: 200,
    check: ({ notifications }) =>
      expect(notifications.map((n) => n.params.level)).toEqual([
        "debug",
        "info",
        "warning",
        "error",
      ]),
  },
  {
    name: "logLevel emergency gets none of them",
    message: call("log", { _meta: meta(undefined, { [LOG_LEVEL]: "emergency" }) }),
    status: 200,
    check: ({ notifications }) => expect(notifications).toEqual([]),
  },
  {
    name: "no log notifications without a logLevel",
    message: call("log"),
    status: 200,
    check: ({ notifications, contentType }) => {
      expect(notifications).toEqual([]);
      if (contentType !== null) expect(contentType).toBe("application/json");
    },
  },
];

for (const transport of TRANSPORTS) {
  describe(`dispatcher rules over ${transport}`, () => {
    const rules = dispatcherRules(transport, CASES);

    // A method that may answer input_required checks complete answers with its own result type.
    it.each([
      { label: "tools/call", message: call("bad_result") },
      { label: "resources/read", message: rpc("resources/read", { uri: "test://bad" }) },
    ])("an invalid $label result → -32603", async ({ message }) => {
      const exchange = await rules.peer.send(message);
      expect(exchange.response?.error).toEqual({
        code: -32603,
        message: "Internal error: the server produced an invalid result",
      });
    });

    it("caching defaults without a cache option: 0/private on results, 0/public on discover", async () => {
      const bare = makeFixture({ cache: null });
      const other = await connect(transport, bare.server, { protocolVersion: REVISION });
      try {
        const list = await other.send(rpc("tools/list"));
        expect(list.response?.result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
        const discover = await other.send(rpc("server/discover"));
        expect(discover.response?.result).toMatchObject({ ttlMs: 0, cacheScope: "public" });
        const kept = await other.send(rpc("resources/list"));
        expect(kept.response?.result).toMatchObject({ ttlMs: 99, cacheScope: "public" });
      } finally {
        await other.close();
      }
    });
  });
}
