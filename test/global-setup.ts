import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadModel } from "../generator/load/index.js";
import { emitRevision } from "../generator/emit/index.js";
import { REVISIONS, ROOT, generatedDir, schemaFile } from "./helpers/spec.js";

/** Generates every revision of the spec dir into generated/ once, before any test file runs. */
export default async function setup(): Promise<void> {
  const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  for (const revision of REVISIONS) {
    const model = loadModel(schemaFile(revision), { revision });
    await emitRevision(model, { outDir: generatedDir(revision), generatorVersion: version });
  }
}
