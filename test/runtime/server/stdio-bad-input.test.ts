/**
 * What the stdio transport answers to bad input (malformed JSON, invalid UTF-8, invalid messages,
 * deep nesting) and to handlers that fail, while it keeps serving.
 */
import { describe, expect, it } from "vitest";
import { success } from "../../../runtime/shared/jsonrpc.js";
import { type Msg, byId, echo, harness, line, req, summary } from "../../helpers/stdio-harness.js";

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
