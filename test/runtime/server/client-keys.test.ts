/**
 * #33: who a client is, for its quotas, and what the server's own bounds take from whom. An
 * unauthenticated client is the network of its address (`clientPrefix`: an IPv6 /64 and an IPv4
 * address by default; `::ffff:a.b.c.d` is `a.b.c.d`); every per-client quota (sessions, requests and
 * bytes in flight) counts by that key. Past `maxSessions` the server forgets a session of the
 * client holding the most, never one of a client holding a few. A body holding more than
 * `maxContainers` arrays and objects is refused before it is parsed. Clients on loopback come from
 * 127.0.0.x and 127.0.1.x; IPv6 clients reach the fetch handler with the address its host reports.
 */
import { afterEach, describe, expect, it } from "vitest";
import { request, type IncomingHttpHeaders } from "node:http";
import { createServer, type McpServer } from "../../../generated/dual/index.js";
import type { HttpOptions } from "../../../generated/dual/runtime/server/http/index.js";
import {
  addressKey,
  clientPrefixOf,
} from "../../../generated/dual/runtime/server/http/client-key.js";
import { DEFAULT_MAX_SESSIONS } from "../../../generated/dual/runtime/server/http/options.js";
import { DEFAULT_LEGACY_MAX_SESSIONS } from "../../../generated/dual/runtime/server/legacy.js";
import { DEFAULT_ADMISSION } from "../../../generated/dual/runtime/server/admission.js";
import { httpPath, listenOn } from "../../helpers/http-paths.js";

const LEGACY = "2025-11-25";
const closers: Array<() => unknown> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function dualServer(): McpServer {
  return createServer({
    info: { name: "client-keys", version: "1.0.0" },
    capabilities: { tools: {} },
    log: () => undefined,
    handlers: {
      "tools/list": () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
      "tools/call": (params) => ({
        content: [{ type: "text", text: String(params.arguments?.["text"] ?? "") }],
      }),
    },
  });
}

async function listen(options: Partial<HttpOptions> = {}) {
  const handle = await listenOn(dualServer(), { port: 0, ...options });
  closers.push(() => handle.close(0));
  return new URL(handle.url);
}

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** One POST from `from` (a loopback address), on a connection of its own. */
function post(url: URL, from: string, body: string, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        localAddress: from,
        agent: false,
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
const ping = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" });
const META = JSON.stringify({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "client-keys", version: "1" },
});
/** A modern `tools/call` of `echo`, its arguments' JSON given as text, and the headers it needs. */
const echo = (argumentsText: string) =>
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":${argumentsText},"_meta":${META}}}`;
const MODERN = {
  "MCP-Protocol-Version": "2026-07-28",
  "Mcp-Method": "tools/call",
  "Mcp-Name": "echo",
};
const inSession = (id: string) => ({ "Mcp-Session-Id": id, "MCP-Protocol-Version": LEGACY });

async function open(url: URL, from: string) {
  const answer = await post(url, from, initialize);
  expect(answer.status).toBe(200);
  return String(answer.headers["mcp-session-id"]);
}

const statuses = async (url: URL, from: string, ids: string[]) => {
  const out: number[] = [];
  for (const id of ids) out.push((await post(url, from, ping, inSession(id))).status);
  return out;
};

describe("addressKey", () => {
  const defaults = clientPrefixOf(undefined);

  it("keys an IPv6 address by its /64, whatever its spelling", () => {
    const key = addressKey("2001:db8:1:2::1", defaults);
    expect(key).toBe("address 2001:db8:1:2:0:0:0:0/64");
    for (const same of [
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0db8:0001:0002:0:0:0:9",
      "[2001:db8:1:2::abcd]",
      "fe80::1%eth0".replace("fe80::1", "2001:db8:1:2::7"),
    ])
      expect(addressKey(same, defaults), same).toBe(key);
    expect(addressKey("2001:db8:1:3::1", defaults)).not.toBe(key);
  });

  it("keys an IPv4 address by itself, and an IPv4-mapped IPv6 address as that IPv4 address", () => {
    expect(addressKey("192.0.2.7", defaults)).toBe("address 192.0.2.7");
    expect(addressKey("::ffff:192.0.2.7", defaults)).toBe("address 192.0.2.7");
    expect(addressKey("::ffff:c000:207", defaults)).toBe("address 192.0.2.7");
    expect(addressKey("192.0.2.8", defaults)).not.toBe(addressKey("192.0.2.7", defaults));
  });

  it("keeps the prefix it is given, and refuses one out of range", () => {
    const wide = clientPrefixOf({ ipv4: 24, ipv6: 48 });
    expect(addressKey("192.0.2.7", wide)).toBe("address 192.0.2.0/24");
    expect(addressKey("::ffff:192.0.2.200", wide)).toBe("address 192.0.2.0/24");
    expect(addressKey("2001:db8:1:2::1", wide)).toBe(addressKey("2001:db8:1:ffff::1", wide));
    expect(addressKey("2001:db8:1:2::1", clientPrefixOf({ ipv6: 128 }))).toBe(
      "address 2001:db8:1:2:0:0:0:1",
    );
    expect(addressKey("2001:db8:1:2::1", clientPrefixOf({ ipv6: 60 }))).toBe(
      "address 2001:db8:1:0:0:0:0:0/60",
    );
    expect(() => clientPrefixOf({ ipv4: 33 })).toThrow(RangeError);
    expect(() => clientPrefixOf({ ipv6: -1 })).toThrow(RangeError);
    expect(() => clientPrefixOf({ ipv6: 1.5 })).toThrow(RangeError);
  });

  it("keys text that is no IP address as itself", () => {
    expect(addressKey("", defaults)).toBe("address ");
    expect(addressKey("not-an-address", defaults)).toBe("address not-an-address");
    expect(addressKey("1:2:3", defaults)).toBe("address 1:2:3");
  });
});

describe("per-client quotas by clientPrefix", () => {
  it("counts the sessions of addresses in one prefix as one client's", async () => {
    const url = await listen({ maxSessionsPerClient: 2, clientPrefix: { ipv4: 24 } });
    const first = await open(url, "127.0.0.2");
    const second = await open(url, "127.0.0.3");
    const third = await open(url, "127.0.0.4");
    const elsewhere = await open(url, "127.0.1.2");
    expect(await statuses(url, "127.0.0.2", [first, second, third])).toEqual([404, 200, 200]);
    expect(await statuses(url, "127.0.1.2", [elsewhere])).toEqual([200]);
  });

  it("counts the sessions of each IPv4 address apart by default", async () => {
    const url = await listen({ maxSessionsPerClient: 1 });
    const ids = [await open(url, "127.0.0.2"), await open(url, "127.0.0.3")];
    expect(await statuses(url, "127.0.0.2", ids)).toEqual([200, 200]);
  });

  it("counts the bytes in flight of addresses in one prefix as one client's", async () => {
    const url = await listen({ maxBytesPerClient: 1000, clientPrefix: { ipv4: 24 } });
    const big = echo(JSON.stringify({ text: "ok", pad: "x".repeat(600) }));
    // A declared body is reserved whole: two of 600-odd bytes from one /24 at once do not fit.
    const held = request(url, {
      method: "POST",
      localAddress: "127.0.0.2",
      agent: false,
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        ...MODERN,
        "Content-Length": String(Buffer.byteLength(big)),
      },
    });
    held.on("error", () => undefined);
    closers.push(() => held.destroy());
    held.write(big.slice(0, 10));
    held.flushHeaders();
    let answer: Answer | undefined;
    for (let i = 0; i < 200 && answer?.status !== 429; i++) {
      answer = await post(url, "127.0.0.3", big, MODERN);
      if (answer.status !== 429) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(answer?.status).toBe(429);
    expect((await post(url, "127.0.1.3", big, MODERN)).status).toBe(200);
  });
});

// In-process, with the address a host would report: loopback offers one IPv6 address only.
describe.runIf(httpPath() === "fetch")("IPv6 clients (fetch handler)", () => {
  const openFrom = async (fetch: (request: Request) => Promise<Response>, from: string) => {
    const response = await fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-From": from },
        body: initialize,
      }),
    );
    expect(response.status).toBe(200);
    return response.headers.get("mcp-session-id")!;
  };
  const pingFrom = async (
    fetch: (request: Request) => Promise<Response>,
    from: string,
    id: string,
  ) =>
    (
      await fetch(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Accept: "application/json",
            "X-From": from,
            ...inSession(id),
          },
          body: ping,
        }),
      )
    ).status;

  it("counts every address of one /64 as one client, and another /64 apart", async () => {
    const fetch = dualServer().fetchHandler({
      maxSessionsPerClient: 2,
      clientAddress: (request) => request.headers.get("x-from") ?? undefined,
    });
    const mine = [
      await openFrom(fetch, "2001:db8:0:1::1"),
      await openFrom(fetch, "2001:db8:0:1::2"),
      await openFrom(fetch, "2001:db8:0:1:ffff::3"),
    ];
    const other = await openFrom(fetch, "2001:db8:0:2::1");
    const alive = [];
    for (const id of mine) alive.push(await pingFrom(fetch, "2001:db8:0:1::9", id));
    expect(alive).toEqual([404, 200, 200]);
    expect(await pingFrom(fetch, "2001:db8:0:2::1", other)).toBe(200);
  });

  it("counts ::ffff:a.b.c.d as a.b.c.d", async () => {
    const fetch = dualServer().fetchHandler({
      maxSessionsPerClient: 1,
      clientAddress: (request) => request.headers.get("x-from") ?? undefined,
    });
    const first = await openFrom(fetch, "192.0.2.7");
    await openFrom(fetch, "::ffff:192.0.2.7");
    expect(await pingFrom(fetch, "192.0.2.7", first)).toBe(404);
  });
});

describe("maxSessions", () => {
  // The legacy dispatcher's own table forgets its least recently used session, whoever's it is:
  // over HTTP it must never fill before the transport's bound, which takes from the client holding
  // the most (12 addresses × 1,000 initializes once emptied an idle client's sessions through it).
  it("sits below the legacy table's default bound, with room for every handshake admitted at once", () => {
    expect(DEFAULT_LEGACY_MAX_SESSIONS).toBeGreaterThanOrEqual(
      DEFAULT_MAX_SESSIONS + DEFAULT_ADMISSION.maxRequestsInFlight,
    );
  });

  it("takes from the client holding the most sessions, never from one holding a few", async () => {
    const url = await listen({ maxSessions: 20, maxSessionsPerClient: 100 });
    const victim = [await open(url, "127.0.0.4"), await open(url, "127.0.0.4")];
    const flood: string[][] = [[], [], []];
    for (let i = 0; i < 10; i++)
      for (let a = 0; a < 3; a++) flood[a]!.push(await open(url, `127.0.1.${a + 1}`));
    expect(await statuses(url, "127.0.0.4", victim)).toEqual([200, 200]);
    // 32 opened, 20 kept: the three flooding clients were brought down to six each.
    let kept = 0;
    for (let a = 0; a < 3; a++) {
      const alive = await statuses(url, `127.0.1.${a + 1}`, flood[a]!);
      expect(alive.slice(-6)).toEqual(Array<number>(6).fill(200));
      kept += alive.filter((status) => status === 200).length;
    }
    expect(kept).toBe(18);
  });
});

describe("maxContainers", () => {
  const call = (items: string, count: number) =>
    echo(`{"text":"ok","items":[${Array<string>(count).fill(items).join(",")}]}`);
  // The body's own containers: the message, params, arguments, the array, _meta and its capabilities and clientInfo.
  const OWN = 7;

  it("refuses a body holding more than 10,000 arrays and objects (default) before parsing it, and goes on serving", async () => {
    const url = await listen();
    const over = await post(url, "127.0.0.2", call("{}", 10_001 - OWN), MODERN);
    expect(over.status).toBe(400);
    expect(JSON.parse(over.body).error).toEqual({
      code: -32700,
      message: "Parse error: more than 10000 arrays and objects",
    });
    const at = await post(url, "127.0.0.2", call("[]", 10_000 - OWN), MODERN);
    expect(at.status).toBe(200);
    expect(at.body).toContain('"text":"ok"');
  });

  it("counts brackets in strings as no containers, and takes the bound it is given", async () => {
    const url = await listen({ maxContainers: 50 });
    const inString = echo(`{"text":"${"{}[]".repeat(500)}"}`);
    expect((await post(url, "127.0.0.2", inString, MODERN)).status).toBe(200);
    expect((await post(url, "127.0.0.2", call("{}", 50 - OWN), MODERN)).status).toBe(200);
    const over = await post(url, "127.0.0.2", call("{}", 51 - OWN), MODERN);
    expect(over.status).toBe(400);
    expect(JSON.parse(over.body).error.message).toBe(
      "Parse error: more than 50 arrays and objects",
    );
  });
});
