import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { format, PRETTIER_MODULES, PRETTIER_OPTIONS } from "./format.js";
import { RUNTIME_DIR } from "./runtime.js";
import type { Code } from "./code.js";

/**
 * Formatted module bodies kept between runs (generator/cli/kept-files.ts keeps them on disk),
 * under a key that names the prettier release, its options and the body itself: a run that emits a
 * body an earlier run formatted takes the earlier result instead of formatting it again. Prettier
 * prints the same body the same way every time, so the output is the same bytes with or without it.
 */
export interface FormattedBodies {
  get(key: string): string | undefined;
  set(key: string, formatted: string): void;
}

/** `format(body)`, taken from `kept` when it holds it, and left there when it did not. */
export async function formatKept(body: string, kept?: FormattedBodies): Promise<string> {
  if (!kept) return format(body);
  const key = createHash("sha256").update(formatterIdentity()).update(body).digest("hex");
  const found = kept.get(key);
  if (found !== undefined) return found;
  const formatted = await format(body);
  kept.set(key, formatted);
  return formatted;
}

/**
 * A generated file's final text. A TypeScript module gets `header` (line comments, which prettier
 * leaves as they are: only the body is formatted, so a body kept from a run with another header is
 * found again); the runtime is copied as written, its sources kept prettier-formatted
 * (test/generator/emit/output); any other file stays as it is.
 */
export async function finishedText(
  path: string,
  header: Code,
  content: string,
  kept?: FormattedBodies,
): Promise<string> {
  if (!path.endsWith(".ts")) return content;
  const body = path.startsWith(RUNTIME_DIR) ? content : await formatKept(content, kept);
  return `${String(header)}\n\n${body}`;
}

let identity: string | undefined;

/** What else decides the printed text: prettier's release and the options. */
function formatterIdentity(): string {
  if (identity === undefined) {
    // The package does not export its package.json; it sits beside the standalone build.
    const standalone = createRequire(import.meta.url).resolve(PRETTIER_MODULES[0]);
    const { version } = JSON.parse(
      readFileSync(join(dirname(standalone), "package.json"), "utf8"),
    ) as { version: string };
    identity = `prettier ${version}\0${JSON.stringify(PRETTIER_OPTIONS)}\0`;
  }
  return identity;
}
