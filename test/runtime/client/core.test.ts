/**
 * The generated 2026-07-28 client's core rules, over a scripted in-memory transport: request
 * metadata, ids, result validation, error mapping, multi round-trip, version negotiation,
 * pagination, caching, abort/timeout, and `x-mcp-header` mirroring.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createClient,
  encodeHeaderValue,
  HeaderMismatchError,
  InputRequiredError,
  InvalidParamsError,
  InvalidResultError,
  McpError,
  MethodNotFoundError,
  MissingRequiredClientCapabilityError,
  TimeoutError,
  UnsupportedProtocolVersionError,
} from "../../../generated/2026-07-28/client.js";
import {
  CC,
  CI,
  INFO,
  PV,
  fakeTransport,
  results,
  type Answer,
  type Msg,
} from "../../helpers/client-fake.js";

afterEach(() => {
  vi.useRealTimers();
});

const ok = (result: Msg): Answer => ({ result });

describe("requests", () => {
  it("adds the request _meta and headers, and uses a fresh id for every request", async () => {
    const transport = fakeTransport(() => ok(results.call()));
    const client = createClient({ transport, info: INFO, onElicit: () => ({ action: "cancel" }) });
    await client.callTool({ name: "a" });
    await client.callTool({ name: "a" });
    const [first, second] = transport.sent;
    expect(first!.message.params._meta).toEqual({
      [PV]: "2026-07-28",
      [CC]: { elicitation: {} },
      [CI]: INFO,
    });
    expect(first!.message.id).not.toBe(second!.message.id);
    expect(first!.headers).toEqual({
      "Mcp-Method": "tools/call",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Name": "a",
    });
  });

  it("declares the capabilities given instead of the derived ones", async () => {
    const transport = fakeTransport(() => ok(results.tools([])));
    const client = createClient({ transport, info: INFO, capabilities: { roots: {} } });
    await client.listTools();
    expect(transport.sent[0]!.message.params._meta[CC]).toEqual({ roots: {} });
  });

  it("adds a progress token only when onProgress is given, and delivers matching progress", async () => {
    const seen: Msg[] = [];
    const transport = fakeTransport((message, options) => {
      const token = message.params._meta.progressToken;
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "other", progress: 1 },
      });
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: token, progress: 50, total: 100 },
      });
      return ok(results.call());
    });
    const client = createClient({ transport, info: INFO });
    await client.callTool({ name: "a" });
    expect(transport.sent[0]!.message.params._meta.progressToken).toBeUndefined();
    await client.callTool({ name: "a" }, { onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([
      {
        progressToken: transport.sent[1]!.message.params._meta.progressToken,
        progress: 50,
        total: 100,
      },
    ]);
  });

  it("sends Mcp-Name for resources/read verbatim", async () => {
    const transport = fakeTransport(() => ok({ contents: [], ttlMs: 0, cacheScope: "private" }));
    const client = createClient({ transport, info: INFO });
    await client.readResource({ uri: "file:///path/to/file%20name.txt" });
    expect(transport.sent[0]!.headers["Mcp-Name"]).toBe("file:///path/to/file%20name.txt");
  });
});

describe("results", () => {
  it("treats an absent resultType as complete", async () => {
    const client = createClient({
      transport: fakeTransport(() => ok(results.call("x"))),
      info: INFO,
    });
    const result = await client.callTool({ name: "a" });
    expect(result.resultType).toBe("complete");
    expect(result.content).toEqual([{ type: "text", text: "x" }]);
  });

  it("rejects an unknown resultType", async () => {
    const client = createClient({
      transport: fakeTransport(() => ok({ ...results.call(), resultType: "partial" })),
      info: INFO,
    });
    const error = await client.callTool({ name: "a" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResultError);
    expect((error as InvalidResultError).pointer).toBe("/resultType");
  });

  it("rejects an invalid result with the JSON pointer of the problem", async () => {
    const client = createClient({
      transport: fakeTransport(() => ok({ content: [{ type: "text", text: 42 }] })),
      info: INFO,
    });
    const error = await client.callTool({ name: "a" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResultError);
    expect((error as InvalidResultError).pointer).toMatch(/^\/content\/0/);
  });

  it("can skip validation", async () => {
    const client = createClient({
      transport: fakeTransport(() => ok({ content: "nope" })),
      info: INFO,
      validate: false,
    });
    await expect(client.callTool({ name: "a" })).resolves.toMatchObject({ content: "nope" });
  });
});

describe("errors", () => {
  const cases: Array<[string, number, unknown, new (...args: never[]) => Error]> = [
    [
      "unsupported version",
      -32022,
      { supported: ["1999-01-01"], requested: "2026-07-28" },
      UnsupportedProtocolVersionError,
    ],
    [
      "missing capability",
      -32021,
      { requiredCapabilities: { sampling: {} } },
      MissingRequiredClientCapabilityError,
    ],
    ["header mismatch", -32020, undefined, HeaderMismatchError],
    ["method not found", -32601, undefined, MethodNotFoundError],
    ["invalid params", -32602, { path: "/name" }, InvalidParamsError],
    ["internal error", -32603, undefined, McpError],
  ];
  it.each(cases)("maps %s", async (_name, code, data, type) => {
    const client = createClient({
      transport: fakeTransport(() => ({
        error: { code, message: "no", ...(data === undefined ? {} : { data }) },
      })),
      info: INFO,
    });
    const error = await client.callTool({ name: "a" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(code);
    expect((error as McpError).data).toEqual(data);
  });

  it("exposes the typed fields of version and capability errors", async () => {
    const client = createClient({
      transport: fakeTransport(() => ({
        error: { code: -32021, message: "no", data: { requiredCapabilities: { sampling: {} } } },
      })),
      info: INFO,
    });
    const error = (await client
      .callTool({ name: "a" })
      .catch((e: unknown) => e)) as MissingRequiredClientCapabilityError;
    expect(error.requiredCapabilities).toEqual({ sampling: {} });
  });
});

describe("multi round-trip", () => {
  const elicit = {
    method: "elicitation/create",
    params: { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: {} } },
  };

  it("retries with a new id, the responses keyed as asked and requestState echoed byte-for-byte", async () => {
    const state = ' {"odd": "state" } \u00e9 ';
    const transport = fakeTransport((message) =>
      message.params.requestState === undefined
        ? ok({ resultType: "input_required", inputRequests: { who: elicit }, requestState: state })
        : ok(results.call("done")),
    );
    const onElicit = vi.fn(() => ({ action: "accept" as const, content: { name: "Ada" } }));
    const client = createClient({ transport, info: INFO, onElicit });
    const result = await client.callTool({ name: "a", arguments: { x: 1 } });
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(onElicit).toHaveBeenCalledWith(
      elicit.params,
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    const [first, retry] = transport.sent;
    expect(retry!.message.id).not.toBe(first!.message.id);
    expect(retry!.message.params.requestState).toBe(state);
    expect(retry!.message.params.inputResponses).toEqual({
      who: { action: "accept", content: { name: "Ada" } },
    });
    expect(retry!.message.params.arguments).toEqual({ x: 1 });
  });

  it("omits requestState entirely when the server gave none, and never leaks input into other calls", async () => {
    const transport = fakeTransport((message) =>
      message.params.name === "asks" && !message.params.inputResponses
        ? ok({ resultType: "input_required", inputRequests: { who: elicit } })
        : ok(results.call()),
    );
    const client = createClient({ transport, info: INFO, onElicit: () => ({ action: "decline" }) });
    await client.callTool({ name: "asks" });
    await client.callTool({ name: "other" });
    const [, retry, other] = transport.sent;
    expect("requestState" in retry!.message.params).toBe(false);
    expect(retry!.message.params.inputResponses).toEqual({ who: { action: "decline" } });
    expect(other!.message.params).not.toHaveProperty("inputResponses");
    expect(other!.message.params).not.toHaveProperty("requestState");
  });

  it("fails without a handler for the input asked for", async () => {
    const client = createClient({
      transport: fakeTransport(() =>
        ok({ resultType: "input_required", inputRequests: { who: elicit } }),
      ),
      info: INFO,
    });
    await expect(client.callTool({ name: "a" })).rejects.toBeInstanceOf(InputRequiredError);
  });

  it("gives up after maxRounds", async () => {
    const transport = fakeTransport(() =>
      ok({ resultType: "input_required", inputRequests: { who: elicit }, requestState: "s" }),
    );
    const client = createClient({
      transport,
      info: INFO,
      onElicit: () => ({ action: "cancel" }),
      maxRounds: 3,
    });
    await expect(client.callTool({ name: "a" })).rejects.toBeInstanceOf(InputRequiredError);
    expect(transport.sent).toHaveLength(3);
  });
});

describe("cancellation and timeouts", () => {
  it("rejects with the abort reason when the signal aborts", async () => {
    const client = createClient({
      transport: fakeTransport(() => new Promise<Answer>(() => {})),
      info: INFO,
    });
    const controller = new AbortController();
    const call = client.callTool({ name: "a" }, { signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
  });

  it("times out", async () => {
    const client = createClient({
      transport: fakeTransport(() => new Promise<Answer>(() => {})),
      info: INFO,
    });
    await expect(client.callTool({ name: "a" }, { timeoutMs: 20 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
  });

  it("sends a cancellation notification on transports that cancel by message", async () => {
    const transport = fakeTransport(() => new Promise<Answer>(() => {}), {
      cancelsByNotification: true,
    });
    const client = createClient({ transport, info: INFO });
    await expect(client.callTool({ name: "a" }, { timeoutMs: 10 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(transport.notified[0]).toMatchObject({
      method: "notifications/cancelled",
      params: { requestId: transport.sent[0]!.message.id },
    });
  });
});

describe("version negotiation", () => {
  it("retries once with a version both support and keeps using it", async () => {
    const transport = fakeTransport((message) =>
      message.params._meta[PV] === "2026-07-28"
        ? ok(results.tools([]))
        : {
            error: {
              code: -32022,
              message: "Unsupported",
              data: { supported: ["2026-07-28"], requested: "2030-01-01" },
            },
          },
    );
    const client = createClient({
      transport,
      info: INFO,
      protocolVersion: "2030-01-01",
      supportedVersions: ["2030-01-01", "2026-07-28"],
    });
    await client.listTools();
    await client.listTools();
    expect(transport.sent.map((s) => s.message.params._meta[PV])).toEqual([
      "2030-01-01",
      "2026-07-28",
      "2026-07-28",
    ]);
    expect(transport.sent.map((s) => s.headers["MCP-Protocol-Version"])).toEqual([
      "2030-01-01",
      "2026-07-28",
      "2026-07-28",
    ]);
    expect(client.protocolVersion).toBe("2026-07-28");
  });

  it("retries even when the rejected version is the one offered, but only once", async () => {
    const transport = fakeTransport(() => ({
      error: {
        code: -32022,
        message: "Unsupported",
        data: { supported: ["2026-07-28"], requested: "2026-07-28" },
      },
    }));
    const client = createClient({ transport, info: INFO });
    await expect(client.discover()).rejects.toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(transport.sent).toHaveLength(2);
  });

  it("gives up when no version is shared", async () => {
    const transport = fakeTransport(() => ({
      error: { code: -32022, message: "Unsupported", data: { supported: ["1999-01-01"] } },
    }));
    const client = createClient({ transport, info: INFO });
    const error = (await client
      .listTools()
      .catch((e: unknown) => e)) as UnsupportedProtocolVersionError;
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(error.supported).toEqual(["1999-01-01"]);
    expect(transport.sent).toHaveLength(1);
  });
});

describe("pagination", () => {
  it("walks every page", async () => {
    const pages: Record<string, Msg> = {
      "": results.tools([results.tool("a"), results.tool("b")], "p2"),
      p2: results.tools([results.tool("c")], "p3"),
      p3: results.tools([]),
    };
    const transport = fakeTransport((message) => ok(pages[message.params.cursor ?? ""]!));
    const client = createClient({ transport, info: INFO });
    const names: string[] = [];
    for await (const tool of client.listToolsAll()) names.push(tool.name);
    expect(names).toEqual(["a", "b", "c"]);
    expect(transport.sent.map((s) => s.message.params.cursor)).toEqual([undefined, "p2", "p3"]);
  });
});

describe("cache", () => {
  it("serves cacheable results until ttlMs passes, and only when enabled", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const answer = () => ok({ ...results.tools([]), ttlMs: 1000, cacheScope: "private" });
    const transport = fakeTransport(answer);
    const client = createClient({ transport, info: INFO, cache: true });
    await client.listTools();
    await client.listTools();
    expect(transport.sent).toHaveLength(1);
    vi.advanceTimersByTime(1001);
    await client.listTools();
    expect(transport.sent).toHaveLength(2);
    await client.listTools({ cursor: "x" });
    expect(transport.sent).toHaveLength(3);

    const uncached = fakeTransport(answer);
    const plain = createClient({ transport: uncached, info: INFO });
    await plain.listTools();
    await plain.listTools();
    expect(uncached.sent).toHaveLength(2);
  });

  it("never caches ttlMs 0, and keeps private entries per client", async () => {
    const zero = fakeTransport(() => ok(results.tools([])));
    const a = createClient({ transport: zero, info: INFO, cache: true });
    await a.listTools();
    await a.listTools();
    expect(zero.sent).toHaveLength(2);

    const privateAnswer = () => ok({ ...results.tools([]), ttlMs: 60_000, cacheScope: "private" });
    const shared = { ...fakeTransport(privateAnswer), cacheKey: "same-server" };
    const one = createClient({ transport: shared, info: INFO, cache: true });
    const other = createClient({ transport: shared, info: INFO, cache: true });
    await one.listTools();
    await other.listTools();
    expect(shared.sent).toHaveLength(2);
  });

  it("shares public entries between clients of the same server", async () => {
    const publicAnswer = () => ok({ ...results.tools([]), ttlMs: 60_000, cacheScope: "public" });
    const shared = { ...fakeTransport(publicAnswer), cacheKey: `public-${Math.random()}` };
    const one = createClient({ transport: shared, info: INFO, cache: true });
    const other = createClient({ transport: shared, info: INFO, cache: true });
    await one.listTools();
    await other.listTools();
    expect(shared.sent).toHaveLength(1);
  });
});

describe("x-mcp-header", () => {
  const annotated = results.tool("test_custom_headers", {
    region: { type: "string", "x-mcp-header": "Region" },
    priority: { type: "integer", "x-mcp-header": "Priority" },
    verbose: { type: "boolean", "x-mcp-header": "Verbose" },
    debug: { type: "boolean", "x-mcp-header": "Debug" },
    empty_val: { type: "string", "x-mcp-header": "EmptyVal" },
    method_val: { type: "string", "x-mcp-header": "Method" },
    non_ascii_val: { type: "string", "x-mcp-header": "NonAscii" },
    whitespace_val: { type: "string", "x-mcp-header": "Whitespace" },
    leading_space_val: { type: "string", "x-mcp-header": "LeadingSpace" },
    trailing_space_val: { type: "string", "x-mcp-header": "TrailingSpace" },
    internal_space_val: { type: "string", "x-mcp-header": "InternalSpace" },
    control_char_val: { type: "string", "x-mcp-header": "ControlChar" },
    crlf_val: { type: "string", "x-mcp-header": "Crlf" },
    tab_val: { type: "string", "x-mcp-header": "Tab" },
    nested: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } },
    float_val: { type: "number" },
    query: { type: "string" },
  });
  const args = {
    region: "us-west1",
    priority: 42,
    verbose: false,
    debug: true,
    empty_val: "",
    method_val: "test-method",
    non_ascii_val: "Hello, 世界",
    whitespace_val: " padded ",
    leading_space_val: " us-west1",
    trailing_space_val: "us-west1 ",
    internal_space_val: "us west 1",
    control_char_val: "line1\nline2",
    crlf_val: "line1\r\nline2",
    tab_val: "\tindented",
    nested: { zone: "b" },
    float_val: 3.14159,
    query: "SELECT * FROM users",
  };

  it("mirrors annotated arguments with the encoding of conformance README 6.5", async () => {
    const transport = fakeTransport(
      (message) =>
        ok(message.method === "tools/list" ? results.tools([annotated]) : results.call()),
      { mirrorsHeaders: true },
    );
    const client = createClient({ transport, info: INFO });
    await client.listTools();
    await client.callTool({ name: "test_custom_headers", arguments: args });
    await client.callTool({
      name: "test_custom_headers",
      arguments: { region: "us-east1", priority: 1, verbose: null },
    });
    const params = (headers: Record<string, string>) =>
      Object.fromEntries(Object.entries(headers).filter(([k]) => k.startsWith("Mcp-Param-")));
    expect(params(transport.sent[1]!.headers)).toEqual({
      "Mcp-Param-Region": "us-west1",
      "Mcp-Param-Priority": "42",
      "Mcp-Param-Verbose": "false",
      "Mcp-Param-Debug": "true",
      "Mcp-Param-EmptyVal": "",
      "Mcp-Param-Method": "test-method",
      "Mcp-Param-NonAscii": "=?base64?SGVsbG8sIOS4lueVjA==?=",
      "Mcp-Param-Whitespace": "=?base64?IHBhZGRlZCA=?=",
      "Mcp-Param-LeadingSpace": "=?base64?IHVzLXdlc3Qx?=",
      "Mcp-Param-TrailingSpace": "=?base64?dXMtd2VzdDEg?=",
      "Mcp-Param-InternalSpace": "us west 1",
      "Mcp-Param-ControlChar": "=?base64?bGluZTEKbGluZTI=?=",
      "Mcp-Param-Crlf": "=?base64?bGluZTENCmxpbmUy?=",
      "Mcp-Param-Tab": "=?base64?CWluZGVudGVk?=",
      "Mcp-Param-Zone": "b",
    });
    expect(transport.sent[1]!.headers["Mcp-Method"]).toBe("tools/call");
    expect(params(transport.sent[2]!.headers)).toEqual({
      "Mcp-Param-Region": "us-east1",
      "Mcp-Param-Priority": "1",
    });
  });

  it("encodes values", () => {
    expect(encodeHeaderValue("plain")).toBe("plain");
    expect(encodeHeaderValue(7)).toBe("7");
    expect(encodeHeaderValue(1.5)).toBeNull();
    expect(encodeHeaderValue(null)).toBeNull();
    expect(encodeHeaderValue("=?base64?looks-encoded?=")).toMatch(/^=\?base64\?.*\?=$/);
    expect(Buffer.from(encodeHeaderValue("=?base64?x?=")!.slice(9, -2), "base64").toString()).toBe(
      "=?base64?x?=",
    );
  });

  it("drops tools with invalid annotations (README 6.6), logging why, and keeps the valid ones", async () => {
    const bad = (name: string, properties: Msg) => results.tool(name, properties);
    const tools = [
      bad("valid_tool", { region: { type: "string", "x-mcp-header": "Region" } }),
      bad("invalid_empty_header", { a: { type: "string", "x-mcp-header": "" } }),
      bad("invalid_object_header", { a: { type: "object", "x-mcp-header": "Obj" } }),
      bad("invalid_array_header", { a: { type: "array", "x-mcp-header": "Arr" } }),
      bad("invalid_null_header", { a: { type: "null", "x-mcp-header": "Nul" } }),
      bad("invalid_number_header", { a: { type: "number", "x-mcp-header": "Num" } }),
      bad("invalid_duplicate_same_case", {
        a: { type: "string", "x-mcp-header": "Region" },
        b: { type: "string", "x-mcp-header": "Region" },
      }),
      bad("invalid_duplicate_diff_case", {
        a: { type: "string", "x-mcp-header": "MyField" },
        b: { type: "string", "x-mcp-header": "myfield" },
      }),
      bad("invalid_space_in_name", { a: { type: "string", "x-mcp-header": "My Region" } }),
      bad("invalid_colon_in_name", { a: { type: "string", "x-mcp-header": "Region:Primary" } }),
      bad("invalid_non_ascii_name", { a: { type: "string", "x-mcp-header": "Région" } }),
      bad("invalid_control_char_name", { a: { type: "string", "x-mcp-header": "Region\t1" } }),
      bad("invalid_in_items", {
        a: { type: "array", items: { type: "string", "x-mcp-header": "Item" } },
      }),
      {
        name: "remote_ref",
        inputSchema: {
          type: "object",
          properties: { id: { $ref: "http://localhost:1/canary.json" } },
        },
      },
    ];
    const log = vi.fn();
    const transport = fakeTransport(() => ok(results.tools(tools)), { mirrorsHeaders: true });
    const client = createClient({ transport, info: INFO, log });
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(["valid_tool", "remote_ref"]);
    expect(log).toHaveBeenCalledTimes(12);
    expect(log.mock.calls.map(([m]) => String(m)).every((m) => m.includes("dropped tool"))).toBe(
      true,
    );

    const stdio = createClient({
      transport: fakeTransport(() => ok(results.tools(tools))),
      info: INFO,
      log,
    });
    expect((await stdio.listTools()).tools).toHaveLength(tools.length);
  });
});

describe("listen", () => {
  it("iterates the notifications of a subscription, acknowledgement apart", async () => {
    const transport = fakeTransport((message, options) => {
      const tag = { _meta: { "io.modelcontextprotocol/subscriptionId": message.id } };
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { notifications: { toolsListChanged: true }, ...tag },
      });
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: tag,
      });
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "not for the stream" },
      });
      return ok(tag);
    });
    const other: Msg[] = [];
    const client = createClient({ transport, info: INFO, onNotification: (n) => other.push(n) });
    const stream = client.listen({ toolsListChanged: true });
    const got: string[] = [];
    for await (const notification of stream) got.push(notification.method);
    expect(got).toEqual(["notifications/tools/list_changed"]);
    expect(await stream.acknowledged).toMatchObject({ notifications: { toolsListChanged: true } });
    expect(other.map((n) => n.method)).toEqual(["notifications/message"]);
    expect(transport.sent[0]!.message.params.notifications).toEqual({ toolsListChanged: true });
  });
});
