// Validation, steady state: ns per message over the official examples, ours beside Ajv (compiled once
// from the official schema.json, shared root, allErrors false) and JSON.parse of the same messages.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measure, do_not_optimize } from "mitata";
import { ROOT, SPEC_DIR } from "./prepare.mjs";

const require = createRequire(import.meta.url);

export function loadExamples(revision) {
  const dir = join(SPEC_DIR, revision, "examples");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((type) =>
      readdirSync(join(dir, type))
        .sort()
        .map((file) => {
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
  // `isN`, like Ajv's compiled function, answers a boolean and keeps the error aside; `validateN`
  // also allocates its result object, which Ajv's figure would not include.
  const oursCases = examples.map((e) => [ours[`is${e.type}`], e.value]);
  const ajvCases = examples.map((e) => [ajvFor(e.type), e.value]);
  for (const [validate, value] of oursCases)
    if (!validate(value)) throw new Error("example rejected by ours");
  for (const [validate, value] of ajvCases)
    if (!validate(value)) throw new Error("example rejected by Ajv");
  const texts = examples.map((e) => e.text);
  const runs = {
    ours: () => {
      for (let i = 0; i < oursCases.length; i++) do_not_optimize(oursCases[i][0](oursCases[i][1]));
    },
    ajv: () => {
      for (let i = 0; i < ajvCases.length; i++) do_not_optimize(ajvCases[i][0](ajvCases[i][1]));
    },
    "JSON.parse": () => {
      for (let i = 0; i < texts.length; i++) do_not_optimize(JSON.parse(texts[i]));
    },
  };
  return { messages: examples.length, results: await interleaved(runs, examples.length) };
}

/**
 * SDK v2 anchor: the zod schemas of `@modelcontextprotocol/core` (2.4.0), `<Name>Schema` for an
 * example of definition `<Name>`, `.safeParse` over the examples that have one and that it accepts
 * (a rejected example would time zod's error path), and ours over the SAME subset for the ratio.
 * Prints its table; returns the figures.
 */
export async function benchValidationSdk(revision, jsDir) {
  const core = await import("@modelcontextprotocol/core");
  const sdkVersion = JSON.parse(
    readFileSync(
      join(ROOT, "node_modules", "@modelcontextprotocol", "core", "package.json"),
      "utf8",
    ),
  ).version;
  const examples = loadExamples(revision);
  const ours = await import(join(jsDir, "validators.js"));
  const withSchema = examples.filter(
    (e) => typeof core[`${e.type}Schema`]?.safeParse === "function",
  );
  const rejected = withSchema.filter((e) => !core[`${e.type}Schema`].safeParse(e.value).success);
  const subset = withSchema.filter((e) => !rejected.includes(e));
  const oursCases = subset.map((e) => [ours.validators[e.type], e.value]);
  const sdkCases = subset.map((e) => [core[`${e.type}Schema`], e.value]);
  for (const [validate, value] of oursCases)
    if (!validate(value).ok) throw new Error("example rejected by ours");
  const results = await interleaved(
    {
      ours: () => {
        for (let i = 0; i < oursCases.length; i++)
          do_not_optimize(oursCases[i][0](oursCases[i][1]));
      },
      "SDK v2 (zod safeParse)": () => {
        for (let i = 0; i < sdkCases.length; i++)
          do_not_optimize(sdkCases[i][0].safeParse(sdkCases[i][1]));
      },
    },
    subset.length,
  );
  const types = new Set(subset.map((e) => e.type)).size;
  console.log(
    `\nValidation against SDK v2's zod schemas (@modelcontextprotocol/core ${sdkVersion}; ${subset.length} of ${examples.length} examples, ${types} definitions with a <Name>Schema export; ns per message)`,
  );
  console.table(
    Object.entries(results).map(([name, ns]) => ({
      anchor: name,
      "ns/message": ns.toFixed(1),
      "ours ÷ this": (results.ours / ns).toFixed(3),
    })),
  );
  if (rejected.length)
    console.log(
      `left out, rejected by the SDK's schema: ${rejected.map((e) => e.type).join(", ")}`,
    );
  const ratio = results.ours / results["SDK v2 (zod safeParse)"];
  console.log(
    `target: ours ≤ 0.1× SDK v2 — measured ${ratio.toFixed(3)}× ${ratio <= 0.1 ? "(met)" : "(missed)"}`,
  );
  return {
    messages: subset.length,
    examples: examples.length,
    types,
    rejected: rejected.map((e) => e.type),
    results,
    ratio,
  };
}

/**
 * ns per message for each contestant, measured in alternating rounds and keeping each one's best
 * round: on a shared machine a burst of load then hits every contestant alike instead of one.
 */
async function interleaved(runs, messages, rounds = 3) {
  const best = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, fn] of Object.entries(runs)) {
      const ns = (await measure(fn, { min_cpu_time: 4e8 })).avg / messages;
      best[name] = Math.min(best[name] ?? Infinity, ns);
    }
  }
  return best;
}

/** Prints the steady-state group's table. */
function printSteady(revision, { messages, results }) {
  console.log(
    `\nValidation, steady state (${revision}, ${messages} official examples, ns per message; best of ${STEADY_PROCESSES} processes)`,
  );
  console.table(
    Object.entries(results).map(([name, ns]) => ({
      anchor: name,
      "ns/message": ns.toFixed(1),
      "ours ÷ this": (results.ours / ns).toFixed(3),
    })),
  );
  console.log(`target: ours ≤ 0.3× Ajv — measured ${(results.ours / results.ajv).toFixed(3)}×`);
}

/** Processes the steady group runs in; each contestant keeps its best. */
const STEADY_PROCESSES = Number(process.env.BENCH_STEADY_PROCESSES ?? 3);

// `node bench/validation.mjs steady|sdk <revision> <jsDir>`: one group (run.mjs starts one process per
// group). Ajv's figure is bimodal between processes (about 270 or 850–1300 ns per message, from one
// process to the next, whatever the load), so the steady group runs in STEADY_PROCESSES processes of
// its own (`steady-once`) and keeps each contestant's best, as it keeps the best of its rounds.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [group, revision, jsDir] = process.argv.slice(2);
  if (group === "steady-once") console.log(JSON.stringify(await benchValidation(revision, jsDir)));
  else if (group === "steady") {
    const runs = Array.from({ length: STEADY_PROCESSES }, () =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [fileURLToPath(import.meta.url), "steady-once", revision, jsDir],
          { encoding: "utf8" },
        ),
      ),
    );
    const results = {};
    for (const run of runs)
      for (const [name, ns] of Object.entries(run.results))
        results[name] = Math.min(results[name] ?? Infinity, ns);
    printSteady(revision, { messages: runs[0].messages, results });
  } else if (group === "sdk") await benchValidationSdk(revision, jsDir);
  else throw new Error("usage: node bench/validation.mjs steady|sdk <revision> <jsDir>");
}
