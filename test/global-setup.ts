import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadModel } from "../generator/load/index.js";
import { emitRevision } from "../generator/emit/index.js";
import { emitFacts, REVISIONS, ROOT, generatedDir, schemaFile } from "./helpers/spec.js";

/** The dual-era output the tests drive: the current revision, also serving these initialize-era ones. */
export const DUAL = { revision: "2026-07-28", legacy: ["2025-11-25", "2025-06-18"] } as const;

/** Generates every revision of the spec dir into generated/ once, and the dual-era server into generated/dual/, before any test file runs. */
export default async function setup(): Promise<void> {
  const version = (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }
  ).version;
  const models = new Map(
    REVISIONS.map((revision) => [revision, loadModel(schemaFile(revision), { revision })] as const),
  );
  for (const [revision, model] of models)
    await emitRevision(model, {
      outDir: generatedDir(revision),
      generatorVersion: version,
      ...emitFacts(model),
      auth: true,
    });
  const modern = models.get(DUAL.revision);
  if (modern) {
    const legacy = DUAL.legacy.map((revision) => models.get(revision)!);
    await emitRevision(modern, {
      outDir: join(ROOT, "generated", "dual"),
      generatorVersion: version,
      ...emitFacts(modern),
      legacy,
    });
  }
}
