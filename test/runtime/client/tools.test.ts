/**
 * What the generated 2026-07-28 client learns from tool listings (`runtime/client/tools.ts`), over a
 * scripted in-memory transport: `x-mcp-header` mirroring and dropped tools.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient, encodeHeaderValue } from "../../../generated/2026-07-28/client.js";
import { INFO, fakeTransport, results, type Answer, type Msg } from "../../helpers/client-fake.js";

afterEach(() => {
  vi.useRealTimers();
});

const ok = (result: Msg): Answer => ({ result });

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
