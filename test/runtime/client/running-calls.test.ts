/**
 * What a running call holds while it runs and leaves behind (`running-call.ts`, `deadlines.ts`,
 * the transports' `cancel`): each call's own deadline out of one timer (which holds the process
 * only while calls run), a transport told by id
 * when a call is given up, no AbortSignal made for a transport that does not read one, and no
 * listener left on a long-lived signal, call after call (the leak SDK v1's HTTP transport has: one
 * signal for every request, each request adding an abort listener to it).
 */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createClient,
  httpTransport,
  TimeoutError,
  type ClientTransport,
  type TransportRequestOptions,
} from "../../../generated/2026-07-28/client.js";
import { nodeFetch, stdioTransport } from "../../../generated/2026-07-28/client-node.js";
import { INFO, fakeTransport, results, type Answer, type Msg } from "../../helpers/client-fake.js";
import { rawServer, stdioScript } from "../../helpers/client-servers.js";

const CALLS = 200;
const never = () => new Promise<Answer>(() => {});

afterEach(() => {
  vi.useRealTimers();
});

describe("deadlines", () => {
  it("each call fails by its own timeout, in any order they were made; one that waits for ever does not", async () => {
    vi.useFakeTimers();
    const client = createClient({ transport: fakeTransport(never), info: INFO });
    const failed: number[] = [];
    const track = (timeoutMs: number) =>
      client.callTool({ name: "a" }, { timeoutMs }).catch((error: unknown) => {
        expect(error).toBeInstanceOf(TimeoutError);
        failed.push((error as TimeoutError).timeoutMs);
      });
    const calls = [track(300), track(100), track(200), track(100)];
    const patient = client.callTool({ name: "a" }, { timeoutMs: 0 });
    const closed = expect(patient).rejects.toThrow("the client was closed");
    await vi.advanceTimersByTimeAsync(99);
    expect(failed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(failed).toEqual([100, 100]);
    await vi.advanceTimersByTimeAsync(100);
    expect(failed).toEqual([100, 100, 200]);
    await vi.advanceTimersByTimeAsync(100);
    expect(failed).toEqual([100, 100, 200, 300]);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(failed).toEqual([100, 100, 200, 300]);
    await client.close();
    await closed;
    await Promise.all(calls);
  });

  it("a call that ends early leaves the others' deadlines as they were", async () => {
    vi.useFakeTimers();
    let release!: () => void;
    const transport = fakeTransport((_message, _options, index) =>
      index === 0
        ? new Promise<Answer>((resolve) => (release = () => resolve({ result: results.call() })))
        : never(),
    );
    const client = createClient({ transport, info: INFO });
    const first = client.callTool({ name: "a" }, { timeoutMs: 100 });
    const second = client.callTool({ name: "b" }, { timeoutMs: 150 });
    const secondFailed = expect(second).rejects.toBeInstanceOf(TimeoutError);
    await vi.advanceTimersByTimeAsync(50);
    release();
    await expect(first).resolves.toMatchObject({ content: [{ text: "ok" }] });
    await vi.advanceTimersByTimeAsync(99);
    let settled = false;
    void second.catch(() => {}).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await secondFailed;
    await client.close();
  });

  it("its one timer keeps the process alive only while calls run", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    let release!: () => void;
    const transport = fakeTransport(
      () => new Promise<Answer>((resolve) => (release = () => resolve({ result: results.call() }))),
    );
    const client = createClient({ transport, info: INFO });
    const before = timers();
    for (let i = 0; i < 3; i++) {
      const call = client.callTool({ name: "a" });
      await new Promise((resolve) => setImmediate(resolve));
      expect(timers()).toBe(before + 1);
      release();
      await call;
      expect(timers()).toBe(before);
    }
    await client.close();
  });
});

describe("giving a call up", () => {
  /** A transport with `cancel` that never reads its requests' signal. */
  function cancellable() {
    const pending = new Map<unknown, (error: unknown) => void>();
    const cancelled: Array<{ id: unknown; reason: unknown }> = [];
    const optionsSeen: TransportRequestOptions[] = [];
    const transport: ClientTransport = {
      request(message, options) {
        optionsSeen.push(options);
        return new Promise((_resolve, reject) => pending.set(message.id, reject));
      },
      cancel(id, reason) {
        cancelled.push({ id, reason });
        pending.get(id)?.(reason);
        pending.delete(id);
      },
      async notify() {},
      async close() {},
    };
    return { transport, cancelled, optionsSeen, pending };
  }

  it("tells the transport by id, with the reason, on timeout, on the caller's abort and on close", async () => {
    const { transport, cancelled, pending } = cancellable();
    const client = createClient({ transport, info: INFO });
    const timedOut = client.callTool({ name: "a" }, { timeoutMs: 10 });
    await expect(timedOut).rejects.toBeInstanceOf(TimeoutError);
    const caller = new AbortController();
    const aborted = client.callTool({ name: "b" }, { signal: caller.signal });
    await new Promise((resolve) => setTimeout(resolve, 0));
    caller.abort(new Error("enough"));
    await expect(aborted).rejects.toThrow("enough");
    const open = client.callTool({ name: "c" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await client.close();
    await expect(open).rejects.toThrow("the client was closed");
    expect(cancelled.map((c) => c.id)).toEqual([1, 2, 3]);
    expect(cancelled[0]!.reason).toBeInstanceOf(TimeoutError);
    expect(String(cancelled[1]!.reason)).toContain("enough");
    expect(pending.size).toBe(0);
  });

  it("fails the call even when the transport holds on to its request", async () => {
    const client = createClient({ transport: fakeTransport(never), info: INFO });
    const caller = new AbortController();
    const call = client.callTool({ name: "a" }, { signal: caller.signal });
    await new Promise((resolve) => setTimeout(resolve, 0));
    caller.abort(new Error("gone"));
    await expect(call).rejects.toThrow("gone");
  });

  it("makes a signal only for a transport that reads it, aborted with the call", async () => {
    const { transport, optionsSeen } = cancellable();
    const request = transport.request.bind(transport);
    let read: AbortSignal | null = null;
    const reading: ClientTransport = {
      ...transport,
      request(message, options) {
        if (message.params && (message.params as Msg).name === "reads") read = options.signal;
        return request(message, options);
      },
    };
    const client = createClient({ transport: reading, info: INFO });
    await expect(client.callTool({ name: "quiet" }, { timeoutMs: 10 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    await expect(client.callTool({ name: "reads" }, { timeoutMs: 10 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(optionsSeen).toHaveLength(2);
    expect(read).not.toBeNull();
    expect(read!.aborted).toBe(true);
    expect(read!.reason).toBeInstanceOf(TimeoutError);
  });
});

describe("no listener left behind on a long-lived signal", () => {
  const echo = { content: [{ type: "text", text: "ok" }] };

  it("over stdio: the caller's one signal, given to every call, holds no listener after each", async () => {
    const client = createClient({
      transport: stdioTransport({
        command: process.execPath,
        args: stdioScript(
          `if (message.id !== undefined) write({ jsonrpc: "2.0", id: message.id, result: message.method === "server/discover" ? ${JSON.stringify(results.discover())} : ${JSON.stringify(echo)} });`,
        ),
      }),
      info: INFO,
    });
    const signal = new AbortController().signal;
    try {
      for (let i = 0; i < CALLS; i++) {
        await client.callTool({ name: "echo" }, { signal });
        expect(getEventListeners(signal, "abort")).toHaveLength(0);
      }
    } finally {
      await client.close();
    }
  });

  for (const [label, makeFetch] of [
    ["the global fetch", () => fetch],
    ["nodeFetch()", () => nodeFetch()],
  ] as const) {
    it(`over HTTP with ${label}: every request gets a signal of its own, and the caller's holds no listener`, async () => {
      const server = await rawServer((body) => ({
        body: JSON.stringify({ jsonrpc: "2.0", id: body.id, result: echo }),
      }));
      const given = makeFetch();
      const signals = new Set<AbortSignal>();
      let requests = 0;
      const counting = ((input: string, init: RequestInit) => {
        requests++;
        if (init.signal) signals.add(init.signal);
        return given(input, init);
      }) as typeof fetch;
      const client = createClient({
        transport: httpTransport(server.url, { fetch: counting }),
        info: INFO,
      });
      const signal = new AbortController().signal;
      try {
        for (let i = 0; i < CALLS; i++) {
          await client.callTool({ name: "echo" }, { signal });
          expect(getEventListeners(signal, "abort")).toHaveLength(0);
        }
        // One signal handed to every request is the leak: undici adds a listener per request.
        expect(requests).toBe(CALLS);
        expect(signals.size).toBe(CALLS);
      } finally {
        await client.close();
        await server.close();
      }
    });
  }
});
