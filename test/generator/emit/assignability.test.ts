import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  Definition,
  ObjectType,
  ProtocolModel,
  TypeNode,
} from "../../../generator/ir/model.js";
import { ModelIndex, walkType } from "../../../generator/ir/query.js";
import { loadModel } from "../../../generator/load/index.js";
import {
  SPEC_DIR,
  diagnosticsIn,
  exportedNames,
  failedChecks,
  generateTypes,
  readSpec,
  runTsc,
  specRevisions,
  specSchemaFile,
  writeCheckDir,
  writeTsconfig,
  type CheckDir,
  type ExportedNames,
  type TscResult,
} from "../../helpers/types-checker.js";

/*
 * The generated types.ts of every revision must describe exactly the types of the spec's schema.ts.
 * For each revision, types.ts and a copy of the spec's schema.ts go into a temporary folder with a
 * checker comparing every exported type and constant both ways; one compiler run checks all
 * revisions at once, under the options of a strict consumer. A second run, at the same time, checks
 * deliberately broken outputs (mutants) to prove each kind of check can fail.
 */

const EXPECTED_REVISIONS = [
  "2024-11-05",
  "2025-03-26",
  "2025-06-18",
  "2025-11-25",
  "2026-07-28",
  "draft",
];

interface Revision {
  revision: string;
  model: ProtocolModel;
  types: string;
  names: { ir: ExportedNames; spec: ExportedNames; gen: ExportedNames };
  check: CheckDir;
}

interface Mutant {
  id: string;
  types: string;
  check: CheckDir;
}

let root = "";
const revisions: Revision[] = [];
const mutants = new Map<string, Mutant>();
let positive: TscResult;
let negative: TscResult;

const union = (...lists: ExportedNames[]): ExportedNames => ({
  types: [...new Set(lists.flatMap((l) => l.types))].sort(),
  values: [...new Set(lists.flatMap((l) => l.values))].sort(),
});

const irNames = (model: ProtocolModel): ExportedNames => ({
  types: model.definitions.map((d) => d.name).sort(),
  values: model.constants.map((c) => c.name).sort(),
});

const definition = (model: ProtocolModel, name: string): Definition => {
  const found = model.definitions.find((d) => d.name === name);
  if (!found) throw new Error(`mutant: no definition ${name} in ${model.revision}`);
  return found;
};

const objectOf = (type: TypeNode | undefined, what: string): ObjectType => {
  if (type?.kind !== "object") throw new Error(`mutant: ${what} is not an object type`);
  return type;
};

/** The mutated models (or texts) checked in the negative run, each expected to fail in its own way. */
const MUTANT_REVISION = "2026-07-28";

async function mutantTypes(
  base: ProtocolModel,
): Promise<Array<{ id: string; types: string; model: ProtocolModel }>> {
  const mutate = async (id: string, change: (model: ProtocolModel) => void) => {
    const model = structuredClone(base);
    change(model);
    return { id, types: await generateTypes(model), model };
  };
  const own = (model: ProtocolModel, name: string, property: string) => {
    const found = objectOf(definition(model, name).type, name).properties.find(
      (p) => p.name === property,
    );
    if (!found) throw new Error(`mutant: no property ${name}.${property}`);
    return found;
  };
  return [
    await mutate("required made optional", (m) => {
      own(m, "Tool", "inputSchema").optional = true;
    }),
    await mutate("nested optional property dropped", (m) => {
      const prompts = objectOf(
        own(m, "ServerCapabilities", "prompts").type,
        "ServerCapabilities.prompts",
      );
      const before = prompts.properties.length;
      prompts.properties = prompts.properties.filter((p) => p.name !== "listChanged");
      if (prompts.properties.length !== before - 1)
        throw new Error("mutant: no ServerCapabilities.prompts.listChanged");
    }),
    await mutate("literal changed", (m) => {
      const method = own(m, "CallToolRequest", "method");
      if (method.type.kind !== "literal" || method.type.value !== "tools/call")
        throw new Error("mutant: CallToolRequest.method");
      method.type = { ...method.type, value: "tools/calls" };
    }),
    await mutate("constant changed", (m) => {
      const version = m.constants.find((c) => c.name === "JSONRPC_VERSION");
      if (!version) throw new Error("mutant: no JSONRPC_VERSION");
      version.value = "2.1";
    }),
    await mutate("unreferenced definition dropped", (m) => {
      const victim = unreferenced(m)[0];
      if (!victim) throw new Error("mutant: every definition is referenced");
      m.definitions = m.definitions.filter((d) => d.name !== victim);
    }),
    // Every `any` of the schema printed as `unknown`: only the identity check sees it.
    await mutate("any written as unknown", (m) => {
      let changed = 0;
      for (const d of m.definitions) {
        walkType(d.type, (node) => {
          if (node.kind === "any") {
            (node as { kind: string }).kind = "unknown";
            changed++;
          }
        });
      }
      if (changed === 0) throw new Error("mutant: no `any` in the model");
    }),
  ];
}

/** Definitions no other definition refers to (by ref or extends), which can go without breaking types.ts. */
function unreferenced(model: ProtocolModel): string[] {
  const used = new Set<string>();
  for (const d of model.definitions) {
    d.heritage.forEach((h) => used.add(h.name));
    walkType(d.type, (node) => {
      if (node.kind === "ref") used.add(node.name);
    });
  }
  return model.definitions.map((d) => d.name).filter((name) => !used.has(name));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "mcp-gen-types-"));
  const loaded: Array<{ revision: string; model: ProtocolModel; types: string; spec: string }> = [];
  for (const revision of specRevisions()) {
    const model = loadModel(specSchemaFile(revision), { revision });
    loaded.push({ revision, model, types: await generateTypes(model), spec: readSpec(revision) });
  }
  const scanned = exportedNames(
    Object.fromEntries(
      loaded.flatMap((r) => [
        [`${r.revision}/spec`, r.spec],
        [`${r.revision}/gen`, r.types],
      ]),
    ),
  );
  for (const { revision, model, types, spec } of loaded) {
    const names = {
      ir: irNames(model),
      spec: scanned[`${revision}/spec`]!,
      gen: scanned[`${revision}/gen`]!,
    };
    // Checked names: all of them, so that a name missing on either side is also a compile error.
    const check = writeCheckDir(join(root, "revisions", revision), {
      types,
      spec,
      names: union(names.ir, names.spec, names.gen),
    });
    revisions.push({ revision, model, types, names, check });
  }

  const base =
    revisions.find((r) => r.revision === MUTANT_REVISION) ?? revisions[revisions.length - 1]!;
  const spec = readSpec(base.revision);
  for (const mutant of await mutantTypes(base.model)) {
    const dir = join(root, "mutants", mutant.id.replace(/\W+/g, "-"));
    const names = union(base.names.spec, irNames(mutant.model));
    mutants.set(mutant.id, {
      id: mutant.id,
      types: mutant.types,
      check: writeCheckDir(dir, { types: mutant.types, spec, names }),
    });
  }

  // Two compiler runs at once: every revision together (must pass), every mutant together (must not).
  [positive, negative] = await Promise.all([
    runTsc(
      writeTsconfig(
        root,
        "tsconfig.json",
        revisions.map((r) => r.check),
      ),
    ),
    runTsc(
      writeTsconfig(
        root,
        "tsconfig.mutants.json",
        [...mutants.values()].map((m) => m.check),
      ),
    ),
  ]);
}, 300_000);

afterAll(() => {
  if (root && !process.env.KEEP_TYPES_CHECK) rmSync(root, { recursive: true, force: true });
});

describe("generated types.ts against the spec's schema.ts", () => {
  it(`covers every revision of the spec dir (${SPEC_DIR})`, () => {
    expect(revisions.map((r) => r.revision)).toEqual(expect.arrayContaining(EXPECTED_REVISIONS));
  });

  it("exports exactly the spec's types and constants, which are exactly the IR's (every revision)", () => {
    for (const { revision, names } of revisions) {
      expect({ revision, gen: names.gen }).toEqual({ revision, gen: names.spec });
      expect({ revision, ir: names.ir }).toEqual({ revision, ir: names.spec });
      expect(names.spec.types.length, revision).toBeGreaterThan(50);
    }
  });

  it("is byte-identical run to run (every revision)", async () => {
    for (const { revision, model, types } of revisions) {
      expect(await generateTypes(model), revision).toBe(types);
    }
  });

  it("compiles on its own and is mutually assignable and identical to the spec, type by type (one compiler run, all revisions)", () => {
    // On failure: first which checks failed, per revision, then the compiler's own output.
    const failed = revisions.map((r) => ({
      revision: r.revision,
      failed: failedChecks(positive, root, r.check),
    }));
    expect(failed).toEqual(revisions.map((r) => ({ revision: r.revision, failed: [] })));
    expect(positive.output).toBe("");
    expect(positive.exitCode).toBe(0);
  });
});

describe("the check can fail (mutants, one more compiler run)", () => {
  const failures = (id: string): string[] => failedChecks(negative, root, mutants.get(id)!.check);
  const typesErrors = (id: string): string[] =>
    diagnosticsIn(negative, root, mutants.get(id)!.check, "types.ts").map((d) => d.code);

  it("fails the run as a whole", () => {
    expect(negative.exitCode).not.toBe(0);
    for (const id of mutants.keys()) expect(failures(id), id).not.toEqual([]);
  });

  it("catches a required property made optional", () => {
    expect(failures("required made optional")).toContain("Tool: gen→spec");
    expect(typesErrors("required made optional")).toEqual([]);
  });

  it("catches an optional property missing deep inside, which plain assignability lets through", () => {
    const failed = failures("nested optional property dropped");
    expect(failed).toContain("ServerCapabilities: gen→spec required");
    expect(failed).not.toContain("ServerCapabilities: gen→spec");
    expect(failed).not.toContain("ServerCapabilities: spec→gen");
  });

  it("catches a changed literal", () => {
    const failed = failures("literal changed");
    expect(failed).toContain("CallToolRequest: spec→gen");
    expect(failed).toContain("CallToolRequest: gen→spec");
  });

  it("catches a changed constant", () => {
    expect(failures("constant changed")).toEqual(
      expect.arrayContaining([
        "JSONRPC_VERSION: const gen→spec",
        "JSONRPC_VERSION: const spec→gen",
      ]),
    );
  });

  it("catches a missing definition, in the compiler and in the name comparison", () => {
    const mutant = mutants.get("unreferenced definition dropped")!;
    const base =
      revisions.find((r) => r.revision === MUTANT_REVISION) ?? revisions[revisions.length - 1]!;
    const missing = unreferenced(base.model)[0]!;
    expect(failures(mutant.id)).toContain(`${missing}: spec→gen`);
    expect(typesErrors(mutant.id)).toEqual([]);
    const gen = exportedNames({ mutant: mutant.types }).mutant!;
    expect(base.names.spec.types.filter((name) => !gen.types.includes(name))).toEqual([missing]);
  });

  it("tells `any` from `unknown` through the identity check only", () => {
    const failed = failures("any written as unknown");
    const index = new ModelIndex(revisions.find((r) => r.revision === MUTANT_REVISION)!.model);
    expect(index.get("Request")).toBeDefined();
    expect(failed).toContain("Request: identical");
    expect(failed.filter((f) => !f.endsWith(": identical"))).toEqual([]);
    // And the file no longer compiles: interfaces narrowing the slot fail their extends clause.
    expect(typesErrors("any written as unknown")).toContain("TS2430");
  });
});
