// Validation, cold: a fresh `node` process that imports the compiled generated validators and
// validates each official example once, against a fresh process doing the same with Ajv (schema.json
// read, added as a shared root with ajv-formats, each definition compiled on first use, as the
// steady-state group configures it), and a bare process that only reads the examples (the floor: Node's
// own start-up). Runs alternate between the three; whole-process wall time (spawn → exit) is the
// median of BENCH_COLD_RUNS (default 9) each. Each child also reports, from performance.now(), the time
// inside the process: import (validators, or Ajv + compiling nothing yet) and the first validations.
//
//   node bench/cold.mjs          # standalone, against .bench-tmp/js/<revision> (run `npm run bench` once first)
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SPEC_DIR, TMP } from "./prepare.mjs";
import { loadExamples } from "./validation.mjs";

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 9);

// The children share their first and last lines: read the examples (one JSON file, the same for
// all), then print where the time went. `ok` counts accepted examples; all must pass.
const prologue = (examplesFile) => `
import { readFileSync } from "node:fs";
const examples = JSON.parse(readFileSync(${JSON.stringify(examplesFile)}, "utf8"));
const t0 = performance.now();`;
const epilogue = `
const t2 = performance.now();
if (ok !== examples.length) { console.error("rejected " + (examples.length - ok) + " examples"); process.exit(1); }
console.log(JSON.stringify({ importMs: t1 - t0, validateMs: t2 - t1, insideMs: t2 }));`;

const CHILDREN = {
  bare: (examplesFile) => `${prologue(examplesFile)}
const t1 = performance.now();
let ok = examples.length;${epilogue}`,
  ours: (examplesFile, jsDir) => `${prologue(examplesFile)}
const { validators } = await import(${JSON.stringify(pathToFileURL(join(jsDir, "validators.js")).href)});
const t1 = performance.now();
let ok = 0;
for (const e of examples) if (validators[e.type](e.value).ok) ok++;${epilogue}`,
  ajv: (examplesFile, _jsDir, schemaFile) => `${prologue(examplesFile)}
import { createRequire } from "node:module";
const require = createRequire(${JSON.stringify(pathToFileURL(join(TMP, "cold-ajv.mjs")).href)});
const schema = JSON.parse(readFileSync(${JSON.stringify(schemaFile)}, "utf8"));
const is2020 = String(schema.$schema).includes("2020");
const Ajv = is2020 ? require("ajv/dist/2020").default : require("ajv").default;
const ajv = new Ajv({ strict: false, allErrors: false });
require("ajv-formats").default(ajv);
ajv.addSchema(schema, "root");
const key = is2020 ? "$defs" : "definitions";
const t1 = performance.now();
let ok = 0;
for (const e of examples) if (ajv.getSchema("root#/" + key + "/" + e.type)(e.value)) ok++;${epilogue}`,
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function runChild(file) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [file], { encoding: "utf8" });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${file} failed (${r.status}):\n${r.stderr}`);
  return { wallMs, ...JSON.parse(r.stdout.trim().split("\n").pop()) };
}

/** Runs the group against the generated validators compiled in `jsDir`, prints the table, returns the figures. */
export function benchCold(revision, jsDir) {
  const examples = loadExamples(revision);
  mkdirSync(TMP, { recursive: true });
  const examplesFile = join(TMP, `cold-examples.${revision}.json`);
  writeFileSync(
    examplesFile,
    JSON.stringify(examples.map((e) => ({ type: e.type, value: e.value }))),
  );
  const schemaFile = join(SPEC_DIR, revision, "schema.json");
  const files = {};
  for (const [key, source] of Object.entries(CHILDREN)) {
    files[key] = join(TMP, `cold-${key}.mjs`);
    writeFileSync(files[key], source(examplesFile, jsDir, schemaFile));
  }
  const keys = Object.keys(CHILDREN);
  const samples = Object.fromEntries(keys.map((k) => [k, []]));
  for (const k of keys) runChild(files[k]); // one unmeasured run each: the file-system cache
  for (let round = 0; round < RUNS; round++) {
    const order = round % 2 === 0 ? keys : [...keys].reverse();
    for (const k of order) samples[k].push(runChild(files[k]));
  }
  const fig = Object.fromEntries(
    keys.map((k) => [
      k,
      Object.fromEntries(
        ["wallMs", "importMs", "validateMs", "insideMs"].map((f) => [
          f,
          median(samples[k].map((s) => s[f])),
        ]),
      ),
    ]),
  );
  const row = (label, get, digits = 1) => {
    const [bare, ajv, ours] = ["bare", "ajv", "ours"].map((k) => get(fig[k]));
    return [
      label,
      {
        bare: bare.toFixed(digits),
        Ajv: ajv.toFixed(digits),
        ours: ours.toFixed(digits),
        "ours ÷ Ajv": (ours / ajv).toFixed(3),
      },
    ];
  };
  const table = Object.fromEntries([
    row("whole process (spawn → exit), ms", (f) => f.wallMs),
    row("  above bare node, ms", (f) => f.wallMs - fig.bare.wallMs),
    row("inside: import / set-up, ms", (f) => f.importMs, 2),
    row("inside: first validation of each example, ms", (f) => f.validateMs, 2),
    row("inside: import + validations, ms", (f) => f.importMs + f.validateMs, 2),
  ]);
  console.log(
    `\nValidation, cold (${revision}, ${examples.length} examples each validated once in a fresh process; median of ${RUNS} alternating runs)`,
  );
  console.table(table);
  const ratio = fig.ours.wallMs / fig.ajv.wallMs;
  const above = (fig.ours.wallMs - fig.bare.wallMs) / (fig.ajv.wallMs - fig.bare.wallMs);
  const inside =
    (fig.ours.importMs + fig.ours.validateMs) / (fig.ajv.importMs + fig.ajv.validateMs);
  console.log(
    `target: ours ≤ 0.1× Ajv — whole process ${ratio.toFixed(3)}× ${ratio <= 0.1 ? "(met)" : "(missed)"}; above bare node ${above.toFixed(3)}×; inside the process ${inside.toFixed(3)}×`,
  );
  return { figures: fig, ratio, above, inside };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const revision = process.env.BENCH_REVISION ?? "2026-07-28";
  const jsDir = join(TMP, "js", revision);
  if (!existsSync(join(jsDir, "validators.js")))
    throw new Error("run `npm run bench` (or prepare.mjs) first");
  benchCold(revision, jsDir);
}
