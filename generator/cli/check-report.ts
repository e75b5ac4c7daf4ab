import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { GENERATED_MARK, type GeneratedFile } from "../emit/file.js";
import { readManifest, sha256 } from "../emit/manifest.js";
import { planOutput } from "../emit/write.js";

/**
 * `--check` per file: why it would change. The folder's manifest records the sha256 of what mcp-gen
 * last wrote, so a file that no longer matches its record was edited by hand, and a file that still
 * matches it but differs from what a run would write was changed by its inputs (the schema, the
 * options, the generator). Both can hold at once.
 */
export type CheckReason =
  | "added"
  | "removed"
  | "edited by hand"
  | "regenerated"
  | "edited by hand and regenerated"
  | "changed";

export interface FileCheck {
  /** Relative to the output folder. */
  path: string;
  reason: CheckReason;
  /** A unified diff from the file on disk to what a run would write (changed files only). */
  diff?: string;
  /**
   * The file differs only in its generated header (the regenerate command, the generator's version,
   * the source's hash): what an option change does to most files, reported once for them all.
   */
  headerOnly?: true;
}

const SAYS: Record<CheckReason, string> = {
  added: "not generated yet",
  removed: "no longer generated (a run removes it)",
  "edited by hand": "edited by hand since mcp-gen wrote it",
  regenerated: "changed by the schema, the options or the generator",
  "edited by hand and regenerated":
    "edited by hand since mcp-gen wrote it, and changed by the schema, the options or the generator",
  changed: "differs (no record of what mcp-gen wrote)",
};

/** What the reason says in a message. */
export const explain = (reason: CheckReason): string => SAYS[reason];

/**
 * Each file of `files` (what a run would write into `outDir`) that differs from the folder, with its
 * reason and, for a changed file, a diff whose paths are `shownDir`-relative (git apply takes it).
 */
export function checkOutput(
  outDir: string,
  files: readonly GeneratedFile[],
  shownDir: string,
): FileCheck[] {
  const plan = planOutput(outDir, files);
  const recorded = readManifest(outDir)?.files ?? {};
  const edited = new Set(plan.edited);
  const byPath = new Map(files.map((f) => [f.path, f.content]));
  return plan.changes.map(({ path, kind }): FileCheck => {
    if (kind !== "changed") return { path, reason: kind };
    const next = byPath.get(path)!;
    const hash = recorded[path];
    const reason: CheckReason =
      hash === undefined || hash === null
        ? "changed"
        : edited.has(path)
          ? sha256(next) === hash
            ? "edited by hand"
            : "edited by hand and regenerated"
          : "regenerated";
    const current = readFileSync(join(outDir, path), "utf8");
    const shown = shownDir === "." ? path : `${shownDir}/${path}`;
    const diff = createTwoFilesPatch(
      `a/${shown}`,
      `b/${shown}`,
      current,
      next,
      undefined,
      undefined,
      {
        context: 3,
        headerOptions: FILE_HEADERS_ONLY,
      },
    );
    return reason === "regenerated" && withoutHeader(current) === withoutHeader(next)
      ? { path, reason, diff, headerOnly: true }
      : { path, reason, diff };
  });
}

/** A generated file's text after its header: the `//` lines it starts with (generatedHeader). */
function withoutHeader(text: string): string {
  return text.startsWith(GENERATED_MARK) ? text.replace(/^(?:\/\/.*\n)+/, "") : text;
}
