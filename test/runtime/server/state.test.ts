import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { openState, randomSecret, sealState } from "../../../runtime/server/state.js";

const secret = "0123456789abcdef-test-secret";
const now = 1_800_000_000_000;
const ttlMs = 60_000;
const audience = "tools/call:book_flight";
const payload = { step: 2, answers: { city: "Zürich", seats: [1, 2] }, note: "漢字 😀" };

const seal = (
  value: unknown = payload,
  extra: { audience?: string; now?: number; secret?: string | Uint8Array; ttlMs?: number } = {},
): string => sealState(value, { secret, ttlMs, now, audience, ...extra });
const open = (
  token: string,
  extra: { audience?: string; now?: number; secret?: string | Uint8Array } = {},
) => openState(token, { secret, now: now + 1, audience, ...extra });

describe("sealState / openState", () => {
  it("round-trips JSON payloads", () => {
    for (const value of [payload, null, 0, -1.5, "", "text", true, [], {}, [{ a: [null] }]]) {
      expect(open(seal(value))).toEqual({ ok: true, payload: value });
    }
  });

  it("round-trips arbitrary JSON values (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, aud) => {
        const token = sealState(value, { secret, ttlMs, now, audience: aud });
        const result = openState(token, { secret, now, audience: aud });
        expect(result).toEqual({ ok: true, payload: JSON.parse(JSON.stringify(value)) });
      }),
      { numRuns: 500 },
    );
  });

  it("makes URL-safe, compact tokens", () => {
    const token = seal({ s: 1 });
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(token.length).toBeLessThan(60); // 35 header bytes + 7 payload bytes, base64url
    expect(seal({ s: 1 })).toBe(token); // deterministic for the same inputs
  });

  it("accepts a Uint8Array secret and a fresh random one", () => {
    const bytes = randomSecret();
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.length).toBe(32);
    expect(Buffer.from(randomSecret()).equals(Buffer.from(bytes))).toBe(false);
    const token = seal(payload, { secret: bytes });
    expect(open(token, { secret: bytes })).toEqual({ ok: true, payload });
    expect(open(token, { secret: new Uint8Array(bytes) })).toEqual({ ok: true, payload });
    // The same bytes given as a string are the same secret.
    const text = "a-string-secret-of-some-length";
    expect(open(seal(1, { secret: text }), { secret: new TextEncoder().encode(text) })).toEqual({
      ok: true,
      payload: 1,
    });
  });

  it("rejects a change of any single character, at every position", () => {
    const token = seal();
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < token.length; i++) {
      for (const replacement of [
        alphabet[(alphabet.indexOf(token[i]!) + 1) % 64]!,
        alphabet[(alphabet.indexOf(token[i]!) + 33) % 64]!,
      ]) {
        const changed = token.slice(0, i) + replacement + token.slice(i + 1);
        const result = open(changed);
        expect(result.ok, `position ${i} -> ${replacement}`).toBe(false);
        if (!result.ok) expect(["tampered", "malformed"]).toContain(result.reason);
      }
    }
  });

  it("rejects a flip of any bit of any decoded byte", () => {
    const bytes = Buffer.from(seal(), "base64url");
    for (let i = 0; i < bytes.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const copy = Buffer.from(bytes);
        copy[i]! ^= 1 << bit;
        const result = open(copy.toString("base64url"));
        // The version byte makes it unreadable; any other byte fails verification.
        expect(result, `byte ${i} bit ${bit}`).toEqual({
          ok: false,
          reason: i === 0 ? "malformed" : "tampered",
        });
      }
    }
  });

  it("rejects truncation at every length and appended text", () => {
    const token = seal();
    for (let n = 0; n < token.length; n++) {
      const result = open(token.slice(0, n));
      expect(result.ok, `truncated to ${n}`).toBe(false);
      if (!result.ok) expect(["tampered", "malformed"]).toContain(result.reason);
    }
    for (const suffix of ["-TAMPERED", "A", "AA", "AAAA", "=", "==", ".x", " ", "\n", "%3D"]) {
      const result = open(token + suffix);
      expect(result.ok, `suffix ${JSON.stringify(suffix)}`).toBe(false);
      if (!result.ok) expect(["tampered", "malformed"]).toContain(result.reason);
    }
    expect(open(" " + token)).toEqual({ ok: false, reason: "malformed" });
  });

  it("rejects non-canonical encodings of the same bytes", () => {
    // Find a token whose last character carries unused bits, and set them.
    for (let n = 0; n < 8; n++) {
      const token = seal("x".repeat(n));
      if (token.length % 4 === 0) continue;
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
      const last = alphabet.indexOf(token[token.length - 1]!);
      const sibling = token.slice(0, -1) + alphabet[last ^ 1]!;
      expect(Buffer.from(sibling, "base64url").equals(Buffer.from(token, "base64url"))).toBe(true);
      expect(open(sibling)).toEqual({ ok: false, reason: "malformed" });
      return;
    }
    throw new Error("no token with a partial last group");
  });

  it("rejects a state sealed with another secret", () => {
    expect(open(seal(), { secret: "another-secret-of-enough-length" })).toEqual({
      ok: false,
      reason: "tampered",
    });
    expect(open(seal(), { secret: secret + "x" })).toEqual({ ok: false, reason: "tampered" });
    expect(open(seal(payload, { secret: randomSecret() }))).toEqual({
      ok: false,
      reason: "tampered",
    });
  });

  it("rejects a forgery with a recomputed tag under a guessed key", () => {
    // An attacker who changes the payload and signs with a key of their own gets "tampered".
    const bytes = Buffer.from(seal({ admin: false }), "base64url");
    const forged = Buffer.concat([
      bytes.subarray(0, 35),
      Buffer.from(JSON.stringify({ admin: true })),
    ]);
    const tag = createHmac("sha256", "guess")
      .update("state\0")
      .update(Buffer.concat([forged.subarray(0, 1), forged.subarray(17)]))
      .digest();
    tag.copy(forged, 1, 0, 16);
    expect(open(forged.toString("base64url"))).toEqual({ ok: false, reason: "tampered" });
  });

  it("expires at now + ttlMs, not a millisecond earlier", () => {
    const token = seal(payload, { now, ttlMs: 5_000 });
    expect(open(token, { now })).toEqual({ ok: true, payload });
    expect(open(token, { now: now + 4_999 })).toEqual({ ok: true, payload });
    expect(open(token, { now: now + 5_000 })).toEqual({ ok: false, reason: "expired" });
    expect(open(token, { now: now + 10 ** 9 })).toEqual({ ok: false, reason: "expired" });
  });

  it("uses the clock when no time is given", () => {
    const token = sealState(payload, { secret, ttlMs: 60_000 });
    expect(openState(token, { secret })).toEqual({ ok: true, payload });
    const stale = sealState(payload, { secret, ttlMs: 1, now: Date.now() - 10 });
    expect(openState(stale, { secret })).toEqual({ ok: false, reason: "expired" });
  });

  it("binds a state to its audience", () => {
    const token = seal(payload, { audience: "tools/call:book_flight" });
    expect(open(token, { audience: "tools/call:book_flight" })).toEqual({ ok: true, payload });
    expect(open(token, { audience: "tools/call:cancel_flight" })).toEqual({
      ok: false,
      reason: "foreign",
    });
    expect(open(token, { audience: "prompts/get:book_flight" })).toEqual({
      ok: false,
      reason: "foreign",
    });
    expect(open(token, { audience: "tools/call:book_flight " })).toEqual({
      ok: false,
      reason: "foreign",
    });
    expect(openState(token, { secret, now })).toEqual({ ok: false, reason: "foreign" });
    // Unbound states only open where no audience is expected; "" is an audience like any other.
    const unbound = sealState(payload, { secret, ttlMs, now });
    expect(openState(unbound, { secret, now })).toEqual({ ok: true, payload });
    expect(open(unbound, { audience: "" })).toEqual({ ok: false, reason: "foreign" });
    expect(open(seal(payload, { audience: "" }), { audience: "" })).toEqual({ ok: true, payload });
  });

  it("reports a wrong audience even when the state has also expired (foreign first)", () => {
    const token = seal();
    expect(open(token, { audience: "x", now: now + ttlMs * 2 })).toEqual({
      ok: false,
      reason: "foreign",
    });
  });

  it("rejects malformed input without throwing", () => {
    const token = seal();
    const body = Buffer.from(token, "base64url");
    const wrongVersion = Buffer.from(body);
    wrongVersion[0] = 2;
    const cases: unknown[] = [
      "",
      "A",
      "garbage",
      "not base64url!",
      "a.b.c",
      "====",
      "AAAA",
      "A".repeat(46), // shorter than a header
      Buffer.alloc(35).toString("base64url"), // a header of zeros: version 0
      wrongVersion.toString("base64url"),
      token.replace(/./, "+"),
      token.replace(/.$/, "/"),
      "\u00e9" + token,
      null,
      undefined,
      42,
      {},
      [token],
    ];
    for (const input of cases) {
      expect(openState(input as string, { secret, now, audience }), JSON.stringify(input)).toEqual({
        ok: false,
        reason: "malformed",
      });
    }
  });

  it("rejects a tampered state whatever the audience and time", () => {
    const bytes = Buffer.from(seal(), "base64url");
    bytes[bytes.length - 1]! ^= 1;
    expect(open(bytes.toString("base64url"), { audience: "other", now: now + ttlMs * 10 })).toEqual(
      { ok: false, reason: "tampered" },
    );
  });

  it("refuses weak secrets, bad lifetimes and payloads that are not JSON", () => {
    expect(() => seal(payload, { secret: "short" })).toThrow(RangeError);
    expect(() => seal(payload, { secret: new Uint8Array(15) })).toThrow(RangeError);
    expect(() => openState("x", { secret: "" })).toThrow(RangeError);
    expect(() => seal(payload, { ttlMs: 0 })).toThrow(RangeError);
    expect(() => seal(payload, { ttlMs: -1 })).toThrow(RangeError);
    expect(() => seal(payload, { ttlMs: Number.NaN })).toThrow(RangeError);
    expect(() => seal(payload, { ttlMs: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => sealState(undefined, { secret, ttlMs })).toThrow(TypeError);
    expect(() => seal(() => 1)).toThrow(TypeError);
    expect(() => seal(1n)).toThrow(TypeError);
  });
});

describe("sealed state on Web Crypto (runtimes without node:crypto: workerd, browsers)", () => {
  /** state.ts loaded afresh as a runtime without `process.getBuiltinModule` sees it. */
  async function withoutNodeCrypto<T>(
    run: (state: typeof import("../../../runtime/server/state.js")) => Promise<T>,
  ): Promise<T> {
    const loader = process as { getBuiltinModule?: unknown };
    const original = loader.getBuiltinModule;
    vi.resetModules();
    loader.getBuiltinModule = undefined;
    try {
      return await run(await import("../../../runtime/server/state.js"));
    } finally {
      loader.getBuiltinModule = original;
      vi.resetModules();
    }
  }

  it("seals the very tokens node:crypto seals, and opens them, and refuses what it should", async () => {
    const token = seal();
    await withoutNodeCrypto(async (web) => {
      expect(await web.sealStateAsync(payload, { secret, ttlMs, now, audience })).toBe(token);
      expect(web.sealStateNow(payload, { secret, ttlMs, now, audience })).toBeInstanceOf(Promise);
      expect(await web.openStateAsync(token, { secret, now: now + 1, audience })).toEqual({
        ok: true,
        payload,
      });
      expect(await web.openStateAsync(token, { secret, now: now + 1, audience: "other" })).toEqual({
        ok: false,
        reason: "foreign",
      });
      expect(await web.openStateAsync(token, { secret, now: now + ttlMs })).toMatchObject({
        ok: false,
      });
      const tampered = `${token.slice(0, -2)}${token.endsWith("A") ? "B" : "A"}${token.slice(-1)}`;
      expect((await web.openStateAsync(tampered, { secret, now: now + 1, audience })).ok).toBe(
        false,
      );
      // The synchronous forms need node:crypto, and say what to use instead.
      expect(() => web.sealState(payload, { secret, ttlMs, now })).toThrow(/sealStateAsync/);
      expect(web.randomSecret()).toHaveLength(32);
    });
    // And node:crypto opens what Web Crypto sealed.
    const sealed = await withoutNodeCrypto((web) =>
      web.sealStateAsync({ web: true }, { secret, ttlMs, now, audience }),
    );
    expect(open(sealed)).toEqual({ ok: true, payload: { web: true } });
  });
});
