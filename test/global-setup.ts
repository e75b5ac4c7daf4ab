import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadModel } from "../generator/load/index.js";
import { emitRevision } from "../generator/emit/index.js";
import {
  defaultLegacy,
  legacyCandidates,
  newestFirst,
} from "../generator/derive/legacy-default.js";
import { catalog } from "../generator/spec/catalog.js";
import { emitFacts, REVISIONS, ROOT, SPEC_DIR, generatedDir, schemaFile } from "./helpers/spec.js";

/**
 * The dual-era output the tests drive (generated/dual): the current revision as mcp-gen generates it
 * by default, also serving every released initialize-era revision before it (derive/legacy-default.ts).
 */
export const DUAL_REVISION = "2026-07-28";

/** Generates every revision of the spec dir into generated/, and the dual-era server into generated/dual/ (and with --telemetry otel into generated/otel/), before any test file runs: the one generation of a test run (`npm test` type-checks the tests against it afterwards). */
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
  const modern = models.get(DUAL_REVISION);
  if (modern) {
    const known = catalog({ specDir: SPEC_DIR, env: {} }).filter((entry) =>
      entry.present.includes("spec-dir"),
    );
    const candidates = legacyCandidates(
      DUAL_REVISION,
      modern.lifecycle.kind === "stateless",
      known,
    ).map((revision) => models.get(revision)!);
    const legacy = newestFirst(defaultLegacy(modern, candidates));
    await emitRevision(modern, {
      outDir: join(ROOT, "generated", "dual"),
      generatorVersion: version,
      ...emitFacts(modern),
      legacy,
    });
    // The same server and client generated with --telemetry otel (test/runtime/telemetry/).
    await emitRevision(modern, {
      outDir: join(ROOT, "generated", "otel"),
      generatorVersion: version,
      ...emitFacts(modern),
      legacy,
      telemetry: "otel",
    });
  }
}
