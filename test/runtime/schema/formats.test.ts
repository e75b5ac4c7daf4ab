import { describe, expect, it } from "vitest";
import fc from "fast-check";
import AjvModule from "ajv";
import addFormatsModule from "ajv-formats";
import { isByte, isDateTime, isUri, isUriTemplate } from "../../../runtime/schema/formats.js";

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
const ajvUri = compileFormat("uri");
const ajvUriTemplate = compileFormat("uri-template");
const ajvByte = compileFormat("byte");
const ajvDateTime = compileFormat("date-time");

/** fast-check runs per property (each format has 3-4 properties); FORMATS_FC_RUNS overrides for soak runs. */
const RUNS = Number(process.env["FORMATS_FC_RUNS"] ?? 4000);

// ---------------------------------------------------------------------------
// Hand-picked tables: [input, expected]. Every row is also checked against
// ajv-formats, so a wrong expectation here cannot hide a disagreement.
// ---------------------------------------------------------------------------

const uriTable: Array<[string, boolean]> = [
  // ordinary URIs
  ["http://example.com", true],
  ["https://example.com/path/to/x?q=1&r=%20#frag", true],
  ["HTTP://EXAMPLE.COM/A%2fB", true], // scheme, host and hex digits are case-insensitive
  ["urn:isbn:0451450523", true],
  ["mailto:a@b.c", true],
  ["file:///etc/passwd", true],
  ["tag:x,2000:y", true],
  ["javascript:alert(1)", true],
  ["a:b", true],
  ["a+b-c.d:x", true],
  ["a:/", true],
  ["a://", true],
  ["a:///", true],
  ["a:/?q#f", true],
  ["http://x/?a?b/c", true],
  ["http://x/#frag?/", true],
  ["http://%41%4a/", true],
  ["http://ex%C3%A9.com", true],
  ["http://1.2.3.999/", true], // not an IPv4address, but a valid reg-name
  // quirk: no path-empty alternative
  ["a:", false],
  ["a:?q", false],
  ["a:#f", false],
  // quirk: authority may follow a single "/" (so "//" + any path-abempty passes)
  ["http://a@b@c", true],
  ["http://h:port", true],
  ["http://h:80:90", true],
  ["http:/[::1]/x", true],
  // scheme
  ["1a:b", false],
  ["+a:b", false],
  ["a b:c", false],
  ["", false],
  ["   ", false],
  ["x", false],
  ["//example.com", false],
  ["/a/b", false],
  ["#f", false],
  // IP literals
  ["http://[::1]", true],
  ["http://[::]", true],
  ["http://[::1]:8080/x", true],
  ["http://u@[::1]:/p", true],
  ["http://[::1]:", true], // empty port
  ["http://[::1]:123456", true], // port is *DIGIT, unbounded
  ["http://[::1]:8a", false],
  ["http://[1:2:3:4:5:6:7:8]", true],
  ["http://[1:2:3:4:5:6:7::]", true],
  ["http://[::ffff:1.2.3.4]", true],
  ["http://[::ffff:001.002.003.004]", true], // quirk: leading zeros in dec-octet
  ["http://[::ffff:256.1.1.1]", false],
  ["http://[::ffff:1.2.3]", false],
  ["http://[1:2:3:4:5:6:7:8:9]", false],
  ["http://[12345::]", false],
  ["http://[:::]", false],
  ["http://[1::2::3]", false],
  ["http://[fe80::1%25eth0]", false], // RFC 6874 zone ids are not part of RFC 3986
  ["http://[::1", false],
  ["http://[::1]x", false],
  ["http://[::1]@x", false],
  ["http://[v1.x]", true],
  ["http://[V1F.a:b]", true],
  ["http://[v.x]", false],
  ["http://[vg.x]", false],
  ["http://[v1.]", false],
  ["http://[v1.x/y]", false],
  // percent-encoding
  ["http://%4g/", false],
  ["http://%4/", false],
  ["a:%", false],
  ["a:%zz", false],
  ["a:b%2", false],
  // fragment / forbidden characters / whitespace / newlines
  ["http://x/#a#b", false],
  ["http://example.com/a b", false],
  ["http://x/\n", false], // `$` without the m flag does not match before a final newline
  ["http://x\n", false],
  ["\nhttp://x", false],
  ["http://x/\u2028", false],
  ['http://x/"', false],
  ["http://x/<>", false],
  ["http://x/{}", false],
  ["http://x/|", false],
  ["http://x/\\", false],
  ["http://x/^", false],
  ["http://x/`", false],
  // unicode: no IRI support, and no non-ASCII case folding onto ASCII letters
  ["http://exé.com", false],
  ["\u017f:x", false], // LATIN SMALL LETTER LONG S (uppercases to "S")
  ["\u212a:x", false], // KELVIN SIGN (lowercases to "k")
  ["\u0131:x", false], // LATIN SMALL LETTER DOTLESS I (uppercases to "I")
  ["http://\u017f", false],
  ["http://x/\ud800", false],
];

const uriTemplateTable: Array<[string, boolean]> = [
  ["", true],
  ["/users/{id}", true],
  ["http://example.com/~{user}{?q*,lang}", true],
  ["{a}", true],
  ["{A}", true],
  ["{A_0%41}", true],
  ["{%41}", true],
  ["{a,b}", true],
  ["{a}{b}", true],
  ["{a:1,b*}", true],
  ["{a:1}", true],
  ["{a:9999}", true],
  ["{a*}", true],
  ...[..."+#./;?&=,!@|"].map((op): [string, boolean] => [`{${op}a}`, true]),
  ["{$a}", false],
  ["{-a}", false],
  ["{a-b}", false],
  ["{a.b}", false], // quirk: RFC 6570 allows "." inside varname; ajv-formats does not
  ["{a:10000}", false],
  ["{a:0}", false],
  ["{a:01}", false],
  ["{a:1*}", false],
  ["{a*:1}", false],
  ["{}", false],
  ["{+}", false],
  ["{a,}", false],
  ["{,}", false],
  ["{a b}", false],
  ["{a", false],
  ["a}", false],
  ["{{a}}", false],
  ["{%4}", false],
  // literals
  ["%41", true],
  ["%", false],
  ["%4", false],
  ["%zz", false],
  ["[]", true],
  ["()!#$&*+,/:;=?@", true],
  ["~", true],
  ["a b", false],
  ['"', false],
  ["'", false],
  ["<", false],
  [">", false],
  ["\\", false],
  ["^", false],
  ["`", false],
  ["|", false],
  ["\x00", false],
  ["\x1f", false],
  ["\n", false],
  ["{a}\n", false],
  // quirk: DEL and every non-ASCII code unit are literals (not just ucschar/iprivate)
  ["\x7f", true],
  ["é", true],
  ["\ud800", true],
  ["\ufffe", true],
];

const byteTable: Array<[string, boolean]> = [
  ["QQ==", true],
  ["QUI=", true],
  ["QUJD", true],
  ["ab+/", true],
  ["aGVsbG8gd29ybGQ=", true],
  ["AAAAAAAA", true],
  ["AAAAAAA", false],
  ["Q", false],
  ["QQ", false],
  ["QUJ", false],
  ["QQ=", false],
  ["Q===", false],
  ["====", false],
  ["=", false],
  ["QQ==QQ==", false],
  ["QUJDRA", false],
  ["-_-_", false], // base64url alphabet is not accepted
  ["a b=", false],
  ["QUJD ", false],
  ["QUJD\t", false],
  ["é", false],
  ["!!", false],
  ["!!!", false],
  // quirk: checked line by line; accepted if ANY line (empty lines included) is valid
  ["", true],
  ["QQ==\n", true],
  ["\nQQ==", true],
  ["!!!\n", true],
  ["\n!!!", true],
  ["!!\r\n!!", true],
  ["!!\n!!", false],
  ["QQ==\n!!", true],
  ["!!\nQUJD", true],
  ["!!\nQUJ", false],
  ["\r", true],
  ["\u2028", true],
  ["!!\u2028", true],
  ["!!\u2029QQ==", true],
  ["!!\u0085", false], // NEL is not a JS line terminator
];

const dateTimeTable: Array<[string, boolean]> = [
  ["2025-02-17T10:20:30Z", true],
  ["2025-02-17t10:20:30z", true],
  ["2025-02-17 10:20:30Z", true], // QUIRK: whitespace for "T"
  ["2025-02-17T10:20:30.123+01:00", true],
  ["2025-02-17T10:20:30+0100", true], // QUIRK: no colon
  ["2025-02-17T10:20:30+01", true], // QUIRK: hours only
  ["2025-02-17T10:20:30", false], // no offset
  ["2025-02-17", false],
  ["2024-02-29T00:00:00Z", true], // leap day
  ["2023-02-29T00:00:00Z", false],
  ["2000-02-29T00:00:00Z", true], // divisible by 400
  ["1900-02-29T00:00:00Z", false], // divisible by 100 only
  ["2025-04-31T00:00:00Z", false],
  ["2025-13-01T00:00:00Z", false],
  ["2025-00-01T00:00:00Z", false],
  ["2025-01-00T00:00:00Z", false],
  ["2025-01-01T24:00:00Z", false],
  ["2025-01-01T23:60:00Z", false],
  ["2016-12-31T23:59:60Z", true], // leap second at 23:59 UTC
  ["2016-12-31T18:59:60-05:00", true], // the same leap second, in another zone
  ["2016-12-31T22:59:60Z", false],
  ["2016-12-31T24:59:00+01", true], // QUIRK: 23:59 UTC once shifted, whatever the hour written
  ["2025-01-01T00:00:00+24:00", false],
  ["2025-01-01T00:00:00+01:60", false],
  ["2025-01-01T00:00:00Z\n", false],
  ["2025-01-01TT00:00:00Z", false],
];

describe.each([
  { name: "date-time", ours: isDateTime, ref: ajvDateTime, table: dateTimeTable },
  { name: "uri", ours: isUri, ref: ajvUri, table: uriTable },
  { name: "uri-template", ours: isUriTemplate, ref: ajvUriTemplate, table: uriTemplateTable },
  { name: "byte", ours: isByte, ref: ajvByte, table: byteTable },
])("$name: hand-picked cases", ({ ours, ref, table }) => {
  it.each(table)("%j -> %s", (input, expected) => {
    expect(ref(input)).toBe(expected);
    expect(ours(input)).toBe(expected);
  });
});

// ---------------------------------------------------------------------------
// Property tests
//
// Generators are built from grammar fragments. Each component draws mostly
// from fragments that are valid in that position, sometimes from near-miss
// fragments, and rarely from arbitrary code units, so that a good share of
// the generated strings is accepted and the rest sit close to the boundary.
// ---------------------------------------------------------------------------

/** Any single UTF-16 code unit, lone surrogates included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const asciiChar = fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c));
const anyCodePoint = fc.string({ unit: "binary", minLength: 1, maxLength: 1 });
const noise = fc.oneof(asciiChar, anyCodeUnit, anyCodePoint);

/** Concatenation of mostly-`good`, sometimes-`bad`, rarely-random fragments. */
const biased = (
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
const soup = (fragments: readonly string[], maxLength = 16): fc.Arbitrary<string> =>
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
const mutate = (arb: fc.Arbitrary<string>, fragments: readonly string[]): fc.Arbitrary<string> =>
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

const opt = (arb: fc.Arbitrary<string>, freq = 2): fc.Arbitrary<string> =>
  fc.option(arb, { freq }).map((v) => v ?? "");

// ---- uri ------------------------------------------------------------------

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

const agree = (ours: (s: string) => boolean, ref: (s: string) => boolean) => (s: string) => {
  expect(ours(s), JSON.stringify(s)).toBe(ref(s));
};

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

describe("stateless and repeatable", () => {
  it("gives the same answer when called repeatedly (no lastIndex state)", () => {
    for (const s of ["QQ==", "!!\nQQ==", "", "!!"]) {
      const first = isByte(s);
      for (let i = 0; i < 3; i++) expect(isByte(s)).toBe(first);
    }
    for (const s of ["http://x", "{a}"]) {
      expect(isUri(s)).toBe(isUri(s));
      expect(isUriTemplate(s)).toBe(isUriTemplate(s));
    }
  });
});
