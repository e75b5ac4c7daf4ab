/**
 * Dispatcher defences of the generated 2026-07-28 server: `requestState` bound to the call that
 * made it (its params, its principal) and optionally single-use; options checked when the server
 * is made; wire strings never reaching inherited properties of the runtime's tables.
 */
import { describe, expect, it } from "vitest";
import { createServer } from "../generated/2026-07-28/index.js";
import type { Delivery } from "../templates/runtime/transport.js";
import { call, INFO, makeFixture, rpc, type Fixture } from "./helpers/server-fixture.js";
import type { Msg } from "./helpers/server-harness.js";

const ACCEPT = { confirm: { action: "accept", content: { ok: true } } };

function delivery(principal?: string): Delivery {
  return { notify: () => undefined, signal: new AbortController().signal, ...(principal === undefined ? {} : { principal }) };
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

const foreign = { code: -32602, message: "Invalid params: requestState integrity check failed (foreign)" };

describe("requestState is bound to the call that made it", () => {
  it("opens for the same arguments (in any key order, with another _meta), not for other ones", async () => {
    const fixture = makeFixture();
    const requestState = await stateFor(fixture, { to: "bob", amount: 1 });
    const same = await send(fixture, call("ask", { arguments: { amount: 1, to: "bob" }, requestState, inputResponses: ACCEPT }));
    expect(same["result"]?.resultType).toBe("complete");
    for (const args of [{ to: "bob", amount: 1000000 }, { to: "mallory", amount: 1 }, { to: "bob", amount: 1, extra: true }, {}]) {
      const other = await send(fixture, call("ask", { arguments: args, requestState, inputResponses: ACCEPT }));
      expect(other["error"]).toEqual(foreign);
    }
  });

  it("binds the authenticated principal: another principal, or none, cannot use it", async () => {
    const fixture = makeFixture();
    const requestState = await stateFor(fixture, { amount: 1 }, "alice");
    const round2 = (principal?: string) => send(fixture, call("ask", { arguments: { amount: 1 }, requestState, inputResponses: ACCEPT }), principal);
    expect((await round2("bob"))["error"]).toEqual(foreign);
    expect((await round2())["error"]).toEqual(foreign);
    expect((await round2("alice"))["result"]?.resultType).toBe("complete");
    // And a state minted without a principal does not open for one.
    const anonymous = await stateFor(fixture, { amount: 1 });
    const claimed = await send(fixture, call("ask", { arguments: { amount: 1 }, requestState: anonymous, inputResponses: ACCEPT }), "alice");
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
      const again = await send(replayable, call("ask", { arguments: { amount: 1 }, requestState: state, inputResponses: ACCEPT }));
      expect(again["result"]?.resultType).toBe("complete");
    }
    const single = makeFixture({ server: { requestStateSingleUse: true } });
    const once = await stateFor(single, { amount: 1 });
    const first = await send(single, call("ask", { arguments: { amount: 1 }, requestState: once, inputResponses: ACCEPT }));
    expect(first["result"]?.resultType).toBe("complete");
    const second = await send(single, call("ask", { arguments: { amount: 1 }, requestState: once, inputResponses: ACCEPT }));
    expect(second["error"]).toEqual({ code: -32602, message: "Invalid params: requestState integrity check failed (replayed)" });
    // Another state of the same call still opens.
    const fresh = await stateFor(single, { amount: 1 });
    expect((await send(single, call("ask", { arguments: { amount: 1 }, requestState: fresh, inputResponses: ACCEPT })))["result"]?.resultType).toBe("complete");
  });
});

describe("options are checked when the server is made", () => {
  it("a secret shorter than 16 bytes fails createServer with a clear message", () => {
    expect(() => makeFixture({ secret: "short" })).toThrow(/state secret must be at least 16 bytes, not 5: use randomSecret\(\)/);
    expect(() => makeFixture({ server: { secret: 42 } })).toThrow(/state secret must be a string or a Uint8Array/);
    expect(() => makeFixture({ secret: "0123456789abcdef" })).not.toThrow();
  });

  it("a requestStateTtlMs that is not positive fails createServer", () => {
    expect(() => makeFixture({ server: { requestStateTtlMs: 0 } })).toThrow(/requestStateTtlMs must be a positive number/);
    expect(() => makeFixture({ server: { requestStateTtlMs: Number.NaN } })).toThrow(/requestStateTtlMs/);
  });
});

describe("wire strings are never looked up as inherited properties", () => {
  for (const method of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
    it(`a request for method ${JSON.stringify(method)} → -32601, and no deprecation notice`, async () => {
      const notices: unknown[] = [];
      // A hook that reads its notice: handed a function, it would throw and turn -32601 into -32603.
      const fixture = makeFixture({ server: { onDeprecated: (notice: string) => notices.push(notice.toUpperCase()) } });
      const answer = await send(fixture, rpc(method));
      expect(answer["error"]).toEqual({ code: -32601, message: `Method not found: ${method}` });
      expect(notices).toEqual([]);
    });
  }
});
