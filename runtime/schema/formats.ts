/*
 * String format checks used by generated JSON validators.
 *
 * This file is copied verbatim into generated output: it imports nothing and
 * must compile under `tsc --strict` (exactOptionalPropertyTypes,
 * noUncheckedIndexedAccess, NodeNext).
 *
 * Contract: for every string, each check returns exactly what ajv-formats
 * (3.0.1, "full" mode) returns for the same format, because generated
 * validators are differentially tested against Ajv + ajv-formats. The
 * patterns below are transcriptions of the RFC grammars; where ajv-formats
 * deviates from the RFC, the deviation is reproduced and marked "QUIRK".
 *
 * Notes that apply throughout:
 * - Patterns are compiled once, at module load, with no `u` flag, so they
 *   operate on UTF-16 code units (a lone surrogate is just another unit).
 * - No `i` flag is used; letters are spelled out in both cases instead. In
 *   non-unicode mode JS case folding never maps a non-ASCII character onto
 *   an ASCII one (e.g. U+017F LATIN SMALL LETTER LONG S does not match "s",
 *   U+212A KELVIN SIGN does not match "k"), so this is equivalent to the
 *   case-insensitive patterns of ajv-formats.
 * - Without the `m` flag, `$` matches only at the very end of the input (JS
 *   has no "before a final newline" rule), so a trailing "\n" is rejected.
 * - None of the regexes has the `g` or `y` flag, so `test` is stateless.
 */

// ---------------------------------------------------------------------------
// RFC 5234 core rules (as character-class bodies)
// ---------------------------------------------------------------------------

const ALPHA = "A-Za-z";
const DIGIT = "0-9";
// ABNF string literals are case-insensitive, so HEXDIG admits a-f too.
const HEXDIG = "0-9A-Fa-f";

// ---------------------------------------------------------------------------
// RFC 3986 (URI), Appendix A
// ---------------------------------------------------------------------------

/** unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" */
const unreserved = `${ALPHA}${DIGIT}\\-._~`;
/** sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "=" */
const subDelims = "!$&'()*+,;=";
/** pct-encoded = "%" HEXDIG HEXDIG */
const pctEncoded = `%[${HEXDIG}]{2}`;
/** pchar = unreserved / pct-encoded / sub-delims / ":" / "@" */
const pchar = `(?:[${unreserved}${subDelims}:@]|${pctEncoded})`;

/** scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) */
const scheme = `[${ALPHA}][${ALPHA}${DIGIT}+\\-.]*`;

/** userinfo = *( unreserved / pct-encoded / sub-delims / ":" ) */
const userinfo = `(?:[${unreserved}${subDelims}:]|${pctEncoded})*`;

/** h16 = 1*4HEXDIG */
const h16 = `[${HEXDIG}]{1,4}`;
/**
 * dec-octet. RFC 3986 forbids leading zeros ("01", "001"), but
 * QUIRK: ajv-formats accepts any 1-3 digit decimal string whose value is
 * <= 255, leading zeros included ("0", "00", "000", "099", "255").
 */
const decOctet = `(?:25[0-5]|2[0-4][${DIGIT}]|[01][${DIGIT}]{2}|[${DIGIT}]{1,2})`;
/** IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet */
const ipv4Address = `${decOctet}(?:\\.${decOctet}){3}`;
/** ls32 = ( h16 ":" h16 ) / IPv4address */
const ls32 = `(?:${h16}:${h16}|${ipv4Address})`;
/** `n( h16 ":" )` */
const h16Colon = (n: number): string => `(?:${h16}:){${n}}`;
/** `[ *n( h16 ":" ) h16 ]` */
const h16Prefix = (n: number): string => `(?:(?:${h16}:){0,${n}}${h16})?`;
/** IPv6address: the nine alternatives of RFC 3986 section 3.2.2, in order. */
const ipv6Address =
  "(?:" +
  [
    `${h16Colon(6)}${ls32}`, //                    6( h16 ":" ) ls32
    `::${h16Colon(5)}${ls32}`, //                  "::" 5( h16 ":" ) ls32
    `${h16Prefix(0)}::${h16Colon(4)}${ls32}`, //   [ h16 ] "::" 4( h16 ":" ) ls32
    `${h16Prefix(1)}::${h16Colon(3)}${ls32}`, //   [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
    `${h16Prefix(2)}::${h16Colon(2)}${ls32}`, //   [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
    `${h16Prefix(3)}::${h16}:${ls32}`, //          [ *3( h16 ":" ) h16 ] "::" h16 ":" ls32
    `${h16Prefix(4)}::${ls32}`, //                 [ *4( h16 ":" ) h16 ] "::" ls32
    `${h16Prefix(5)}::${h16}`, //                  [ *5( h16 ":" ) h16 ] "::" h16
    `${h16Prefix(6)}::`, //                        [ *6( h16 ":" ) h16 ] "::"
  ].join("|") +
  ")";
/** IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) ("v" is case-insensitive in ABNF) */
const ipvFuture = `[Vv][${HEXDIG}]+\\.[${unreserved}${subDelims}:]+`;
/** IP-literal = "[" ( IPv6address / IPvFuture ) "]" */
const ipLiteral = `\\[(?:${ipv6Address}|${ipvFuture})\\]`;
/** reg-name = *( unreserved / pct-encoded / sub-delims ) */
const regName = `(?:[${unreserved}${subDelims}]|${pctEncoded})*`;
/**
 * host = IP-literal / IPv4address / reg-name.
 * IPv4address is omitted: every string it matches (even with the lenient
 * dec-octet above) is also a reg-name, so listing it would only add
 * backtracking without changing what is accepted.
 */
const host = `(?:${ipLiteral}|${regName})`;
/** port = *DIGIT */
const port = `[${DIGIT}]*`;
/** authority = [ userinfo "@" ] host [ ":" port ] */
const authority = (host: string): string => `(?:${userinfo}@)?${host}(?::${port})?`;

/** segment = *pchar */
const segment = `${pchar}*`;
/** segment-nz = 1*pchar */
const segmentNz = `${pchar}+`;
/** path-abempty = *( "/" segment ) */
const pathAbempty = `(?:/${segment})*`;
/** path-absolute = "/" [ segment-nz *( "/" segment ) ] */
const pathAbsolute = `/(?:${segmentNz}${pathAbempty})?`;
/** path-rootless = segment-nz *( "/" segment ) */
const pathRootless = `${segmentNz}${pathAbempty}`;
/**
 * hier-part = "//" authority path-abempty / path-absolute / path-rootless / path-empty
 *
 * Two QUIRKs of ajv-formats:
 * - path-empty is not an alternative, so "scheme:" alone, "scheme:?q" and
 *   "scheme:#f" are rejected.
 * - The authority may be introduced by "/" as well as "//". Because the
 *   authority may be empty, "scheme://" can then be followed by any
 *   path-abempty ("a://x@y@z", "a://h:port"), and "scheme:/[::1]/p" is
 *   accepted although "[" is not a pchar.
 */
const hierPart = (host: string): string =>
  `(?:/{1,2}${authority(host)}${pathAbempty}|${pathAbsolute}|${pathRootless})`;
/** query = *( pchar / "/" / "?" ) */
const query = `(?:${pchar}|[/?])*`;
/** fragment = *( pchar / "/" / "?" ) */
const fragment = `(?:${pchar}|[/?])*`;
/** URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ] */
const uri = (host: string): RegExp =>
  new RegExp(`^${scheme}:${hierPart(host)}(?:\\?${query})?(?:#${fragment})?$`);
const URI_RE = uri(host);
/**
 * The same grammar without IP-literal hosts, for strings without "[" (which every IP literal
 * starts with), where it accepts exactly what URI_RE accepts. V8 compiles a regular expression on
 * its first use, and URI_RE's IPv6 alternatives make that most of a process's first validations.
 */
const URI_WITHOUT_IP_LITERAL_RE = uri(regName);

// ---------------------------------------------------------------------------
// RFC 6570 (URI Template), section 2
// ---------------------------------------------------------------------------

/**
 * literals = %x21 / %x23-24 / %x26 / %x28-3B / %x3D / %x3F-5B
 *          / %x5D / %x5F / %x61-7A / %x7E / ucschar / iprivate
 *          / pct-encoded
 * i.e. every visible ASCII character except " % ' < > \ ^ ` { | }.
 *
 * QUIRK: instead of the ucschar / iprivate ranges, ajv-formats accepts DEL
 * (%x7F) and every code unit >= %x80 (including noncharacters and lone
 * surrogates).
 */
const literalAscii = "[\\x21\\x23-\\x24\\x26\\x28-\\x3B\\x3D\\x3F-\\x5B\\x5D\\x5F\\x61-\\x7A\\x7E]";
const literalOther = "[\\x7F-\\uFFFF]";
const literal = `(?:${literalAscii}|${literalOther}|${pctEncoded})`;
/**
 * operator = op-level2 / op-level3 / op-reserve
 * op-level2 = "+" / "#";  op-level3 = "." / "/" / ";" / "?" / "&";
 * op-reserve = "=" / "," / "!" / "@" / "|"
 */
const operator = "[+#./;?&=,!@|]";
/** varchar = ALPHA / DIGIT / "_" / pct-encoded */
const varchar = `(?:[${ALPHA}${DIGIT}_]|${pctEncoded})`;
/**
 * varname = varchar *( ["."] varchar )
 * QUIRK: ajv-formats does not allow the "." separators, so "{a.b}" is
 * rejected; a varname is just 1*varchar.
 */
const varname = `${varchar}+`;
/** max-length = %x31-39 0*3DIGIT ; positive integer < 10000 */
const maxLength = `[1-9][${DIGIT}]{0,3}`;
/** modifier-level4 = prefix / explode;  prefix = ":" max-length;  explode = "*" */
const modifierLevel4 = `(?::${maxLength}|\\*)`;
/** varspec = varname [ modifier-level4 ] */
const varspec = `${varname}${modifierLevel4}?`;
/** expression = "{" [ operator ] variable-list "}";  variable-list = varspec *( "," varspec ) */
const expression = `\\{${operator}?${varspec}(?:,${varspec})*\\}`;
/** URI-Template = *( literals / expression ) */
const URI_TEMPLATE_RE = new RegExp(`^(?:${literal}|${expression})*$`);

// ---------------------------------------------------------------------------
// RFC 4648 (base64), section 4
// ---------------------------------------------------------------------------

/** The 64-character alphabet of Table 1. */
const b64 = "[A-Za-z0-9+/]";
/** A full 24-bit group: four alphabet characters. */
const quantum = `${b64}{4}`;
/** A final 8-bit or 16-bit group, padded with "==" or "=" respectively. */
const finalQuantum = `(?:${b64}{2}==|${b64}{3}=)`;
/**
 * QUIRK: ajv-formats anchors its base64 pattern in multiline mode and
 * searches the whole string, so a value is accepted when ANY line of it
 * (lines split at \n, \r, U+2028, U+2029) is valid base64. Empty lines count,
 * so "" is accepted, as is any string that starts or ends with a line break
 * or contains two consecutive ones (e.g. "\r\n"): "!!\n" -> true.
 * The `m` flag without `g` reproduces that search, statelessly.
 */
const BYTE_RE = new RegExp(`^(?:${quantum})*${finalQuantum}?$`, "m");

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

/** RFC 3986 URI (absolute, scheme required), as JSON Schema's "uri" format. */
export function isUri(value: string): boolean {
  return value.includes("[") ? URI_RE.test(value) : URI_WITHOUT_IP_LITERAL_RE.test(value);
}

/** RFC 6570 URI Template, as JSON Schema's "uri-template" format. */
export function isUriTemplate(value: string): boolean {
  return URI_TEMPLATE_RE.test(value);
}

/** base64 (RFC 4648), as the "byte" format. */
export function isByte(value: string): boolean {
  return BYTE_RE.test(value);
}

// ---------------------------------------------------------------------------
// RFC 3339 (date-time), section 5.6
// ---------------------------------------------------------------------------

/**
 * full-date "T" partial-time time-offset, "T" and "Z" in either case.
 * QUIRK: ajv-formats also takes one whitespace character for "T", and an offset of hours alone
 * ("+01") or without its colon ("+0100").
 */
const DATE_TIME_RE =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt\s]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2})(?::?([0-9]{2}))?)$/;

/** Days in each month of a common year; February gains one in leap years. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (year: number): boolean =>
  year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** A date-time as RFC 3339 has it: a real calendar day, a real time, and an offset. */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME_RE.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(
    Number,
  ) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1) return false;
  if (day > MONTH_DAYS[month - 1]! + (month === 2 && isLeapYear(year) ? 1 : 0)) return false;
  const sign = m[7] === "-" ? -1 : 1;
  const offsetHours = Number(m[8] ?? 0);
  const offsetMinutes = Number(m[9] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return false;
  if (hour <= 23 && minute <= 59 && second <= 59) return true;
  // A leap second (:60) is only ever inserted at 23:59 UTC: shift to UTC to tell.
  // QUIRK: ajv-formats takes any time that is 23:59 UTC once shifted, seconds up to 60, even
  // with an hour of 24 written ("24:59:00+01").
  if (second > 60) return false;
  const utcMinute = minute - offsetMinutes * sign;
  const utcHour = hour - offsetHours * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1);
}
