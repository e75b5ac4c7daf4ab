import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { renderRevision } from "../../../generator/emit/index.js";
import {
  PRECOMPILED_FILE,
  precompiledModule,
  TEMPLATES_DIR,
  usePrecompiled,
} from "../../../generator/emit/templates.js";
import { loadModel } from "../../../generator/load/index.js";
import { emitFacts, REVISIONS, schemaFile } from "../../helpers/spec.js";

// `npm run build` precompiles the Handlebars templates (generator/emit/templates.ts); a run must
// render exactly what the templates on disk say, whether it uses the build's copy or compiles them.
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const names = readdirSync(TEMPLATES_DIR)
  .filter((name) => name.endsWith(".hbs"))
  .sort();

afterAll(() => usePrecompiled(true));

describe("precompiled templates", () => {
  it("the build holds every template, compiled from its current source", () => {
    const built = createRequire(import.meta.url)(PRECOMPILED_FILE) as Record<
      string,
      { sha256: string }
    >;
    expect(Object.keys(built).sort()).toEqual(names);
    for (const name of names)
      expect(built[name]!.sha256, name).toBe(sha256(readFileSync(TEMPLATES_DIR + name)));
  });

  it("the precompiled module is the same every time it is made", () => {
    expect(precompiledModule()).toBe(precompiledModule());
    expect(readFileSync(PRECOMPILED_FILE, "utf8")).toBe(precompiledModule());
  });

  it.each(REVISIONS)(
    "%s renders the same files from the build's templates as from their sources",
    async (revision) => {
      const model = loadModel(schemaFile(revision), { revision });
      usePrecompiled(true);
      const fromBuild = await renderRevision(model, "test", emitFacts(model));
      usePrecompiled(false);
      const fromSource = await renderRevision(model, "test", emitFacts(model));
      expect(fromSource.map((f) => f.path)).toEqual(fromBuild.map((f) => f.path));
      expect(fromSource).toEqual(fromBuild);
    },
  );
});
