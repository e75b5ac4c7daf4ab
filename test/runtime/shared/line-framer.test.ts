/**
 * The line framer both stdio ends read with (`runtime/shared/line-framer.ts`): lines split at
 * LF whatever the chunking, CR before LF dropped, UTF-8 split across chunks, the cap (exactly at it
 * accepted, a CR past it free, over it dropped once and the next line read), empty lines, the end
 * of input, stopping; and the stdio client reading a server's output by the same rules.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { LineFramer, type LineSink } from "../../../runtime/shared/line-framer.js";
import { createClient } from "../../../generated/2026-07-28/client.js";
import { stdioTransport } from "../../../generated/2026-07-28/client-node.js";
import { INFO, results } from "../../helpers/client-fake.js";
import { stdioScript } from "../../helpers/client-servers.js";

/** What a framer handed on: each line as text, or `TOO_LONG` where a line was dropped. */
const TOO_LONG = Symbol("too long");
type Seen = Array<string | typeof TOO_LONG>;

function framer(max: number): { framer: LineFramer; seen: Seen } {
  const seen: Seen = [];
  const sink: LineSink = {
    line: (bytes, start, end) => seen.push(bytes.toString("utf8", start, end)),
    tooLong: () => seen.push(TOO_LONG),
  };
  return { framer: new LineFramer(max, sink), seen };
}

/** Feeds `text`'s UTF-8 bytes cut at the given byte offsets. */
function feed(target: LineFramer, text: string, cuts: number[] = []): void {
  const bytes = Buffer.from(text, "utf8");
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    target.push(bytes.subarray(start, cut));
    start = cut;
  }
  target.push(bytes.subarray(start));
}

describe("LineFramer", () => {
  it("splits at LF, whatever the chunks", () => {
    const { framer: f, seen } = framer(100);
    feed(f, '{"a":1}\n{"b":2}\n{"c"', [3, 8, 9, 12]);
    f.push(":3}\n");
    expect(seen).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("holds an unterminated line until its LF, or the end of input", () => {
    const { framer: f, seen } = framer(100);
    f.push("first\nsecond");
    expect(seen).toEqual(["first"]);
    f.end();
    expect(seen).toEqual(["first", "second"]);
    f.end();
    expect(seen).toEqual(["first", "second"]);
  });

  it("drops the CR of a CRLF, also when the CR and the LF arrive apart", () => {
    const { framer: f, seen } = framer(100);
    f.push("one\r\ntwo\r");
    f.push("\nthree\rinside\r\n");
    expect(seen).toEqual(["one", "two", "three\rinside"]);
  });

  it("hands on empty lines as empty ranges", () => {
    const { framer: f, seen } = framer(100);
    f.push("\n\r\nx\n\n");
    expect(seen).toEqual(["", "", "x", ""]);
  });

  it("joins a multi-byte UTF-8 character split across chunks", () => {
    const text = "é世😀\n";
    const bytes = Buffer.from(text, "utf8");
    for (let cut = 1; cut < bytes.length - 1; cut++) {
      const { framer: f, seen } = framer(100);
      f.push(bytes.subarray(0, cut));
      f.push(bytes.subarray(cut));
      expect(seen).toEqual(["é世😀"]);
    }
  });

  it("takes strings and Uint8Arrays as well as Buffers", () => {
    const { framer: f, seen } = framer(100);
    f.push("a\nb");
    f.push(new TextEncoder().encode("c\n"));
    // A view into the middle of a larger buffer: only its own bytes are read.
    f.push(new TextEncoder().encode("xd\ny").subarray(1, 3));
    expect(seen).toEqual(["a", "bc", "d"]);
  });

  it("accepts a line of exactly the cap, in one chunk or several, and a CR past it", () => {
    const { framer: f, seen } = framer(8);
    f.push("12345678\n");
    f.push("1234");
    f.push("5678\n");
    f.push("12345678\r\n");
    f.push("1234");
    f.push("5678\r");
    f.push("\n");
    expect(seen).toEqual(["12345678", "12345678", "12345678", "12345678"]);
  });

  it("drops a line over the cap once, as it arrives, and reads the next one", () => {
    const { framer: f, seen } = framer(8);
    f.push("123456789\nok\n");
    expect(seen).toEqual([TOO_LONG, "ok"]);
    // Over the cap before its end has arrived: reported at once, the rest discarded unread.
    f.push("1234567");
    f.push("89");
    expect(seen).toEqual([TOO_LONG, "ok", TOO_LONG]);
    f.push("x".repeat(100));
    f.push("yyy\nafter\n");
    expect(seen).toEqual([TOO_LONG, "ok", TOO_LONG, "after"]);
    // A CR is free only as the terminator: one more byte after it is over.
    f.push("12345678\rx\nlast\n");
    expect(seen).toEqual([TOO_LONG, "ok", TOO_LONG, "after", TOO_LONG, "last"]);
  });

  it("does not hand on the rest of an over-long line at the end of input", () => {
    const { framer: f, seen } = framer(4);
    f.push("123456");
    f.end();
    expect(seen).toEqual([TOO_LONG]);
  });

  it("reads nothing more once stopped, not even the rest of the chunk it is in", () => {
    const seen: string[] = [];
    const f: LineFramer = new LineFramer(100, {
      line: (bytes, start, end) => {
        const line = bytes.toString("utf8", start, end);
        seen.push(line);
        if (line === "stop") f.stop();
      },
      tooLong: () => {},
    });
    f.push("a\nstop\nb\nc");
    f.push("d\n");
    f.end();
    expect(seen).toEqual(["a", "stop"]);
  });

  it("refuses a cap that is not a positive integer", () => {
    const sink: LineSink = { line: () => {}, tooLong: () => {} };
    for (const max of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new LineFramer(max, sink)).toThrow(RangeError);
  });

  it("finds the same lines however the bytes are cut (property)", () => {
    // One- to four-byte characters, and CRs anywhere: only a CR before the LF is dropped.
    const line = fc
      .array(fc.constantFrom("a", "{", "é", "世", "😀", "\r"), { maxLength: 12 })
      .map((chars) => chars.join(""));
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 6 }),
        fc.array(fc.nat({ max: 200 }), { maxLength: 8 }),
        (lines, cuts) => {
          const text = lines.map((l) => `${l}\n`).join("");
          const bytes = Buffer.byteLength(text);
          const { framer: f, seen } = framer(24);
          feed(
            f,
            text,
            cuts.filter((c) => c <= bytes),
          );
          const expected = lines.map((l) => {
            const stripped = l.endsWith("\r") ? l.slice(0, -1) : l;
            return Buffer.byteLength(stripped) > 24 ? TOO_LONG : stripped;
          });
          expect(seen).toEqual(expected);
        },
      ),
    );
  });
});

describe("the stdio client reads by the framer's rules", () => {
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((close) => close()));
  });

  it("reads a CRLF answer of exactly maxLineBytes and drops one a byte longer, with a diagnostic", async () => {
    // Two answers to the call: "A", one byte over the cap, then "B", exactly at it (CR not counted).
    const cap = 400;
    const logs: string[] = [];
    const transport = stdioTransport({
      command: process.execPath,
      args: stdioScript(
        `if (message.method === "server/discover") write({ jsonrpc: "2.0", id: message.id, result: ${JSON.stringify(results.discover())} });
         else {
           const answer = (text) => JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text }] } });
           const sized = (mark, over) => answer(mark + "p".repeat(${cap} - answer(mark).length + over));
           process.stdout.write(sized("A", 1) + "\\r\\n" + sized("B", 0) + "\\r\\n");
         }`,
      ),
      maxLineBytes: cap,
    });
    const client = createClient({ transport, info: INFO, log: (line) => logs.push(line) });
    open.push(() => client.close());
    const result = await client.callTool({ name: "x" });
    expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/^Bp+$/);
    expect(logs.filter((line) => line.includes("dropped a line"))).toEqual([
      `mcp stdio client: dropped a line longer than ${cap} bytes (raise maxLineBytes to read it); a request it answered fails only by its timeout`,
    ]);
  });

  it("refuses a maxLineBytes that is not a positive integer when the transport is made", () => {
    expect(() => stdioTransport({ command: process.execPath, maxLineBytes: 0 })).toThrow(
      RangeError,
    );
  });
});
