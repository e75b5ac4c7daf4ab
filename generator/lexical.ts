/**
 * What a lexical scan of TypeScript text steps over rather than reads as code: comments, and
 * string or template literals (a template's `${…}` with it: no scan here needs what is inside).
 * Shared by the schema's nesting check (load/budget.ts) and the cutting of generated modules into
 * runs of statements (emit/format-chunks.ts).
 */

/**
 * The index just after the comment that starts at `start` (for a line comment: its line's end,
 * the newline left to the scan), or `start` when no comment starts there.
 */
export function endOfComment(text: string, start: number): number {
  if (text[start] !== "/") return start;
  if (text[start + 1] === "/") {
    const end = text.indexOf("\n", start);
    return end < 0 ? text.length : end;
  }
  if (text[start + 1] === "*") {
    const end = text.indexOf("*/", start + 2);
    return end < 0 ? text.length : end + 2;
  }
  return start;
}

/** The index just after the string literal starting at `start` (its quote), or the text's end. */
export function endOfString(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i + 1;
    else if (text[i] === "\n" && quote !== "`") return i; // unterminated: the parser reports it
  }
  return text.length;
}
