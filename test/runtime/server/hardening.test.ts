/**
 * Dispatcher defences of the generated 2026-07-28 server: `requestState` bound to the call that
 * made it (its params, its principal) and optionally single-use; options checked when the server
 * is made; wire strings never reaching inherited properties of the runtime's tables.
 */
import { describe, expect, it } from "vitest";
import { createServer } from "../../../generated/2026-07-28/index.js";
import type { Delivery } from "../../../runtime/server/transport.js";
import {
  call,
  INFO,
  makeFixture,
  REVISION,
  rpc,
  type Fixture,
} from "../../helpers/server-fixture.js";
import { connect, type Msg } from "../../helpers/server-harness.js";

const ACCEPT = { confirm: { action: "accept", content: { ok: true } } };

function delivery(principal?: string): Delivery {
  return {
    notify: () => undefined,
    signal: new AbortController().signal,
    ...(principal === undefined ? {} : { principal }),
  };
}

async function send(fixture: Fixture, message: Msg, principal?: string): Promise<Msg> {
  const outcome = await fixture.server.dispatcher.handle(message, delivery(principal));
  return outcome.response as Msg;
}

/** Round 1 of the `ask` tool with `args`: its sealed state. */
async function stateFor(fixture: Fixture, args: Msg, principal?: string): Promise<string> {
  const first = await send(fixture, call("ask", { arguments: args }), principal);
  expect(first["result"]?.resultType).toBe("input_required");
  return first["result"].requestState as string;
}

const foreign = {
  code: -32602,
  message: "Invalid params: requestState integrity check failed (foreign)",
};

describe("requestState is bound to the call that made it", () => {
  it("opens for the same arguments (in any key order, with another _meta), not for other ones", async () => {
    const fixture = makeFixture();
    const requestState = await stateFor(fixture, { to: "bob", amount: 1 });
    const same = await send(
      fixture,
      call("ask", { arguments: { amount: 1, to: "bob" }, requestState, inputResponses: ACCEPT }),
    );
    expect(same["result"]?.resultType).toBe("complete");
    for (const args of [
      { to: "bob", amount: 1000000 },
      { to: "mallory", amount: 1 },
      { to: "bob", amount: 1, extra: true },
      {},
    ]) {
      const other = await send(
        fixture,
        call("ask", { arguments: args, requestState, inputResponses: ACCEPT }),
      );
      expect(other["error"]).toEqual(foreign);
    }
  });

  it("binds the authenticated principal: another principal, or none, cannot use it", async () => {
    const fixture = makeFixture();
    const requestState = await stateFor(fixture, { amount: 1 }, "alice");
    const round2 = (principal?: string) =>
      send(
        fixture,
        call("ask", { arguments: { amount: 1 }, requestState, inputResponses: ACCEPT }),
        principal,
      );
    expect((await round2("bob"))["error"]).toEqual(foreign);
    expect((await round2())["error"]).toEqual(foreign);
    expect((await round2("alice"))["result"]?.resultType).toBe("complete");
    // And a state minted without a principal does not open for one.
    const anonymous = await stateFor(fixture, { amount: 1 });
    const claimed = await send(
      fixture,
      call("ask", { arguments: { amount: 1 }, requestState: anonymous, inputResponses: ACCEPT }),
      "alice",
    );
    expect(claimed["error"]).toEqual(foreign);
  });

  it("the principal reaches handlers in their context", async () => {
    let seen: unknown = "unset";
    const server = createServer({
      info: INFO,
      capabilities: { tools: {} },
      handlers: { "tools/call": (_params, ctx) => ((seen = ctx.principal), { content: [] }) },
    });
    await server.dispatcher.handle(call("x"), delivery("alice"));
    expect(seen).toBe("alice");
    await server.dispatcher.handle(call("x"), delivery());
    expect(seen).toBeUndefined();
  });

  it("replays within the time to live by default; requestStateSingleUse opens each state once", async () => {
    const replayable = makeFixture();
    const state = await stateFor(replayable, { amount: 1 });
    for (let i = 0; i < 3; i++) {
      const again = await send(
        replayable,
        call("ask", { arguments: { amount: 1 }, requestState: state, inputResponses: ACCEPT }),
      );
      expect(again["result"]?.resultType).toBe("complete");
    }
    const single = makeFixture({ server: { requestStateSingleUse: true } });
    const once = await stateFor(single, { amount: 1 });
    const first = await send(
      single,
      call("ask", { arguments: { amount: 1 }, requestState: once, inputResponses: ACCEPT }),
    );
    expect(first["result"]?.resultType).toBe("complete");
    const second = await send(
      single,
      call("ask", { arguments: { amount: 1 }, requestState: once, inputResponses: ACCEPT }),
    );
    expect(second["error"]).toEqual({
      code: -32602,
      message: "Invalid params: requestState integrity check failed (replayed)",
    });
    // Another state of the same call still opens.
    const fresh = await stateFor(single, { amount: 1 });
    expect(
      (
        await send(
          single,
          call("ask", { arguments: { amount: 1 }, requestState: fresh, inputResponses: ACCEPT }),
        )
      )["result"]?.resultType,
    ).toBe("complete");
  });
});

describe("options are checked when the server is made", () => {
  it("a secret shorter than 16 bytes fails createServer with a clear message", () => {
    expect(() => makeFixture({ secret: "short" })).toThrow(
      /state secret must be at least 16 bytes, not 5: use randomSecret\(\)/,
    );
    expect(() => makeFixture({ server: { secret: 42 } })).toThrow(
      /state secret must be a string or a Uint8Array/,
    );
    expect(() => makeFixture({ secret: "0123456789abcdef" })).not.toThrow();
  });

  it("a requestStateTtlMs that is not positive fails createServer", () => {
    expect(() => makeFixture({ server: { requestStateTtlMs: 0 } })).toThrow(
      /requestStateTtlMs must be a positive number/,
    );
    expect(() => makeFixture({ server: { requestStateTtlMs: Number.NaN } })).toThrow(
      /requestStateTtlMs/,
    );
  });
});

describe("wire strings are never looked up as inherited properties", () => {
  for (const method of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
    it(`a request for method ${JSON.stringify(method)} → -32601, and no deprecation notice`, async () => {
      const notices: unknown[] = [];
      // A hook that reads its notice: handed a function, it would throw and turn -32601 into -32603.
      const fixture = makeFixture({
        server: { onDeprecated: (notice: string) => notices.push(notice.toUpperCase()) },
      });
      const answer = await send(fixture, rpc(method));
      expect(answer["error"]).toEqual({ code: -32601, message: `Method not found: ${method}` });
      expect(notices).toEqual([]);
    });
  }
});

describe("Mcp-Param-* headers are checked against the body (HTTP)", () => {
  const schema = {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      count: { type: "integer", "x-mcp-header": "Count" },
      opts: { type: "object", properties: { dry: { type: "boolean", "x-mcp-header": "Dry-Run" } } },
    },
  };
  let listings = 0;
  /** `paged`: the listing comes in two pages, the annotated tool on the second. */
  function headerServer(paged = false) {
    listings = 0;
    const deploy = { name: "deploy", inputSchema: schema as never };
    const plain = { name: "plain", inputSchema: { type: "object" } as never };
    const server = createServer({
      info: INFO,
      capabilities: { tools: {} },
      handlers: {
        "tools/list": (params) => {
          listings++;
          if (!paged) return { tools: [deploy, plain] };
          return params.cursor === "2" ? { tools: [deploy] } : { tools: [plain], nextCursor: "2" };
        },
        "tools/call": (params) => ({
          content: [{ type: "text", text: JSON.stringify(params.arguments ?? {}) }],
        }),
      },
    });
    return server;
  }

  it("accepts matching headers (plain and Base64); refuses missing, mismatched, malformed and extra ones with 400 / -32020", async () => {
    const peer = await connect("http", headerServer(), { protocolVersion: REVISION });
    try {
      expect((await peer.send(rpc("tools/list"))).status).toBe(200);
      const deploy = (args: Msg, headers: Record<string, string | null>) =>
        peer.send(call("deploy", { arguments: args }), { headers });
      const accepted = [
        [
          { region: "eu-west", count: 3, opts: { dry: true } },
          { "Mcp-Param-Region": "eu-west", "Mcp-Param-Count": "3", "Mcp-Param-Dry-Run": "true" },
        ],
        [{ region: "Grüße" }, { "mcp-param-region": "=?base64?R3LDvMOfZQ==?=" }],
        [{ region: "SGVsbG8=" }, { "Mcp-Param-Region": "SGVsbG8=" }],
        [{}, {}],
        [{ region: null }, {}],
      ] as const;
      for (const [args, headers] of accepted) {
        const answer = await deploy(args, headers);
        expect(answer.status, JSON.stringify(headers)).toBe(200);
        expect(answer.response?.result?.content?.[0]?.text).toBe(JSON.stringify(args));
      }
      const refused: Array<[Msg, Record<string, string>, string]> = [
        [
          { region: "eu-west" },
          {},
          "Header mismatch: the required Mcp-Param-Region header is missing",
        ],
        [
          { region: "eu-west" },
          { "Mcp-Param-Region": "us-east" },
          "Header mismatch: Mcp-Param-Region header value 'us-east' does not match body value 'eu-west'",
        ],
        [
          { region: "Hello" },
          { "Mcp-Param-Region": "=?base64?SGVsbG8?=" },
          "Header mismatch: the Mcp-Param-Region header value is malformed",
        ],
        [
          { region: "Hello" },
          { "Mcp-Param-Region": "=?base64?SGVs!!!bG8=?=" },
          "Header mismatch: the Mcp-Param-Region header value is malformed",
        ],
        [
          { count: 3 },
          { "Mcp-Param-Count": "03" },
          "Header mismatch: Mcp-Param-Count header value '03' does not match body value '3'",
        ],
        [
          { opts: { dry: false } },
          { "Mcp-Param-Dry-Run": "true" },
          "Header mismatch: Mcp-Param-Dry-Run header value 'true' does not match body value 'false'",
        ],
        [
          {},
          { "Mcp-Param-Region": "eu-west" },
          "Header mismatch: Mcp-Param-Region header value 'eu-west' has no argument in the body",
        ],
      ];
      for (const [args, headers, message] of refused) {
        const answer = await deploy(args, headers);
        expect(answer.status, message).toBe(400);
        expect(answer.response?.error).toEqual({ code: -32020, message });
      }
      // A tool without annotations takes no Mcp-Param headers into account.
      expect(
        (
          await peer.send(call("plain", { arguments: { region: "x" } }), {
            headers: { "Mcp-Param-Region": "y" },
          })
        ).status,
      ).toBe(200);
    } finally {
      await peer.close();
    }
  });

  it("that listing follows the revision's cursor to the pages after the first", async () => {
    const peer = await connect("http", headerServer(true), { protocolVersion: REVISION });
    try {
      const answer = await peer.send(call("deploy", { arguments: { region: "eu-west" } }), {
        headers: { "Mcp-Param-Region": "us-east" },
      });
      expect(answer.status).toBe(400);
      expect(listings).toBe(2);
    } finally {
      await peer.close();
    }
  });

  it("a process that has not listed its tools lists them once, through its own handler, before the first call", async () => {
    const peer = await connect("http", headerServer(), { protocolVersion: REVISION });
    try {
      const calls = await Promise.all([
        peer.send(call("deploy", { arguments: { region: "eu-west" } }), {
          headers: { "Mcp-Param-Region": "us-east" },
        }),
        peer.send(call("deploy", { arguments: { region: "eu-west" } }), {
          headers: { "Mcp-Param-Region": "eu-west" },
        }),
        peer.send(call("deploy", { arguments: { region: "eu-west" } })),
      ]);
      expect(calls.map((c) => c.status)).toEqual([400, 200, 400]);
      expect(listings).toBe(1);
      expect((await peer.send(call("deploy", { arguments: {} }))).status).toBe(200);
      expect(listings).toBe(1);
    } finally {
      await peer.close();
    }
  });
});
