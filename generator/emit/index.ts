import type { ProtocolModel } from "../ir/model.js";
import { entryFiles } from "./entries.js";
import { header, RUNTIME_DIR, type EmitContext, type GeneratedFile } from "./file.js";
import { format } from "./format.js";
import { typesTarget } from "./types/target.js";
import { validatorsTarget } from "./validators/target.js";
import { serverTarget } from "./server/target.js";
import { clientTarget } from "./client/target.js";
import { deprecationsTarget } from "./deprecations/target.js";
import { writeAtomically } from "./write.js";

/** An output target: turns the model into files. Each target lives in its own folder under emit/. */
export interface Target {
  name: string;
  /** Its files; those the entry points re-export carry `entry`. */
  emit(ctx: EmitContext): GeneratedFile[];
}

export const TARGETS: readonly Target[] = [typesTarget, validatorsTarget, serverTarget, clientTarget, deprecationsTarget];

/**
 * Writes every target for one revision into outDir, atomically. TypeScript files get the header and
 * go through prettier; the entry points re-export every module a target marks with `entry`.
 */
export async function emitRevision(
  model: ProtocolModel,
  options: { outDir: string; generatorVersion: string },
): Promise<string[]> {
  const files = await renderRevision(model, options.generatorVersion);
  writeAtomically(options.outDir, files);
  return files.map((f) => f.path);
}

/** The files of one revision, formatted, without writing them. */
export async function renderRevision(model: ProtocolModel, generatorVersion: string): Promise<GeneratedFile[]> {
  const ctx: EmitContext = { model, generatorVersion };
  const files = uniqueByPath(TARGETS.flatMap((target) => target.emit(ctx)));
  files.push(...entryFiles(model, files));
  return Promise.all(
    files.map(async ({ path, content }) => {
      if (!path.endsWith(".ts")) return { path, content };
      const headed = `${header(ctx)}\n\n${content}`;
      // The runtime is copied as written; its sources are kept prettier-formatted (test/output).
      return { path, content: path.startsWith(RUNTIME_DIR) ? headed : await format(headed) };
    }),
  );
}

/** Targets share runtime modules (the server and the client both need `runtime/jsonrpc.ts`): keep one. */
function uniqueByPath(files: GeneratedFile[]): GeneratedFile[] {
  const byPath = new Map<string, GeneratedFile>();
  for (const file of files) {
    const seen = byPath.get(file.path);
    if (seen && seen.content !== file.content) throw new Error(`two targets write ${file.path} differently`);
    byPath.set(file.path, seen ?? file);
  }
  return [...byPath.values()];
}
