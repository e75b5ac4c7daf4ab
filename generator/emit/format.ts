import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Options } from "prettier";
import { projectRoot } from "../spec/project-root.js";

/**
 * The project's prettier settings, shared by its own sources (`templates/runtime/`) and its output.
 * The `babel-ts` parser prints the same as `typescript` and parses our output twice as fast.
 */
export const PRETTIER_OPTIONS: Options = {
  ...(JSON.parse(readFileSync(join(projectRoot(), ".prettierrc.json"), "utf8")) as Options),
  parser: "babel-ts",
};

let prettier: Promise<typeof import("prettier")> | undefined;

/**
 * Formats one TypeScript module, so output is stable whatever the template spacing. Prettier is
 * imported on first use: commands that format nothing never load it.
 *
 * Formatting runs on the calling thread. A worker thread that imported and warmed prettier while
 * TypeScript loaded was measured slower on the 2-core machine we target (median 2.13 s against
 * 2.02 s per revision): the two threads contend for memory and the warm-up is spent CPU.
 */
export async function format(content: string): Promise<string> {
  prettier ??= import("prettier");
  return (await prettier).format(content, PRETTIER_OPTIONS);
}
