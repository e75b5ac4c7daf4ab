import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { success, type JsonRpcNotification } from "../templates/runtime/jsonrpc.js";
import { serveStdio, type StdioOptions } from "../templates/runtime/stdio.js";
import type { Delivery, MessageHandler, Outcome } from "../templates/runtime/transport.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "./helpers/tsc.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

// ---------------------------------------------------------------------------
// Harness: in-memory streams, a scriptable fake handler, an output collector
// that insists every output line is one JSON value.
// ---------------------------------------------------------------------------

type Msg = Record<string, unknown>;
type Behaviour = (message: Msg, delivery: Delivery) => Promise<Outcome> | Outcome;

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function until(condition: () => boolean, what = "a condition", ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}

/** Echoes requests (`{ method, params }`), answers nothing else; `script` overrides per method. */
function fakeHandler(
  script: Record<string, Behaviour> = {},
): MessageHandler & { seen: Msg[]; logs: string[] } {
  const seen: Msg[] = [];
  const logs: string[] = [];
  return {
    seen,
    logs,
    log: (message) => void logs.push(message),
    async handle(message, delivery) {
      const m = message as Msg;
      seen.push(m);
      const behaviour = typeof m["method"] === "string" ? script[m["method"]] : undefined;
      if (behaviour) return behaviour(m, delivery);
      if ("id" in m && "method" in m) {
        return {
          response: success(m["id"] as string | number, {
            echo: m["method"],
            params: m["params"] ?? null,
          }),
          httpStatus: 200,
        };
      }
      return { response: null, httpStatus: 202 };
    },
  };
}

interface Harness {
  input: PassThrough;
  output: PassThrough;
  errors: PassThrough;
  handler: ReturnType<typeof fakeHandler>;
  server: ReturnType<typeof serveStdio>;
  /** Every message written so far, parsed. */
  messages: Msg[];
  /** Raw output text so far. */
  raw: () => string;
  errorText: () => string;
  /** Resolves once at least `n` messages have been written. */
  waitFor: (n: number) => Promise<Msg[]>;
  /** Ends input and waits for `closed`. */
  finish: () => Promise<Msg[]>;
}

function harness(
  script: Record<string, Behaviour> = {},
  options: Partial<StdioOptions> = {},
): Harness {
  const input = new PassThrough();
  const output = new PassThrough();
  const errors = new PassThrough();
  const handler = fakeHandler(script);
  let text = "";
  let errorText = "";
  const messages: Msg[] = [];
  const waiters: Array<() => void> = [];
  output.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    let newline: number;
    while ((newline = text.indexOf("\n", consumed)) !== -1) {
      const line = text.slice(consumed, newline);
      consumed = newline + 1;
      // Every line must be exactly one JSON-RPC message.
      const value = JSON.parse(line) as Msg;
      expect(value["jsonrpc"]).toBe("2.0");
      messages.push(value);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  let consumed = 0;
  errors.on("data", (chunk: Buffer) => (errorText += chunk.toString("utf8")));
  const server = serveStdio(handler, { input, output, errors, captureConsole: false, ...options });
  const waitFor = async (n: number): Promise<Msg[]> => {
    while (messages.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    return messages;
  };
  return {
    input,
    output,
    errors,
    handler,
    server,
    messages,
    raw: () => text,
    errorText: () => errorText,
    waitFor,
    finish: async () => {
      input.end();
      await server.closed;
      await tick();
      expect(text.endsWith("\n") || text === "").toBe(true);
      return messages;
    },
  };
}

const req = (id: string | number, method = "ping", params?: Msg): Msg =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
const byId = (messages: Msg[]): Msg[] =>
  [...messages].sort((a, b) => String(a["id"]).localeCompare(String(b["id"])));
/** Each message as its id, or its error code when it has no id; sorted. */
const summary = (messages: Msg[]): string[] =>
  messages.map((m) => String(m["id"] ?? (m["error"] as Msg | undefined)?.["code"])).sort();
const echo = (id: string | number, method: string, params: unknown = null): Msg => ({
  jsonrpc: "2.0",
  id,
  result: { echo: method, params },
});

// ---------------------------------------------------------------------------
// Framing
// ---------------------------------------------------------------------------

describe("stdio framing", () => {
  it("answers requests, passes notifications on without answering them", async () => {
    const h = harness();
    h.input.write(
      line(req(1, "tools/list")) + line({ jsonrpc: "2.0", method: "notifications/initialized" }),
    );
    const out = await h.finish();
    expect(out).toEqual([echo(1, "tools/list")]);
    expect(h.handler.seen.map((m) => m["method"])).toEqual([
      "tools/list",
      "notifications/initialized",
    ]);
  });

  // A buffer with several messages, CRLF endings, blank and whitespace-only lines, and multi-byte
  // characters of every UTF-8 length (2, 3, 4 bytes), some of them right next to a line end.
  const texts = ["é", "漢字", "😀 emoji", "plain", "mixed ßñ😀漢\u2028x", "😀"];
  const stream =
    "\n" +
    texts
      .map(
        (t, i) =>
          JSON.stringify(req(`r${i}`, "echo", { t })) +
          (i % 2 === 0 ? "\r\n" : "\n") +
          (i === 2 ? "\n  \t\r\n\r\n" : ""),
      )
      .join("");
  const bytes = Buffer.from(stream, "utf8");
  const expected = texts.map((t, i) => echo(`r${i}`, "echo", { t }));

  async function feed(chunks: Buffer[]): Promise<Msg[]> {
    const h = harness();
    for (const chunk of chunks) {
      h.input.write(chunk);
      await tick();
    }
    const out = await h.finish();
    expect(h.handler.logs).toEqual([]);
    return byId(out);
  }

  it("the test stream really contains split-prone content", () => {
    expect(bytes.length).toBeGreaterThan(stream.length); // multi-byte characters present
    expect(stream).toContain("\r\n");
    expect(stream).toContain("\n\n");
  });

  it("is independent of where the input is cut in two (every byte boundary)", async () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      const out = await feed([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(out, `cut at byte ${cut}`).toEqual(expected);
    }
  });

  it("handles one byte per chunk", async () => {
    const chunks = [...bytes].map((b) => Buffer.of(b));
    expect(await feed(chunks)).toEqual(expected);
  });

  it("is independent of arbitrary chunkings (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), bytes.length];
          const chunks = points.slice(1).map((end, i) => bytes.subarray(points[i], end));
          expect(await feed(chunks)).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("decodes a 4-byte character split across three chunks", async () => {
    const msg = Buffer.from(line(req(1, "echo", { t: "a😀b" })), "utf8");
    const at = msg.indexOf(Buffer.from("😀", "utf8"));
    const out = await feed([
      msg.subarray(0, at + 1),
      msg.subarray(at + 1, at + 3),
      msg.subarray(at + 3),
    ]);
    expect(out).toEqual([echo(1, "echo", { t: "a😀b" })]);
  });

  it("treats an unterminated last line as a message when input ends", async () => {
    const h = harness();
    h.input.write(JSON.stringify(req(7)));
    expect(await h.finish()).toEqual([echo(7, "ping")]);
  });

  it("accepts string chunks from an input in string mode", async () => {
    const h = harness();
    h.input.setEncoding("utf8");
    h.input.write(line(req(1, "echo", { t: "ü" })));
    expect(await h.finish()).toEqual([echo(1, "echo", { t: "ü" })]);
  });
});

// ---------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------

describe("stdio bad input", () => {
  it("answers malformed JSON with -32700 and keeps serving", async () => {
    const h = harness();
    h.input.write('{"jsonrpc":"2.0","id":1,"method":\n');
    h.input.write("not json at all\n");
    h.input.write(line(req(2)));
    const out = await h.finish();
    expect(out).toHaveLength(3);
    expect(out[0]).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: expect.any(String) },
    });
    expect(out[1]).toEqual(out[0]);
    expect(out[2]).toEqual(echo(2, "ping"));
    expect(h.handler.seen).toHaveLength(1);
  });

  it("answers invalid UTF-8 with -32700 and keeps serving", async () => {
    const h = harness();
    h.input.write(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"x'),
        Buffer.of(0xff, 0xfe),
        Buffer.from('"}\n'),
      ]),
    );
    h.input.write(line(req(2)));
    const out = await h.finish();
    expect(out[0]).toMatchObject({ error: { code: -32700 } });
    expect(out[0]).not.toHaveProperty("id");
    expect(out[1]).toEqual(echo(2, "ping"));
  });

  it('answers "id": null with -32600 and no id, without calling the handler', async () => {
    const h = harness();
    h.input.write('{"jsonrpc":"2.0","id":null,"method":"ping"}\n');
    const out = await h.finish();
    expect(out).toEqual([
      { jsonrpc: "2.0", error: { code: -32600, message: expect.stringContaining("id") } },
    ]);
    expect(h.handler.seen).toEqual([]);
  });

  it("answers other invalid messages with -32600, with the id when readable", async () => {
    const h = harness();
    h.input.write(
      '{"jsonrpc":"1.0","id":5,"method":"ping"}\n[1,2]\n42\n{"jsonrpc":"2.0","id":6}\n',
    );
    const out = await h.finish();
    expect(out.map((m) => [m["id"], (m["error"] as Msg)["code"]])).toEqual([
      [5, -32600],
      [undefined, -32600],
      [undefined, -32600],
      [6, -32600],
    ]);
  });

  it("passes a response from the peer to the handler and writes nothing for it", async () => {
    const h = harness();
    h.input.write(line({ jsonrpc: "2.0", id: 99, result: {} }));
    h.input.write(line({ jsonrpc: "2.0", id: 98, error: { code: 1, message: "x" } }));
    expect(await h.finish()).toEqual([]);
    expect(h.raw()).toBe("");
    expect(h.handler.seen).toHaveLength(2);
  });

  it("writes nothing when the handler's outcome has no response", async () => {
    const h = harness({ quiet: () => ({ response: null, httpStatus: 202 }) });
    h.input.write(line(req(1, "quiet")) + line(req(2)));
    expect(await h.finish()).toEqual([echo(2, "ping")]);
  });

  it("answers -32603 when the handler rejects or throws", async () => {
    const h = harness({
      rejects: async () => Promise.reject(new Error("boom")),
      throws: () => {
        throw new Error("sync boom");
      },
    });
    h.input.write(line(req(1, "rejects")) + line(req(2, "throws")) + line(req(3)));
    const out = byId(await h.finish());
    expect(out[0]).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(out[1]).toMatchObject({ id: 2, error: { code: -32603 } });
    expect(out[2]).toEqual(echo(3, "ping"));
    expect(h.handler.logs.join("\n")).toContain("boom");
  });

  it("answers -32603 when a response cannot be serialised", async () => {
    const h = harness({
      bigint: (m) => ({ response: success(m["id"] as number, { n: 1n }), httpStatus: 200 }),
    });
    h.input.write(line(req(1, "bigint")) + line(req(2)));
    const out = byId(await h.finish());
    expect(out[0]).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(out[1]).toEqual(echo(2, "ping"));
  });

  it("survives 10,000-deep nesting", async () => {
    const depth = 10_000;
    const deepArray = "[".repeat(depth) + "]".repeat(depth);
    const deepParams = '{"jsonrpc":"2.0","id":2,"method":"deep","params":{"a":' + deepArray + "}}";
    const h = harness({
      deep: (m) => ({ response: success(m["id"] as number, { ok: true }), httpStatus: 200 }),
    });
    h.input.write(deepArray + "\n"); // an array: a batch, not supported
    h.input.write(deepParams + "\n");
    h.input.write("[".repeat(depth) + "\n"); // unbalanced: not JSON
    h.input.write(line(req(3)));
    const out = await h.finish();
    // Past the parse guard's default limit (1000 levels) each is refused before JSON.parse.
    expect(summary(out)).toEqual(["-32700", "-32700", "-32700", "3"]);
    expect(
      out.filter(
        (m) =>
          (m["error"] as Msg | undefined)?.["message"] ===
          "Parse error: nested more than 1000 levels deep",
      ),
    ).toHaveLength(3);
  });

  it("takes nesting within maxDepth, and refuses one level more", async () => {
    const nested = (depth: number) =>
      '{"jsonrpc":"2.0","id":' +
      depth +
      ',"method":"deep","params":{"a":' +
      "[".repeat(depth - 2) +
      "]".repeat(depth - 2) +
      "}}";
    const h = harness(
      { deep: (m) => ({ response: success(m["id"] as number, { ok: true }), httpStatus: 200 }) },
      { maxDepth: 50 },
    );
    h.input.write(nested(50) + "\n" + nested(51) + "\n");
    const out = await h.finish();
    expect(out).toContainEqual({ jsonrpc: "2.0", id: 50, result: { ok: true } });
    expect(out).toContainEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: "Parse error: nested more than 50 levels deep" },
    });
  });
});

// ---------------------------------------------------------------------------
// Line length limit
// ---------------------------------------------------------------------------

describe("stdio line limit", { timeout: 20_000 }, () => {
  /** A request whose line (without terminator) is exactly `size` bytes. */
  const sized = (id: number, size: number): string => {
    const base = JSON.stringify(req(id, "echo", { pad: "" }));
    const pad = size - Buffer.byteLength(base);
    expect(pad).toBeGreaterThanOrEqual(0);
    return JSON.stringify(req(id, "echo", { pad: "x".repeat(pad) }));
  };

  it("accepts a line of exactly the limit (also with CRLF) and rejects one byte more", async () => {
    const limit = 100;
    const h = harness({}, { maxLineBytes: limit });
    h.input.write(sized(1, limit) + "\n");
    h.input.write(sized(2, limit) + "\r\n");
    h.input.write(sized(3, limit + 1) + "\n");
    h.input.write(sized(4, limit - 1) + "\r\n");
    const out = await h.finish();
    expect(summary(out)).toEqual(["-32600", "1", "2", "4"]);
    expect(JSON.stringify(out.find((m) => "error" in m))).toContain(`${limit} bytes`);
  });

  it("counts bytes, not characters", async () => {
    const limit = 100;
    const h = harness({}, { maxLineBytes: limit });
    const base = JSON.stringify(req(1, "echo", { t: "" }));
    const chars = Math.floor((limit - Buffer.byteLength(base)) / 3) + 1; // fits in characters, not in bytes
    expect(base.length + chars).toBeLessThanOrEqual(limit);
    h.input.write(JSON.stringify(req(1, "echo", { t: "漢".repeat(chars) })) + "\n");
    h.input.write(line(req(2)));
    const out = await h.finish();
    expect(out[0]).toMatchObject({ error: { code: -32600 } });
    expect(out[1]).toEqual(echo(2, "ping"));
  });

  it("rejects a 10 MB line before it ends, discards the rest of it, and keeps serving", async () => {
    const h = harness();
    h.input.write(line(req(1)));
    const chunk = Buffer.alloc(64 * 1024, "a");
    const total = 10 * 1024 * 1024;
    let written = 0;
    h.input.write('{"jsonrpc":"2.0","id":2,"method":"echo","params":{"pad":"');
    while (written < total) {
      h.input.write(chunk);
      written += chunk.length;
      if (written % (1024 * 1024) === 0) await tick();
    }
    // The error is already out while the line is still unterminated: nothing waited for its end.
    const early = await h.waitFor(2);
    expect(early[1]).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: expect.stringContaining(String(4 * 1024 * 1024)) },
    });
    h.input.write('"}}\n');
    h.input.write(line(req(3)));
    const out = await h.finish();
    expect(out).toHaveLength(3);
    expect(out[2]).toEqual(echo(3, "ping"));
    expect(h.handler.seen.map((m) => m["id"])).toEqual([1, 3]);
  });

  it("rejects a huge line delivered as a single chunk, and the message after it in the same chunk is served", async () => {
    const h = harness({}, { maxLineBytes: 1024 });
    h.input.write(
      Buffer.concat([Buffer.alloc(1024 * 1024, "z"), Buffer.from("\n" + line(req(5)))]),
    );
    const out = await h.finish();
    expect(summary(out)).toEqual(["-32600", "5"]);
  });

  it("rejects invalid limits", () => {
    expect(() =>
      serveStdio(fakeHandler(), {
        maxLineBytes: 0,
        input: new PassThrough(),
        output: new PassThrough(),
      }),
    ).toThrow(RangeError);
  });
});

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

  it("redirects console output to the error stream while serving, and restores it", async () => {
    const log = console.log;
    const info = console.info;
    const h = harness(
      {
        noisy: (m) => {
          console.log("noise from log");
          console.info("noise from info");
          console.debug("noise from debug");
          console.table([{ a: 1 }]);
          return { response: success(m["id"] as number, {}), httpStatus: 200 };
        },
      },
      { captureConsole: true },
    );
    expect(console.log).not.toBe(log);
    h.input.write(line(req(1, "noisy")));
    const out = await h.finish();
    expect(out).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    expect(h.errorText()).toContain("noise from log");
    expect(h.errorText()).toContain("noise from info");
    expect(h.errorText()).toContain("noise from debug");
    expect(console.log).toBe(log);
    expect(console.info).toBe(info);
  });
});

// ---------------------------------------------------------------------------
// A real child process speaking over its own stdin/stdout
// ---------------------------------------------------------------------------

describe("stdio in a child process", { timeout: 30_000 }, () => {
  let dir: string;
  let script: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "mcp-gen-stdio-"));
    const compiled = tsc(dir, {
      compilerOptions: {
        ...STRICT_OPTIONS,
        ...NODE_TYPES,
        rootDir: join(ROOT, "templates", "runtime"),
        outDir: join(dir, "runtime"),
      },
      files: ["stdio.ts", "jsonrpc.ts", "transport.ts"].map((f) =>
        join(ROOT, "templates", "runtime", f),
      ),
    });
    expect(compiled.output).toBe("");
    expect(compiled.status).toBe(0);
    script = join(dir, "server.mjs");
    writeFileSync(
      script,
      `import { serveStdio } from "./runtime/stdio.js";
const ok = (id, result) => ({ response: { jsonrpc: "2.0", id, result }, httpStatus: 200 });
serveStdio({
  async handle(m, delivery) {
    if (!("id" in m) || !("method" in m)) return { response: null, httpStatus: 202 };
    if (m.method === "noisy") {
      console.log("noise: log");
      console.info("noise: info");
      console.debug("noise: debug");
      console.dir({ noise: "dir" });
      console.table([{ noise: "table" }]);
      console.group("noise: group");
      console.count();
      console.groupEnd();
      process.stdout.write("noise: raw stdout write\\n");
      return ok(m.id, { noisy: true });
    }
    if (m.method === "slow") {
      console.error("slow started " + m.id);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(ok(m.id, { aborted: false })), 60_000);
        delivery.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve(ok(m.id, { aborted: true }));
        });
      });
    }
    return ok(m.id, { method: m.method });
  },
});
`,
    );
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  interface Run {
    child: ChildProcess;
    stdout: () => string;
    stderr: () => string;
    exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
    waitForStderr: (text: string) => Promise<void>;
  }

  function run(): Run {
    const child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const watchers: Array<() => void> = [];
    child.stdout!.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString("utf8");
      for (const w of watchers.splice(0)) w();
    });
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("close", (code, signal) => resolve({ code, signal })),
    );
    const waitForStderr = async (text: string): Promise<void> => {
      while (!err.includes(text)) await new Promise<void>((resolve) => watchers.push(resolve));
    };
    return { child, stdout: () => out, stderr: () => err, exit, waitForStderr };
  }

  const jsonLines = (text: string): Msg[] => {
    expect(text === "" || text.endsWith("\n")).toBe(true);
    return text
      .split("\n")
      .slice(0, -1)
      .map((l) => {
        const value = JSON.parse(l) as Msg;
        expect(value["jsonrpc"]).toBe("2.0");
        return value;
      });
  };

  it("keeps console output off stdout and exits 0 when stdin ends", async () => {
    const r = run();
    r.child.stdin!.end(line(req(1, "noisy")) + line(req(2, "tools/list")));
    const { code, signal } = await r.exit;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    const out = jsonLines(r.stdout());
    expect(byId(out)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { noisy: true } },
      { jsonrpc: "2.0", id: 2, result: { method: "tools/list" } },
    ]);
    for (const noise of [
      "noise: log",
      "noise: info",
      "noise: debug",
      "dir",
      "table",
      "noise: group",
      "default: 1",
      "noise: raw stdout write",
    ]) {
      expect(r.stderr()).toContain(noise);
    }
  });

  it("on stdin end aborts an in-flight request, answers it, and exits 0", async () => {
    const r = run();
    r.child.stdin!.write(line(req(1, "slow")));
    await r.waitForStderr("slow started 1");
    r.child.stdin!.end();
    const { code } = await r.exit;
    expect(code).toBe(0);
    expect(jsonLines(r.stdout())).toEqual([{ jsonrpc: "2.0", id: 1, result: { aborted: true } }]);
  });

  it("exits 0 on SIGTERM after finishing in-flight requests", async () => {
    const r = run();
    r.child.stdin!.write(line(req(1, "slow")));
    await r.waitForStderr("slow started 1");
    r.child.kill("SIGTERM");
    const { code, signal } = await r.exit;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(jsonLines(r.stdout())).toEqual([{ jsonrpc: "2.0", id: 1, result: { aborted: true } }]);
  });

  it("exits 0 on SIGINT while idle with stdin still open", async () => {
    const r = run();
    r.child.stdin!.write(line(req(1)));
    await new Promise<void>((resolve) => r.child.stdout!.once("data", () => resolve()));
    r.child.kill("SIGINT");
    const { code, signal } = await r.exit;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(jsonLines(r.stdout())).toEqual([{ jsonrpc: "2.0", id: 1, result: { method: "ping" } }]);
  });

  it("lets the process exit after close() although stdin is still open", async () => {
    const closer = join(dir, "closer.mjs");
    writeFileSync(
      closer,
      `import { serveStdio } from "./runtime/stdio.js";
const server = serveStdio({ handle: async (m) => ({ response: { jsonrpc: "2.0", id: m.id, result: {} }, httpStatus: 200 }) });
process.stdin.once("data", () => setTimeout(() => server.close(), 10));
server.closed.then(() => console.error("closed"));
`,
    );
    const child = spawn(process.execPath, [closer], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
    child.stdin.write(line(req(1)));
    const code = await new Promise<number | null>((resolve) =>
      child.on("close", (c) => resolve(c)),
    );
    expect(code).toBe(0);
    expect(err).toBe("closed\n");
    expect(jsonLines(out)).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    child.stdin.destroy();
  });

  it("does not crash when its stdout is closed (EPIPE)", async () => {
    const r = run();
    r.child.stdin!.write(line(req(1, "slow")));
    await r.waitForStderr("slow started 1");
    r.child.stdout!.destroy();
    r.child.stdin!.write(line(req(2)));
    r.child.stdin!.end();
    const { code, signal } = await r.exit;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(r.stderr()).not.toMatch(/Unhandled|Error: write EPIPE\n\s+at/);
    expect(r.stderr()).toContain("output failed (write EPIPE)");
  });
});

// ---------------------------------------------------------------------------
// Answers given at once (MessageHandler.handleRequest), decoding, the line buffer
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

describe("stdio decoding and the line buffer", () => {
  it("drops a leading byte order mark, as a strict UTF-8 decoder does", async () => {
    const h = harness();
    h.input.write(Buffer.concat([Buffer.of(0xef, 0xbb, 0xbf), Buffer.from(line(req(1)))]));
    expect(await h.finish()).toEqual([echo(1, "ping")]);
  });

  it("accepts U+FFFD written as valid UTF-8, and still rejects an invalid sequence next to one", async () => {
    const h = harness();
    h.input.write(line(req(1, "echo", { t: "a\uFFFDb" })));
    h.input.write(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":2,"method":"\uFFFD'),
        Buffer.of(0xc3),
        Buffer.from('"}\n'),
      ]),
    );
    h.input.write(line(req(3)));
    const out = await h.finish();
    expect(out.filter((m) => "result" in m)).toEqual([
      echo(1, "echo", { t: "a\uFFFDb" }),
      echo(3, "ping"),
    ]);
    expect(out.filter((m) => "error" in m)).toEqual([
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: not valid UTF-8" } },
    ]);
  });

  it("carries lines across chunks, also a long one and then short ones", async () => {
    const h = harness();
    const long = line(req(1, "echo", { t: "y".repeat(300_000) }));
    const short = line(req(2));
    // The long line in three pieces, the short one split with its start in the long one's last chunk.
    const all = Buffer.from(long + short + line(req(3)));
    const cuts = [1000, 150_000, long.length + 10, long.length + short.length + 3];
    let at = 0;
    for (const cut of cuts) {
      h.input.write(all.subarray(at, cut));
      at = cut;
    }
    h.input.write(all.subarray(at));
    const out = await h.finish();
    expect(out.map((m) => m["id"])).toEqual([1, 2, 3]);
    expect(((out[0]!["result"] as Msg)["params"] as Msg)["t"]).toHaveLength(300_000);
  });

  it("reads chunks that are plain Uint8Arrays (an input in object mode)", async () => {
    const input = new PassThrough({ objectMode: true });
    const output = new PassThrough();
    let text = "";
    output.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    const server = serveStdio(fakeHandler(), {
      input,
      output,
      errors: new PassThrough(),
      captureConsole: false,
    });
    const bytes = new TextEncoder().encode(line(req(1)) + line(req(2)));
    input.write(bytes.subarray(0, 10));
    input.write(bytes.subarray(10));
    input.end();
    await server.closed;
    expect(
      text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Msg),
    ).toEqual([echo(1, "ping"), echo(2, "ping")]);
  });
});

// ---------------------------------------------------------------------------
// Admission control and cancellation by id
// ---------------------------------------------------------------------------

describe("stdio admission control", () => {
  /** A handler whose `hold` requests wait until `release()`, answering `{ held: true }`. */
  function gated() {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const script: Record<string, Behaviour> = {
      hold: async (m, delivery) => {
        await Promise.race([
          gate,
          new Promise<void>((resolve) =>
            delivery.signal.addEventListener("abort", () => resolve()),
          ),
        ]);
        return {
          response: success(m["id"] as number, { held: true, aborted: delivery.signal.aborted }),
          httpStatus: 200,
        };
      },
    };
    return { script, release: () => open() };
  }

  it("answers requests past maxRequestsInFlight at once with -32000, and serves what it admitted", async () => {
    const { script, release } = gated();
    const h = harness(script, { maxRequestsInFlight: 3 });
    h.input.write([1, 2, 3, 4, 5].map((id) => line(req(id, "hold"))).join(""));
    const refused = await h.waitFor(2);
    expect(refused.map((m) => m["id"]).sort()).toEqual([4, 5]);
    for (const m of refused)
      expect(m["error"]).toEqual({
        code: -32000,
        message: "Server busy: too many requests in flight; retry later",
      });
    release();
    await h.waitFor(5);
    // Once they are answered, there is room again.
    h.input.write(line(req(6, "ping")));
    const out = await h.finish();
    expect(
      out
        .slice(2, 5)
        .map((m) => m["id"])
        .sort(),
    ).toEqual([1, 2, 3]);
    for (const m of out.slice(2, 5)) expect(m["result"]).toEqual({ held: true, aborted: false });
    expect(out[5]).toEqual(echo(6, "ping"));
    expect(h.handler.logs.filter((l) => l.includes("too many requests in flight"))).toHaveLength(1);
  });

  it("counts the bytes of requests in flight against maxBytesInFlight", async () => {
    const { script, release } = gated();
    const h = harness(script, { maxBytesInFlight: 1000 });
    const big = (id: number) => line(req(id, "hold", { pad: "x".repeat(560) }));
    h.input.write(big(1) + big(2) + line(req(3, "hold")));
    const [refused] = await h.waitFor(1);
    expect(refused).toMatchObject({ id: 2, error: { code: -32000 } });
    release();
    const out = await h.finish();
    expect(
      out
        .slice(1)
        .map((m) => m["id"])
        .sort(),
    ).toEqual([1, 3]);
  });

  it("rejects limits that are not positive integers", () => {
    expect(() => harness({}, { maxRequestsInFlight: 0 })).toThrow(
      /maxRequestsInFlight must be a positive integer/,
    );
    expect(() => harness({}, { maxBytesInFlight: 1.5 })).toThrow(
      /maxBytesInFlight must be a positive integer/,
    );
  });

  it("cancels by id among many requests in flight: the one named (every one sharing its id), none other", async () => {
    const { script, release } = gated();
    const h = harness(script);
    const ids: Array<string | number> = [];
    for (let i = 0; i < 500; i++) ids.push(i, `s${i}`);
    h.input.write(ids.map((id) => line(req(id, "hold"))).join("") + line(req(7, "hold")));
    // Unknown ids, then 7 (twice in flight) and "s3"; 3 (a number) is not "3".
    const cancel = (requestId: unknown) =>
      line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } });
    h.input.write(
      Array.from({ length: 2000 }, (_, i) => cancel(`unknown-${i}`)).join("") +
        cancel(7) +
        cancel("s3") +
        cancel("3"),
    );
    await until(
      () => h.handler.seen.filter((m) => m["method"] === "notifications/cancelled").length === 2003,
    );
    release();
    const out = await h.finish();
    const answered = out.map((m) => m["id"]);
    expect(answered).not.toContain(7);
    expect(answered).not.toContain("s3");
    expect(answered).toContain(3);
    expect(out).toHaveLength(ids.length - 2);
  });
});
