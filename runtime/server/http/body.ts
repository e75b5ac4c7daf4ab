/**
 * A request body a framework read before the transport: body-parser and `express.json()` leave what
 * they parsed on `req.body` (a value, a string, or the raw bytes), Fastify hands it to the route,
 * and a web framework may have read a `Request` already. The transport serves what was parsed as if
 * it had read it itself; a body read by someone else and not left anywhere cannot be served, and is
 * answered with an error naming the cause rather than a parse error. Revision-independent; copied
 * verbatim into generated output.
 */
import type { HttpIn } from "../../shared/http-wire.js";

const PARSED: unique symbol = Symbol("mcp parsed body");

type Carrier = HttpIn & { [PARSED]?: unknown };

/** Hands the transport the body a framework parsed from `req` (the node handler's third argument). */
export function withParsedBody(req: object, body: unknown): void {
  (req as Carrier)[PARSED] = body;
}

/**
 * The body as the framework left it: text or bytes to parse, a parsed value, `"consumed"` when the
 * stream was read and nothing was left, or `undefined` when the stream is still there to read.
 */
export function earlierBody(
  req: HttpIn,
): { text: string } | { bytes: Uint8Array } | { value: unknown } | "consumed" | undefined {
  const carrier = req as Carrier;
  const given = PARSED in carrier ? carrier[PARSED] : req.body;
  if (given === undefined) return req.readableEnded === true ? "consumed" : undefined;
  if (typeof given === "string") return { text: given };
  if (given instanceof Uint8Array) return { bytes: given };
  // body-parser leaves `{}` when the content type was not its own and it read nothing: the stream
  // is then still unread.
  if (req.readableEnded !== true && isEmptyObject(given)) return undefined;
  return { value: given };
}

/**
 * What of a value a framework parsed is past the bounds a body the transport parses itself is held
 * to (`shapeOf`): nested more than `maxDepth` levels (the dispatcher's checks recurse), or holding
 * more than `maxContainers` arrays and objects (every walk after this one pays by the container),
 * by a walk of its own that keeps a stack rather than recursing.
 */
export function valueShapeOf(
  value: unknown,
  maxDepth: number,
  maxContainers: number,
): "too-deep" | "too-many" | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  let containers = 0;
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth + 1 > maxDepth) return "too-deep";
    if (++containers > maxContainers) return "too-many";
    for (const member of Array.isArray(item) ? item : Object.values(item))
      if (typeof member === "object" && member !== null)
        stack.push({ value: member, depth: depth + 1 });
  }
  return undefined;
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** What the log and the client are told when the body was read before the transport and is gone. */
export const CONSUMED_BODY =
  "the request body was read before the MCP handler (a body-parsing middleware?) and not left as req.body: mount the handler before body parsers, or pass it the parsed body";
