import { GeneratorError } from "../errors.js";
import { endOfComment, endOfString } from "../lexical.js";

/**
 * What a schema may cost to generate, checked before the work that would exceed it: the
 * TypeScript parser, the loader, the emitters and prettier all recurse into a type, so a type
 * nested a few hundred levels deep, or a union of many thousand members (printed as one `||`
 * chain, which parsers read recursively), ends in a stack overflow. Each budget is far above what
 * a revision holds (2026-07-28: 7 levels, a union of 31 members, 155 definitions in 103 KiB;
 * docs/limits-generator.md) and below where generation fails; past one, generation stops with
 * one line naming the file and the line where the budget ran out.
 */
export const SCHEMA_BUDGET = {
  /** Bytes of schema.ts. */
  maxBytes: 16 * 1024 * 1024,
  /** Brackets of any kind (`{`, `(`, `[`, `<`, and `[]` suffixes) open at once: the nesting of a type. */
  maxDepth: 100,
  /** Members of one union. */
  maxUnionMembers: 1000,
} as const;

/** Refuses a schema text over the size budget. */
export function checkSize(bytes: number, file: string): void {
  if (bytes > SCHEMA_BUDGET.maxBytes)
    throw new GeneratorError(
      `schema is ${bytes} bytes, over the budget of ${SCHEMA_BUDGET.maxBytes} bytes (docs/limits-generator.md)`,
      file,
    );
}

/**
 * Refuses a schema text nested deeper than the budget, at the line where it gets too deep. A
 * lexical scan (comments and strings skipped) that runs before the parser, which would overflow
 * its own stack first: a type's nesting is its brackets, `Array<…>` and `T[]` included.
 */
export function checkNesting(text: string, file: string): void {
  let depth = 0;
  let suffixes = 0; // a run of `[]` suffixes: `T[][][]` nests T three levels deep
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      line++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") continue;
    const comment = endOfComment(text, i);
    if (comment > i) {
      line += countLines(text, i, comment);
      i = comment - 1;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      const stop = endOfString(text, i);
      line += countLines(text, i, stop);
      i = stop - 1;
      continue;
    }
    if (c === "[" && nextVisible(text, i + 1) === "]") {
      suffixes++;
      const close = text.indexOf("]", i);
      line += countLines(text, i, close);
      i = close;
    } else if (c === "{" || c === "(" || c === "[" || c === "<") {
      depth++;
      suffixes = 0;
    } else if (c === "}" || c === ")" || c === "]" || (c === ">" && text[i - 1] !== "=")) {
      depth = Math.max(0, depth - 1);
      suffixes = 0;
      continue;
    } else {
      suffixes = 0;
      continue;
    }
    if (depth + suffixes > SCHEMA_BUDGET.maxDepth)
      throw new GeneratorError(
        `a type nested more than ${SCHEMA_BUDGET.maxDepth} levels deep, over the budget (docs/limits-generator.md)`,
        file,
        line,
      );
  }
}

/** Refuses a union of more members than the budget, at the union's line. */
export function checkUnionMembers(count: number, file: string, line: number): void {
  if (count > SCHEMA_BUDGET.maxUnionMembers)
    throw new GeneratorError(
      `a union of ${count} members, over the budget of ${SCHEMA_BUDGET.maxUnionMembers} (docs/limits-generator.md)`,
      file,
      line,
    );
}

function nextVisible(text: string, from: number): string | undefined {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return text[i];
}

function countLines(text: string, from: number, to: number): number {
  let lines = 0;
  for (let i = from; i < to; i++) if (text[i] === "\n") lines++;
  return lines;
}
