/**
 * What the format property tests (test/runtime/schema/formats*.test.ts) share: Ajv with ajv-formats as
 * the reference the runtime's format checks must agree with, and the fast-check combinators their
 * grammar-driven string generators are built from.
 */
import { expect } from "vitest";
import fc from "fast-check";
import AjvModule from "ajv";
import addFormatsModule from "ajv-formats";

// ---------------------------------------------------------------------------
// Reference: Ajv + ajv-formats ("full" mode), exactly as the differential
// tests configure it. Both packages are CommonJS; depending on the loader the
// default import is either the export itself or a namespace with `.default`.
// ---------------------------------------------------------------------------

type AjvCtor = typeof AjvModule.default;
type AddFormats = typeof addFormatsModule.default;
const interop = <T>(m: unknown): T => ((m as { default?: unknown }).default ?? m) as T;
const Ajv = interop<AjvCtor>(AjvModule);
const addFormats = interop<AddFormats>(addFormatsModule);

const ajv = new Ajv({ strict: false });
addFormats(ajv);
const compileFormat = (format: string): ((s: string) => boolean) => {
  const validate = ajv.compile({ type: "string", format });
  return (s) => validate(s) === true;
};
export const ajvUri = compileFormat("uri");
export const ajvUriTemplate = compileFormat("uri-template");
export const ajvByte = compileFormat("byte");
export const ajvDateTime = compileFormat("date-time");

/** fast-check runs per property (each format has 3-4 properties); FORMATS_FC_RUNS overrides for soak runs. */
export const RUNS = Number(process.env["FORMATS_FC_RUNS"] ?? 4000);

// ---------------------------------------------------------------------------
// Combinators for the property tests
//
// Their generators are built from grammar fragments. Each component draws mostly
// from fragments that are valid in that position, sometimes from near-miss
// fragments, and rarely from arbitrary code units, so that a good share of
// the generated strings is accepted and the rest sit close to the boundary.
// ---------------------------------------------------------------------------

/** Any single UTF-16 code unit, lone surrogates included. */
export const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const asciiChar = fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c));
const anyCodePoint = fc.string({ unit: "binary", minLength: 1, maxLength: 1 });
export const noise = fc.oneof(asciiChar, anyCodeUnit, anyCodePoint);

/** Concatenation of mostly-`good`, sometimes-`bad`, rarely-random fragments. */
export const biased = (
  good: readonly string[],
  bad: readonly string[],
  constraints: { minLength?: number; maxLength: number },
): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        { arbitrary: fc.constantFrom(...good), weight: 40 },
        { arbitrary: fc.constantFrom(...bad), weight: 2 },
        { arbitrary: noise, weight: 1 },
      ),
      constraints,
    )
    .map((parts) => parts.join(""));

/** Concatenations of fragments (any mix) interleaved with noise. */
export const soup = (fragments: readonly string[], maxLength = 16): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        { arbitrary: fc.constantFrom(...fragments), weight: 8 },
        { arbitrary: noise, weight: 1 },
      ),
      {
        maxLength,
      },
    )
    .map((parts) => parts.join(""));

/** Either the value itself or the value with one random splice applied. */
export const mutate = (
  arb: fc.Arbitrary<string>,
  fragments: readonly string[],
): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: arb, weight: 3 },
    {
      arbitrary: fc
        .tuple(arb, fc.nat(), fc.oneof(fc.constantFrom(...fragments), noise), fc.nat({ max: 2 }))
        .map(([s, pos, ins, del]) => {
          const p = pos % (s.length + 1);
          return s.slice(0, p) + ins + s.slice(p + del);
        }),
      weight: 1,
    },
  );

export const opt = (arb: fc.Arbitrary<string>, freq = 2): fc.Arbitrary<string> =>
  fc.option(arb, { freq }).map((v) => v ?? "");

// ---- uri ------------------------------------------------------------------

/** Asserts that our check and the reference give the same answer for a string. */
export const agree = (ours: (s: string) => boolean, ref: (s: string) => boolean) => (s: string) => {
  expect(ours(s), JSON.stringify(s)).toBe(ref(s));
};
