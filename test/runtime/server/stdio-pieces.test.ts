/**
 * The pieces `serveStdio` is wired from, each on its own: the requests in flight
 * (`runtime/server/stdio-in-flight.ts`: by id for cancellation, duplicates included, the
 * admission budget, answers given at once written in order, nothing for a cancelled request) and
 * the output (`runtime/server/stdio-writer.ts`: one message a line, long lines, messages that
 * cannot be serialised, back-pressure passed to the input, a failure reported once, the flush).
 */
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { Budget } from "../../../runtime/server/admission.js";
import type { JsonRpcMessage } from "../../../runtime/shared/jsonrpc.js";
import {
  InFlight,
  InFlightRequests,
  type Connection,
} from "../../../runtime/server/stdio-in-flight.js";
import { LineWriter, type WriterHooks } from "../../../runtime/server/stdio-writer.js";
import type { Outcome } from "../../../runtime/server/transport.js";

function connection(): Connection & { sent: JsonRpcMessage[]; logs: string[] } {
  const sent: JsonRpcMessage[] = [];
  const logs: string[] = [];
  return {
    session: {},
    sent,
    logs,
    send: (message) => {
      sent.push(message);
      return true;
    },
    log: (message) => logs.push(message),
  };
}

const answer = (id: number | string): Outcome => ({
  response: { jsonrpc: "2.0", id, result: {} },
  httpStatus: 200,
});

describe("InFlightRequests", () => {
  function table() {
    const budget = new Budget(10, 1000);
    const responded: Outcome[] = [];
    const requests = new InFlightRequests(budget, (outcome) => responded.push(outcome));
    return { budget, responded, requests, conn: connection() };
  }

  it("holds each request against the budget until it is finished", () => {
    const { budget, requests, conn, responded } = table();
    const a = new InFlight(1, 100, conn);
    const b = new InFlight(2, 50, conn);
    requests.track(a);
    requests.track(b);
    expect([budget.requests, budget.bytes]).toEqual([2, 150]);
    requests.deliver(a, answer(1));
    expect([budget.requests, budget.bytes]).toEqual([1, 50]);
    expect(a.done).toBe(true);
    expect(responded).toEqual([answer(1)]);
  });

  it("cancels every request sharing an id, and no other; a cancelled request gets no response", () => {
    const { requests, conn, responded, budget } = table();
    const first = new InFlight(7, 1, conn);
    const second = new InFlight(7, 1, conn);
    const other = new InFlight("7", 1, conn);
    for (const entry of [first, second, other]) requests.track(entry);
    requests.cancel(7, "the user gave up");
    expect([first.cancelled, second.cancelled, other.cancelled]).toEqual([true, true, false]);
    expect(first.signal.aborted).toBe(true);
    expect((first.signal.reason as DOMException).name).toBe("AbortError");
    expect((first.signal.reason as DOMException).message).toBe("the user gave up");
    expect(other.signal.aborted).toBe(false);
    requests.deliver(second, answer(7));
    requests.deliver(first, answer(7));
    requests.deliver(other, answer("7"));
    expect(responded).toEqual([answer("7")]);
    expect(budget.requests).toBe(0);
    // Its id is free again: a later cancellation of it finds nothing.
    const later = new InFlight(7, 1, conn);
    requests.track(later);
    requests.cancel(7, 42);
    expect((later.signal.reason as DOMException).message).toBe("The request was cancelled");
  });

  it("writes answers given at once in the order given, only when asked", () => {
    const { requests, conn, responded } = table();
    const entries = [1, 2, 3].map((id) => new InFlight(id, 1, conn));
    for (const entry of entries) requests.track(entry);
    requests.ready(entries[1]!, answer(2));
    requests.ready(entries[0]!, answer(1));
    requests.ready(entries[2]!, answer(3));
    expect(responded).toEqual([]);
    // A cancellation before the end of the chunk still suppresses an answer given at once.
    requests.cancel(3, undefined);
    requests.deliverReady();
    expect(responded).toEqual([answer(2), answer(1)]);
    requests.deliverReady();
    expect(responded).toHaveLength(2);
  });

  it("aborts everything in flight when the connection closes", () => {
    const { requests, conn } = table();
    const entries = [new InFlight(1, 1, conn), new InFlight(1, 1, conn), new InFlight(2, 1, conn)];
    for (const entry of entries) requests.track(entry);
    const reason = new Error("closing");
    requests.abortAll(reason);
    expect(entries.map((entry) => entry.signal.reason)).toEqual([reason, reason, reason]);
  });
});

describe("InFlight.notify", () => {
  it("sends while the request runs, drops (with a log line) once it is done, and says nothing once cancelled", () => {
    const conn = connection();
    const entry = new InFlight(5, 1, conn);
    const note = { jsonrpc: "2.0" as const, method: "notifications/progress" };
    entry.notify(note);
    entry.done = true;
    entry.notify(note);
    const cancelled = new InFlight(6, 1, conn);
    cancelled.cancelled = true;
    cancelled.notify(note);
    expect(conn.sent).toEqual([note]);
    expect(conn.logs).toEqual(["dropped a notification sent after request 5 completed"]);
    expect(entry.session).toBe(conn.session);
  });
});

describe("LineWriter", () => {
  function hooks(): WriterHooks & { calls: string[] } {
    const calls: string[] = [];
    return {
      calls,
      log: (message) => calls.push(`log ${message}`),
      failed: (error) => calls.push(`failed ${error.message}`),
      pause: () => calls.push("pause"),
      resume: () => calls.push("resume"),
    };
  }
  function collect(stream: PassThrough): () => string {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    return () => Buffer.concat(chunks).toString("utf8");
  }

  it("writes one message a line, long ones too", async () => {
    const output = new PassThrough();
    const text = collect(output);
    const writer = new LineWriter(output, hooks());
    const long = "x".repeat(100_000);
    expect(writer.send({ jsonrpc: "2.0", id: 1, result: {} })).toBe(true);
    expect(writer.send({ jsonrpc: "2.0", id: 2, result: { long } })).toBe(true);
    await writer.flush(true);
    const lines = text().split("\n");
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0]!)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(JSON.parse(lines[1]!).result.long).toBe(long);
    expect(lines[2]).toBe("");
  });

  it("answers a response that cannot be serialised with an internal error, and logs it", async () => {
    const output = new PassThrough();
    const text = collect(output);
    const h = hooks();
    const writer = new LineWriter(output, h);
    writer.sendResponse({
      response: { jsonrpc: "2.0", id: 3, result: { big: 1n } },
      httpStatus: 200,
    });
    writer.sendResponse({ response: null, httpStatus: 202 });
    await writer.flush(true);
    expect(JSON.parse(text())).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32603, message: "Internal error: the response could not be serialised" },
    });
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]).toMatch(/^log could not serialise an outgoing message: /);
  });

  it("asks the input to pause once while the peer is behind, and to resume on drain", async () => {
    const output = new PassThrough({ highWaterMark: 16 });
    const h = hooks();
    const writer = new LineWriter(output, h);
    writer.send({ jsonrpc: "2.0", id: 1, result: { text: "more than sixteen bytes" } });
    writer.send({ jsonrpc: "2.0", id: 2, result: {} });
    expect(h.calls).toEqual(["pause"]);
    output.resume();
    await new Promise((resolve) => output.once("drain", resolve));
    expect(h.calls).toEqual(["pause", "resume"]);
  });

  it("reports an output failure once and writes nothing after it", async () => {
    const h = hooks();
    const output = new Writable({
      write: (_chunk, _encoding, callback) => callback(new Error("broken pipe")),
    });
    const writer = new LineWriter(output, h);
    writer.send({ jsonrpc: "2.0", id: 1, result: {} });
    await new Promise((resolve) => setImmediate(resolve));
    expect(writer.isOpen).toBe(false);
    expect(writer.send({ jsonrpc: "2.0", id: 2, result: {} })).toBe(false);
    output.emit("error", new Error("again"));
    expect(h.calls.filter((call) => call.startsWith("failed"))).toEqual(["failed broken pipe"]);
    await writer.flush(true); // resolves at once: nothing more can be written
    writer.detach();
    expect(output.listenerCount("drain")).toBe(0);
  });
});
