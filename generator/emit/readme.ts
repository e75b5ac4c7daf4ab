import { regenerateCommand, render, type EmitContext, type GeneratedFile } from "./file.js";
import { RUNTIME_DIR } from "./runtime.js";
import { importedPackages } from "./packages.js";

/**
 * What the output needs of its user's toolchain. TypeScript 5.5: the runtime's types use
 * `AbortSignal.any` (test/generator/emit/output-typescript-floor checks the output compiles with it); Node 20: the
 * oldest Node the runtime is tested on.
 */
export const REQUIREMENTS = { typescript: "5.5", node: "20" } as const;

/** `README.md`: what the folder holds, where it came from, how to regenerate and vendor it. */
export function readmeFile(ctx: EmitContext, files: readonly GeneratedFile[]): GeneratedFile {
  const { model } = ctx;
  const runtime = files
    .filter((f) => f.path.startsWith(RUNTIME_DIR))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const rows = files
    .filter((f) => !f.path.startsWith(RUNTIME_DIR))
    .map((f) => ({ path: f.path, description: f.description ?? "" }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  if (runtime.length > 0) {
    rows.push({
      path: RUNTIME_DIR,
      description: `the hand-written, revision-independent runtime the modules above import (${runtime.map((f) => f.path.slice(RUNTIME_DIR.length)).join(", ")})`,
    });
  }
  rows.push({
    path: ".mcp-gen.json",
    description:
      "what mcp-gen wrote here, each file with its sha256 (how a regeneration knows its own files)",
  });
  const commit = ctx.provenance?.sourceCommit;
  return {
    path: "README.md",
    content: render("README.md.hbs", {
      revision: model.revision,
      protocolVersion: model.protocolVersion,
      version: ctx.generatorVersion,
      sha256: model.source.sha256,
      source: commit
        ? `the schema as pinned at upstream commit \`${commit}\` (mcp-gen's \`schema/revisions.json\`)`
        : "a local `schema.ts` (not a pinned upstream copy)",
      regenerate: regenerateCommand(ctx),
      typescript: REQUIREMENTS.typescript,
      node: REQUIREMENTS.node,
      files: rows,
      packages: importedPackages(files).map((p) => ({
        name: p.name,
        version: p.version ?? "any",
        files: p.files.map((f) => `\`${f}\``).join(", "),
      })),
    }),
  };
}
