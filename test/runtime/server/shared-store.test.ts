/**
 * Two servers in this process sharing one MemoryStore stand for two processes behind a load
 * balancer (the dual-era output, generated/dual, whose runtime always has the store): a legacy
 * session opened on A is served, ended and streamed on B; what one publishes reaches the session's
 * GET stream on the other, and a client resuming with Last-Event-ID gets what it missed; two
 * messages sent from both servers at once both reach it, announced out of the log's order; an
 * elicitation's answer POSTed to B reaches the call waiting on A; resource updates go to the
 * subscribed sessions only; a single-use requestState opens once across both; a modern listen
 * stream on B gets what A publishes; a request in a session a server trusts its copy of, left as it
 * was, is answered as soon as without a store; a session whose write-back failed keeps nothing the
 * store did not take, and a stored snapshot cannot set a record's prototype. The Redis store and
 * real processes: test/runtime/server/scale-out-redis.
 */
import { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Handlers } from "../../../generated/dual/index.js";
import {
  MemoryStore,
  STORE_KEYS,
  StoreUnavailableError,
} from "../../../generated/dual/runtime/server/store.js";
import { CC, PV, defaultHeaders, parseSse, until, type Msg } from "../../helpers/server-harness.js";
import { listenOn } from "../../helpers/http-paths.js";

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const SECRET = "a secret both servers of the test share";
const elicit = {
  method: "elicitation/create",
  params: {
    mode: "form",
    message: "Name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
  },
};

const closers: Array<() => unknown> = [];
/** Microtask turns run since the `turn` tool's handler returned (it queues a chain of 100). */
let depth = 0;
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Limits both servers of a pair take: the HTTP transport's, and the legacy sessions'. */
interface Limits {
  listen?: { maxSessionsPerClient?: number };
  legacy?: { maxSubscriptionBytes?: number };
}

/** A MemoryStore whose writes fail while `failing` (the store away). */
class StoreWithFailingWrites extends MemoryStore {
  failing = false;
  override set(key: string, value: string, ttlMs: number): Promise<void> {
    if (this.failing) return Promise.reject(new StoreUnavailableError("the store is away"));
    return super.set(key, value, ttlMs);
  }
}

/** Two servers (A, B) on one store, listening; `name` tells their answers apart. */
async function pair(limits: Limits = {}, store = new MemoryStore()) {
  return { store, a: await serverOn(store, "A", limits), b: await serverOn(store, "B", limits) };
}

/** One server of a pair on `store` (undefined: none, its sessions its own), listening. */
async function serverOn(store: MemoryStore | undefined, name: string, limits: Limits = {}) {
  const handlers: Handlers = {
    "tools/list": () => ({ tools: [{ name: "ask", inputSchema: { type: "object" } }] }),
    "tools/call": (params, ctx) => {
      if (params.name === "whoami") return { content: [{ type: "text", text: name }] };
      if (params.name === "turn") {
        depth = 0;
        const step = () => {
          if (++depth < 100) queueMicrotask(step);
        };
        queueMicrotask(step);
        return { content: [] };
      }
      const answer = ctx.inputResponses.name as { content?: { name?: string } } | undefined;
      if (!answer) return ctx.inputRequired({ name: elicit }, { asked: name });
      const asked = (ctx.state as { asked: string }).asked;
      return {
        content: [{ type: "text", text: `${answer.content?.name} asked by ${asked} on ${name}` }],
      };
    },
    "resources/list": () => ({ resources: [] }),
    "resources/read": (params) => ({ contents: [{ uri: params.uri, text: "" }] }),
  };
  const server = createServer({
    info: { name, version: "1.0.0" },
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    handlers,
    ...(store ? { store } : {}),
    secret: SECRET,
    requestStateSingleUse: store !== undefined,
    log: () => undefined,
    ...(limits.legacy ? { legacy: limits.legacy } : {}),
  });
  const handle = await listenOn(server, { port: 0, ...limits.listen });
  closers.push(
    () => handle.close(0),
    () => server.close(),
  );
  const post = (body: Msg, headers: Record<string, string> = {}) =>
    fetch(handle.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const stream = (session: string, lastEventId?: string) => {
    const controller = new AbortController();
    closers.push(() => controller.abort());
    return fetch(handle.url, {
      method: "GET",
      headers: {
        "Mcp-Session-Id": session,
        Accept: "text/event-stream",
        ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}),
      },
      signal: controller.signal,
    }).then((res) => ({
      res,
      reader: res.body!.pipeThrough(new TextDecoderStream()).getReader(),
      controller,
    }));
  };
  return { server, url: handle.url, post, stream };
}

type Server = Awaited<ReturnType<typeof serverOn>>;

/** Opens a legacy session on `server`: its id. */
async function open(server: Server): Promise<string> {
  const opened = await server.post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: LEGACY,
      capabilities: { elicitation: {} },
      clientInfo: { name: "t", version: "1" },
    },
  });
  expect(opened.status).toBe(200);
  const session = opened.headers.get("mcp-session-id")!;
  await opened.text();
  const headers = { "Mcp-Session-Id": session, "MCP-Protocol-Version": LEGACY };
  expect(
    (await server.post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status,
  ).toBe(202);
  return session;
}

const onSession = (session: string) => ({
  "Mcp-Session-Id": session,
  "MCP-Protocol-Version": LEGACY,
});

/** Reads events from `reader` until `count` messages have come (or 5 s pass): each with its SSE id. */
async function events(reader: ReadableStreamDefaultReader<string>, count: number) {
  let text = "";
  const parsed = () => text.split("\n\n").filter((block) => block.includes("data:"));
  const deadline = Date.now() + 5000;
  while (parsed().length < count && Date.now() < deadline) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = await Promise.race([
      reader.read(),
      new Promise<{ done: true; value: undefined }>((resolve) => {
        timer = setTimeout(() => resolve({ done: true, value: undefined }), deadline - Date.now());
      }),
    ]);
    clearTimeout(timer);
    if (read.done) break;
    text += read.value;
  }
  return parsed().map((block) => ({
    id: /^id: (.*)$/m.exec(block)?.[1],
    message: parseSse(block)[0]!,
  }));
}

describe("two servers sharing a MemoryStore", () => {
  it("a session opened on A is served on B, and ended on B it is gone on A", async () => {
    const { a, b } = await pair();
    const session = await open(a);
    const called = await b.post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } },
      onSession(session),
    );
    expect(called.status).toBe(200);
    expect(((await called.json()) as Msg).result.content[0].text).toBe("B");
    expect(
      (await fetch(b.url, { method: "DELETE", headers: { "Mcp-Session-Id": session } })).status,
    ).toBe(204);
    expect(
      (await a.post({ jsonrpc: "2.0", id: 3, method: "ping" }, onSession(session))).status,
    ).toBe(404);
    expect(
      (
        await fetch(a.url, {
          method: "GET",
          headers: { "Mcp-Session-Id": session, Accept: "text/event-stream" },
        })
      ).status,
    ).toBe(404);
  });

  it("a server serves its copy of a session without reading the store until another server changes it", async () => {
    const { store, a, b } = await pair();
    const session = await open(a);
    const reads: string[] = [];
    const get = store.get.bind(store);
    store.get = (key: string, ttlMs?: number) => {
      if (key.startsWith("session:")) reads.push(key);
      return get(key, ttlMs);
    };
    const whoami = (server: Server, id: number) =>
      server.post(
        { jsonrpc: "2.0", id, method: "tools/call", params: { name: "whoami", arguments: {} } },
        onSession(session),
      );
    // A wrote the session when it opened it: its copy is trusted.
    for (let id = 2; id < 5; id++) expect((await whoami(a, id)).status).toBe(200);
    expect(reads).toEqual([]);
    // B reads it once, then trusts what it read.
    for (let id = 5; id < 8; id++) expect((await whoami(b, id)).status).toBe(200);
    expect(reads).toHaveLength(1);
    // B changes it (a subscription): A hears of it on the bus and reads it again, once.
    const subscribed = await b.post(
      { jsonrpc: "2.0", id: 8, method: "resources/subscribe", params: { uri: "test://x" } },
      onSession(session),
    );
    expect(subscribed.status).toBe(200);
    expect((await whoami(a, 9)).status).toBe(200);
    expect((await whoami(a, 10)).status).toBe(200);
    expect(reads).toHaveLength(2);
  });

  it("a request in a session the server trusts its copy of, left as it was, is answered as soon as without a store", async () => {
    // Counted in microtask turns after the handler returned, until the response ended: reading
    // and writing the store may wait, a trusted copy left unchanged has nothing to wait for.
    const turnsToAnswer = async (server: Server) => {
      const session = await open(server);
      let atEnd: number | undefined;
      const end = ServerResponse.prototype.end;
      ServerResponse.prototype.end = function (this: ServerResponse, ...args: unknown[]) {
        atEnd ??= depth;
        return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
      } as typeof end;
      try {
        const called = await server.post(
          { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "turn", arguments: {} } },
          onSession(session),
        );
        expect((await called.json()).result).toEqual({ content: [] });
      } finally {
        ServerResponse.prototype.end = end;
      }
      return atEnd;
    };
    const { a } = await pair();
    const alone = await turnsToAnswer(await serverOn(undefined, "alone"));
    expect(alone).toBeLessThan(100);
    expect(await turnsToAnswer(a)).toBe(alone);
  });

  it("after the store's trouble (a failed call, a connection lost or back) a server reads its copy again, once", async () => {
    // A store that can fail tells of it: a change announced meanwhile may have gone by unheard.
    const troubleListeners = new Set<() => void>();
    const store = Object.assign(new MemoryStore(), {
      onTrouble(listener: () => void) {
        troubleListeners.add(listener);
        return () => troubleListeners.delete(listener);
      },
    });
    const { a } = await pair({}, store);
    const session = await open(a);
    const reads: string[] = [];
    const get = store.get.bind(store);
    store.get = (key: string, ttlMs?: number) => {
      if (key.startsWith("session:")) reads.push(key);
      return get(key, ttlMs);
    };
    const whoami = (id: number) =>
      a.post(
        { jsonrpc: "2.0", id, method: "tools/call", params: { name: "whoami", arguments: {} } },
        onSession(session),
      );
    expect((await whoami(2)).status).toBe(200);
    expect(reads).toEqual([]);
    for (const listener of troubleListeners) listener();
    expect((await whoami(3)).status).toBe(200);
    expect((await whoami(4)).status).toBe(200);
    expect(reads).toHaveLength(1);
  });

  it("a list change published on A reaches the session's GET stream on B; a client resuming on A gets what it missed", async () => {
    const { a, b } = await pair();
    const session = await open(a);
    const first = await b.stream(session);
    expect(first.res.status).toBe(200);
    a.server.publish({ method: "notifications/tools/list_changed" });
    const [got] = await events(first.reader, 1);
    expect(got!.message).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(got!.id).toMatch(/^\d+-\d+$/);
    first.controller.abort();
    // Published while no stream is open (twice, from B): kept, replayed after the id the client had.
    b.server.publish({ method: "notifications/tools/list_changed" });
    b.server.publish({ method: "notifications/tools/list_changed" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const resumed = await a.stream(session, got!.id);
    const replayed = await events(resumed.reader, 2);
    expect(replayed).toHaveLength(2);
    expect(replayed.map((e) => e.id)).not.toContain(got!.id);
    // A stream without Last-Event-ID gets only what comes next.
    resumed.controller.abort();
    const fresh = await b.stream(session);
    a.server.publish({ method: "notifications/tools/list_changed" });
    expect(await events(fresh.reader, 1)).toHaveLength(1);
  });

  it("two messages sent to a session from two servers reach its stream both, whichever is announced first", async () => {
    // A's message is appended to the log first (the smaller id) and announced after B's: the
    // holder of the stream writes both, B's then A's (none was replayed, so neither is a repeat).
    const store = new MemoryStore();
    const publish = store.publish.bind(store);
    const announced: string[] = [];
    let first: string | undefined;
    store.publish = (channel: string, message: string) => {
      if (channel !== STORE_KEYS.eventsChannel) return publish(channel, message);
      announced.push(message);
      if (announced.length === 1) {
        first = message;
        return Promise.resolve();
      }
      return publish(channel, message).then(() => publish(channel, first!));
    };
    const { a, b } = await pair({}, store);
    const session = await open(a);
    const held = await b.stream(session);
    expect(held.res.status).toBe(200);
    // Sent through the store on later turns: waited for.
    a.server.publish({ method: "notifications/tools/list_changed" });
    await until(() => announced.length >= 1, "A's announcement");
    expect(announced).toHaveLength(1);
    b.server.publish({ method: "notifications/tools/list_changed" });
    await until(() => announced.length >= 2, "B's announcement");
    expect(announced).toHaveLength(2);
    const got = await events(held.reader, 2);
    expect(got).toHaveLength(2);
    const ids = announced.map((message) => (JSON.parse(message) as { id: string }).id);
    expect(got.map((e) => e.id)).toEqual([ids[1], ids[0]]);
  });

  it("an elicitation asked on A's stream and answered by a POST to B completes the call on A", async () => {
    const { a, b } = await pair();
    const session = await open(a);
    const call = await a.post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } },
      onSession(session),
    );
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
    const [asked] = await events(reader, 1);
    expect(asked!.message.method).toBe("elicitation/create");
    const answered = await b.post(
      {
        jsonrpc: "2.0",
        id: asked!.message.id,
        result: { action: "accept", content: { name: "Ada" } },
      },
      onSession(session),
    );
    expect(answered.status).toBe(202);
    const [result] = await events(reader, 1);
    expect(result!.message.result.content[0].text).toBe("Ada asked by A on A");
  });

  it("a resource update published on B reaches the subscribed session's stream on A, and no other session", async () => {
    const { a, b } = await pair();
    const subscribed = await open(a);
    const other = await open(b);
    expect(
      (
        await b.post(
          { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "test://x" } },
          onSession(subscribed),
        )
      ).status,
    ).toBe(200);
    const mine = await a.stream(subscribed);
    const theirs = await a.stream(other);
    b.server.publish({ method: "notifications/resources/updated", params: { uri: "test://x" } });
    b.server.publish({ method: "notifications/resources/updated", params: { uri: "test://y" } });
    b.server.publish({ method: "notifications/tools/list_changed" });
    const got = await events(mine.reader, 2);
    expect(got.map((e) => e.message)).toEqual([
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://x" } },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    ]);
    const theirsGot = await events(theirs.reader, 1);
    expect(theirsGot.map((e) => e.message.method)).toEqual(["notifications/tools/list_changed"]);
    // Unsubscribed on A: the next update goes nowhere.
    await a.post(
      { jsonrpc: "2.0", id: 3, method: "resources/unsubscribe", params: { uri: "test://x" } },
      onSession(subscribed),
    );
    b.server.publish({ method: "notifications/resources/updated", params: { uri: "test://x" } });
    b.server.publish({ method: "notifications/tools/list_changed" });
    expect((await events(mine.reader, 1)).map((e) => e.message.method)).toEqual([
      "notifications/tools/list_changed",
    ]);
  });

  it("a single-use requestState minted on A opens once: on B, then refused on A", async () => {
    const { a, b } = await pair();
    const meta = { [PV]: MODERN, [CC]: { elicitation: {} } };
    const ask = (server: Server, extra: Msg = {}) => {
      const message = {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { _meta: meta, name: "ask", arguments: {}, ...extra },
      };
      return server
        .post(message, defaultHeaders(message, MODERN))
        .then((res) => res.json() as Promise<Msg>);
    };
    const first = await ask(a);
    const requestState = first.result.requestState as string;
    expect(requestState).toBeTruthy();
    const retry = {
      requestState,
      inputResponses: { name: { action: "accept", content: { name: "Lin" } } },
    };
    expect((await ask(b, retry)).result.content[0].text).toBe("Lin asked by A on B");
    expect((await ask(a, retry)).error).toMatchObject({
      code: -32602,
      message: "Invalid params: requestState integrity check failed (replayed)",
    });
  });

  it("a modern listen stream on B gets a notification published on A", async () => {
    const { a, b } = await pair();
    const message = {
      jsonrpc: "2.0",
      id: "sub",
      method: "subscriptions/listen",
      params: { _meta: { [PV]: MODERN, [CC]: {} }, notifications: { toolsListChanged: true } },
    };
    const res = await b.post(message, defaultHeaders(message, MODERN));
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    closers.push(() => reader.cancel());
    expect((await events(reader, 1))[0]!.message.method).toBe(
      "notifications/subscriptions/acknowledged",
    );
    expect(a.server.publish({ method: "notifications/tools/list_changed" })).toBe(0);
    const [got] = await events(reader, 1);
    expect(got!.message.method).toBe("notifications/tools/list_changed");
  });
  it("one client's sessions are counted in the store: past maxSessionsPerClient, opened on A and B, its least recently used is ended on both", async () => {
    const { a, b } = await pair({ listen: { maxSessionsPerClient: 2 } });
    const ping = (server: Server, session: string) =>
      server.post({ jsonrpc: "2.0", id: 9, method: "ping" }, onSession(session));
    const first = await open(a);
    const second = await open(b);
    // The first is used after the second was opened: the second is now the least recently used.
    // (Time left to live is counted in milliseconds: within the same one the two would tie.)
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await ping(b, first)).status).toBe(200);
    const third = await open(a);
    for (const server of [a, b]) {
      expect((await ping(server, second)).status).toBe(404);
      expect((await ping(server, first)).status).toBe(200);
      expect((await ping(server, third)).status).toBe(200);
    }
  });

  it("a session's subscriptions hold at most maxSubscriptionBytes of URIs, whichever server took them", async () => {
    const { a, b } = await pair({ legacy: { maxSubscriptionBytes: 100 } });
    const session = await open(a);
    const subscribe = async (server: Server, id: number, uri: string) =>
      (await (
        await server.post(
          { jsonrpc: "2.0", id, method: "resources/subscribe", params: { uri } },
          onSession(session),
        )
      ).json()) as Msg;
    const unsubscribe = (server: Server, uri: string) =>
      server.post(
        { jsonrpc: "2.0", id: 7, method: "resources/unsubscribe", params: { uri } },
        onSession(session),
      );
    const sixty = `test://${"a".repeat(53)}`;
    const fifty = `test://${"b".repeat(43)}`;
    expect((await subscribe(a, 2, sixty)).result).toEqual({});
    // B holds its copy of the session: it knows A's 60 bytes, so 50 more are refused there.
    const refused = await subscribe(b, 3, fifty);
    expect(refused.error.code).toBe(-32600);
    expect(refused.error.message).toContain("100 bytes");
    // Given back on unsubscribe (on B), taken on A.
    await (await unsubscribe(b, sixty)).text();
    expect((await subscribe(a, 4, fifty)).result).toEqual({});
  });

  it("a session whose write-back failed is read from the store again: what the store did not take is not kept", async () => {
    const store = new StoreWithFailingWrites();
    const { a } = await pair({ legacy: { maxSubscriptionBytes: 100 } }, store);
    const session = await open(a);
    const subscribe = (id: number, uri: string) =>
      a.post(
        { jsonrpc: "2.0", id, method: "resources/subscribe", params: { uri } },
        onSession(session),
      );
    store.failing = true;
    expect((await subscribe(2, `test://${"a".repeat(53)}`)).status).toBe(503);
    store.failing = false;
    // A's copy took the 60 bytes the store refused; restored from the store, 50 more fit.
    const taken = (await (await subscribe(3, `test://${"b".repeat(43)}`)).json()) as Msg;
    expect(taken.result).toEqual({});
  });

  it("a stored snapshot's keys are put into the record, but its own __proto__ key does not become the record's prototype", () => {
    const { dispatcher } = createServer({
      info: { name: "A", version: "1.0.0" },
      capabilities: {},
      handlers: {},
    });
    const record: Record<string, unknown> = {};
    dispatcher.restoreSession(record, JSON.parse('{"__proto__":{"polluted":true},"kept":1}'));
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(record).toEqual({ kept: 1 });
  });
});
