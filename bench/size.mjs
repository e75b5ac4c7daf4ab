// Validator size for one revision: bytes and gzip bytes (level 9) of the compiled generated validators
// (validators.js + the runtime/schema/formats.js it imports), against Ajv's standalone code for every
// definition of the official schema.json, compiled with a shared root (`code: { source: true }`,
// ajv-formats, as the steady-state group configures Ajv), as CommonJS and as ESM, alone and with the
// modules that code requires at run time (Ajv's runtime helpers, ajv-formats' formats).
//
//   node bench/size.mjs          # standalone, against .bench-tmp/js/<revision> (run `npm run bench` once first)
import { createRequire } from "node:module";
import { readFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { SPEC_DIR, TMP } from "./prepare.mjs";

const require = createRequire(import.meta.url);
const TARGET_BYTES = 200 * 1000;

const measureText = (text) => ({
  bytes: Buffer.byteLength(text),
  gzip: gzipSync(text, { level: 9 }).length,
});
const add = (a, b) => ({ bytes: a.bytes + b.bytes, gzip: a.gzip + b.gzip });

/** Standalone code for every definition of `revision`'s schema.json, one export per definition. */
function ajvStandalone(revision, esm) {
  const schema = JSON.parse(readFileSync(join(SPEC_DIR, revision, "schema.json"), "utf8"));
  const is2020 = String(schema.$schema).includes("2020");
  const Ajv = is2020 ? require("ajv/dist/2020").default : require("ajv").default;
  const ajv = new Ajv({ strict: false, allErrors: false, code: { source: true, esm } });
  require("ajv-formats").default(ajv);
  ajv.addSchema(schema, "root");
  const key = is2020 ? "$defs" : "definitions";
  const refs = Object.fromEntries(
    Object.keys(schema[key]).map((name) => [name, `root#/${key}/${name}`]),
  );
  const code = require("ajv/dist/standalone").default(ajv, refs);
  return { code, definitions: Object.keys(refs).length };
}

/** The files the standalone code requires (transitively, within ajv and ajv-formats), measured together. */
function requiredRuntime(code) {
  const seen = new Set();
  const visit = (spec, from) => {
    let file;
    try {
      file = createRequire(from).resolve(spec);
    } catch {
      return;
    }
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/require\("([^"]+)"\)/g))
      if (m[1].startsWith(".")) visit(m[1], file);
  };
  const base = join(dirname(fileURLToPath(import.meta.url)), "size.mjs");
  for (const m of code.matchAll(/require\("([^"]+)"\)/g)) visit(m[1], base);
  let total = { bytes: 0, gzip: 0 };
  for (const file of seen) total = add(total, measureText(readFileSync(file, "utf8")));
  return { ...total, files: [...seen].map((f) => f.slice(f.lastIndexOf("node_modules/") + 13)) };
}

/** Runs the group against the generated validators compiled in `jsDir`, prints the table, returns the figures. */
export function benchSize(revision, jsDir) {
  const validators = readFileSync(join(jsDir, "validators.js"), "utf8");
  const imports = [...validators.matchAll(/from "(\.[^"]+)"/g)].map((m) => m[1]);
  let ours = measureText(validators);
  for (const spec of imports)
    ours = add(ours, measureText(readFileSync(join(jsDir, spec), "utf8")));
  const cjs = ajvStandalone(revision, false);
  const esm = ajvStandalone(revision, true);
  const runtime = requiredRuntime(cjs.code);
  const rows = {
    [`ours: validators.js + ${imports.join(", ")}`]: ours,
    [`Ajv standalone, CommonJS (${cjs.definitions} definitions)`]: measureText(cjs.code),
    "Ajv standalone, ESM": measureText(esm.code),
    [`Ajv standalone, CommonJS + required runtime (${runtime.files.length} files)`]: add(
      measureText(cjs.code),
      runtime,
    ),
  };
  const ajvFull =
    rows[`Ajv standalone, CommonJS + required runtime (${runtime.files.length} files)`];
  const kb = (n) => (n / 1000).toFixed(1);
  console.log(`\nValidator size (${revision}; KB = 1000 bytes; gzip level 9)`);
  console.table(
    Object.fromEntries(
      Object.entries(rows).map(([name, s]) => [
        name,
        {
          KB: kb(s.bytes),
          "gzip KB": kb(s.gzip),
          "ours ÷ this": (ours.bytes / s.bytes).toFixed(3),
          "ours ÷ this, gzip": (ours.gzip / s.gzip).toFixed(3),
        },
      ]),
    ),
  );
  console.log(`Ajv's required runtime: ${runtime.files.join(", ")}`);
  console.log(
    `target: ours ≤ 200 KB — measured ${kb(ours.bytes)} KB (${ours.bytes} bytes) ${ours.bytes <= TARGET_BYTES ? "(met)" : `(missed by ${kb(ours.bytes - TARGET_BYTES)} KB)`}, gzip ${kb(ours.gzip)} KB`,
  );
  return { ours, ajv: rows, ajvFull };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const revision = process.env.BENCH_REVISION ?? "2026-07-28";
  const jsDir = join(TMP, "js", revision);
  if (!existsSync(join(jsDir, "validators.js")))
    throw new Error("run `npm run bench` (or prepare.mjs) first");
  benchSize(revision, jsDir);
}
