/**
 * Requests in flight over stdio: concurrency, a request's notifications before its response,
 * cancellation, shutdown on input end and close(), back-pressure, a failing output; and the
 * answers a handler gives at once through handleRequest.
 */
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { success, type JsonRpcNotification } from "../../../runtime/shared/jsonrpc.js";
import { serveStdio } from "../../../runtime/server/stdio.js";
import type { Delivery, MessageHandler, Outcome } from "../../../runtime/server/transport.js";
import {
  type Msg,
  CANCELLED,
  cancelledRequest,
  echo,
  fakeHandler,
  harness,
  line,
  req,
  tick,
} from "../../helpers/stdio-harness.js";

// ---------------------------------------------------------------------------
// Concurrency, notifications, cancellation, shutdown
// ---------------------------------------------------------------------------

describe("stdio requests in flight", { timeout: 20_000 }, () => {
  it("does not let a slow request block a fast one", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = harness({
      slow: async (m) => {
        await gate;
        return { response: success(m["id"] as string, { slow: true }), httpStatus: 200 };
      },
    });
    h.input.write(line(req("s", "slow")) + line(req("f", "fast")));
    const first = await h.waitFor(1);
    expect(first[0]).toEqual(echo("f", "fast"));
    release();
    const out = await h.finish();
    expect(out.map((m) => m["id"])).toEqual(["f", "s"]);
  });

  it("writes a request's notifications as lines, before its response", async () => {
    const progress = (n: number): JsonRpcNotification => ({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progress: n },
    });
    const h = harness({
      work: async (m, delivery) => {
        delivery.notify(progress(1));
        await tick();
        delivery.notify(progress(2));
        return { response: success(m["id"] as number, {}), httpStatus: 200 };
      },
    });
    h.input.write(line(req(1, "work")));
    const out = await h.finish();
    expect(out).toEqual([progress(1), progress(2), { jsonrpc: "2.0", id: 1, result: {} }]);
  });

  it("without a cancellation method (none by default; the generated server passes its revision's) a cancellation-looking notification aborts nothing", async () => {
    let aborted = false;
    let finish = (): void => {};
    const h = harness(
      {
        wait: (m, delivery) =>
          new Promise<Outcome>((resolve) => {
            delivery.signal.addEventListener("abort", () => (aborted = true));
            finish = () => resolve({ response: success(m["id"] as string, {}), httpStatus: 200 });
          }),
      },
      { cancelledMethod: null },
    );
    h.input.write(line(req("a", "wait")));
    await tick();
    h.input.write(line({ jsonrpc: "2.0", method: CANCELLED, params: { requestId: "a" } }));
    await tick();
    expect(aborted).toBe(false);
    expect(h.handler.seen.some((m) => m["method"] === CANCELLED)).toBe(true);
    finish();
    expect(await h.finish()).toEqual([{ jsonrpc: "2.0", id: "a", result: {} }]);
  });

  it("aborts the signal on notifications/cancelled, passes the notification on, and sends nothing more for that request", async () => {
    let aborted: unknown;
    const h = harness({
      wait: (m, delivery) =>
        new Promise<Outcome>((resolve) => {
          delivery.signal.addEventListener("abort", () => {
            aborted = delivery.signal.reason;
            delivery.notify({
              jsonrpc: "2.0",
              method: "notifications/message",
              params: { level: "info", data: "late" },
            });
            resolve({ response: success(m["id"] as string, { cancelled: true }), httpStatus: 200 });
          });
        }),
    });
    h.input.write(line(req("a", "wait")) + line(req(1, "wait")));
    await tick();
    const cancelled = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "a", reason: "user gave up" },
    };
    h.input.write(line(cancelled));
    // An unknown id, and the number 1 given as a string: both ignored.
    h.input.write(
      line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "1" } }),
    );
    h.input.write(
      line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "zzz" } }),
    );
    h.input.write(line(req(2)));
    await h.waitFor(1);
    await tick();
    expect(aborted).toBeInstanceOf(Error);
    expect((aborted as Error).message).toBe("user gave up");
    expect(
      h.handler.seen.some(
        (m) =>
          m["method"] === "notifications/cancelled" && (m["params"] as Msg)["requestId"] === "a",
      ),
    ).toBe(true);
    expect(h.messages).toEqual([echo(2, "ping")]); // nothing for "a", request 1 still waiting
    const out = await h.finish();
    // Input end aborts request 1; it was not cancelled by the peer, so its response is written.
    expect(out.slice(1).filter((m) => m["id"] === 1)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { cancelled: true } },
    ]);
    expect(out.some((m) => m["id"] === "a")).toBe(false);
  });

  it("on input end aborts long-lived requests, waits for them, writes their responses, then closes", async () => {
    let finished = false;
    const h = harness({
      "subscriptions/listen": (m, delivery) =>
        new Promise<Outcome>((resolve) => {
          delivery.signal.addEventListener("abort", () =>
            setTimeout(() => {
              finished = true;
              resolve({ response: success(m["id"] as number, { ended: true }), httpStatus: 200 });
            }, 30),
          );
        }),
    });
    let outputEnded = false;
    h.output.on("end", () => (outputEnded = true));
    h.input.write(line(req(1, "subscriptions/listen")));
    await tick();
    const out = await h.finish();
    expect(finished).toBe(true);
    expect(out).toEqual([{ jsonrpc: "2.0", id: 1, result: { ended: true } }]);
    expect(outputEnded).toBe(true);
  });

  it("close() stops reading and shuts down the same way", async () => {
    const h = harness({
      hang: (m, delivery) =>
        new Promise<Outcome>((resolve) =>
          delivery.signal.addEventListener("abort", () =>
            resolve({ response: success(m["id"] as number, {}), httpStatus: 200 }),
          ),
        ),
    });
    h.input.write(line(req(1, "hang")));
    await tick();
    h.server.close();
    await h.server.closed;
    h.input.write(line(req(2)));
    await tick();
    expect(h.messages.map((m) => m["id"])).toEqual([1]);
    expect(h.handler.seen).toHaveLength(1);
  });

  it("stops reading while the output is backed up, and resumes when it drains", async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 1024 });
    const handler = fakeHandler({
      big: (m) => ({
        response: success(m["id"] as number, { blob: "b".repeat(4096) }),
        httpStatus: 200,
      }),
    });
    const server = serveStdio(handler, {
      input,
      output,
      errors: new PassThrough(),
      captureConsole: false,
    });
    for (let i = 0; i < 50; i++) {
      input.write(line(req(i, "big")));
      await tick();
    }
    // Nobody reads the output: the transport must not keep pulling in requests.
    expect(handler.seen.length).toBeLessThan(10);
    const received: Msg[] = [];
    let text = "";
    output.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const lines = text.split("\n");
      text = lines.pop()!;
      for (const l of lines) received.push(JSON.parse(l) as Msg);
    });
    input.end();
    await server.closed;
    await tick();
    expect(handler.seen).toHaveLength(50);
    expect(received.map((m) => m["id"]).sort((a, b) => Number(a) - Number(b))).toEqual([
      ...Array(50).keys(),
    ]);
  });

  it("survives an output that fails (EPIPE) and shuts down", async () => {
    const input = new PassThrough();
    const output = new Writable({
      write(_chunk, _encoding, callback) {
        const error = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
        callback(error);
      },
    });
    const handler = fakeHandler();
    const server = serveStdio(handler, {
      input,
      output,
      errors: new PassThrough(),
      captureConsole: false,
    });
    input.write(line(req(1)) + line(req(2)));
    await server.closed;
    expect(handler.logs.join("\n")).toContain("EPIPE");
  });
});

// ---------------------------------------------------------------------------
// Answers given at once (MessageHandler.handleRequest)
// ---------------------------------------------------------------------------

describe("stdio answers given at once", () => {
  /** A handler whose `handleRequest` answers synchronously (as the generated dispatcher does for synchronous handlers). */
  function syncHandler(
    answer: (request: Msg, delivery: Delivery) => Outcome = (m) => ({
      response: success(m["id"] as number, { echo: m["method"] }),
      httpStatus: 200,
    }),
  ): MessageHandler & { order: string[] } {
    const order: string[] = [];
    return {
      order,
      log: () => undefined,
      cancelledRequest,
      handle: async () => ({ response: null, httpStatus: 202 }),
      handleRequest(request, delivery) {
        order.push(String(request.id));
        return answer(request as unknown as Msg, delivery);
      },
    };
  }

  function serve(handler: MessageHandler): {
    input: PassThrough;
    output: () => Msg[];
    closed: Promise<void>;
  } {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = "";
    output.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    const server = serveStdio(handler, {
      input,
      output,
      errors: new PassThrough(),
      captureConsole: false,
      cancelledMethod: CANCELLED,
    });
    return {
      input,
      output: () =>
        text
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => JSON.parse(l) as Msg),
      closed: server.closed,
    };
  }

  it("writes synchronous answers in request order, once the chunk has been read", async () => {
    const handler = syncHandler();
    const s = serve(handler);
    s.input.write(line(req(1, "a")) + line(req(2, "b")) + line(req(3, "c")));
    s.input.end();
    await s.closed;
    expect(s.output()).toEqual(
      ["a", "b", "c"].map((method, i) => ({ jsonrpc: "2.0", id: i + 1, result: { echo: method } })),
    );
    expect(handler.order).toEqual(["1", "2", "3"]);
  });

  it("suppresses a synchronous answer cancelled later in the same chunk, and answers the rest", async () => {
    const s = serve(syncHandler());
    const cancelled = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1 },
    };
    s.input.write(line(req(1)) + line(req(2)) + line(cancelled));
    s.input.end();
    await s.closed;
    expect(s.output().map((m) => m["id"])).toEqual([2]);
  });

  it("answers -32603 when handleRequest throws", async () => {
    const s = serve(
      syncHandler((m) => {
        if (m["id"] === 1) throw new Error("sync boom");
        return { response: success(m["id"] as number, {}), httpStatus: 200 };
      }),
    );
    s.input.write(line(req(1)) + line(req(2)));
    s.input.end();
    await s.closed;
    expect(s.output()).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });

  it("waits for a promise from handleRequest, and drops a notification sent after the answer", async () => {
    let late: Delivery | undefined;
    const s = serve(
      syncHandler((m, delivery) => {
        late = delivery;
        return Promise.resolve({
          response: success(m["id"] as number, { later: true }),
          httpStatus: 200,
        }) as unknown as Outcome;
      }),
    );
    s.input.write(line(req(1)));
    await new Promise((resolve) => setImmediate(resolve));
    late!.notify({ jsonrpc: "2.0", method: "notifications/message", params: {} });
    s.input.end();
    await s.closed;
    expect(s.output()).toEqual([{ jsonrpc: "2.0", id: 1, result: { later: true } }]);
  });

  it("writes a long answer (over 64 KiB) as one line", async () => {
    const big = "x".repeat(200_000);
    const s = serve(
      syncHandler((m) => ({ response: success(m["id"] as number, { big }), httpStatus: 200 })),
    );
    s.input.write(line(req(1)) + line(req(2)));
    s.input.end();
    await s.closed;
    expect(s.output()).toEqual([
      { jsonrpc: "2.0", id: 1, result: { big } },
      { jsonrpc: "2.0", id: 2, result: { big } },
    ]);
  });
});
