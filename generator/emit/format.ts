import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Options, Plugin } from "prettier";
import { projectRoot } from "../package-root.js";
import { topLevelChunks } from "./format-chunks.js";

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
 * 1.84 s per revision): the two threads contend, and the warm-up is spent CPU. Sharing the default
 * command's 760 KB between this thread and a worker, a run of statements at a time, was slower
 * too (2.2–2.5 s against 1.8 s): prettier allocates so much that two threads each ran at about half
 * speed, the garbage collector's helper threads already using the second core. What saves the time
 * is not formatting again what an earlier run formatted (format-kept.ts).
 *
 * A module over `chunkBytes` is formatted a run of top-level statements at a time (see
 * format-chunks.ts), which prints the same and holds one run's syntax tree at a time instead of
 * the whole module's: 15,000 definitions took 2.2 GiB and 105 s in one piece. Should a cut ever
 * fail to parse on its own, the module is formatted whole.
 */
export async function format(content: string, chunkBytes = FORMAT_CHUNK_BYTES): Promise<string> {
  if (!prettier || !options) {
    const [standalone, ...plugins] = PRETTIER_MODULES.map((name) => require(name) as unknown);
    prettier = standalone as typeof prettier & object;
    options = { ...PRETTIER_OPTIONS, plugins: plugins as Plugin[] };
  }
  const chunks = topLevelChunks(content, chunkBytes);
  if (chunks.length === 1) return prettier.format(content, options);
  const formatted: string[] = [];
  try {
    for (const chunk of chunks) formatted.push(await prettier.format(chunk, options));
  } catch {
    return prettier.format(content, options);
  }
  // Each cut stood after a blank line, which prettier keeps as one between the statements.
  return formatted.join("\n");
}

/** Above this many characters a module is formatted in runs of top-level statements. */
export const FORMAT_CHUNK_BYTES = 256 * 1024;
