/**
 * A modern call's rounds in the generated 2026-07-28 client (`runtime/client/rounds.ts`), over a
 * scripted in-memory transport: result types and validation, error mapping, multi round-trip and
 * version renegotiation.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createClient,
  HeaderMismatchError,
  InputRequiredError,
  InvalidParamsError,
  InvalidResultError,
  McpError,
  MethodNotFoundError,
  MissingRequiredClientCapabilityError,
  UnsupportedProtocolVersionError,
} from "../../../generated/2026-07-28/client.js";
import {
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
