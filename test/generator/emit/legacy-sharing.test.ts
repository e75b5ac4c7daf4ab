import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadModel } from "../../../generator/load/index.js";
import type { ProtocolModel } from "../../../generator/ir/model.js";
import { sharedNames, typeShape } from "../../../generator/emit/sharing.js";
import { validatorsTarget } from "../../../generator/emit/validators/target.js";
import { ValidatorCompiler } from "../../../generator/emit/validators/compile.js";
import { ident } from "../../../generator/emit/code.js";
import { typesTarget } from "../../../generator/emit/types/target.js";
import {
  examples,
  generatedDir,
  RELEASES,
  REVISIONS,
  ROOT,
  schemaFile,
} from "../../helpers/spec.js";
import { createOracle } from "../../helpers/oracle.js";
import { schemaArbitraries } from "../../helpers/schema-arbitraries.js";
import { mutationArbitrary, mutationFamily } from "../../helpers/mutate.js";
import { schemaFacts } from "../../helpers/mutation-pools.js";
import type { Json } from "../../helpers/json-value.js";

/*
 * A legacy revision's types.ts and validators.ts re-export what a newer revision in the same output
 * emits the same (generator/emit/sharing.ts). Shared or not, every legacy validator must answer as
 * the revision's own standalone validators.ts does (generated/<revision>/, which the differential
 * test holds against Ajv), errors included.
 */

const item = (name: string, text: string, references: string[] = []) => ({
  name,
  text,
  references,
});

describe("sharedNames", () => {
  it("shares a definition emitted the same whose references are shared", () => {
    const own = [item("A", "a", ["B"]), item("B", "b"), item("C", "c")];
    const newer = new Map([
      ["A", "a"],
      ["B", "b"],
      ["C", "other"],
    ]);
    expect([...sharedNames(own, newer)].sort()).toEqual(["A", "B"]);
  });

  it("does not share one emitted the same whose reference differs, transitively", () => {
    // A calls B calls C; C differs: none of them is the newer revision's.
    const own = [item("A", "a", ["B"]), item("B", "b", ["C"]), item("C", "c"), item("D", "d")];
    const newer = new Map([
      ["A", "a"],
      ["B", "b"],
      ["C", "changed"],
      ["D", "d"],
    ]);
    expect([...sharedNames(own, newer)]).toEqual(["D"]);
  });

  it("shares a cycle whose members are all the same, and no reference outside the module", () => {
    const own = [item("A", "a", ["B"]), item("B", "b", ["A"]), item("E", "e", ["Missing"])];
    const newer = new Map([
      ["A", "a"],
      ["B", "b"],
      ["E", "e"],
    ]);
    expect([...sharedNames(own, newer)].sort()).toEqual(["A", "B"]);
  });

  it("shares nothing when nothing is the same", () => {
    expect(sharedNames([item("A", "a")], new Map([["A", "b"]])).size).toBe(0);
    expect(sharedNames([item("A", "a")], new Map()).size).toBe(0);
  });
});

describe("legacy modules of a fixture pair", () => {
  let root: string;
  let older: ProtocolModel;
  let newer: ProtocolModel;
  let disjoint: ProtocolModel;

  const schema = (name: string, text: string, revision: string) => {
    const file = join(root, `${name}.ts`);
    writeFileSync(file, text);
    return loadModel(file, { revision });
  };
  const emit = (model: ProtocolModel, from: ProtocolModel | undefined) => {
    const ctx = {
      model,
      generatorVersion: "0.0.0",
      releases: RELEASES,
      dir: "legacy/old/",
      newer: from && { model: from, dir: "" },
    };
    const [types] = typesTarget.emit(ctx);
    const [validators] = validatorsTarget.emit(ctx);
    return { types: types!.content, validators: validators!.content };
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "mcp-gen-sharing-"));
    const common = `/** Same everywhere. */\nexport interface Same { x: number; tag?: string }\n`;
    // Uses reads Bar, which is a string in one revision and a number in the other: Uses is emitted
    // the same in both, but its check calls a different checkBar.
    older = schema(
      "old",
      `${common}export interface Bar { a: string }\nexport interface Uses { bar: Bar; same: Same }\n`,
      "2000-01-01",
    );
    newer = schema(
      "new",
      `${common}export interface Bar { a: number }\nexport interface Uses { bar: Bar; same: Same }\n`,
      "2000-02-01",
    );
    disjoint = schema("other", `export interface Other { y: boolean }\n`, "2000-03-01");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("re-exports the shared definition and emits the one whose reference differs", () => {
    const { types, validators } = emit(older, newer);
    expect(validators).toMatch(/export \{ isSame, validateSame \};/);
    expect(validators).toMatch(/from "\.\.\/\.\.\/validators\.js"/);
    expect(validators).toMatch(/export const isUses = /);
    expect(validators).toMatch(/export const isBar = /);
    expect(validators).not.toMatch(/export const isSame = /);
    // Uses' own check calls Same through a bridge that takes the newer module's error as its own.
    expect(validators).toMatch(
      /function checkSame\(v: any\): boolean \{\s*return isSame\(v\) \|\| adopt\(validateSame\(v\)\);/,
    );
    expect(validators).toMatch(/Same: validateSame,/);
    expect(types).toMatch(/import type \{ Same \} from "\.\.\/\.\.\/types\.js";/);
    expect(types).toMatch(/export type \{ Same \};/);
    expect(types).toMatch(/export interface Uses/);
    expect(types).toMatch(/export interface Bar/);
  });

  it("emits everything, as a single revision does, when nothing is shared", () => {
    const alone = emit(older, undefined);
    const none = emit(older, disjoint);
    expect(none).toEqual(alone);
    expect(none.validators).not.toMatch(/adopt|\.\.\/\.\.\/validators\.js/);
    expect(none.types).not.toMatch(/import/);
  });
});

describe("validators shared by shape", () => {
  // sharedValidators compares shapes, not compiled code: sound only while the compiler reads
  // nothing a shape leaves out (docs, lines, where a property was declared, deprecation notes).
  const compiled = (model: ProtocolModel) => {
    const compiler = new ValidatorCompiler((format) =>
      ident(`format_${format.replace(/\W/g, "_")}`),
    );
    return new Map(
      model.definitions.map((d) => [d.name, compiler.addDefinition(d).map(String).join("\n")]),
    );
  };

  it("compiles definitions of equal shape in two revisions to the same checks, docs aside", () => {
    const models = REVISIONS.map((revision) => loadModel(schemaFile(revision), { revision }));
    let equalShapes = 0;
    let documentedApart = 0;
    for (const [i, older] of models.entries()) {
      const newer = models[i + 1];
      if (!newer) break;
      const [olderChecks, newerChecks] = [compiled(older), compiled(newer)];
      const newerByName = new Map(newer.definitions.map((d) => [d.name, d]));
      for (const definition of older.definitions) {
        const other = newerByName.get(definition.name);
        if (!other || typeShape(other.type) !== typeShape(definition.type)) continue;
        equalShapes++;
        if (JSON.stringify(other.type) !== JSON.stringify(definition.type)) documentedApart++;
        expect(olderChecks.get(definition.name), `${older.revision} ${definition.name}`).toBe(
          newerChecks.get(definition.name),
        );
      }
    }
    expect(equalShapes).toBeGreaterThan(100);
    // Pairs whose docs or lines differ are what the comparison is about: there must be some.
    expect(documentedApart).toBeGreaterThan(10);
  });
});

describe("the dual-era output's legacy validators", () => {
  type Result = { ok: boolean; errors?: unknown };
  type Module = Record<string, unknown> & {
    validators: Readonly<Record<string, (value: unknown) => Result>>;
  };
  const DUAL = join(ROOT, "generated", "dual");
  const legacyRevisions = (): string[] => {
    const header = readFileSync(join(DUAL, "index.ts"), "utf8");
    return [...header.matchAll(/Also serves initialize-era revision (\S+);/g)].map((m) => m[1]!);
  };
  const EXAMPLE_VALUES = examples("2026-07-28").map((e) => e.value as Json);

  it("serves several legacy revisions, and re-exports some of each one's validators", async () => {
    const revisions = legacyRevisions();
    expect(revisions.length).toBeGreaterThan(1);
    let newer = (await import(join(DUAL, "validators.ts"))) as Module;
    for (const revision of revisions) {
      const path = join(DUAL, "legacy", revision, "validators.ts");
      const module = (await import(path)) as Module;
      const reexported = Object.keys(module.validators).filter(
        (name) => module[`is${name}`] === newer[`is${name}`],
      );
      expect(reexported.length, revision).toBeGreaterThan(0);
      // A re-exported validator is the newer module's own function, validate included.
      for (const name of reexported)
        expect(module[`validate${name}`], `${revision} ${name}`).toBe(newer[`validate${name}`]);
      newer = module;
    }
  });

  it("answers as the revision's own validators.ts does, errors included", async () => {
    for (const [index, revision] of legacyRevisions().entries()) {
      const legacy = (await import(join(DUAL, "legacy", revision, "validators.ts"))) as Module;
      const alone = (await import(join(generatedDir(revision), "validators.ts"))) as Module;
      const names = Object.keys(alone.validators);
      expect(Object.keys(legacy.validators).sort()).toEqual([...names].sort());
      const oracle = createOracle(revision);
      const arbitraryOf = schemaArbitraries(oracle.schema, oracle.defsKey);
      const facts = schemaFacts(oracle.schema);
      const seed = fc.oneof(
        fc.constantFrom(...EXAMPLE_VALUES),
        fc.constantFrom(...oracle.names).chain((name) => arbitraryOf(name)),
      );
      const mutations = fc.array(mutationArbitrary, { minLength: 1, maxLength: 4 });
      const target = fc.constantFrom(...names);
      let rejected = 0;
      fc.assert(
        fc.property(seed, mutations, target, (start, steps, name) => {
          for (const value of mutationFamily(start as Json, steps, facts, EXAMPLE_VALUES)) {
            const ours = legacy.validators[name]!(value);
            const theirs = alone.validators[name]!(value);
            if (!ours.ok) rejected++;
            expect({ name, ok: ours.ok, errors: ours.errors }).toEqual({
              name,
              ok: theirs.ok,
              errors: theirs.errors,
            });
          }
        }),
        { seed: 0x5a4e + index, numRuns: 400 },
      );
      expect(rejected, revision).toBeGreaterThan(0);
    }
  });
});
