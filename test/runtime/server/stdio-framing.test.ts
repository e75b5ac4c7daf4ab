/**
 * How the stdio transport cuts its input into messages: lines however the input is chunked (every
 * byte boundary, one byte at a time, arbitrary chunkings), UTF-8 decoding across chunks, byte order
 * marks, the line buffer, and the line limit in bytes.
 */
import { PassThrough } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { serveStdio } from "../../../runtime/server/stdio.js";
import {
  type Msg,
  byId,
  echo,
  fakeHandler,
  harness,
  line,
  req,
  summary,
  tick,
} from "../../helpers/stdio-harness.js";

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
