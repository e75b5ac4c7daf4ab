import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { join } from "node:path";
import { REVISIONS, examples, generatedDir } from "../../helpers/spec.js";
import { KNOWN_DEFECTS, createOracle, type Oracle } from "../../helpers/oracle.js";
import {
  rejectionProblem,
  resolvePointer,
  type ValidationFailure,
} from "../../helpers/oracle-pointer.js";
import { isJson, type Json } from "../../helpers/json-value.js";
import { mutationArbitrary, mutationFamily } from "../../helpers/mutate.js";
import { schemaFacts } from "../../helpers/mutation-pools.js";
import { schemaArbitraries } from "../../helpers/schema-arbitraries.js";

/*
 * Differential tests of the generated validators against Ajv compiled from the official
 * schema.json, with the known defects of schema.json repaired (test/helpers/oracle.ts):
 *
 * (a) every official example (they exist for 2026-07-28 only; to the other revisions they are just
 *     JSON values) against every definition;
 * (b) property-based: seeds (the examples and values generated from each definition) mutated in
 *     ways JSON Schema validation turns on, each mutated value against every definition;
 * (c) on every rejection seen by (a) and (b), the error location keeps its contract
 *     (test/helpers/oracle-pointer.ts).
 *
 * Reproducible: fast-check runs with a fixed seed per revision.
 */

type Result = { ok: true; value: unknown } | ValidationFailure;
type Validators = Readonly<Record<string, (value: unknown) => Result>>;

const EXAMPLE_REVISION = "2026-07-28";
const EXAMPLES = examples(EXAMPLE_REVISION);
const EXAMPLE_VALUES = EXAMPLES.map((example) => example.value as Json);

/** Seeds per revision. */
const RUNS = 20_000;
/** Mutations per seed (at most): each is checked alone, and all of them together. */
const MUTATIONS = 8;
/** Besides the seed's own definition, each value is checked against this many others, picked at random. */
const OTHER_DEFINITIONS = 3;
const SEED = 0x6d6370;

async function loadValidators(revision: string): Promise<Validators> {
  const module = (await import(join(generatedDir(revision), "validators.ts"))) as {
    validators: Validators;
  };
  return module.validators;
}

/** A disagreement between our validator and the oracle, or a broken rejection; `null` when all is well. */
function check(
  validators: Validators,
  oracle: Oracle,
  name: string,
  value: unknown,
): string | null {
  const validate = validators[name];
  if (!validate) return `${name}: no validator`;
  const ours = validate(value);
  const theirs = oracle.validator(name)(value);
  if (ours.ok !== theirs) {
    const why = ours.ok
      ? `Ajv: ${oracle.explain(name, value)}`
      : `ours: ${JSON.stringify(ours.errors)}`;
    return `${name}: ours ${ours.ok ? "accepts" : "rejects"}, Ajv ${theirs ? "accepts" : "rejects"} (${why})`;
  }
  if (ours.ok)
    return ours.value === value ? null : `${name}: ok result does not carry the input value`;
  const problem = rejectionProblem(value, ours);
  return problem && `${name}: ${problem}`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

const counts = new Map<
  string,
  { definitions: number; exampleCases: number; mutatedValues: number; mutationCases: number }
>();

afterAll(() => {
  for (const [revision, c] of counts) {
    console.log(
      `differential ${revision}: ${c.exampleCases} example cases (${EXAMPLES.length} examples × ${c.definitions} definitions), ` +
        `${c.mutationCases} mutation cases (${c.mutatedValues} seeds and mutated values, each against its own and ${OTHER_DEFINITIONS} other definitions), ` +
        `${c.exampleCases + c.mutationCases} in total`,
    );
  }
});

describe.each(REVISIONS.map((revision, index) => ({ revision, index })))(
  "$revision",
  ({ revision, index }) => {
    let validators: Validators;
    let oracle: Oracle;
    const count = { definitions: 0, exampleCases: 0, mutatedValues: 0, mutationCases: 0 };

    beforeAll(async () => {
      validators = await loadValidators(revision);
      oracle = createOracle(revision);
      count.definitions = oracle.names.length;
      counts.set(revision, count);
    });

    it("(a) agrees with the oracle on every example × every definition", () => {
      expect(EXAMPLES.length).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const example of EXAMPLES) {
        for (const name of oracle.names) {
          count.exampleCases++;
          const problem = check(validators, oracle, name, example.value);
          if (problem) problems.push(`${example.type}/${example.file} as ${problem}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it("(b) agrees with the oracle on mutated values", () => {
      const facts = schemaFacts(oracle.schema);
      const arbitraryOf = schemaArbitraries(oracle.schema, oracle.defsKey);
      const names = oracle.names;
      // A seed and the definition it is meant to be (an example's folder, when the revision has it).
      const examples = fc
        .constantFrom(...EXAMPLES)
        .map((e) => ({ name: names.includes(e.type) ? e.type : null, value: e.value as Json }));
      const generated = fc
        .constantFrom(...names)
        .chain((name) =>
          arbitraryOf(name).map((value) => ({ name: name as string | null, value })),
        );
      const seed = fc.oneof(
        { weight: 1, arbitrary: examples },
        { weight: 2, arbitrary: generated },
      );
      const mutations = fc.array(mutationArbitrary, { minLength: 1, maxLength: MUTATIONS });
      const others = fc.array(fc.nat({ max: names.length - 1 }), {
        minLength: OTHER_DEFINITIONS,
        maxLength: OTHER_DEFINITIONS,
      });
      fc.assert(
        fc.property(seed, mutations, others, (start, steps, picks) => {
          const targets = [...(start.name ? [start.name] : []), ...picks.map((i) => names[i]!)];
          // The seed, each mutation of it alone, and all of them at once; each value against the seed's
          // own definition and a few others.
          for (const value of mutationFamily(start.value, steps, facts, EXAMPLE_VALUES)) {
            if (!isJson(value))
              throw new Error(`the mutations produced a non-JSON value: ${show(value)}`);
            count.mutatedValues++;
            const problems: string[] = [];
            for (const name of targets) {
              count.mutationCases++;
              const problem = check(validators, oracle, name, value);
              if (problem) problems.push(problem);
            }
            if (problems.length > 0)
              throw new Error(`value ${show(value)}\n${problems.slice(0, 8).join("\n")}`);
          }
        }),
        { seed: SEED + index, numRuns: RUNS },
      );
      expect(count.mutationCases).toBeGreaterThanOrEqual(10_000);
    });

    it("(c) points into awkward keys with escaped pointers", () => {
      // `experimental` maps any key to an object in every revision: a number under an awkward key
      // must be reported at that key, escaped.
      for (const key of ["a/b~c", "~1", "__proto__", "constructor", ""]) {
        const value = JSON.parse(`{"experimental": {${JSON.stringify(key)}: 1}}`) as Json;
        expect(check(validators, oracle, "ClientCapabilities", value)).toBeNull();
        const result = validators["ClientCapabilities"]!(value);
        expect(result.ok).toBe(false);
        const escaped = key.replace(/~/g, "~0").replace(/\//g, "~1");
        expect((result as ValidationFailure).errors[0]!.path).toBe(`/experimental/${escaped}`);
      }
    });

    it("known defects: each is listed exactly where its witness shows it, and its patch repairs it", () => {
      const unpatched = createOracle(revision, { patched: false });
      for (const defect of KNOWN_DEFECTS) {
        const listed = defect.revisions.includes(revision);
        const { definition, value, valid } = defect.witness;
        if (!(definition in validators)) {
          expect(listed, `${defect.id}: listed for ${revision}, which has no ${definition}`).toBe(
            false,
          );
          continue;
        }
        const ours = validators[definition]!(value).ok;
        const before = unpatched.validator(definition)(value);
        const shows = before !== ours;
        expect(
          shows,
          `${defect.id}: unpatched schema.json ${shows ? "disagrees" : "agrees"} with our validator on the witness, ` +
            `but the table ${listed ? "lists" : "does not list"} ${revision}`,
        ).toBe(listed);
        if (!listed) continue;
        expect(ours, `${defect.id}: our validator on the witness`).toBe(valid);
        expect(
          oracle.validator(definition)(value),
          `${defect.id}: patched oracle on the witness`,
        ).toBe(valid);
        // Applied to a schema already repaired, the patch does not find the defect and says so.
        expect(() =>
          defect.patch(structuredClone(oracle.schema), oracle.defsKey, revision),
        ).toThrow();
      }
    });
  },
);

describe("known defects table", () => {
  it("names only existing revisions, once each, with unique ids", () => {
    expect(new Set(KNOWN_DEFECTS.map((d) => d.id)).size).toBe(KNOWN_DEFECTS.length);
    for (const defect of KNOWN_DEFECTS) {
      expect(defect.revisions.length, defect.id).toBeGreaterThan(0);
      expect(new Set(defect.revisions).size, defect.id).toBe(defect.revisions.length);
      for (const revision of defect.revisions) expect(REVISIONS, defect.id).toContain(revision);
    }
  });
});

describe("the error-location contract checker", () => {
  // The checks of (c) are only as good as the checker: it must reject what breaks the contract.
  const value = JSON.parse('{"a/b": {"~": [1, {"x": null}]}, "__proto__": 0}') as unknown;
  const failure = (path: string, message = "must be string"): ValidationFailure => ({
    ok: false,
    errors: [{ path, message }],
  });

  it("accepts pointers that resolve", () => {
    for (const path of ["", "/a~1b", "/a~1b/~0", "/a~1b/~0/0", "/a~1b/~0/1/x", "/__proto__"]) {
      expect(rejectionProblem(value, failure(path)), path).toBeNull();
    }
    expect(
      rejectionProblem(value, failure("/a~1b/~0/1", "must have required property 'y'")),
    ).toBeNull();
    expect(resolvePointer(value, "/a~1b/~0/1/x")).toEqual({ ok: true, target: null });
  });

  it("rejects pointers that are malformed or do not resolve", () => {
    for (const path of [
      "a",
      "/a/b",
      "/a~2b",
      "/a~",
      "/a~1b/~0/2",
      "/a~1b/~0/01",
      "/a~1b/~0/-1",
      "/a~1b/~0/0/x",
      "/a~1b/~0/1/x/y",
      "/toString",
      "/a~1b/~",
    ]) {
      expect(rejectionProblem(value, failure(path)), path).not.toBeNull();
    }
    expect(
      rejectionProblem(value, failure("/a~1b/~0/1", "must have required property 'x'")),
    ).not.toBeNull();
    expect(
      rejectionProblem(value, failure("/a~1b/~0", "must have required property 'x'")),
    ).not.toBeNull();
    expect(rejectionProblem(value, { ok: false, errors: [] })).not.toBeNull();
    expect(rejectionProblem(value, failure("", ""))).not.toBeNull();
  });
});
