import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, basename } from "node:path";
import { GeneratorError } from "../errors.js";
import { replaceDir } from "../fs/replace-dir.js";
import { GENERATED_MARK, type GeneratedFile } from "./file.js";

/**
 * Writes a whole output directory or nothing: files go to a fresh sibling temp directory, which then
 * replaces the target by rename. A failure at any point leaves the target exactly as it was. Since
 * the target is replaced whole, only an empty folder or an earlier mcp-gen output may be replaced.
 */
export function writeAtomically(outDir: string, files: GeneratedFile[]): void {
  const target = resolve(outDir);
  checkReplaceable(target);
  const parent = dirname(target);
  let staging: string;
  try {
    mkdirSync(parent, { recursive: true });
    staging = mkdtempSync(join(parent, `.${basename(target)}.tmp-`));
    // mkdtemp makes the folder private; the output is an ordinary folder once renamed.
    chmodSync(staging, 0o755 & ~process.umask());
  } catch (error) {
    throw new GeneratorError(`cannot write output: ${(error as Error).message}`, target);
  }
  try {
    for (const file of files) {
      const path = join(staging, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content);
    }
    replaceDir(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new GeneratorError(`cannot write output: ${(error as Error).message}`, target);
  }
}

function checkReplaceable(target: string): void {
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) throw new GeneratorError("cannot write output: not a directory", target);
  if (readdirSync(target).length === 0) return;
  const index = join(target, "index.ts");
  const isOurs = existsSync(index) && readFileSync(index, "utf8").startsWith(GENERATED_MARK);
  if (!isOurs) {
    throw new GeneratorError("cannot write output: the folder is not mcp-gen output (no generated index.ts); choose another --out", target);
  }
}
