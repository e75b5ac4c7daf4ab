/**
 * `x-mcp-header` (Streamable HTTP): the tool arguments a tool's input schema marks for mirroring
 * into `Mcp-Param-*` headers. The client reads them to send the headers, the server to check them
 * against the body. Browser-safe (the client runs there). Revision-independent; copied verbatim
 * into generated output.
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
