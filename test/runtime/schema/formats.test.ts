/**
 * The runtime's format checks (runtime/schema/formats.ts) on hand-picked cases, each also checked
 * against ajv-formats, and their statelessness. The property tests comparing them with ajv-formats on
 * generated strings are formats-uri, formats-uri-template and formats-byte-date-time.
 */
import { describe, expect, it } from "vitest";
import { isByte, isDateTime, isUri, isUriTemplate } from "../../../runtime/schema/formats.js";
import { ajvByte, ajvDateTime, ajvUri, ajvUriTemplate } from "../../helpers/format-oracle.js";

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
