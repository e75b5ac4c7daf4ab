/**
 * What a client's handshake may make a session keep. A session holds the client's capabilities and
 * identity for its whole life (in this process, and as JSON in a shared store), so their size is the
 * client's to choose unless bounded: one 3 MiB `capabilities.experimental` per session, a thousand
 * sessions per address, is gigabytes. The handshake is refused past the budget instead, before
 * anything is kept. Revision-independent; copied verbatim into generated output.
 */
import { isRecord } from "../shared/jsonrpc.js";

/** Default bytes (of JSON) a handshake's capabilities and client identity may hold together. */
export const DEFAULT_MAX_HANDSHAKE_BYTES = 64 * 1024;

/**
 * Whether `values`, as JSON, hold more than `max` bytes (UTF-8) together. Walked with a stack of
 * its own and stopped as soon as the count passes `max`: what a peer sent is never serialized whole
 * (a 3 MiB value costs no 3 MiB string), and no depth of nesting can overflow the call stack. The
 * count is JSON's to within its escapes (a string's quotes and UTF-8 bytes, not its `\uXXXX`
 * forms), never more than it: a value under the budget is never refused.
 */
export function exceedsJsonBytes(values: readonly unknown[], max: number): boolean {
  let bytes = 0;
  const stack: unknown[] = [...values];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") bytes += utf8Length(value) + 2;
    else if (typeof value === "number" || typeof value === "boolean") bytes += String(value).length;
    else if (value === null) bytes += 4;
    else if (Array.isArray(value)) {
      // Brackets and the commas between items.
      bytes += 1 + Math.max(1, value.length);
      for (const item of value) stack.push(item);
    } else if (isRecord(value)) {
      const keys = Object.keys(value);
      // Braces, the colon and comma of each member.
      bytes += 1 + Math.max(1, keys.length * 2);
      for (const key of keys) {
        bytes += utf8Length(key) + 2;
        stack.push(value[key]);
      }
    }
    if (bytes > max) return true;
  }
  return false;
}

/** UTF-8 bytes of a string, without encoding it (a lone surrogate counts as the 3 bytes of U+FFFD). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      // A surrogate pair: two UTF-16 units, four bytes.
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2;
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}
