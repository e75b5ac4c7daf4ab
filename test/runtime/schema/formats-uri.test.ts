/**
 * `isUri` (runtime/schema/formats.ts) agrees with ajv-formats on generated strings: fragment soup,
 * structured URIs and IP-literal hosts, drawn near the RFC 3986 grammar.
 */
import { describe, it } from "vitest";
import fc from "fast-check";
import { isUri } from "../../../runtime/schema/formats.js";
import {
  agree,
  ajvUri,
  anyCodeUnit,
  biased,
  mutate,
  opt,
  RUNS,
  soup,
} from "../../helpers/format-oracle.js";

const hexChar = fc.constantFrom(..."0123456789abcdefABCDEF");
const h16 = fc.oneof(
  { arbitrary: fc.string({ unit: hexChar, minLength: 1, maxLength: 4 }), weight: 30 },
  { arbitrary: fc.constantFrom("", "12345", "g", "1g"), weight: 1 }, // invalid groups
);
const decOctet = fc.oneof(
  { arbitrary: fc.nat({ max: 255 }).map(String), weight: 6 },
  { arbitrary: fc.nat({ max: 255 }).map((n) => String(n).padStart(3, "0")), weight: 2 }, // leading zeros (accepted by ajv)
  { arbitrary: fc.nat({ max: 999 }).map(String), weight: 1 },
  { arbitrary: fc.constantFrom("", "0000", "00", "1a", "2555"), weight: 1 },
);
const ipv4 = fc
  .oneof(
    { arbitrary: fc.constant(4), weight: 8 },
    { arbitrary: fc.integer({ min: 1, max: 6 }), weight: 1 },
  )
  .chain((n) => fc.array(decOctet, { minLength: n, maxLength: n }))
  .map((a) => a.join("."));
/** IPv4 tail or nothing. */
const ipv6Tail = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  { arbitrary: ipv4, weight: 1 },
);
/**
 * IPv6-ish, compressed form: `before` groups, "::" (mostly) and `after`
 * groups, optionally ending in an IPv4 tail. Around the 7-group limit.
 */
const ipv6Compressed = fc
  .tuple(
    fc.array(h16, { maxLength: 5 }),
    fc.oneof(
      { arbitrary: fc.constant("::"), weight: 8 },
      { arbitrary: fc.constantFrom(":::", "::::", ":"), weight: 1 },
    ),
    fc.array(h16, { maxLength: 5 }),
    ipv6Tail,
  )
  .map(
    ([before, sep, after, tail]) =>
      before.join(":") + sep + (tail === null ? after : [...after, tail]).join(":"),
  );
/** IPv6-ish, uncompressed form: mostly 8 groups (an IPv4 tail counts as 2). */
const ipv6Full = fc.tuple(fc.constantFrom(8, 8, 8, 7, 9), ipv6Tail).chain(([n, tail]) => {
  const groups = tail === null ? n : n - 2;
  return fc
    .array(h16, { minLength: groups, maxLength: groups })
    .map((g) => (tail === null ? g : [...g, tail]).join(":"));
});
const ipv6ish = fc.oneof(ipv6Compressed, ipv6Full);
const ipvFuture = fc
  .tuple(
    fc.constantFrom("v", "V", "v", "V", "", "w"),
    fc.string({ unit: hexChar, maxLength: 3 }),
    fc.constantFrom(".", ".", ".", ""),
    biased(
      [
        "a",
        "Z",
        "0",
        "-",
        ".",
        "_",
        "~",
        "!",
        "$",
        "&",
        "'",
        "(",
        ")",
        "*",
        "+",
        ",",
        ";",
        "=",
        ":",
      ],
      ["/", "@", "[", "]", "%41", "%"],
      { maxLength: 5 },
    ),
  )
  .map((p) => p.join(""));

const uriFragments = [
  "http",
  "a",
  "A+b.-",
  "1a",
  "x",
  ":",
  "//",
  "/",
  "/",
  "[",
  "]",
  "::",
  ":",
  "v1.",
  "V",
  "f",
  "0",
  "1",
  "12",
  "255",
  "256",
  "01",
  "001",
  "1.2.3.4",
  ".",
  "%",
  "%4",
  "%4F",
  "%zz",
  "%c3%A9",
  "@",
  "?",
  "#",
  ":80",
  "ffff",
  "::ffff:",
  "1:2:3:4:5:6:7:8",
  "a:b",
  "~",
  "-",
  "_",
  "!",
  "$",
  "&",
  "'",
  "(",
  ")",
  "*",
  "+",
  ",",
  ";",
  "=",
  '"',
  "<",
  ">",
  "\\",
  "^",
  "`",
  "{",
  "}",
  "|",
  " ",
  "\n",
  "\r",
  "\t",
  "é",
  "\u2028",
  "\u017f",
  "\u212a",
  "\ud800",
  "\x7f",
  "\x00",
] as const;
const uriBad = [
  "[",
  "]",
  "%",
  "%4",
  "%zz",
  " ",
  "\n",
  '"',
  "<",
  ">",
  "\\",
  "^",
  "`",
  "{",
  "}",
  "|",
  "é",
  "#",
];
const pcharGood = [
  "a",
  "Z",
  "0",
  "-",
  ".",
  "_",
  "~",
  "!",
  "$",
  "&",
  "'",
  "(",
  ")",
  "*",
  "+",
  ",",
  ";",
  "=",
  ":",
  "@",
  "%41",
  "%c3%A9",
];

const scheme = fc.oneof(
  { arbitrary: fc.constantFrom("http", "HTTPS", "a", "urn", "a+b-c.d", "z9", "Z-"), weight: 12 },
  { arbitrary: fc.constantFrom("", "1a", "+a", "a b", "\u017f", "\u212a"), weight: 1 },
);
const uriSoup = fc
  .tuple(
    fc.oneof(
      scheme.map((s) => `${s}:`),
      fc.constant(""),
    ),
    soup(uriFragments),
  )
  .map(([s, rest]) => s + rest);
const host = fc.oneof(
  biased(
    ["example", ".", "com", "%41", "-", "1", "!", "~", "_", "EX"],
    ["%", "[", "]", ":", "@", "é", " "],
    { maxLength: 4 },
  ),
  ipv4,
  ipv6ish.map((s) => `[${s}]`),
  ipvFuture.map((s) => `[${s}]`),
);
const pathArb = biased(["/", "/", ...pcharGood, "..", "b.c"], uriBad, { maxLength: 6 });
const queryArb = biased(["/", "?", ...pcharGood, "a=b", "&"], uriBad, { maxLength: 5 });
const structuredUri = mutate(
  fc
    .tuple(
      scheme,
      fc.oneof(
        { arbitrary: fc.constantFrom(":", ":/", "://", "://", "://", ":///"), weight: 12 },
        { arbitrary: fc.constantFrom("", "::", ":\\\\"), weight: 1 },
      ),
      opt(
        biased([...pcharGood.filter((c) => c !== "@")], uriBad.concat("@", "/"), {
          maxLength: 3,
        }).map((u) => `${u}@`),
        3,
      ),
      host,
      opt(
        fc
          .oneof(
            fc.nat({ max: 70000 }).map(String),
            fc.constant(""),
            biased(["1", "a", ":"], ["@", "/"], { maxLength: 2 }),
          )
          .map((p) => `:${p}`),
        3,
      ),
      pathArb,
      opt(
        queryArb.map((q) => `?${q}`),
        3,
      ),
      opt(
        queryArb.map((f) => `#${f}`),
        3,
      ),
    )
    .map((parts) => parts.join("")),
  uriFragments,
);
const ipLiteralUri = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.constantFrom("http://", "HTTP://", "a:/", "x://u@"), weight: 8 }, // "a:/[" is the single-slash quirk
      { arbitrary: fc.constantFrom("a:", "h:///", "h:////", "//"), weight: 1 },
    ),
    fc.oneof(
      { arbitrary: ipv6ish, weight: 6 },
      { arbitrary: ipvFuture, weight: 2 },
      { arbitrary: fc.ipV6(), weight: 2 },
    ),
    fc.oneof(
      { arbitrary: fc.constantFrom("]", "]:80", "]:", "]:123456", "]/p", "]?q#f"), weight: 8 },
      { arbitrary: fc.constantFrom("", "]x", "]]", "]@", ":80", "]:8a"), weight: 1 },
    ),
  )
  .map(([pre, addr, post]) => `${pre}[${addr}${post}`);

// ---- uri-template -----------------------------------------------------------

describe("uri: agrees with ajv-formats", () => {
  it("on fragment soup", () => {
    fc.assert(fc.property(uriSoup, agree(isUri, ajvUri)), { numRuns: RUNS });
  });
  it("on structured (scheme/authority/path/query/fragment) strings", () => {
    fc.assert(fc.property(structuredUri, agree(isUri, ajvUri)), { numRuns: RUNS });
  });
  it("on IP-literal hosts", () => {
    fc.assert(fc.property(ipLiteralUri, agree(isUri, ajvUri)), { numRuns: RUNS });
  });
  it("on fast-check web URLs and arbitrary strings", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
          fc.string({ unit: "binary" }),
          fc.string({ unit: anyCodeUnit }),
        ),
        agree(isUri, ajvUri),
      ),
      { numRuns: RUNS },
    );
  });
});
