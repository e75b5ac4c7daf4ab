/**
 * Hostile and broken input to a generated 2026-07-28 server, over stdio and over Streamable HTTP:
 * each case asserts the exact answer, and after each the next valid request must be served
 * normally. Prototype pollution is checked on `Object.prototype` after every case.
 */
import { request as httpRequest } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  CC,
  PV,
  SERVER_INFO,
  WIRES,
  connect,
  type Exchange,
  type HttpPeer,
  type Msg,
  type Peer,
  type Transport,
} from "../../helpers/server-harness.js";
import {
  INFO,
  REVISION,
  call,
  makeFixture,
  meta,
  rpc,
  type Fixture,
} from "../../helpers/server-fixture.js";

const MB = 1024 * 1024;
const DEPTH = 10_000;
/** Deep, but within the parse guard's default limit. */
const DEPTH_OK = 900;
const META = JSON.stringify(meta());

const deepArray = (n: number): string => "[".repeat(n) + "]".repeat(n);
const deepObject = (n: number): string => '{"a":'.repeat(n) + "1" + "}".repeat(n);
/** A raw tools/call line with `params` text spliced in after `_meta`. */
const rawCall = (id: number | string, paramsTail: string, metaText = META): string =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"_meta":${metaText},${paramsTail}}}`;

interface Case {
  name: string;
  /** The message: raw text (sent as is) or an object (serialised). */
  message: string | Msg | (() => Promise<string | Msg> | string | Msg);
  headers?: Record<string, string | null>;
  only?: readonly Transport[];
  check: (exchange: Exchange, transport: Transport, fixture: Fixture) => void;
}

/** An id-less JSON-RPC error: what a message whose id cannot be read is answered with. */
function expectIdless(
  exchange: Exchange,
  code: number,
  message: string | RegExp,
  status: number,
  transport: Transport,
): void {
  expect(exchange.response).not.toBeNull();
  expect(exchange.response).not.toHaveProperty("id");
  expect(exchange.response!.jsonrpc).toBe("2.0");
  expect(exchange.response!.error.code).toBe(code);
  if (typeof message === "string") expect(exchange.response!.error.message).toBe(message);
  else expect(exchange.response!.error.message).toMatch(message);
  if (transport === "http") expect(exchange.status).toBe(status);
  // Nothing else was sent.
  expect(exchange.messages).toHaveLength(1);
}

function expectError(
  exchange: Exchange,
  id: string | number,
  error: { code: number; message?: string | RegExp; data?: unknown },
  status: number,
  transport: Transport,
): void {
  expect(exchange.response?.id).toBe(id);
  expect(exchange.response?.result).toBeUndefined();
  expect(exchange.response?.error?.code).toBe(error.code);
  if (typeof error.message === "string")
    expect(exchange.response?.error?.message).toBe(error.message);
  else if (error.message !== undefined)
    expect(exchange.response?.error?.message).toMatch(error.message);
  if (error.data !== undefined) expect(exchange.response?.error?.data).toEqual(error.data);
  if (transport === "http") expect(exchange.status).toBe(status);
}

function expectSilent(exchange: Exchange, transport: Transport): void {
  expect(exchange.response).toBeNull();
  expect(exchange.messages).toEqual([]);
  if (transport === "http") {
    expect(exchange.status).toBe(202);
    expect(exchange.body).toBe("");
  }
}

const textOf = (exchange: Exchange): string => exchange.response?.result?.content?.[0]?.text;

/** The first round of `ask`/`inspect` from a dispatcher of the same server (any transport seals alike). */
async function firstRoundState(fixture: Fixture, tool: string): Promise<string> {
  const outcome = await fixture.server.dispatcher.handle(call(tool), {
    notify: () => undefined,
    signal: new AbortController().signal,
  });
  const state = (outcome.response as Msg).result?.requestState;
  expect(typeof state).toBe("string");
  return state as string;
}

let fixture: Fixture;

const CASES: Case[] = [
  // ---- framing -------------------------------------------------------------------------------------
  {
    name: "malformed JSON → -32700 without an id",
    message: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{',
    check: (ex, t) => expectIdless(ex, -32700, "Parse error: not valid JSON", 400, t),
  },
  {
    name: "a lone brace → -32700",
    message: "}",
    check: (ex, t) => expectIdless(ex, -32700, "Parse error: not valid JSON", 400, t),
  },
  {
    name: "a 10 MB message → -32600 for the over-long line (stdio)",
    message: () =>
      JSON.stringify({ ...call("echo", { arguments: { padding: "x".repeat(10 * MB) } }) }),
    only: ["stdio"],
    check: (ex, t) =>
      expectIdless(
        ex,
        -32600,
        `Invalid request: message exceeds the maximum line length of ${4 * MB} bytes`,
        0,
        t,
      ),
  },
  {
    name: "a 10 MB message → 413 (HTTP)",
    message: () =>
      JSON.stringify({ ...call("echo", { arguments: { padding: "x".repeat(10 * MB) } }) }),
    only: ["http"],
    check: (ex, t) =>
      expectIdless(ex, -32600, `Payload too large: the limit is ${4 * MB} bytes`, 413, t),
  },
  {
    name: "a batch (array) → -32600",
    message: JSON.stringify([rpc("tools/list"), rpc("tools/list")]),
    check: (ex, t) =>
      expectIdless(ex, -32600, "Invalid request: batches are not supported", 400, t),
  },
  {
    name: "JSON that is not an object → -32600",
    message: "42",
    check: (ex, t) => expectIdless(ex, -32600, "Invalid request: not an object", 400, t),
  },
  {
    name: "id: null → -32600",
    message: { jsonrpc: "2.0", id: null, method: "tools/list", params: { _meta: meta() } },
    check: (ex, t) =>
      expectIdless(ex, -32600, 'Invalid request: "id" must be a string or a number', 400, t),
  },
  {
    name: "id: an object → -32600",
    message: {
      jsonrpc: "2.0",
      id: { nested: true },
      method: "tools/list",
      params: { _meta: meta() },
    },
    check: (ex, t) =>
      expectIdless(ex, -32600, 'Invalid request: "id" must be a string or a number', 400, t),
  },
  {
    name: 'jsonrpc "1.0" → -32600 with the id',
    message: { jsonrpc: "1.0", id: "v1", method: "tools/list", params: { _meta: meta() } },
    check: (ex, t) =>
      expectError(
        ex,
        "v1",
        { code: -32600, message: 'Invalid request: "jsonrpc" must be "2.0"' },
        400,
        t,
      ),
  },
  {
    name: "params that are an array → -32600 with the id",
    message: { jsonrpc: "2.0", id: "arr", method: "tools/list", params: [1, 2] },
    check: (ex, t) =>
      expectError(
        ex,
        "arr",
        { code: -32600, message: 'Invalid request: "params" must be an object' },
        400,
        t,
      ),
  },
  {
    name: "a JSON-RPC response sent to the server gets no answer",
    message: { jsonrpc: "2.0", id: 5, result: { resultType: "complete" } },
    check: (ex, t) => expectSilent(ex, t),
  },
  {
    name: "a JSON-RPC error response sent to the server gets no answer",
    message: { jsonrpc: "2.0", id: "e", error: { code: -1, message: "nope" } },
    check: (ex, t) => expectSilent(ex, t),
  },

  // ---- deep nesting --------------------------------------------------------------------------------
  // Within the parse guard's default limit (1000 levels) nesting is data; past it the message is
  // refused before JSON.parse (a parse error: its id cannot be read without parsing it).
  {
    name: `${DEPTH_OK}-deep nesting in tool arguments is data: the handler gets it whole`,
    message: rawCall(
      "deep-args",
      `"name":"depth","arguments":{"x":${deepObject(DEPTH_OK)},"y":${deepArray(DEPTH_OK)}}`,
    ),
    check: (ex, t) => {
      expect(ex.response?.error).toBeUndefined();
      // arguments → x → a → … (DEPTH_OK levels) → 1.
      expect(textOf(ex)).toBe(String(DEPTH_OK + 1));
      if (t === "http") expect(ex.status).toBe(200);
    },
  },
  {
    name: `${DEPTH_OK}-deep nesting inside the client capabilities is served`,
    message: rawCall(
      "deep-caps",
      `"name":"echo"`,
      JSON.stringify(meta({ experimental: { x: {} } })).replace(
        '"x":{}',
        `"x":${deepObject(DEPTH_OK)}`,
      ),
    ),
    check: (ex) => expect(textOf(ex)).toBe("{}"),
  },
  {
    name: `${DEPTH}-deep nesting in tool arguments → -32700 before parsing`,
    message: rawCall("deep-args", `"name":"depth","arguments":{"x":${deepObject(DEPTH)}}`),
    check: (ex, t) =>
      expectIdless(ex, -32700, "Parse error: nested more than 1000 levels deep", 400, t),
  },
  {
    name: `${DEPTH}-deep nesting inside the client capabilities → -32700 before parsing`,
    message: rawCall(
      "deep-caps",
      `"name":"echo"`,
      JSON.stringify(meta({ experimental: { x: {} } })).replace(
        '"x":{}',
        `"x":${deepObject(DEPTH)}`,
      ),
    ),
    check: (ex, t) =>
      expectIdless(ex, -32700, "Parse error: nested more than 1000 levels deep", 400, t),
  },
  {
    name: `${DEPTH}-deep nesting as the id → -32700 before parsing`,
    message: `{"jsonrpc":"2.0","id":${deepArray(DEPTH)},"method":"tools/list","params":{"_meta":${META}}}`,
    check: (ex, t) =>
      expectIdless(ex, -32700, "Parse error: nested more than 1000 levels deep", 400, t),
  },
  {
    name: "brackets inside strings (escaped quotes included) do not count as nesting",
    message: rawCall(
      "deep-string",
      `"name":"echo","arguments":{"s":${JSON.stringify('\\"' + "[{".repeat(DEPTH))}}`,
    ),
    check: (ex) => expect(JSON.parse(textOf(ex))).toEqual({ s: '\\"' + "[{".repeat(DEPTH) }),
  },

  // ---- __proto__ and friends are data -------------------------------------------------------------
  {
    name: "__proto__ in tool arguments reaches the handler as an own key",
    message: rawCall(
      "proto-args",
      `"name":"echo","arguments":{"__proto__":{"polluted":"yes"},"a":1}`,
    ),
    check: (ex) =>
      expect(JSON.parse(textOf(ex))).toEqual(JSON.parse('{"__proto__":{"polluted":"yes"},"a":1}')),
  },
  {
    name: "__proto__ in _meta and params is inert",
    message: `{"jsonrpc":"2.0","id":"proto-meta","method":"tools/list","params":{"__proto__":{"polluted":"yes","cursor":5},"_meta":{"__proto__":{"polluted":"yes"},"${PV}":"${REVISION}","${CC}":{}}}}`,
    check: (ex) => {
      expect(ex.response?.error).toBeUndefined();
      expect(ex.response?.result?.resultType).toBe("complete");
    },
  },
  {
    name: "__proto__ in the client capabilities does not declare a capability",
    message: rawCall(
      "proto-caps",
      `"name":"needs_sampling"`,
      `{"${PV}":"${REVISION}","${CC}":{"__proto__":{"sampling":{}}}}`,
    ),
    check: (ex, t) =>
      expectError(
        ex,
        "proto-caps",
        { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
        400,
        t,
      ),
  },
  {
    name: "__proto__ as a tool name is an unknown tool",
    message: call("__proto__", {}, "proto-name"),
    check: (ex, t) =>
      expectError(ex, "proto-name", { code: -32602, message: "Unknown tool: __proto__" }, 400, t),
  },
  {
    name: "__proto__ in inputResponses cannot smuggle an unvalidated response in as the prototype",
    message: async () => {
      const state = await firstRoundState(fixture, "inspect");
      return rawCall(
        "proto-input",
        `"name":"inspect","requestState":"${state}","inputResponses":{"__proto__":{"action":"decline","confirm":{"action":"BOGUS"}}}`,
      );
    },
    check: (ex) => {
      expect(ex.response?.error).toBeUndefined();
      // Not asked for, so dropped; and the handler's inputResponses is a plain object.
      expect(JSON.parse(textOf(ex))).toEqual({
        state: "inspect-state",
        keys: [],
        plainPrototype: true,
        confirm: null,
      });
    },
  },
  {
    name: "__proto__ in inputResponses without a state is an own key (validated like any other)",
    message: rawCall(
      "proto-input-stateless",
      `"name":"inspect","inputResponses":{"__proto__":{"roots":[]}}`,
    ),
    check: (ex) => {
      // No state: round 1 again, and nothing was polluted.
      expect(ex.response?.result?.resultType).toBe("input_required");
    },
  },

  // ---- requestState --------------------------------------------------------------------------------
  {
    name: "a tampered requestState → -32602",
    message: async () => {
      const state = await firstRoundState(fixture, "ask");
      return call(
        "ask",
        {
          requestState: `${state}-TAMPERED`,
          inputResponses: { confirm: { action: "accept", content: { ok: true } } },
        },
        "tampered",
      );
    },
    check: (ex, t) =>
      expectError(
        ex,
        "tampered",
        {
          code: -32602,
          message: /^Invalid params: requestState integrity check failed \((malformed|tampered)\)$/,
        },
        400,
        t,
      ),
  },
  {
    name: "a requestState with one byte changed → -32602 (tampered)",
    message: async () => {
      const state = await firstRoundState(fixture, "ask");
      const bytes = Buffer.from(state, "base64url");
      const at = bytes.length - 2;
      bytes[at] = bytes[at]! ^ 0x01;
      return call(
        "ask",
        {
          requestState: bytes.toString("base64url"),
          inputResponses: { confirm: { action: "accept", content: { ok: true } } },
        },
        "flipped",
      );
    },
    check: (ex, t) =>
      expectError(
        ex,
        "flipped",
        { code: -32602, message: "Invalid params: requestState integrity check failed (tampered)" },
        400,
        t,
      ),
  },
];

for (const transport of WIRES) {
  describe(`robustness over ${transport}`, () => {
    let peer: Peer;
    beforeAll(async () => {
      fixture = makeFixture();
      peer = await connect(transport, fixture.server, { protocolVersion: REVISION });
    });
    afterAll(async () => {
      await peer.close();
    });
    afterEach(() => {
      // No prototype pollution, whatever a case sent.
      expect(({} as Msg).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty("polluted");
      expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("action");
    });

    /** The next valid request is served normally. */
    async function stillServes(): Promise<void> {
      const next = await peer.send(rpc("server/discover", {}, `after-${Math.random()}`));
      expect(next.response?.error).toBeUndefined();
      expect(next.response?.result?._meta?.[SERVER_INFO]).toEqual(INFO);
      if (transport === "http") expect(next.status).toBe(200);
    }

    const cases = CASES.filter((c) => c.only === undefined || c.only.includes(transport));
    it.each(cases.map((c) => ({ ...c, label: c.name })))(
      "$label, then serves the next request",
      async (c) => {
        const message = typeof c.message === "function" ? await c.message() : c.message;
        const exchange = await peer.send(message, c.headers ? { headers: c.headers } : {});
        c.check(exchange, transport, fixture);
        await stillServes();
      },
    );

    if (transport === "http") {
      const rawPost = (url: string, headers: Record<string, string>, body: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpRequest(url, { method: "POST", headers }, (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => (text += chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
          });
          req.on("error", reject);
          req.end(body);
        });

      it("a foreign Origin → 403, then serves the next request", async () => {
        const http = peer as HttpPeer;
        const message = rpc("server/discover");
        for (const origin of [
          "http://evil.example.com",
          "null",
          `http://localhost.evil.example:${http.port}`,
        ]) {
          const answer = await peer.send(message, { headers: { Origin: origin } });
          expect(answer.status).toBe(403);
          expect(answer.response).toEqual({
            jsonrpc: "2.0",
            error: { code: -32600, message: "Forbidden: Origin header not allowed" },
          });
        }
        const local = await peer.send(message, {
          headers: { Origin: `http://localhost:${http.port}` },
        });
        expect(local.status).toBe(200);
        await stillServes();
      });

      it("a foreign Host → 403, then serves the next request", async () => {
        const http = peer as HttpPeer;
        const message = rpc("server/discover");
        for (const host of [
          "evil.example.com",
          `evil.example.com:${http.port}`,
          "localhost.evil.example",
        ]) {
          const answer = await rawPost(
            http.url,
            { ...http.headersFor(message), Host: host },
            JSON.stringify(message),
          );
          expect(answer.status).toBe(403);
          expect(JSON.parse(answer.body)).toEqual({
            jsonrpc: "2.0",
            error: { code: -32600, message: "Forbidden: Host header not allowed" },
          });
        }
        const ok = await rawPost(
          http.url,
          { ...http.headersFor(message), Host: `localhost:${http.port}` },
          JSON.stringify(message),
        );
        expect(ok.status).toBe(200);
        await stillServes();
      });

      it("an empty body → -32700, then serves the next request", async () => {
        const answer = await peer.send("");
        expect(answer.status).toBe(400);
        expect(answer.response).toEqual({
          jsonrpc: "2.0",
          error: { code: -32700, message: "Parse error: not valid JSON" },
        });
        await stillServes();
      });
    } else {
      it("blank lines and CRLF line ends are tolerated, then serves the next request", async () => {
        const answer = await peer.send(
          `\r\n   \n${JSON.stringify(rpc("tools/list", {}, "crlf"))}\r`,
        );
        expect(answer.response?.id).toBe("crlf");
        expect(answer.response?.result?.resultType).toBe("complete");
        await stillServes();
      });

      it("many requests in one write, interleaved with garbage, are each answered", async () => {
        const good = Array.from({ length: 20 }, (_, i) => rpc("tools/list", {}, `batch-${i}`));
        const text = good
          .map((m, i) => `${JSON.stringify(m)}\n${i % 5 === 0 ? "{garbage\n" : ""}`)
          .join("");
        const answer = await peer.send(text.slice(0, -1));
        // send() waited for the last request's answer; the others came before the sentinel.
        const ids = answer.messages.filter((m) => "result" in m).map((m) => m.id);
        expect(ids.sort()).toEqual(good.map((m) => m.id).sort());
        expect(answer.messages.filter((m) => m.error?.code === -32700)).toHaveLength(4);
        await stillServes();
      });
    }
  });
}
