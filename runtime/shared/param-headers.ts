/**
 * The `x-mcp-header` codec (Streamable HTTP): which tool arguments a tool's input schema marks for
 * mirroring into `Mcp-Param-*` headers, and how a body value travels in a mirrored header (those
 * and `Mcp-Name`) — the client's encoder and the server's decoder side by side, so that the two
 * cannot drift apart. Browser-safe (the client runs there): no `Buffer`. Revision-independent;
 * copied verbatim into generated output.
 */
import { isRecord } from "./jsonrpc.js";

/** One annotated argument: the property path in the arguments, the header name, the declared type. */
export interface HeaderAnnotation {
  path: string[];
  header: string;
  type: "string" | "integer" | "boolean";
}

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The `x-mcp-header` annotations of a tool's input schema, or the reason the tool must be rejected.
 * Only properties reachable through a chain of `properties` keys may carry one; nothing is ever
 * dereferenced (`$ref`s, remote or local, are left alone). The schema is the server's and may be
 * hostile: it is walked with a stack of its own, in document order, so that no depth of nesting
 * can overflow the call stack.
 */
export function headerAnnotations(
  schema: unknown,
): { ok: true; annotations: HeaderAnnotation[] } | { ok: false; reason: string } {
  const annotations: HeaderAnnotation[] = [];
  const seen = new Set<string>();
  // Each entry: a node, and the property path that reaches it (null: not through `properties`).
  const stack: Array<{ node: unknown; path: string[] | null }> = [{ node: schema, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const children: Array<{ node: unknown; path: string[] | null }> = [];
    if (Array.isArray(node)) {
      for (const item of node) children.push({ node: item, path: null });
    } else if (isRecord(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key === "x-mcp-header") {
          const found = annotation(node, value, path);
          if (typeof found === "string") return { ok: false, reason: found };
          const lower = found.header.toLowerCase();
          if (seen.has(lower))
            return {
              ok: false,
              reason: `x-mcp-header "${found.header}" is not unique (case-insensitively)`,
            };
          seen.add(lower);
          annotations.push(found);
        } else if (key === "properties" && path !== null && isRecord(value)) {
          for (const [name, sub] of Object.entries(value))
            children.push({ node: sub, path: [...path, name] });
        } else {
          children.push({ node: value, path: null });
        }
      }
    }
    // Pushed in reverse, so that they are visited in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return { ok: true, annotations };
}

/** One `x-mcp-header` on `node` (reached by `path`), or why it is invalid. */
function annotation(
  node: Record<string, unknown>,
  value: unknown,
  path: string[] | null,
): HeaderAnnotation | string {
  if (path === null || path.length === 0)
    return "x-mcp-header is only allowed on properties reachable through `properties`";
  if (typeof value !== "string" || value === "")
    return `x-mcp-header on "${path.join(".")}" is empty`;
  if (!TOKEN.test(value))
    return `x-mcp-header "${value}" on "${path.join(".")}" has characters outside the HTTP token set`;
  const type = node.type;
  if (type !== "string" && type !== "integer" && type !== "boolean")
    return `x-mcp-header "${value}" is on "${path.join(".")}" of type ${JSON.stringify(type) ?? "undefined"}; only string, integer and boolean are allowed`;
  return { path, header: value, type };
}

/** A body value as its header carries it (before any Base64): null when no header can carry it. */
export function headerText(value: unknown): string | null {
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return Number.isSafeInteger(value) ? String(value) : null;
  return typeof value === "string" ? value : null;
}

/** The argument an annotation names, by own properties only; undefined when absent. */
export function annotatedValue(annotation: HeaderAnnotation, args: unknown): unknown {
  let value: unknown = args;
  for (const step of annotation.path)
    value = isRecord(value) && Object.hasOwn(value, step) ? value[step] : undefined;
  return value;
}

// ---------------------------------------------------------------------------------------------
// Header values: plain visible ASCII as it is, anything else in the Base64 sentinel form

/** Visible ASCII, space and tab: what a header value may hold. */
export const HEADER_SAFE = /^[\t\x20-\x7e]*$/;
const BASE64_PREFIX = "=?base64?";
const BASE64_SUFFIX = "?=";

/** A header value for an argument: strings as they are unless unsafe (then `=?base64?…?=`), integers in decimal, booleans. */
export function encodeHeaderValue(value: unknown): string | null {
  if (typeof value !== "string") return headerText(value);
  const safe =
    /^[\x20-\x7e]*$/.test(value) &&
    value.trim() === value &&
    !(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX));
  return safe ? value : `${BASE64_PREFIX}${base64Utf8(value)}${BASE64_SUFFIX}`;
}

/**
 * A mirrored header value as the client meant it: the Base64 sentinel form (`=?base64?…?=`)
 * decoded from UTF-8, plain values as they are. Null when the value is malformed.
 */
export function decodeHeaderValue(raw: string): string | null {
  if (!HEADER_SAFE.test(raw)) return null;
  if (!(
    raw.startsWith(BASE64_PREFIX) &&
    raw.endsWith(BASE64_SUFFIX) &&
    raw.length >= BASE64_PREFIX.length + BASE64_SUFFIX.length
  )) {
    return raw;
  }
  const encoded = raw.slice(BASE64_PREFIX.length, raw.length - BASE64_SUFFIX.length);
  // Padded Base64 only: what the encoder writes, and one text per value.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  try {
    return utf8FromBase64(encoded);
  } catch {
    return null;
  }
}

/** The `Mcp-Param-*` headers for a call's arguments. */
export function paramHeaders(
  annotations: readonly HeaderAnnotation[],
  args: unknown,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const annotation of annotations) {
    const value = annotatedValue(annotation, args);
    if (value === undefined || value === null) continue;
    const encoded = encodeHeaderValue(value);
    if (encoded !== null) headers[`Mcp-Param-${annotation.header}`] = encoded;
  }
  return headers;
}

/** Base64 of a string's UTF-8 bytes with what browsers have too (no `Buffer`). */
function base64Utf8(value: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The text whose UTF-8 bytes `encoded` (valid, padded Base64) holds; throws on invalid UTF-8. A
 * leading byte order mark is kept (`ignoreBOM`): the header carries "the UTF-8 representation" of
 * the value, so U+FEFF is part of it, and a decoder that dropped it would let `\uFEFFx` in a header
 * pass for `x` in the body.
 */
function utf8FromBase64(encoded: string): string {
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
}
