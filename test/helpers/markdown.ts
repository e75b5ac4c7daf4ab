import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A fenced code block of a Markdown page. */
export interface CodeBlock {
  /** The page, relative to the folder the pages were read from (`README.md`, `docs/cli.md`). */
  page: string;
  /** The page's line (1-based) holding the opening fence: the block's first line is the next one. */
  line: number;
  /** The fence's language (`ts`, `sh`, `json`), empty when it names none. */
  lang: string;
  /** The file the block is, from `title="…"` after the language (the quick start's files). */
  title?: string;
  /** Why the block is not compiled, from `<!-- not compiled: … -->` on the line before the fence. */
  skip?: string;
  code: string;
}

/** The documentation pages of a project: its README and every Markdown page under `docs/`. */
export function docPages(root: string): string[] {
  const docs = join(root, "docs");
  const pages = existsSync(docs)
    ? readdirSync(docs)
        .filter((name) => name.endsWith(".md"))
        .sort()
        .map((name) => `docs/${name}`)
    : [];
  return ["README.md", ...pages];
}

const FENCE = /^```(\S*)(.*)$/;
const SKIP = /^<!--\s*not compiled:(.*?)-->\s*$/;
const TITLE = /\btitle="([^"]+)"/;

/** Every fenced block of a page's text, in order. An unclosed fence is an error naming its line. */
export function codeBlocks(page: string, text: string): CodeBlock[] {
  const lines = text.split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith("```"));
    if (end < 0) throw new Error(`${page}:${i + 1}: code block never closed`);
    const block: CodeBlock = {
      page,
      line: i + 1,
      lang: open[1]!,
      code: lines.slice(i + 1, end).join("\n"),
    };
    const title = TITLE.exec(open[2]!);
    if (title) block.title = title[1]!;
    const previous = i > 0 ? SKIP.exec(lines[i - 1]!) : null;
    if (previous) block.skip = previous[1]!.trim();
    blocks.push(block);
    i = end;
  }
  return blocks;
}

/** The blocks of every page under `root` (README.md and docs/*.md). */
export function allCodeBlocks(root: string): CodeBlock[] {
  return docPages(root).flatMap((page) => codeBlocks(page, readFileSync(join(root, page), "utf8")));
}

/** The text of a page's `## heading` section, up to the next heading of that level. */
export function section(text: string, heading: string): string {
  const lines = text.split("\n");
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const next = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  return lines.slice(start, next < 0 ? undefined : next).join("\n");
}

/** Whether a block is TypeScript. */
export const isTypeScript = (block: CodeBlock): boolean =>
  block.lang === "ts" || block.lang === "typescript";
