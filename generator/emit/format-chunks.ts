import { endOfComment, endOfString } from "../lexical.js";

/**
 * A generated module cut into runs of whole top-level statements, each to be formatted on its own:
 * prettier holds a module's syntax tree and its document at once, about 250 bytes of heap for each
 * byte of source (15,000 definitions: an 8.5 MB validators.ts, 2.2 GiB), and formats every
 * top-level statement independently of the others, so the formatted pieces, joined, are what the
 * whole would format to. A cut is made only before a line that starts a statement at column 0
 * after a blank line, after a `;` or `}`, with no bracket, string, template, comment or regular
 * expression open; a module with no such place stays whole.
 */
export function topLevelChunks(text: string, size: number): string[] {
  const chunks: string[] = [];
  let start = 0;
  let depth = 0;
  let last = ""; // the last character that was not white space or in a comment: tells `/` apart
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      if (
        depth === 0 &&
        (last === ";" || last === "}") &&
        i - start >= size &&
        text[i - 1] === "\n" &&
        /[A-Za-z/@]/.test(text[i + 1] ?? "")
      ) {
        chunks.push(text.slice(start, i + 1));
        start = i + 1;
      }
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") continue;
    const comment = endOfComment(text, i);
    if (comment > i) {
      i = comment - 1;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") i = endOfString(text, i) - 1;
    else if (c === "/" && (last === "" || "(,=:[!&|?{};+-*%<>~^".includes(last)))
      i = skipRegExp(text, i);
    else if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") depth--;
    last = c;
  }
  if (chunks.length === 0) return [text];
  chunks.push(text.slice(start));
  return chunks;
}

/** The index of the `/` closing the regular expression opened at `start` (classes and escapes skipped). */
function skipRegExp(text: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) return i;
    else if (c === "\n") return i; // not a regular expression after all: a division
  }
  return text.length;
}
