/**
 * Admission control over stdio (maxRequestsInFlight, maxBytesInFlight) and cancellation by id
 * among many requests in flight.
 */
import { describe, expect, it } from "vitest";
import { success } from "../../../runtime/shared/jsonrpc.js";
import { type Behaviour, echo, harness, line, req, until } from "../../helpers/stdio-harness.js";

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
