/**
 * What the Streamable HTTP transport checks in a request's headers before the dispatcher sees it
 * (which media types `Accept` allows, the JSON `Content-Type`, `Host` and `Origin` for DNS-rebinding
 * protection), and what the dispatcher's envelope stage checks once the body is parsed: the request
 * metadata headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) against the
 * body, by the rules of its protocol description. Pure functions of header values. Revision-independent; copied verbatim into
 * generated output.
 */
import type { HttpIn, RequestHeaders } from "./http-wire.js";
import type { JsonRpcErrorObject } from "./jsonrpc.js";
import {
  annotatedValue,
  decodeHeaderValue,
  HEADER_SAFE,
  headerText,
  type HeaderAnnotation,
} from "./param-headers.js";
import { ErrorCode, isRecord } from "./jsonrpc.js";
import type { ProtocolDescription } from "./protocol.js";

export type { RequestHeaders } from "./http-wire.js";

/**
 * Which body fields the request metadata headers mirror: revision data (`headerRulesOf`), which the
 * dispatcher's envelope stage derives from its own description.
 */
export interface HeaderRules {
  /** Methods whose request is named by a param, which `Mcp-Name` mirrors: method → param. */
  readonly nameParams: Readonly<Record<string, string>>;
  /** The params field holding the request's metadata (`_meta`); `null`: none is read. */
  readonly meta: string | null;
  /**
   * The key of the metadata (`meta`) that `MCP-Protocol-Version` mirrors. A request that carries it belongs
   * to the per-request-metadata era, where the mirrored headers are required; a request without it
   * (initialize era) is checked only against the headers it does carry. `null`: no request requires them.
   */
  readonly protocolVersionMetaKey: string | null;
  /** The JSON-RPC error code for headers that are missing, malformed or disagree with the body. */
  readonly mismatchCode: number;
  /**
   * The tool calling method and its fields, for the `Mcp-Param-*` headers a call mirrors from its
   * arguments (`x-mcp-header` in the tool's input schema); null: none.
   */
  readonly tools: {
    readonly call: string;
    readonly name: string;
    readonly arguments: string;
  } | null;
  /** The request metadata headers the revision defines (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), for CORS. */
  readonly requestHeaders: readonly string[];
}

/**
 * The rules of a server that knows no revision: no param mirrored, no `_meta` key requiring the
 * headers, the JSON-RPC code for a request it cannot take. A revision's come from `headerRulesOf`.
 */
export const NO_HEADER_RULES: HeaderRules = {
  nameParams: {},
  meta: null,
  protocolVersionMetaKey: null,
  mismatchCode: ErrorCode.InvalidRequest,
  tools: null,
  requestHeaders: [],
};

/**
 * A revision's header rules, read from its protocol description: each method's target param, the
 * `_meta` key carrying the protocol version (stateless revisions; the initialize era has none), the
 * mismatch error (else JSON-RPC's invalid request: the initialize era defines no such headers), the
 * tool call's fields.
 */
export function headerRulesOf(
  protocol: Pick<ProtocolDescription, "methods" | "envelope" | "lifecycle" | "errors" | "tools"> &
    Partial<Pick<ProtocolDescription, "headers">>,
): HeaderRules {
  const nameParams = Object.fromEntries(
    Object.entries(protocol.methods).flatMap(([method, spec]) =>
      spec.target === null ? [] : [[method, spec.target]],
    ),
  );
  return {
    nameParams,
    meta: protocol.envelope.meta,
    protocolVersionMetaKey:
      protocol.lifecycle.kind === "stateless" ? protocol.lifecycle.protocolVersionKey : null,
    mismatchCode: protocol.errors.headerMismatch ?? NO_HEADER_RULES.mismatchCode,
    tools:
      protocol.tools === null
        ? null
        : {
            call: protocol.tools.call,
            name: protocol.tools.name,
            arguments: protocol.tools.arguments,
          },
    requestHeaders: protocol.headers === undefined ? [] : Object.values(protocol.headers),
  };
}

/** The headers a tool call mirrors its annotated arguments into: this prefix and the annotation's name. */
export const PARAM_HEADER_PREFIX = "Mcp-Param-";

/** Header names as `node:http` exposes them (lower case: header names are case-insensitive). */
const HEADER = {
  protocolVersion: "mcp-protocol-version",
  method: "mcp-method",
  name: "mcp-name",
} as const;

// ---------------------------------------------------------------------------
// Accept, Content-Type, Content-Encoding
// ---------------------------------------------------------------------------

export interface Acceptance {
  json: boolean;
  sse: boolean;
}

export const ACCEPTS_ANY: Acceptance = Object.freeze({ json: true, sse: true });

/** Which of the two response media types `Accept` allows (q-values honoured; absent: any). */
export function acceptance(header: string | undefined): Acceptance {
  if (header === undefined) return { json: true, sse: true };
  const ranges: Array<{ type: string; subtype: string; q: number }> = [];
  for (const part of header.split(",")) {
    const [range = "", ...params] = part.split(";");
    const [type, subtype, extra] = range.trim().toLowerCase().split("/");
    if (
      type === undefined ||
      subtype === undefined ||
      extra !== undefined ||
      type === "" ||
      subtype === ""
    )
      continue;
    let q = 1;
    for (const param of params) {
      const [key, raw] = param.split("=");
      if (key?.trim().toLowerCase() === "q" && raw !== undefined) {
        const parsed = Number(raw.trim());
        if (Number.isFinite(parsed)) q = parsed;
      }
    }
    ranges.push({ type, subtype, q });
  }
  /** The q of the most specific range matching `type/subtype`. */
  const allows = (type: string, subtype: string): boolean => {
    let best = -1;
    let q = 0;
    for (const r of ranges) {
      const specificity =
        r.type === type && r.subtype === subtype
          ? 2
          : r.type === type && r.subtype === "*"
            ? 1
            : r.type === "*" && r.subtype === "*"
              ? 0
              : -1;
      if (specificity > best) {
        best = specificity;
        q = r.q;
      }
    }
    return best >= 0 && q > 0;
  };
  return { json: allows("application", "json"), sse: allows("text", "event-stream") };
}

export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [type = "", ...params] = header.split(";");
  if (type.trim().toLowerCase() !== "application/json") return false;
  return params.every((param) => {
    const [key = "", value = ""] = param.split("=");
    if (key.trim().toLowerCase() !== "charset") return true;
    const charset = value
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase();
    return charset === "utf-8" || charset === "utf8";
  });
}

/**
 * Whether a request still has body bytes on their way: it announced a body (a length or chunked
 * encoding) and has not finished sending it. A refusal answers such a request with
 * `Connection: close` instead of reading, however long, what it will not serve.
 */
export function bodyPending(req: Pick<HttpIn, "complete" | "headers">): boolean {
  if (req.complete) return false;
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

export const isIdentityEncoding = (header: string | undefined): boolean =>
  header === undefined || header.trim() === "" || header.trim().toLowerCase() === "identity";

// ---------------------------------------------------------------------------
// DNS-rebinding protection
// ---------------------------------------------------------------------------

/** `name[:port]` split and lower-cased; IPv6 names keep their brackets. Null when malformed. */
function splitHost(value: string): { name: string; port: string | undefined } | null {
  const text = value.trim().toLowerCase();
  let name: string;
  let rest: string;
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    if (end < 0) return null;
    name = text.slice(0, end + 1);
    rest = text.slice(end + 1);
  } else {
    const colon = text.indexOf(":");
    name = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? "" : text.slice(colon);
  }
  if (name === "" || name === "[]") return null;
  if (rest === "") return { name, port: undefined };
  return /^:\d{1,5}$/.test(rest) ? { name, port: rest.slice(1) } : null;
}

export function hostAllowed(value: string, allowed: readonly string[]): boolean {
  const host = splitHost(value);
  if (host === null) return allowed.includes("*");
  return allowed.some((entry) => {
    if (entry === "*") return true;
    const rule = splitHost(entry);
    return (
      rule !== null &&
      rule.name === host.name &&
      (rule.port === undefined || rule.port === host.port)
    );
  });
}

export function originAllowed(value: string, allowed: readonly string[]): boolean {
  if (allowed.includes("*")) return true;
  let origin: URL;
  try {
    origin = new URL(value);
  } catch {
    return false;
  }
  // Opaque origins (`Origin: null`, sandboxed documents) cannot be vouched for.
  if (origin.origin === "null") return false;
  return allowed.some((entry) => {
    if (!entry.includes("://")) return hostAllowed(origin.host, [entry]);
    try {
      return new URL(entry).origin === origin.origin;
    } catch {
      return false;
    }
  });
}

// ---------------------------------------------------------------------------
// Request metadata headers against the body (the dispatcher's envelope stage, server/envelope.ts)
// ---------------------------------------------------------------------------

function json(value: unknown): string | undefined {
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps echoed values short in error messages. */
const shown = (value: unknown): string => {
  const text = typeof value === "string" ? value : (json(value) ?? String(value));
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
};

function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` against the request body, and on a tool call
 * the `Mcp-Param-*` headers its tool's `annotations` name (when the server has listed the tool).
 */
export function checkHeaders(
  headers: RequestHeaders,
  request: { method: string; params: Record<string, unknown> },
  rules: HeaderRules,
  annotations?: readonly HeaderAnnotation[],
): JsonRpcErrorObject | null {
  const mismatch = (message: string): JsonRpcErrorObject => ({
    code: rules.mismatchCode,
    message: `Header mismatch: ${message}`,
  });
  const meta = rules.meta === null ? undefined : request.params[rules.meta];
  const bodyVersion =
    isRecord(meta) && rules.protocolVersionMetaKey !== null
      ? meta[rules.protocolVersionMetaKey]
      : undefined;
  // Only requests that carry their version in `_meta` come from clients that must mirror headers.
  const required = bodyVersion !== undefined;

  const version = headerValue(headers, HEADER.protocolVersion);
  if (version === undefined) {
    if (required) return mismatch("the required MCP-Protocol-Version header is missing");
  } else {
    if (!HEADER_SAFE.test(version))
      return mismatch("the MCP-Protocol-Version header contains invalid characters");
    if (required && bodyVersion !== version) {
      return mismatch(
        `MCP-Protocol-Version header value '${shown(version)}' does not match body value '${shown(bodyVersion)}'`,
      );
    }
  }

  const method = headerValue(headers, HEADER.method);
  if (method === undefined) {
    if (required) return mismatch("the required Mcp-Method header is missing");
  } else {
    if (!HEADER_SAFE.test(method))
      return mismatch("the Mcp-Method header contains invalid characters");
    if (method !== request.method) {
      return mismatch(
        `Mcp-Method header value '${shown(method)}' does not match body value '${shown(request.method)}'`,
      );
    }
  }

  const param = Object.hasOwn(rules.nameParams, request.method)
    ? rules.nameParams[request.method]
    : undefined;
  if (param !== undefined) {
    const raw = headerValue(headers, HEADER.name);
    const bodyName = request.params[param];
    if (raw === undefined) {
      // Without a name in the body either, the dispatcher's params check reports the request.
      if (required && bodyName !== undefined)
        return mismatch("the required Mcp-Name header is missing");
    } else {
      const name = decodeHeaderValue(raw);
      if (name === null) return mismatch("the Mcp-Name header value is malformed");
      if (name !== bodyName)
        return mismatch(
          `Mcp-Name header value '${shown(name)}' does not match body value '${shown(bodyName)}'`,
        );
    }
  }
  if (annotations !== undefined && rules.tools !== null) {
    const args = request.params[rules.tools.arguments];
    for (const annotation of annotations) {
      const error = checkParamHeader(
        headers,
        annotation,
        annotatedValue(annotation, args),
        required,
      );
      if (error !== null) return mismatch(error);
    }
  }
  return null;
}

/** One `Mcp-Param-*` header against the argument it mirrors: what is wrong, or null. */
function checkParamHeader(
  headers: RequestHeaders,
  annotation: HeaderAnnotation,
  value: unknown,
  /** Whether the client must mirror headers (as for `Mcp-Name`: it sent its version in `_meta`). */
  required: boolean,
): string | null {
  const name = `${PARAM_HEADER_PREFIX}${annotation.header}`;
  const raw = headerValue(headers, name.toLowerCase());
  const absent = value === undefined || value === null;
  if (raw === undefined)
    return absent || !required ? null : `the required ${name} header is missing`;
  const decoded = decodeHeaderValue(raw);
  if (decoded === null) return `the ${name} header value is malformed`;
  if (absent) return `${name} header value '${shown(decoded)}' has no argument in the body`;
  const expected = headerText(value);
  return decoded === expected
    ? null
    : `${name} header value '${shown(decoded)}' does not match body value '${shown(value)}'`;
}
