/**
 * Every dispatcher rule of a generated server, run through `dispatcher.handle` directly, over stdio
 * (serveStdio on PassThrough streams) and over Streamable HTTP (listen on port 0 + fetch): the same
 * table of cases, exact codes, statuses and paths. Then the multi round-trip (input_required)
 * rules, `subscriptions/listen`, and a stateful revision (2025-11-25).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer as createStatefulServer } from "../generated/2025-11-25/index.js";
import {
  CC,
  LOG_LEVEL,
  PV,
  SERVER_INFO,
  SUBSCRIPTION_ID,
  TRANSPORTS,
  connect,
  until,
  type Exchange,
  type Msg,
  type Peer,
  type Transport,
} from "./helpers/server-harness.js";
import {
  CACHE,
  CAPABILITIES,
  ELICIT_CONFIRM,
  INFO,
  INSTRUCTIONS,
  REVISION,
  call,
  makeFixture,
  meta,
  rpc,
  type Fixture,
} from "./helpers/server-fixture.js";

const ALL_CAPS = { sampling: {}, elicitation: {}, roots: {} };

interface Case {
  name: string;
  message: Msg | string;
  /** HTTP header overrides (null removes one). */
  headers?: Record<string, string | null>;
  /** Where the case applies; default every transport. */
  only?: readonly Transport[];
  /** The HTTP status; also the Outcome's httpStatus on the direct path. */
  status: number;
  /** The JSON-RPC error expected; omitted: a result. */
  error?: { code: number; message?: string | RegExp; data?: unknown };
  /** No response at all (notifications). */
  silent?: true;
  check?: (exchange: Exchange, fixture: Fixture) => void;
}

const raw = (method: string, params?: Msg, id: string | number = `raw-${method}`): Msg =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };

const { [PV]: _pv, ...metaWithoutVersion } = meta();
const { [CC]: _cc, ...metaWithoutCapabilities } = meta();
const { "io.modelcontextprotocol/clientInfo": _ci, ...metaWithoutClientInfo } = meta();

const CASES: Case[] = [
  // ---- per-request _meta -------------------------------------------------------------------------
  {
    name: "no params at all → -32602",
    message: raw("tools/list"),
    status: 400,
    error: { code: -32602, message: "Invalid params: _meta is required on every request" },
  },
  {
    name: "params without _meta → -32602",
    message: raw("server/discover", {}),
    status: 400,
    error: { code: -32602, message: "Invalid params: _meta is required on every request" },
  },
  {
    name: "_meta not an object → -32602",
    message: raw("server/discover", { _meta: "meta" }),
    status: 400,
    error: { code: -32602, message: "Invalid params: _meta is required on every request" },
  },
  {
    // versioning.mdx: a modern-only server names its versions in any error to an initialize request.
    name: "an initialize-era handshake → -32022 naming the supported versions",
    message: raw("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "legacy", version: "1" },
    }),
    headers: { "MCP-Protocol-Version": null },
    status: 400,
    error: {
      code: -32022,
      message: `Unsupported protocol version 2025-11-25: this server supports ${REVISION}, which carry the protocol version and client capabilities in every request's _meta`,
      data: { supported: [REVISION], requested: "2025-11-25" },
    },
  },
  {
    name: "_meta without protocolVersion → -32602 (before the header is compared)",
    message: raw("server/discover", { _meta: metaWithoutVersion }),
    headers: { "MCP-Protocol-Version": REVISION },
    status: 400,
    error: { code: -32602, message: `Invalid params: _meta is missing "${PV}"` },
  },
  {
    name: "_meta without clientCapabilities → -32602",
    message: raw("server/discover", { _meta: metaWithoutCapabilities }),
    status: 400,
    error: { code: -32602, message: `Invalid params: _meta is missing "${CC}"` },
  },
  {
    name: "clientCapabilities not an object → -32602",
    message: raw("server/discover", { _meta: meta([] as never) }),
    status: 400,
    error: { code: -32602, message: `Invalid params: _meta "${CC}" must be an object` },
  },
  {
    name: "missing _meta wins over a wrong header",
    message: raw("tools/list", { _meta: metaWithoutVersion }),
    headers: { "MCP-Protocol-Version": "v999.0.0", "Mcp-Method": "something/else" },
    status: 400,
    error: { code: -32602, message: `Invalid params: _meta is missing "${PV}"` },
  },
  {
    name: "clientInfo is optional",
    message: raw("server/discover", { _meta: metaWithoutClientInfo }),
    status: 200,
    check: ({ response }) => expect(response?.result?.supportedVersions).toEqual([REVISION]),
  },

  // ---- versions -----------------------------------------------------------------------------------
  {
    name: "unsupported version → -32022 with supported/requested",
    message: raw("server/discover", { _meta: meta(undefined, { [PV]: "v999.0.0" }) }),
    status: 400,
    error: {
      code: -32022,
      message: "Unsupported protocol version",
      data: { supported: [REVISION], requested: "v999.0.0" },
    },
  },
  {
    name: "an older known version is unsupported too → -32022",
    message: raw("tools/list", { _meta: meta(undefined, { [PV]: "2025-11-25" }) }),
    status: 400,
    error: { code: -32022, data: { supported: [REVISION], requested: "2025-11-25" } },
  },

  // ---- request metadata headers (HTTP only) ---------------------------------------------------------
  {
    name: "MCP-Protocol-Version header ≠ _meta → -32020",
    message: raw("server/discover", { _meta: meta(undefined, { [PV]: "v999.0.0" }) }),
    headers: { "MCP-Protocol-Version": REVISION },
    only: ["http"],
    status: 400,
    error: {
      code: -32020,
      message:
        "Header mismatch: MCP-Protocol-Version header value '2026-07-28' does not match body value 'v999.0.0'",
    },
  },
  {
    name: "MCP-Protocol-Version header missing → -32020",
    message: rpc("tools/list", {}, "no-version-header"),
    headers: { "MCP-Protocol-Version": null },
    only: ["http"],
    status: 400,
    error: {
      code: -32020,
      message: "Header mismatch: the required MCP-Protocol-Version header is missing",
    },
  },
  {
    name: "Mcp-Method header ≠ method → -32020",
    message: rpc("tools/list", {}, "method-header"),
    headers: { "Mcp-Method": "prompts/list" },
    only: ["http"],
    status: 400,
    error: {
      code: -32020,
      message:
        "Header mismatch: Mcp-Method header value 'prompts/list' does not match body value 'tools/list'",
    },
  },
  {
    name: "Mcp-Method header missing → -32020",
    message: rpc("tools/list", {}, "no-method-header"),
    headers: { "Mcp-Method": null },
    only: ["http"],
    status: 400,
    error: { code: -32020, message: "Header mismatch: the required Mcp-Method header is missing" },
  },
  {
    name: "Mcp-Name header ≠ params.name → -32020",
    message: call("echo", {}, "name-header"),
    headers: { "Mcp-Name": "other" },
    only: ["http"],
    status: 400,
    error: {
      code: -32020,
      message: "Header mismatch: Mcp-Name header value 'other' does not match body value 'echo'",
    },
  },
  {
    name: "Mcp-Name header missing → -32020",
    message: call("echo", {}, "no-name-header"),
    headers: { "Mcp-Name": null },
    only: ["http"],
    status: 400,
    error: { code: -32020, message: "Header mismatch: the required Mcp-Name header is missing" },
  },
  {
    name: "Mcp-Name header in Base64 form matches",
    message: call("echo", {}, "name-header-b64"),
    headers: { "Mcp-Name": `=?base64?${Buffer.from("echo").toString("base64")}?=` },
    only: ["http"],
    status: 200,
  },

  // ---- client capabilities ------------------------------------------------------------------------
  {
    name: "a capability the handler requires → -32021 with requiredCapabilities",
    message: call("needs_sampling"),
    status: 400,
    error: {
      code: -32021,
      message: "Missing required client capability",
      data: { requiredCapabilities: { sampling: {} } },
    },
  },
  {
    name: "requiredCapabilities lists only what is missing",
    message: call("needs_two"),
    status: 400,
    error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
  },
  {
    name: "the capability declared → served",
    message: rpc("tools/call", { _meta: meta(ALL_CAPS), name: "needs_sampling" }),
    status: 200,
    check: ({ response }) =>
      expect(response?.result?.content).toEqual([{ type: "text", text: "the client can sample" }]),
  },

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

  // ---- input_required rules that need no earlier round --------------------------------------------
  {
    name: "input requests the client did not declare a capability for → -32021",
    message: call("ask_sampling"),
    status: 400,
    error: {
      code: -32021,
      message: "Missing required client capability",
      data: { requiredCapabilities: { sampling: {} } },
    },
  },
  {
    name: "every undeclared input capability is listed",
    message: rpc("tools/call", { _meta: meta({}), name: "ask_three" }),
    status: 400,
    error: {
      code: -32021,
      data: { requiredCapabilities: { elicitation: {}, sampling: {}, roots: {} } },
    },
  },
  {
    name: "input_required from a method that may not answer it (tools/list) → -32603, logged",
    message: rpc("tools/list", { cursor: "mrtr" }),
    status: 200, // internal errors travel in a 200 answer (dispatch.ts statusFor)
    error: { code: -32603, message: "Internal error" },
    check: (_exchange, { logs }) =>
      expect(logs.some((l) => l.includes("tools/list may not answer input_required"))).toBe(true),
  },
  {
    name: "a requestState that is not one of ours → -32602",
    message: call("ask", { requestState: "not-a-state" }),
    status: 400,
    error: {
      code: -32602,
      message: "Invalid params: requestState integrity check failed (malformed)",
    },
  },
  {
    name: "inputResponses that are not InputResponses → -32602 naming the pointer",
    message: call("ask", { inputResponses: { confirm: { action: "maybe" } } }),
    status: 400,
    error: { code: -32602, data: { path: "/inputResponses/confirm/action" } },
  },
  {
    name: "inputResponses: null → -32602",
    message: call("ask", { inputResponses: null }),
    status: 400,
    error: { code: -32602, data: { path: "/inputResponses" } },
  },
];

for (const transport of TRANSPORTS) {
  describe(`dispatcher rules over ${transport}`, () => {
    let fixture: Fixture;
    let peer: Peer;
    beforeAll(async () => {
      fixture = makeFixture();
      peer = await connect(transport, fixture.server, { protocolVersion: REVISION });
    });
    afterAll(async () => {
      await peer.close();
    });

    const cases = CASES.filter((c) => c.only === undefined || c.only.includes(transport));
    it.each(cases.map((c) => ({ ...c, label: c.name })))("$label", async (c) => {
      const exchange = await peer.send(c.message, c.headers ? { headers: c.headers } : {});
      if (transport !== "stdio") expect(exchange.status).toBe(c.status);
      if (c.silent) {
        expect(exchange.response).toBeNull();
        expect(exchange.messages).toEqual([]);
        if (transport === "http") expect(exchange.body).toBe("");
      } else if (c.error) {
        const { response } = exchange;
        expect(response, "a response").not.toBeNull();
        expect(response!.result).toBeUndefined();
        // Every error response carries the request's id.
        expect(response!.id).toBe((c.message as Msg).id);
        expect(response!.error.code).toBe(c.error.code);
        if (typeof c.error.message === "string")
          expect(response!.error.message).toBe(c.error.message);
        else if (c.error.message) expect(response!.error.message).toMatch(c.error.message);
        if (c.error.data !== undefined) expect(response!.error.data).toEqual(c.error.data);
        if (transport === "http") expect(exchange.contentType).toBe("application/json");
      } else {
        expect(exchange.response?.error).toBeUndefined();
        expect(exchange.response?.id).toBe((c.message as Msg).id);
        expect(exchange.response?.result).toBeDefined();
      }
      c.check?.(exchange, fixture);
    });

    // A method that may answer input_required checks complete answers with its own result type.
    it.each([
      { label: "tools/call", message: call("bad_result") },
      { label: "resources/read", message: rpc("resources/read", { uri: "test://bad" }) },
    ])("an invalid $label result → -32603", async ({ message }) => {
      const exchange = await peer.send(message);
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

    describe("input_required (multi round-trip)", () => {
      async function firstRound(
        name = "ask",
        capabilities?: Record<string, unknown>,
      ): Promise<Msg> {
        const first = await peer.send(
          capabilities ? rpc("tools/call", { _meta: meta(capabilities), name }) : call(name),
        );
        expect(first.response?.error).toBeUndefined();
        return first.response!.result as Msg;
      }

      it("round 1: input_required with the input requests and a sealed state, no caching hints", async () => {
        const result = await firstRound();
        expect(result).toEqual({
          resultType: "input_required",
          inputRequests: { confirm: ELICIT_CONFIRM },
          requestState: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
          _meta: { [SERVER_INFO]: INFO },
        });
      });

      it("round 2 completes with the state; keys not asked for are dropped (own keys only)", async () => {
        const { requestState } = await firstRound();
        const second = await peer.send(
          call("ask", {
            requestState,
            inputResponses: {
              confirm: { action: "accept", content: { ok: true } },
              extra: { action: "decline" },
              toString: { action: "cancel" },
              constructor: { roots: [] },
            },
          }),
        );
        expect(second.response?.error).toBeUndefined();
        expect(second.response?.result.resultType).toBe("complete");
        const seen = JSON.parse(second.response!.result.content[0].text) as Msg;
        expect(seen).toEqual({
          state: { round: 1 },
          keys: ["confirm"],
          plainPrototype: true,
          confirm: { action: "accept", content: { ok: true } },
        });
      });

      it("a response of the wrong kind for what was asked → -32602 naming the pointer", async () => {
        const { requestState } = await firstRound();
        const bad = await peer.send(
          call("ask", { requestState, inputResponses: { confirm: { roots: [] } } }),
        );
        expect(bad.response?.error).toEqual({
          code: -32602,
          message: "Invalid params: /inputResponses/confirm must have required property 'action'",
          data: { path: "/inputResponses/confirm" },
        });
        if (transport !== "stdio") expect(bad.status).toBe(400);
      });

      it("a tampered state → -32602", async () => {
        const { requestState } = await firstRound();
        const flipped = `${requestState.slice(0, 10)}${requestState[10] === "A" ? "B" : "A"}${requestState.slice(11)}`;
        for (const state of [`${requestState}-TAMPERED`, flipped]) {
          const answer = await peer.send(
            call("ask", {
              requestState: state,
              inputResponses: { confirm: { action: "accept", content: { ok: true } } },
            }),
          );
          expect(answer.response?.error?.code).toBe(-32602);
          expect(answer.response?.error?.message).toMatch(
            /^Invalid params: requestState integrity check failed \((tampered|malformed)\)$/,
          );
        }
      });

      it("a state sealed for another tool → -32602 (foreign)", async () => {
        const { requestState } = await firstRound("ask");
        const answer = await peer.send(
          call("inspect", {
            requestState,
            inputResponses: { confirm: { action: "accept", content: { ok: true } } },
          }),
        );
        expect(answer.response?.error).toEqual({
          code: -32602,
          message: "Invalid params: requestState integrity check failed (foreign)",
        });
      });

      it("a state sealed by another server (another secret) → -32602 (tampered)", async () => {
        const { requestState } = await firstRound("ask");
        const stranger = makeFixture();
        const outcome = await stranger.server.dispatcher.handle(call("ask", { requestState }), {
          notify: () => undefined,
          signal: new AbortController().signal,
        });
        expect(outcome.response).toMatchObject({
          error: {
            code: -32602,
            message: "Invalid params: requestState integrity check failed (tampered)",
          },
        });
      });

      it("without inputResponses the handler asks again", async () => {
        const { requestState } = await firstRound();
        const again = await peer.send(call("ask", { requestState }));
        expect(again.response?.result).toMatchObject({
          resultType: "input_required",
          inputRequests: { confirm: ELICIT_CONFIRM },
        });
      });
    });
  });
}

// ---------------------------------------------------------------------------
// subscriptions/listen
// ---------------------------------------------------------------------------

const ACK = "notifications/subscriptions/acknowledged";

for (const transport of TRANSPORTS) {
  describe(`subscriptions/listen over ${transport}`, () => {
    let fixture: Fixture;
    let peer: Peer;
    beforeAll(async () => {
      fixture = makeFixture();
      peer = await connect(transport, fixture.server, { protocolVersion: REVISION });
    });
    afterAll(async () => {
      fixture.server.close();
      await peer.close();
    });

    const listen = (id: string | number, notifications: Msg): Msg =>
      rpc("subscriptions/listen", { notifications }, id);
    const published = (method: string, params?: Msg): number =>
      fixture.server.publish(params ? { method, params } : { method });

    it("acks first with the honoured filter, tags every notification, honours the filter, ends when the client goes away", async () => {
      const stream = await peer.open(
        listen("sub-1", {
          toolsListChanged: true,
          promptsListChanged: false,
          resourcesListChanged: true,
          resourceSubscriptions: ["test://a"],
        }),
      );
      if (transport === "http") {
        expect(stream.status).toBe(200);
        expect(stream.contentType).toBe("text/event-stream");
      }
      // resourcesListChanged is not honoured: resources.listChanged is not declared.
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        method: ACK,
        params: {
          notifications: { toolsListChanged: true, resourceSubscriptions: ["test://a"] },
          _meta: { [SUBSCRIPTION_ID]: "sub-1" },
        },
      });

      expect(published("notifications/prompts/list_changed")).toBe(0);
      expect(published("notifications/resources/list_changed")).toBe(0);
      expect(published("notifications/resources/updated", { uri: "test://b" })).toBe(0);
      expect(published("notifications/tools/list_changed")).toBe(1);
      expect(published("notifications/resources/updated", { uri: "test://a" })).toBe(1);
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { [SUBSCRIPTION_ID]: "sub-1" } },
      });
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri: "test://a", _meta: { [SUBSCRIPTION_ID]: "sub-1" } },
      });
      // Nothing unrequested slipped in, and the request is still open.
      expect(await stream.drain(50)).toEqual([]);

      // A request-scoped notification on another request does not reach the stream.
      const progress = await peer.send(
        call("progress", { _meta: meta(undefined, { progressToken: "p" }) }),
      );
      expect(progress.notifications).toHaveLength(3);
      expect(await stream.drain(20)).toEqual([]);

      await stream.cancel();
      expect(await stream.ended()).toBe(true);
      await until(
        () => published("notifications/tools/list_changed") === 0,
        "the subscription to be dropped",
      );
      if (transport === "stdio") {
        // An abrupt end carries no response.
        const after = await peer.send(rpc("server/discover"));
        expect(after.response?.result).toBeDefined();
        expect(after.messages.filter((m) => m.id === "sub-1")).toEqual([]);
      }
    });

    it("two subscriptions get their own ids; each only what it asked for", async () => {
      const tools = await peer.open(listen(101, { toolsListChanged: true }));
      const prompts = await peer.open(listen(102, { promptsListChanged: true }));
      expect((await tools.next())?.params).toEqual({
        notifications: { toolsListChanged: true },
        _meta: { [SUBSCRIPTION_ID]: 101 },
      });
      expect((await prompts.next())?.params).toEqual({
        notifications: { promptsListChanged: true },
        _meta: { [SUBSCRIPTION_ID]: 102 },
      });
      expect(published("notifications/prompts/list_changed")).toBe(1);
      expect(published("notifications/tools/list_changed")).toBe(1);
      expect(await prompts.next()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/prompts/list_changed",
        params: { _meta: { [SUBSCRIPTION_ID]: 102 } },
      });
      expect(await tools.next()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { [SUBSCRIPTION_ID]: 101 } },
      });
      expect(await tools.drain(30)).toEqual([]);
      expect(await prompts.drain(0)).toEqual([]);
      await tools.cancel();
      await prompts.cancel();
      await until(
        () =>
          published("notifications/tools/list_changed") +
            published("notifications/prompts/list_changed") ===
          0,
        "both to end",
      );
    });

    it("close() ends open subscriptions gracefully: a complete result tagged with the subscription id", async () => {
      const stream = await peer.open(listen("sub-close", { toolsListChanged: true }));
      expect((await stream.next())?.method).toBe(ACK);
      fixture.server.close();
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        id: "sub-close",
        result: {
          resultType: "complete",
          _meta: { [SERVER_INFO]: INFO, [SUBSCRIPTION_ID]: "sub-close" },
        },
      });
      expect(await stream.next()).toBeUndefined();
      expect(await stream.ended()).toBe(true);
      expect(published("notifications/tools/list_changed")).toBe(0);
      // The server goes on serving other requests.
      expect((await peer.send(rpc("server/discover"))).response?.result?.resultType).toBe(
        "complete",
      );
    });

    it("after close(), a new listen is acknowledged and ended at once (close stops accepting new ones)", async () => {
      fixture.server.close();
      const stream = await peer.open(listen("sub-late", { promptsListChanged: true }));
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        method: ACK,
        params: {
          notifications: { promptsListChanged: true },
          _meta: { [SUBSCRIPTION_ID]: "sub-late" },
        },
      });
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        id: "sub-late",
        result: {
          resultType: "complete",
          _meta: { [SERVER_INFO]: INFO, [SUBSCRIPTION_ID]: "sub-late" },
        },
      });
      expect(await stream.ended()).toBe(true);
      expect(published("notifications/prompts/list_changed")).toBe(0);
    });

    it("invalid listen params → -32602", async () => {
      const bad = await peer.send(
        rpc("subscriptions/listen", { notifications: { toolsListChanged: "yes" } }),
      );
      expect(bad.response?.error).toEqual({
        code: -32602,
        message: "Invalid params: /notifications/toolsListChanged must be boolean",
        data: { path: "/notifications/toolsListChanged" },
      });
      if (transport !== "stdio") expect(bad.status).toBe(400);
    });

    it("without a listChanged/subscribe capability, subscriptions/listen → -32601", async () => {
      const plain = makeFixture({ capabilities: { tools: {}, prompts: {}, resources: {} } });
      const other = await connect(transport, plain.server, { protocolVersion: REVISION });
      try {
        const answer = await other.send(
          rpc("subscriptions/listen", { notifications: { toolsListChanged: true } }),
        );
        expect(answer.response?.error).toEqual({
          code: -32601,
          message: "Method not found: subscriptions/listen",
        });
        if (transport !== "stdio") expect(answer.status).toBe(404);
      } finally {
        await other.close();
      }
    });
  });
}

// ---------------------------------------------------------------------------
// A stateful revision: 2025-11-25 follows the initialize handshake and has no per-request _meta.
// ---------------------------------------------------------------------------

const STATEFUL = "2025-11-25";

function statefulFixture() {
  const logs: string[] = [];
  const server = createStatefulServer({
    info: { name: "stateful-fixture", version: "1.0.0" },
    instructions: "Stateful instructions.",
    capabilities: { tools: {} },
    handlers: {
      "tools/list": () => ({
        tools: [{ name: "needs_sampling", inputSchema: { type: "object" } }],
      }),
      "tools/call": async (params, ctx) => {
        if (params.name === "needs_sampling") ctx.requireCapabilities({ sampling: {} });
        if (params.name === "progress") {
          ctx.progress(1, 2);
          ctx.progress(2, 2);
        }
        return { content: [{ type: "text", text: `called ${params.name}` }] };
      },
    },
    log: (line) => void logs.push(line),
  });
  return { server, logs };
}

for (const transport of TRANSPORTS) {
  describe(`stateful revision ${STATEFUL} over ${transport}`, () => {
    let peer: Peer;
    beforeAll(async () => {
      peer = await connect(transport, statefulFixture().server as never, {
        protocolVersion: STATEFUL,
      });
    });
    afterAll(async () => {
      await peer.close();
    });

    const plain = (
      method: string,
      params?: Msg,
      id: string | number = `${method}-${Math.random()}`,
    ): Msg =>
      params === undefined
        ? { jsonrpc: "2.0", id, method }
        : { jsonrpc: "2.0", id, method, params };
    const initialize = (protocolVersion: string, capabilities: Msg = {}) =>
      plain(
        "initialize",
        { protocolVersion, capabilities, clientInfo: { name: "c", version: "1" } },
        "init",
      );

    it("initialize answers protocolVersion, capabilities, serverInfo (and instructions)", async () => {
      const answer = await peer.send(initialize(STATEFUL));
      expect(answer.response).toEqual({
        jsonrpc: "2.0",
        id: "init",
        result: {
          protocolVersion: STATEFUL,
          capabilities: { tools: {} },
          serverInfo: { name: "stateful-fixture", version: "1.0.0" },
          instructions: "Stateful instructions.",
        },
      });
      if (transport !== "stdio") expect(answer.status).toBe(200);
    });

    it("initialize with a version the server does not speak answers with its own", async () => {
      const answer = await peer.send(initialize("1999-01-01"));
      expect(answer.response?.result?.protocolVersion).toBe(STATEFUL);
    });

    it("notifications/initialized gets no answer", async () => {
      const answer = await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      expect(answer.response).toBeNull();
      if (transport !== "stdio") expect(answer.status).toBe(202);
    });

    it("requests work without _meta, and results carry no resultType", async () => {
      const list = await peer.send(plain("tools/list"));
      expect(list.response?.result).toEqual({
        tools: [{ name: "needs_sampling", inputSchema: { type: "object" } }],
      });
      const called = await peer.send(plain("tools/call", { name: "echo" }));
      expect(called.response?.result).toEqual({ content: [{ type: "text", text: "called echo" }] });
    });

    it("params are still validated (-32602 with the pointer), unknown methods are -32601", async () => {
      const bad = await peer.send(plain("tools/call", { name: 5 }, "bad-name"));
      expect(bad.response?.error).toEqual({
        code: -32602,
        message: "Invalid params: /name must be string",
        data: { path: "/name" },
      });
      const unknown = await peer.send(plain("server/discover", {}, "discover"));
      expect(unknown.response?.error).toEqual({
        code: -32601,
        message: "Method not found: server/discover",
      });
      if (transport !== "stdio") expect(unknown.status).toBe(404);
    });

    it("a missing client capability is the revision's -32602 with requiredCapabilities", async () => {
      const answer = await peer.send(plain("tools/call", { name: "needs_sampling" }, "needs"));
      expect(answer.response?.error).toEqual({
        code: -32602,
        message: "Missing required client capability",
        data: { requiredCapabilities: { sampling: {} } },
      });
    });

    it("ctx.progress sends notifications/progress when _meta.progressToken is set", async () => {
      const answer = await peer.send(
        plain("tools/call", { name: "progress", _meta: { progressToken: "t" } }, "progress"),
      );
      expect(answer.notifications.map((n) => n.params)).toEqual([
        { progressToken: "t", progress: 1, total: 2 },
        { progressToken: "t", progress: 2, total: 2 },
      ]);
    });

    it("ping is answered with an empty result without a handler", async () => {
      const answer = await peer.send(plain("ping", undefined, "ping"));
      expect(answer.response?.result).toEqual({});
    });

    if (transport === "stdio") {
      // On stdio one connection is one session: the handshake's capabilities hold for later requests.
      it("capabilities declared in initialize are seen by later requests on the same connection", async () => {
        await peer.send(initialize(STATEFUL, { sampling: {} }));
        const answer = await peer.send(
          plain("tools/call", { name: "needs_sampling" }, "needs-after-init"),
        );
        expect(answer.response?.result?.content).toEqual([
          { type: "text", text: "called needs_sampling" },
        ]);
      });
    }
  });
}
