import { beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { REVISIONS, examples, generatedDir, officialSchema } from "../helpers/spec.js";

type Result =
  { ok: true; value: unknown } | { ok: false; errors: { path: string; message: string }[] };
type Validators = Readonly<Record<string, (value: unknown) => Result>>;

async function loadValidators(revision: string): Promise<Validators> {
  const module = (await import(join(generatedDir(revision), "validators.ts"))) as {
    validators: Validators;
  };
  return module.validators;
}

const EXAMPLE_REVISION = "2026-07-28";
const EXAMPLES = examples(EXAMPLE_REVISION);

describe(`official examples of ${EXAMPLE_REVISION}`, () => {
  let validators: Validators;
  beforeAll(async () => {
    validators = await loadValidators(EXAMPLE_REVISION);
  });

  it("are all there", () => {
    expect(EXAMPLES).toHaveLength(129);
  });

  it.each(EXAMPLES.map((example) => ({ ...example, name: `${example.type}/${example.file}` })))(
    "$name passes its own type's validator",
    ({ type, value }) => {
      const validate = validators[type];
      expect(validate, `no validator for ${type}`).toBeTypeOf("function");
      const result = validate!(value);
      expect(result.ok ? [] : result.errors).toEqual([]);
      expect(result).toEqual({ ok: true, value });
      expect(result.ok && result.value).toBe(value);
    },
  );
});

describe("validators cover exactly the definitions of schema.json", () => {
  it("for all six revisions", () => {
    expect(REVISIONS).toEqual([
      "2024-11-05",
      "2025-03-26",
      "2025-06-18",
      "2025-11-25",
      "2026-07-28",
      "draft",
    ]);
  });

  it.each(REVISIONS)("%s", async (revision) => {
    const validators = await loadValidators(revision);
    const { schema, defsKey } = officialSchema(revision);
    const expected = Object.keys(schema[defsKey] as Record<string, unknown>).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(Object.keys(validators).sort()).toEqual(expected);
    for (const name of expected) expect(validators[name], name).toBeTypeOf("function");
  });
});
