/**
 * The `x-mcp-header` codec both ends share (`runtime/shared/param-headers.ts`): the client's
 * encoder and the server's decoder round-trip every string; what is not plain visible ASCII travels
 * in the `=?base64?…?=` form; values no header can carry, and malformed header values, are refused;
 * `paramHeaders` builds a call's `Mcp-Param-*` headers from its tool's annotations; nothing needs
 * `Buffer` (the client runs in browsers).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeHeaderValue,
  encodeHeaderValue,
  HEADER_SAFE,
  headerAnnotations,
  paramHeaders,
  type HeaderAnnotation,
} from "../../../runtime/shared/param-headers.js";

const base64Form = /^=\?base64\?[A-Za-z0-9+/]*={0,2}\?=$/;

describe("encodeHeaderValue and decodeHeaderValue", () => {
  it("round-trip every string, plain or Base64", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (text) => {
        const encoded = encodeHeaderValue(text);
        expect(encoded).not.toBeNull();
        expect(HEADER_SAFE.test(encoded!)).toBe(true);
        expect(decodeHeaderValue(encoded!)).toBe(text);
      }),
    );
  });

  it("keep plain visible ASCII as it is", () => {
    for (const text of ["us-west1", "a b", "", '{"x":1}', "~!@#$%^&*()"]) {
      expect(encodeHeaderValue(text)).toBe(text);
      expect(decodeHeaderValue(text)).toBe(text);
    }
  });

  it("put non-ASCII, control characters, edge whitespace and sentinel look-alikes in the Base64 form", () => {
    const cases: Array<[string, string]> = [
      ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
      ["café", "=?base64?Y2Fmw6k=?="],
      [" padded ", "=?base64?IHBhZGRlZCA=?="],
      ["tab\there", "=?base64?dGFiCWhlcmU=?="],
      ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
      ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
    ];
    for (const [text, encoded] of cases) {
      expect(encodeHeaderValue(text)).toBe(encoded);
      expect(encodeHeaderValue(text)).toMatch(base64Form);
      expect(decodeHeaderValue(encoded)).toBe(text);
    }
  });

  it("keep a leading byte order mark: U+FEFF is part of the value, both ways (issue 33)", () => {
    for (const text of ["\uFEFFx", "\uFEFF", "a\uFEFF", "\uFEFF\uFEFFx"]) {
      const encoded = encodeHeaderValue(text)!;
      expect(encoded).toMatch(base64Form);
      expect(decodeHeaderValue(encoded)).toBe(text);
    }
    // EF BB BF 78: the bytes of "\uFEFFx", not of "x".
    expect(decodeHeaderValue("=?base64?77u/eA==?=")).toBe("\uFEFFx");
    expect(decodeHeaderValue("=?base64?77u/eA==?=")).not.toBe("x");
  });

  it("write integers in decimal and booleans as words; refuse what no header can carry", () => {
    expect(encodeHeaderValue(7)).toBe("7");
    expect(encodeHeaderValue(-42)).toBe("-42");
    expect(encodeHeaderValue(true)).toBe("true");
    expect(encodeHeaderValue(false)).toBe("false");
    for (const value of [1.5, Number.NaN, 2 ** 53, null, undefined, {}, [], 1n])
      expect(encodeHeaderValue(value)).toBeNull();
  });

  it("refuse malformed header values", () => {
    for (const raw of [
      "=?base64?SGk?=", // unpadded
      "=?base64?SGVsbG8?=",
      "=?base64?S=Gk?=", // padding inside
      "=?base64?S?=",
      "=?base64?SGk*?=", // outside the alphabet
      "=?base64?/w==?=", // not UTF-8 (0xff)
      "caf\u00e9", // raw non-ASCII
      "a\u0000b", // control character
      "line\nbreak",
    ])
      expect(decodeHeaderValue(raw), raw).toBeNull();
  });

  it("read the sentinel exactly: case-sensitive markers stay plain text, an empty payload is empty", () => {
    expect(decodeHeaderValue("=?BASE64?SGk=?=")).toBe("=?BASE64?SGk=?=");
    expect(decodeHeaderValue("=?base64??=")).toBe("");
    expect(decodeHeaderValue("=?base64?")).toBe("=?base64?");
  });

  it("need no Buffer (browsers and edge runtimes have none)", () => {
    const saved = globalThis.Buffer;
    // Taken away for the duration of the calls.
    Reflect.deleteProperty(globalThis, "Buffer");
    try {
      const encoded = encodeHeaderValue("Grüße 😀");
      expect(encoded).toMatch(base64Form);
      expect(decodeHeaderValue(encoded!)).toBe("Grüße 😀");
    } finally {
      globalThis.Buffer = saved;
    }
  });
});

describe("paramHeaders", () => {
  const schema = {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      count: { type: "integer", "x-mcp-header": "Count" },
      dry: { type: "boolean", "x-mcp-header": "Dry-Run" },
      nested: {
        type: "object",
        properties: { city: { type: "string", "x-mcp-header": "City" } },
      },
    },
  };
  const found = headerAnnotations(schema);
  const annotations: HeaderAnnotation[] = found.ok ? found.annotations : [];

  it("mirrors each annotated argument, nested ones included, encoded as the server decodes it", () => {
    expect(found.ok).toBe(true);
    const headers = paramHeaders(annotations, {
      region: "eu-west",
      count: 3,
      dry: false,
      nested: { city: "Zürich" },
    });
    expect(headers).toEqual({
      "Mcp-Param-Region": "eu-west",
      "Mcp-Param-Count": "3",
      "Mcp-Param-Dry-Run": "false",
      "Mcp-Param-City": "=?base64?WsO8cmljaA==?=",
    });
    expect(decodeHeaderValue(headers["Mcp-Param-City"]!)).toBe("Zürich");
  });

  it("sends no header for an absent or null argument, or one no header can carry", () => {
    expect(paramHeaders(annotations, { region: null, count: 1.5, nested: {} })).toEqual({});
    expect(paramHeaders(annotations, undefined)).toEqual({});
  });

  it("reads own properties only", () => {
    const args = Object.create({ region: "inherited" }) as Record<string, unknown>;
    expect(paramHeaders(annotations, args)).toEqual({});
  });
});
