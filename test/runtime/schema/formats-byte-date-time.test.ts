/**
 * `isByte` and `isDateTime` (runtime/schema/formats.ts) agree with ajv-formats on generated strings:
 * base64 near misses and date-times with every separator and offset form.
 */
import { describe, it } from "vitest";
import fc from "fast-check";
import { isByte, isDateTime } from "../../../runtime/schema/formats.js";
import {
  agree,
  ajvByte,
  ajvDateTime,
  anyCodeUnit,
  mutate,
  RUNS,
  soup,
} from "../../helpers/format-oracle.js";

const base64Fragments = [
  "AAAA",
  "QQ==",
  "QUI=",
  "Q",
  "QQ",
  "QUJ",
  "=",
  "==",
  "+",
  "/",
  "-",
  "_",
  "\n",
  "\r",
  "\r\n",
  "\u2028",
  "\u2029",
  "\u0085",
  " ",
  "!",
  "a",
  "Zz09",
  "\x00",
  "é",
  "AA=A",
  "===",
  "abcd",
  "\t",
] as const;
const base64Soup = soup(base64Fragments);
const realBase64 = fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b).toString("base64"));
const base64Line = fc.oneof(
  { arbitrary: realBase64, weight: 4 },
  { arbitrary: fc.base64String({ maxLength: 16 }), weight: 2 },
  { arbitrary: realBase64.map((s) => s.replace(/\+/g, "-").replace(/\//g, "_")), weight: 1 }, // base64url
  { arbitrary: soup(base64Fragments, 3), weight: 1 },
);
const structuredBase64 = fc.oneof(
  // single line (the common case for real payloads)
  mutate(base64Line, base64Fragments),
  // several lines: exercises the per-line acceptance
  mutate(
    fc
      .tuple(
        fc.array(base64Line, { minLength: 2, maxLength: 4 }),
        fc.constantFrom("\n", "\r\n", "\r", "\u2028", "\u2029", "\u0085", " "),
      )
      .map(([lines, sep]) => lines.join(sep)),
    base64Fragments,
  ),
);

describe("byte: agrees with ajv-formats", () => {
  it("on fragment soup", () => {
    fc.assert(fc.property(base64Soup, agree(isByte, ajvByte)), { numRuns: RUNS });
  });
  it("on structured (real base64, multi-line, mutated) strings", () => {
    fc.assert(fc.property(structuredBase64, agree(isByte, ajvByte)), { numRuns: RUNS });
  });
  it("on arbitrary strings", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: anyCodeUnit })),
        agree(isByte, ajvByte),
      ),
      { numRuns: RUNS },
    );
  });
});

/** Date-times drawn near the grammar: digits of any width, every separator and offset form, sometimes a stray unit. */
const dateTimeLike = fc
  .tuple(
    fc.integer({ min: 0, max: 2400 }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.constantFrom("T", "t", " ", "\u2028", "x", "TT"),
    fc.tuple(
      fc.integer({ min: 0, max: 25 }),
      fc.integer({ min: 0, max: 61 }),
      fc.integer({ min: 0, max: 61 }),
    ),
    fc.constantFrom("", ".5", ".123456", "."),
    fc.constantFrom("Z", "z", "", "+01:00", "-05:00", "+0530", "+01", "+24:00", "-00:60", "+1:00"),
    fc.oneof(fc.constant(""), anyCodeUnit),
  )
  .map(([y, mo, d, sep, [h, mi, s], frac, tz, extra]) => {
    const two = (n: number) => String(n).padStart(2, "0");
    return `${String(y).padStart(4, "0")}-${two(mo)}-${two(d)}${sep}${two(h)}:${two(mi)}:${two(s)}${frac}${tz}${extra}`;
  });

describe("date-time: agrees with ajv-formats", () => {
  it("on structured date-times", () => {
    fc.assert(fc.property(dateTimeLike, agree(isDateTime, ajvDateTime)), { numRuns: RUNS });
  });
  it("on arbitrary strings", () => {
    fc.assert(fc.property(fc.string({ unit: anyCodeUnit }), agree(isDateTime, ajvDateTime)), {
      numRuns: RUNS,
    });
  });
});
