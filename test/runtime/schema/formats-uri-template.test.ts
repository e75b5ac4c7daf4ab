/**
 * `isUriTemplate` (runtime/schema/formats.ts) agrees with ajv-formats on generated strings drawn near
 * the RFC 6570 grammar.
 */
import { describe, it } from "vitest";
import fc from "fast-check";
import { isUriTemplate } from "../../../runtime/schema/formats.js";
import {
  agree,
  ajvUriTemplate,
  anyCodeUnit,
  biased,
  mutate,
  RUNS,
  soup,
} from "../../helpers/format-oracle.js";

const templateFragments = [
  "{",
  "}",
  "{",
  "}",
  "a",
  "Z",
  "_",
  "0",
  "9",
  "%",
  "%4",
  "%4F",
  "%zz",
  ":",
  ":1",
  ":0",
  ":10000",
  ":9999",
  "*",
  ",",
  ".",
  "/",
  ";",
  "?",
  "&",
  "=",
  "!",
  "@",
  "|",
  "+",
  "#",
  "{a}",
  "{+a,b*}",
  "{?x,y:3}",
  "'",
  '"',
  "<",
  ">",
  "\\",
  "^",
  "`",
  " ",
  "\n",
  "é",
  "\x7f",
  "\x00",
  "\x1f",
  "\ud800",
  "\ufffe",
  "~",
  "-",
  "$",
  "(",
  ")",
  "[",
  "]",
] as const;
const templateSoup = soup(templateFragments);
const varname = fc.oneof(
  {
    arbitrary: biased(
      ["a", "Z", "_", "0", "9", "%41", "%e9"],
      [".", "-", " ", "é", "%4", "%zz", "{"],
      { minLength: 1, maxLength: 4 },
    ),
    weight: 3,
  },
  // RFC 6570 dotted names (rejected by ajv-formats)
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom("a", "b_1", "%41"),
        fc.constantFrom(".", "..", ""),
        fc.constantFrom("c", "D", "%42", ""),
      )
      .map((p) => p.join("")),
    weight: 1,
  },
);
const modifier = fc.oneof(
  { arbitrary: fc.constantFrom("", "", "*", ":1", ":12", ":999", ":9999"), weight: 6 },
  { arbitrary: fc.constantFrom(":", ":0", ":01", ":10000", "*:1", ":1*", "**"), weight: 1 },
);
const varspec = fc.tuple(varname, modifier).map(([n, m]) => n + m);
const expression = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.constant("{"), weight: 12 },
      { arbitrary: fc.constantFrom("", "{{"), weight: 1 },
    ),
    fc.oneof(
      { arbitrary: fc.constantFrom("", "", "", ...[..."+#./;?&=,!@|"]), weight: 12 },
      { arbitrary: fc.constantFrom("$", "-", "{", "}", "++", " "), weight: 1 },
    ),
    fc.array(varspec, { minLength: 1, maxLength: 4 }).map((specs) => specs.join(",")),
    fc.oneof(
      { arbitrary: fc.constant("}"), weight: 12 },
      { arbitrary: fc.constantFrom("", "}}", ",}"), weight: 1 },
    ),
  )
  .map((parts) => parts.join(""));
const templateLiterals = biased(
  [
    "a",
    "/",
    "http://example.com",
    "~",
    "-",
    ".",
    "!",
    "#",
    "$",
    "&",
    "(",
    ")",
    "*",
    "+",
    ",",
    ":",
    ";",
    "=",
    "?",
    "@",
    "[",
    "]",
    "_",
    "%41",
    "%c3%a9",
    "\x7f",
    "é",
    "\ud800",
    "\ufffe",
  ],
  ["%", "%4", "%zz", " ", "\n", "\x00", "\x1f", '"', "'", "<", ">", "\\", "^", "`", "{", "|", "}"],
  { maxLength: 4 },
);
const structuredTemplate = mutate(
  fc.array(fc.oneof(expression, templateLiterals), { maxLength: 5 }).map((p) => p.join("")),
  templateFragments,
);

// ---- byte -----------------------------------------------------------------

describe("uri-template: agrees with ajv-formats", () => {
  it("on fragment soup", () => {
    fc.assert(fc.property(templateSoup, agree(isUriTemplate, ajvUriTemplate)), { numRuns: RUNS });
  });
  it("on structured (literal/expression) strings", () => {
    fc.assert(fc.property(structuredTemplate, agree(isUriTemplate, ajvUriTemplate)), {
      numRuns: RUNS,
    });
  });
  it("on arbitrary strings", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: anyCodeUnit })),
        agree(isUriTemplate, ajvUriTemplate),
      ),
      { numRuns: RUNS },
    );
  });
});
