/*
 * The contract of a rejection's error location, checked on every rejection the differential tests
 * see:
 *
 * - `errors` is non-empty and `errors[0]` has a non-empty `message`;
 * - `errors[0].path` is an RFC 6901 JSON pointer: `""`, or `/`-separated segments in which `~`
 *   appears only as `~0` or `~1`;
 * - the pointer resolves in the value: every segment names an own property of an object, or an
 *   index (`0` or no leading zeros) below an array's length. A pointer never names a missing
 *   property: for a missing required property it points at the object that lacks it, and the
 *   message names that property (`must have required property 'name'`), which is then checked to
 *   be absent from that object.
 */

const POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;
const INDEX = /^(?:0|[1-9][0-9]*)$/;
const MISSING = /^must have required property '(.*)'$/s;

/** Decodes a JSON pointer into its segments (`~1` before `~0`, as RFC 6901 section 4 says). */
export function pointerSegments(pointer: string): string[] {
  if (!POINTER.test(pointer)) throw new Error(`not a JSON pointer: ${JSON.stringify(pointer)}`);
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Encodes segments as a JSON pointer. */
export function toPointer(segments: readonly string[]): string {
  return segments.map((s) => "/" + s.replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** The value a pointer designates, or a description of the first segment that does not resolve. */
export function resolvePointer(
  value: unknown,
  pointer: string,
): { ok: true; target: unknown } | { ok: false; problem: string } {
  let node = value;
  const segments = pointerSegments(pointer);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const at = toPointer(segments.slice(0, i)) || "the root";
    if (Array.isArray(node)) {
      if (!INDEX.test(segment) || Number(segment) >= node.length) {
        return {
          ok: false,
          problem: `segment ${JSON.stringify(segment)} is not an index of the array at ${at} (length ${node.length})`,
        };
      }
      node = node[Number(segment)];
    } else if (node !== null && typeof node === "object") {
      if (!Object.hasOwn(node, segment))
        return {
          ok: false,
          problem: `the object at ${at} has no property ${JSON.stringify(segment)}`,
        };
      node = (node as Record<string, unknown>)[segment];
    } else {
      return {
        ok: false,
        problem: `segment ${JSON.stringify(segment)} goes into the ${node === null ? "null" : typeof node} at ${at}`,
      };
    }
  }
  return { ok: true, target: node };
}

export interface ValidationFailure {
  ok: false;
  errors: ReadonlyArray<{ path: string; message: string }>;
}

/** What is wrong with a rejection's first error, or `null` when it keeps the contract above. */
export function rejectionProblem(value: unknown, result: ValidationFailure): string | null {
  if (!Array.isArray(result.errors) || result.errors.length === 0)
    return "a rejection without errors";
  const { path, message } = result.errors[0]!;
  if (typeof path !== "string" || !POINTER.test(path))
    return `errors[0].path ${JSON.stringify(path)} is not a JSON pointer`;
  if (typeof message !== "string" || message === "")
    return `errors[0].message ${JSON.stringify(message)} is empty`;
  const resolved = resolvePointer(value, path);
  if (!resolved.ok)
    return `errors[0].path ${JSON.stringify(path)} does not resolve: ${resolved.problem}`;
  const missing = MISSING.exec(message);
  if (missing) {
    const target = resolved.target;
    if (target === null || typeof target !== "object" || Array.isArray(target)) {
      return `errors[0] says a property is missing, but ${JSON.stringify(path)} is not an object`;
    }
    if (Object.hasOwn(target, missing[1]!))
      return `errors[0] says '${missing[1]}' is missing, but the object at ${JSON.stringify(path)} has it`;
  }
  return null;
}
