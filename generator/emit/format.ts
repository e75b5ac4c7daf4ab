import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Options, Plugin } from "prettier";
import { projectRoot } from "../package-root.js";

/**
 * The project's prettier settings, shared by its own sources (`runtime/`) and its output.
 * The `babel-ts` parser prints the same as `typescript` and parses our output twice as fast.
 */
export const PRETTIER_OPTIONS: Options = {
  ...(JSON.parse(readFileSync(join(projectRoot(), ".prettierrc.json"), "utf8")) as Options),
  parser: "babel-ts",
};

/**
 * Prettier's standalone build and the two plugins `babel-ts` needs. They print exactly what the
 * `prettier` entry point prints for the same options, without its configuration and CLI machinery,
 * and being CommonJS they can come from the compile cache (generator/cli/compile-cache.ts).
 */
export const PRETTIER_MODULES = [
  "prettier/standalone",
  "prettier/plugins/babel",
  "prettier/plugins/estree",
] as const;

const require = createRequire(import.meta.url);
let prettier: { format(source: string, options: Options): Promise<string> } | undefined;
let options: Options | undefined;

/**
 * Formats one TypeScript module, so output is stable whatever the template spacing. Prettier is
 * loaded on first use: commands that format nothing never load it.
 *
 * Formatting runs on the calling thread. A worker thread that loaded and warmed prettier while
 * TypeScript loaded was measured slower on the 2-core machine we target (median 2.19 s against
 * 1.84 s per revision): the two threads contend, and the warm-up is spent CPU.
 */
export function format(content: string): Promise<string> {
  if (!prettier || !options) {
    const [standalone, ...plugins] = PRETTIER_MODULES.map((name) => require(name) as unknown);
    prettier = standalone as typeof prettier & object;
    options = { ...PRETTIER_OPTIONS, plugins: plugins as Plugin[] };
  }
  return prettier.format(content, options);
}
