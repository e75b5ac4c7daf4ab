// Validation, steady state: ns per message over the official examples, ours beside Ajv (compiled once
// from the official schema.json, shared root, allErrors false) and JSON.parse of the same messages.
import { createRequire } from "node:module";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { measure, do_not_optimize } from "mitata";
import { SPEC_DIR } from "./prepare.mjs";

const require = createRequire(import.meta.url);

export function loadExamples(revision) {
  const dir = join(SPEC_DIR, revision, "examples");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().flatMap((type) =>
    readdirSync(join(dir, type)).sort().map((file) => {
      const text = readFileSync(join(dir, type, file), "utf8");
      return { type, text, value: JSON.parse(text) };
    }),
  );
}

export function compileAjv(revision) {
  const schema = JSON.parse(readFileSync(join(SPEC_DIR, revision, "schema.json"), "utf8"));
  const is2020 = String(schema.$schema).includes("2020");
  const Ajv = is2020 ? require("ajv/dist/2020").default : require("ajv").default;
  const ajv = new Ajv({ strict: false, allErrors: false });
  require("ajv-formats").default(ajv);
  ajv.addSchema(schema, "root");
  const key = is2020 ? "$defs" : "definitions";
  return (type) => ajv.getSchema(`root#/${key}/${type}`);
}

export async function benchValidation(revision, jsDir) {
  const examples = loadExamples(revision);
  const ours = await import(join(jsDir, "validators.js"));
  const ajvFor = compileAjv(revision);
  const oursCases = examples.map((e) => [ours.validators[e.type], e.value]);
  const ajvCases = examples.map((e) => [ajvFor(e.type), e.value]);
  for (const [validate, value] of oursCases) if (!validate(value).ok) throw new Error("example rejected by ours");
  for (const [validate, value] of ajvCases) if (!validate(value)) throw new Error("example rejected by Ajv");
  const texts = examples.map((e) => e.text);
  const perMessage = async (fn) => (await measure(fn, { min_cpu_time: 1e9 })).avg / examples.length;
  const results = {
    ours: await perMessage(() => {
      for (let i = 0; i < oursCases.length; i++) do_not_optimize(oursCases[i][0](oursCases[i][1]));
    }),
    ajv: await perMessage(() => {
      for (let i = 0; i < ajvCases.length; i++) do_not_optimize(ajvCases[i][0](ajvCases[i][1]));
    }),
    "JSON.parse": await perMessage(() => {
      for (let i = 0; i < texts.length; i++) do_not_optimize(JSON.parse(texts[i]));
    }),
  };
  return { messages: examples.length, results };
}
