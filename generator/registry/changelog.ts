/**
 * The "Deprecated" section of a revision's changelog (the spec docs' `changelog.mdx`), read for
 * the migrations it names in prose, where a `@deprecated` tag only points at the registry:
 * "Suggested migrations: pass directories … instead of Roots; integrate directly with LLM provider
 * APIs instead of Sampling; …". Pure text in, plain data out.
 */

/** One numbered item of the changelog's "Deprecated" section. */
export interface ChangelogDeprecation {
  /** The proposals it cites (`SEP-2577`), in order. */
  seps: string[];
  /** The names it quotes in backticks (`includeContext`, `"none"`), quotes removed. */
  quoted: string[];
  /**
   * What to do instead: per feature where the item names one ("… instead of Roots"), else for the
   * whole item ("Migrate to Streamable HTTP.").
   */
  migrations: Array<{ feature: string | null; text: string }>;
}

/** A sentence that says what to do instead. */
const MIGRATION = /\b(use|omit|instead|replace[ds]?|migrate|switch to|prefer|in favou?r of)\b/i;

/** The items of the changelog's "Deprecated" section (`## Deprecated…` up to the next `## `); none without one. */
export function parseChangelog(text: string): ChangelogDeprecation[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const start = lines.findIndex((line) => /^##\s+deprecat/i.test(line));
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && /^##\s/.test(line));
  const section = lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
  // Items start with `1.` at the line's start; what comes before the first is the section's preamble.
  const items = section.split(/^\s{0,3}\d+\.\s+/m).slice(1);
  return items.map(parseItem);
}

function parseItem(raw: string): ChangelogDeprecation {
  const flat = plain(raw);
  const seps = [...new Set(flat.match(/\bSEP-\d+\b/g) ?? [])];
  const quoted = [...new Set([...raw.matchAll(/`([^`]+)`/g)].map((m) => unquote(m[1]!)))];
  const migrations: ChangelogDeprecation["migrations"] = [];
  // Sentences end with `.`, `!` or `?` before a space and a capital letter (or the end).
  for (const sentence of flat.split(/(?<=[.!?])\s+(?=[A-Z`"])/)) {
    if (!MIGRATION.test(sentence)) continue;
    const body = sentence.replace(/^suggested migrations?:\s*/i, "");
    const perFeature = body
      .split(/;\s*/)
      .map((part) => /^(.+?)\s+instead of\s+(?:the\s+)?(.+?)[.!]?$/i.exec(part.trim()));
    if (perFeature.length > 0 && perFeature.every(Boolean)) {
      for (const match of perFeature)
        migrations.push({ feature: match![2]!.trim(), text: `${capitalized(match![1]!)}.` });
    } else {
      migrations.push({ feature: null, text: sentence.trim() });
    }
  }
  return { seps, quoted, migrations };
}

/** Markdown to plain text: links to their text, emphasis marks and line breaks dropped. */
function plain(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

const unquote = (text: string): string => text.replace(/^"(.*)"$/, "$1");
const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
