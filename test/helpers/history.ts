import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SPEC_DIR } from "./spec.js";

/**
 * The upstream `schema.ts` versions in `history/` beside the spec, as `manifest.tsv` lists them
 * (folder, commit, date, path, subject), oldest first. `npm test` takes an even sample; `MCP_HISTORY=all`
 * (set by `.ci/run`) takes all.
 */
export const HISTORY = resolve(process.env.MCP_HISTORY_DIR ?? join(SPEC_DIR, "..", "history"));

export interface Version {
  name: string;
  commit: string;
  date: string;
  subject: string;
}

function manifest(): Version[] {
  const [header, ...rows] = readFileSync(join(HISTORY, "manifest.tsv"), "utf8")
    .trimEnd()
    .split("\n");
  const columns = header!.split("\t");
  return rows.map((row) => {
    const cells = row.split("\t");
    const cell = (name: string) => cells[columns.indexOf(name)] ?? "";
    return {
      name: cell("name"),
      commit: cell("commit"),
      date: cell("date"),
      subject: cell("subject"),
    };
  });
}

/** Every version of the history, or none when the history is not there. */
export const HISTORY_VERSIONS: Version[] = existsSync(join(HISTORY, "manifest.tsv"))
  ? manifest()
  : [];

/** Whether every version is wanted (`MCP_HISTORY=all`) rather than a sample. */
export const ALL_HISTORY = process.env.MCP_HISTORY === "all";

/** Exactly `size` items of a list (a stride of ceil(109 / 12) = 10 would give 11), first and evenly spaced. */
export function sampled<T>(list: T[], size: number): T[] {
  return list.length <= size
    ? list
    : Array.from({ length: size }, (_, i) => list[Math.floor((i * list.length) / size)]!);
}

export const historySchema = (name: string): string => join(HISTORY, name, "schema.ts");
