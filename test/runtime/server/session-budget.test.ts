/**
 * Issue 33, finding 1: what a client's handshake makes a session keep is bounded
 * (runtime/server/session-budget.ts). A legacy `initialize` whose capabilities and clientInfo hold
 * more than `legacy.maxHandshakeBytes` of JSON (default 64 KiB) is refused -32602 and opens no
 * session; a stateful revision's handshake past `maxHandshakeBytes` is refused alike and its
 * connection keeps nothing. The size count never exceeds JSON's, so what fits is never refused.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type ServerOptions } from "../../../generated/dual/index.js";
import { createServer as createStatefulServer } from "../../../generated/2025-11-25/index.js";
import {
  DEFAULT_MAX_HANDSHAKE_BYTES,
  exceedsJsonBytes,
} from "../../../runtime/server/session-budget.js";
import type { Msg } from "../../helpers/server-harness.js";

const LEGACY = "2025-11-25";
const MiB = 1024 * 1024;
const closers: Array<() => unknown> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("exceedsJsonBytes", () => {
  it("never counts more than JSON holds, and exactly as much for plain ASCII", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const bytes = jsonBytes(value);
        // Never refuses what fits.
        expect(exceedsJsonBytes([value], bytes)).toBe(false);
      }),
    );
    for (const value of [
      { a: [1, "b", null, true, {}] },
      [],
      {},
      "x",
      { k: { l: [[], [1, 2]] } },
    ]) {
      const bytes = jsonBytes(value);
      expect(exceedsJsonBytes([value], bytes), JSON.stringify(value)).toBe(false);
      expect(exceedsJsonBytes([value], bytes - 1), JSON.stringify(value)).toBe(true);
    }
  });

  it("counts UTF-8 bytes, and several values together", () => {
    // "é" is 2 bytes, "世" 3, "😀" 4 (a surrogate pair): 9 bytes and the quotes.
    expect(exceedsJsonBytes(["é世😀"], 11)).toBe(false);
    expect(exceedsJsonBytes(["é世😀"], 10)).toBe(true);
    expect(exceedsJsonBytes(["aaaa", "bbbb"], 11)).toBe(true);
    expect(exceedsJsonBytes(["aaaa", "bbbb"], 12)).toBe(false);
  });

  it("stops early on a huge value and walks any depth without recursion", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(exceedsJsonBytes([deep], 1024)).toBe(true);
    expect(exceedsJsonBytes([deep], 10 * MiB)).toBe(false);
  });
});

function dualServer(options: Partial<ServerOptions> = {}) {
  return createServer({
    info: { name: "budget", version: "1.0.0" },
    capabilities: { tools: {} },
    log: () => undefined,
    handlers: { "tools/list": () => ({ tools: [] }) },
    ...options,
  });
}

const initialize = (capabilities: Msg, clientInfo: unknown = { name: "c", version: "1" }) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: LEGACY, capabilities, clientInfo },
});
/** Capabilities whose `experimental` holds `bytes` of one string. */
const padded = (bytes: number): Msg => ({ experimental: { pad: { data: "x".repeat(bytes) } } });

async function postJson(url: string, body: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    session: res.headers.get("mcp-session-id"),
    body: (await res.json()) as Msg,
  };
}

describe("a legacy initialize's capabilities and clientInfo are bounded", () => {
  it("3 MiB in capabilities.experimental is refused -32602 over HTTP, and no session is kept", async () => {
    const server = dualServer();
    const handle = await server.listen({ port: 0 });
    closers.push(() => handle.close(0));
    const answer = await postJson(handle.url, initialize(padded(3 * MiB)));
    expect(answer.session).toBeNull();
    expect(answer.body.error).toEqual({
      code: -32602,
      message: `Invalid params: capabilities and clientInfo may hold at most ${DEFAULT_MAX_HANDSHAKE_BYTES} bytes of JSON together`,
    });
    expect(server.dispatcher.legacy!.size).toBe(0);
    // A handshake within the budget still opens one.
    const fine = await postJson(handle.url, initialize(padded(DEFAULT_MAX_HANDSHAKE_BYTES / 2)));
    expect(fine.body.result).toBeDefined();
    expect(fine.session).toMatch(/./);
    expect(server.dispatcher.legacy!.size).toBe(1);
  });

  it("counts clientInfo with the capabilities, against legacy.maxHandshakeBytes", async () => {
    const server = dualServer({ legacy: { maxHandshakeBytes: 1000 } });
    const send = async (capabilities: Msg, clientInfo: unknown) => {
      const record: Record<string, unknown> = {};
      const outcome = await server.dispatcher.handle(initialize(capabilities, clientInfo), {
        notify: () => undefined,
        signal: new AbortController().signal,
        session: record,
      });
      return { response: outcome.response as Msg, record };
    };
    const info = (bytes: number) => ({ name: "x".repeat(bytes), version: "1" });
    // Either alone fits; together they do not.
    expect((await send(padded(500), info(10))).response.result).toBeDefined();
    expect((await send({}, info(600))).response.result).toBeDefined();
    const refused = await send(padded(500), info(600));
    expect((refused.response.error as Msg).code).toBe(-32602);
    expect(refused.record).toEqual({});
    expect(server.dispatcher.legacy!.size).toBe(2);
  });
});

describe("a stateful revision's handshake is bounded too", () => {
  it("capabilities past maxHandshakeBytes are refused -32602 and not kept", async () => {
    const server = createStatefulServer({
      info: { name: "budget-stateful", version: "1.0.0" },
      capabilities: { tools: {} },
      log: () => undefined,
      maxHandshakeBytes: 2048,
      handlers: { "tools/list": () => ({ tools: [] }) },
    });
    const record: Record<string, unknown> = {};
    const handshake = async (capabilities: Msg) =>
      (
        await server.dispatcher.handle(initialize(capabilities), {
          notify: () => undefined,
          signal: new AbortController().signal,
          session: record,
        })
      ).response as Msg;
    const refused = await handshake(padded(4096));
    expect(refused.error).toEqual({
      code: -32602,
      message: "Invalid params: capabilities may hold at most 2048 bytes of JSON",
    });
    expect(record.clientCapabilities).toBeUndefined();
    expect((await handshake(padded(1000))).result).toBeDefined();
    expect(record.clientCapabilities).toEqual(padded(1000));
  });
});
