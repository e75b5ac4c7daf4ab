/**
 * `mcp-gen tools` emits, for each tool, JSON Schemas and compiled validators from the same types:
 * they must agree. Proven as the spec validators are (test/generator/emit/differential.test.ts): Ajv (2020-12,
 * ajv-formats) compiled from each emitted schema is the oracle, over values generated from the
 * schema and mutated where validation turns (test/helpers/mutate.ts). 0 disagreements.
 */
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { CHECKS, TOOLS, type Check } from "../../../generated/tools/index.js";
import { rejectionProblem } from "../../helpers/oracle-pointer.js";
import { isJson } from "../../helpers/json-value.js";
import { mutationArbitrary, mutationFamily } from "../../helpers/mutate.js";
import { schemaFacts } from "../../helpers/mutation-pools.js";
import { schemaArbitraries } from "../../helpers/schema-arbitraries.js";

const interop = <T>(m: unknown): T => ((m as { default?: unknown }).default ?? m) as T;
const Ajv2020 = interop<typeof Ajv2020Module.default>(Ajv2020Module);
const addFormats = interop<typeof addFormatsModule.default>(addFormatsModule);

const RUNS = 3_000;
const MUTATIONS = 8;
const SEED = 0x746f6f;

type Schema = { [key: string]: unknown };

/** Every emitted schema with the compiled check made from the same type. */
const CASES = Object.entries(TOOLS).flatMap(([name, tool]) => {
  const checks = CHECKS[name as keyof typeof CHECKS] as { input: Check; output?: Check };
  const cases: Array<{ label: string; schema: Schema; check: Check }> = [
    { label: `${name} input`, schema: tool.inputSchema as Schema, check: checks.input },
  ];
  const output = (tool as { outputSchema?: Schema }).outputSchema;
  if (output && checks.output)
    cases.push({ label: `${name} output`, schema: output, check: checks.output });
  return cases;
});

const counted: string[] = [];
afterAll(() => console.log(`tools differential: ${counted.join(", ")}`));

describe("the emitted tool schemas and compiled validators agree", () => {
  it("covers every tool of the example tools file, inputs and outputs", () => {
    expect(CASES.map((c) => c.label).sort()).toEqual([
      "get_weather input",
      "get_weather output",
      "search-flights input",
      "search-flights output",
      "sum input",
      "sum output",
    ]);
  });

  it.each(CASES.map((c, i) => ({ ...c, i })))(
    "$label: 0 disagreements with Ajv",
    ({ label, schema, check, i }) => {
      const ajv = new Ajv2020({ strict: true, allErrors: false });
      addFormats(ajv);
      const oracle = ajv.compile(schema); // strict: the emitted schema uses only keywords Ajv knows
      // The generators read `$defs` of one root: the schema's own definitions, and the schema itself.
      const { $defs, ...self } = schema as { $defs?: Record<string, Schema> };
      const root: Schema = { $defs: { ...$defs, "": self } };
      const generate = schemaArbitraries(root, "$defs")("");
      const facts = schemaFacts(root);
      // The spec's schema always has literals and property names; a tool's may have none (the
      // mutations pick from these pools).
      if (facts.literals.length === 0) facts.literals.push("", "x");
      if (facts.propertyNames.length === 0) facts.propertyNames.push("x");
      // What a `graft` mutation may insert: other values of the same schema.
      const donors = fc.sample(generate, { numRuns: 20, seed: SEED });
      const disagreements: string[] = [];
      let cases = 0;
      fc.assert(
        fc.property(
          generate,
          fc.array(mutationArbitrary, { minLength: 1, maxLength: MUTATIONS }),
          (seed, steps) => {
            for (const value of mutationFamily(seed, steps, facts, donors)) {
              if (!isJson(value))
                throw new Error(
                  `non-JSON value ${String(value)} ${JSON.stringify(value)} from seed ${JSON.stringify(seed)}`,
                );
              cases++;
              const ours = check(value);
              const theirs = oracle(value);
              if (ours.ok !== theirs)
                disagreements.push(
                  `${JSON.stringify(value)}: ours ${ours.ok}, Ajv ${theirs} ${JSON.stringify(oracle.errors)}`,
                );
              else if (!ours.ok) {
                const problem = rejectionProblem(
                  value,
                  ours as { ok: false; errors: Array<{ path: string; message: string }> },
                );
                if (problem) disagreements.push(`${JSON.stringify(value)}: ${problem}`);
              }
            }
          },
        ),
        { seed: SEED + i, numRuns: RUNS },
      );
      counted.push(`${label} ${cases} values, ${disagreements.length} disagreements`);
      expect(disagreements.slice(0, 5)).toEqual([]);
      expect(cases).toBeGreaterThanOrEqual(RUNS * 2);
    },
  );
});
