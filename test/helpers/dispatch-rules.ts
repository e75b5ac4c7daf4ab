/**
 * The table-driven dispatcher rules: each case is one message sent to a generated server
 * (the 2026-07-28 fixture) and the exact answer expected, run directly, over stdio and over
 * Streamable HTTP by `dispatcherRules`.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { connect, type Exchange, type Msg, type Peer, type Transport } from "./server-harness.js";
import { REVISION, makeFixture, type Fixture } from "./server-fixture.js";

export interface Case {
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

export interface RulesContext {
  /** The fixture server the cases run against. */
  readonly fixture: Fixture;
  /** Connected to `fixture` over the transport. */
  readonly peer: Peer;
}

/**
 * Registers, in the calling describe block, a fresh fixture connected over `transport` and one test
 * per case that applies to it; the context serves further tests on the same connection.
 */
export function dispatcherRules(transport: Transport, table: readonly Case[]): RulesContext {
  let fixture: Fixture | undefined;
  let peer: Peer | undefined;
  beforeAll(async () => {
    fixture = makeFixture();
    peer = await connect(transport, fixture.server, { protocolVersion: REVISION });
  });
  afterAll(async () => {
    await peer?.close();
  });
  const context: RulesContext = {
    get fixture() {
      if (fixture === undefined) throw new Error("dispatcherRules: used before its beforeAll ran");
      return fixture;
    },
    get peer() {
      if (peer === undefined) throw new Error("dispatcherRules: used before its beforeAll ran");
      return peer;
    },
  };

  const cases = table.filter((c) => c.only === undefined || c.only.includes(transport));
  it.each(cases.map((c) => ({ ...c, label: c.name })))("$label", async (c) => {
    const exchange = await context.peer.send(c.message, c.headers ? { headers: c.headers } : {});
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
    c.check?.(exchange, context.fixture);
  });
  return context;
}
