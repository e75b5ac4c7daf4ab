import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./spec.js";

/**
 * The diff's fixture schemas: one shared `base.ts`, and per rule id an `edits.json` saying how the
 * `from` and `to` schemas differ from it (line edits against the base, applied bottom-up), so each
 * pair states only what its rule is about.
 */
export const DIFF_FIXTURES = join(ROOT, "test", "fixtures", "diff");

interface Edit {
  /** 1-based line of the base where the edit starts. */
  line: number;
  /** How many base lines it replaces. */
  delete: number;
  insert: string[];
}

const base = (): string[] => readFileSync(join(DIFF_FIXTURES, "base.ts"), "utf8").split("\n");
const composed = mkdtempSync(join(tmpdir(), "mcp-gen-diff-fixtures-"));

/** The path of a rule's `from` or `to` schema, written out from the base and the rule's edits. */
export function diffFixture(rule: string, side: "from" | "to"): string {
  const edits =
    (
      JSON.parse(readFileSync(join(DIFF_FIXTURES, rule, "edits.json"), "utf8")) as Record<
        string,
        Edit[]
      >
    )[side] ?? [];
  const lines = base();
  for (const edit of [...edits].sort((a, b) => b.line - a.line))
    lines.splice(edit.line - 1, edit.delete, ...edit.insert);
  const file = join(composed, rule, `${side}.ts`);
  mkdirSync(join(composed, rule), { recursive: true });
  writeFileSync(file, lines.join("\n"));
  return file;
}
