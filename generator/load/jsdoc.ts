import type { Doc, DeprecationNote } from "../ir/model.js";

/**
 * Parses the raw text of one `/** … *\/` comment. Done by hand rather than through the compiler's
 * JSDoc nodes because the schema uses tags the compiler splits oddly (`@TJS-type`), and because the
 * text must come out byte-stable: leading ` * ` removed, inner blank lines kept.
 */
export function parseJsDoc(raw: string): Doc {
  const body = raw.replace(/^\/\*\* ?/, "").replace(/\*\/$/, "");
  const lines = oneLineTags(
    body.split(/\r?\n/).map((line) => line.replace(/^\s*\* ?/, "").replace(/\s+$/, "")),
  );
  const text: string[] = [];
  const tags: Doc["tags"] = [];
  let current: { name: string; lines: string[] } | null = null;
  let inFence = false;
  for (const line of lines) {
    // A tag inside a fenced example is text, not a new tag.
    if (/^\s*```/.test(line)) inFence = !inFence;
    const tag = inFence ? null : /^\s*@([A-Za-z][\w-]*)\s?(.*)$/.exec(line);
    if (tag) {
      if (current) tags.push(finishTag(current));
      current = { name: tag[1]!, lines: [tag[2] ?? ""] };
    } else if (current) {
      current.lines.push(line);
    } else {
      text.push(line);
    }
  }
  if (current) tags.push(finishTag(current));
  return { text: trimBlankLines(text).join("\n"), tags };
}

/**
 * A one-line comment (`/** Adds two numbers. @title Add *\/`) has nowhere to start its tags but
 * after the text: each ` @tag` there begins a line of its own, as in the multi-line form. Longer
 * comments keep their mid-line `@` as text (prose may mention a decorator).
 */
function oneLineTags(lines: string[]): string[] {
  if (lines.length !== 1) return lines;
  return lines[0]!.split(/\s+(?=@[A-Za-z][\w-]*(?:\s|$))/);
}

function finishTag(tag: { name: string; lines: string[] }): Doc["tags"][number] {
  return { name: tag.name, text: trimBlankLines(tag.lines).join("\n").trim() };
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === "") start++;
  while (end > start && lines[end - 1]!.trim() === "") end--;
  return lines.slice(start, end);
}

export const EMPTY_DOC: Doc = { text: "", tags: [] };

export function tagText(doc: Doc, name: string): string | null {
  const tag = doc.tags.find((t) => t.name === name);
  return tag ? tag.text : null;
}

export function hasTag(doc: Doc, name: string): boolean {
  return doc.tags.some((t) => t.name === name);
}

/** The `@category` text without the backticks the schema puts around method names. */
export function categoryOf(doc: Doc): string | null {
  const text = tagText(doc, "category");
  return text === null ? null : text.replace(/`/g, "").trim();
}

/**
 * Reads "as of" and the SEP out of a `@deprecated` text. The revision is the one the text says the
 * feature is deprecated as of, which may be earlier than the file the tag stands in.
 */
export function parseDeprecation(doc: Doc): DeprecationNote | null {
  const text = tagText(doc, "deprecated");
  if (text === null) return null;
  const asOf = /\bas of (?:protocol version |revision |version )?(\d{4}-\d{2}-\d{2}|draft)\b/i.exec(
    text,
  );
  const sep = /\bSEP-(\d+)\b/.exec(text);
  return { text, asOf: asOf ? asOf[1]! : null, sep: sep ? `SEP-${sep[1]}` : null };
}
