// Generation: whole-process wall time of the built CLI generating one revision (all targets, formatted)
// into a fresh folder, against typescript-json-schema (the generator the spec repository itself runs)
// producing JSON Schema from the same schema.ts, with the flags the spec's own scripts use
// (`--defaultNumberType integer --required --skipLibCheck <schema.ts> "*"`, here with `--out`). Both
// are started as `node <script>`, alternating, median of BENCH_GEN_RUNS (default 5) each; ours both with
// its cache (compiled code, formatted bodies) filled by an earlier run and with an empty one (a first
// run), alone (`--legacy none`) and as the default command (issue 31: within 1.3×). Then all six
// revisions regenerated in ONE process (`--all`) against six separate processes, one per revision,
// alternating, median of BENCH_GEN_ALL_RUNS (default 3) each.
//
//   node bench/generate.mjs      # standalone (after `npm run build`)
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, SPEC_DIR, TMP } from "./prepare.mjs";

const RUNS = Number(process.env.BENCH_GEN_RUNS ?? 5);
const ALL_RUNS = Number(process.env.BENCH_GEN_ALL_RUNS ?? 3);
const CLI = join(ROOT, "dist", "generator", "cli", "main.js");
const TJS = join(ROOT, "node_modules", "typescript-json-schema", "bin", "typescript-json-schema");
const OUT = join(TMP, "gen");

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
let serial = 0;
/** A fresh, empty output path under .bench-tmp/gen (the CLI refuses a folder that is not its own output). */
const freshOut = () => {
  const dir = join(OUT, String(++serial));
  rmSync(dir, { recursive: true, force: true });
  return dir;
};

/** Wall time of one `node <args>` process, ms; throws on failure. */
function timed(args, env = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} failed (${r.status}):\n${r.stderr}`);
  return ms;
}

const pkgVersion = (name) =>
  JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).version;

/** Runs the group, prints the tables, returns the figures. */
export function benchGenerate(revision) {
  if (!existsSync(CLI)) throw new Error("run `npm run build` first");
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const schemaTs = join(SPEC_DIR, revision, "schema.ts");
  // mcp-gen keeps V8's compiled code of its dependencies (generator/cli/compile-cache.ts) and the bodies
  // it formatted (generator/cli/kept-files.ts) in its cache folder:
  // "ours" runs with a cache the unmeasured first run filled, as every run after a user's first does;
  // "ours, empty cache" with a new folder each run, as a first run or a CI job without a cache does.
  const warmCache = { MCP_GEN_CACHE_DIR: join(OUT, "cache") };
  const emptyCache = () => ({ MCP_GEN_CACHE_DIR: join(OUT, `cache-${++serial}`) });
  // Against typescript-json-schema, which reads the one schema.ts, ours reads that one too
  // (`--legacy none`); the default command also reads the initialize-era revisions it serves.
  const alone = [CLI, "--revision", revision, "--legacy", "none", "--spec-dir", SPEC_DIR, "--out"];
  const jobs = {
    ours: () => timed([...alone, freshOut()], warmCache),
    oursEmptyCache: () => timed([...alone, freshOut()], emptyCache()),
    oursDefault: () =>
      timed([CLI, "--revision", revision, "--spec-dir", SPEC_DIR, "--out", freshOut()], warmCache),
    oursDefaultEmptyCache: () =>
      timed(
        [CLI, "--revision", revision, "--spec-dir", SPEC_DIR, "--out", freshOut()],
        emptyCache(),
      ),
    tjs: () =>
      timed([
        TJS,
        "--defaultNumberType",
        "integer",
        "--required",
        "--skipLibCheck",
        schemaTs,
        "*",
        "--out",
        `${freshOut()}.json`,
      ]),
  };
  const revisions = readdirSync(SPEC_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(SPEC_DIR, d.name, "schema.ts")))
    .map((d) => d.name)
    .sort();
  const allJobs = {
    one: () => timed([CLI, "--all", "--spec-dir", SPEC_DIR, "--out", freshOut()], warmCache),
    separate: () => {
      const base = freshOut();
      return revisions.reduce(
        (sum, r) =>
          sum +
          timed([CLI, "--revision", r, "--spec-dir", SPEC_DIR, "--out", join(base, r)], warmCache),
        0,
      );
    },
  };
  const alternate = (set, runs) => {
    const keys = Object.keys(set);
    const samples = Object.fromEntries(keys.map((k) => [k, []]));
    for (let round = 0; round < runs; round++) {
      for (const k of round % 2 === 0 ? keys : [...keys].reverse()) samples[k].push(set[k]());
    }
    return Object.fromEntries(keys.map((k) => [k, median(samples[k])]));
  };

  const began = Date.now();
  jobs.ours(); // one unmeasured run each: the file-system cache (and ours: its own cache)
  jobs.oursDefault();
  jobs.tjs();
  const runs = alternate(jobs, RUNS);
  const all = alternate(allJobs, ALL_RUNS);
  rmSync(OUT, { recursive: true, force: true });

  console.log(
    `\nGeneration, whole process (${revision}; median of ${RUNS} alternating runs; typescript-json-schema ${pkgVersion("typescript-json-schema")})`,
  );
  console.table({
    [`ours: mcp-gen --revision ${revision} --legacy none (all targets, formatted)`]: {
      ms: runs.ours.toFixed(0),
      "ours ÷ this": "1.000",
    },
    "ours, empty cache (first run)": {
      ms: runs.oursEmptyCache.toFixed(0),
      "ours ÷ this": (runs.ours / runs.oursEmptyCache).toFixed(3),
    },
    [`ours, the default command (also the initialize-era revisions it serves)`]: {
      ms: runs.oursDefault.toFixed(0),
      "ours ÷ this": (runs.ours / runs.oursDefault).toFixed(3),
    },
    "ours, the default command, empty cache (first run)": {
      ms: runs.oursDefaultEmptyCache.toFixed(0),
      "ours ÷ this": (runs.ours / runs.oursDefaultEmptyCache).toFixed(3),
    },
    "typescript-json-schema (spec's flags), same schema.ts": {
      ms: runs.tjs.toFixed(0),
      "ours ÷ this": (runs.ours / runs.tjs).toFixed(3),
    },
  });
  const ratio = runs.ours / runs.tjs;
  const firstRatio = runs.oursEmptyCache / runs.tjs;
  console.log(
    `target: ours ≤ 0.6× typescript-json-schema — measured ${ratio.toFixed(3)}× ${ratio <= 0.6 ? "(met)" : "(missed)"}; a first run (empty cache) ${firstRatio.toFixed(3)}×`,
  );
  const defaultRatio = runs.oursDefault / runs.ours;
  console.log(
    `target (issue 31): the default command ≤ 1.3× --legacy none — measured ${defaultRatio.toFixed(3)}× ${defaultRatio <= 1.3 ? "(met)" : "(missed)"}; first runs (empty caches) ${(runs.oursDefaultEmptyCache / runs.oursEmptyCache).toFixed(3)}×`,
  );
  console.log(
    `\nGeneration, all ${revisions.length} revisions (${revisions.join(", ")}; median of ${ALL_RUNS} alternating runs)`,
  );
  console.table({
    "one process (--all), ms": { ms: all.one.toFixed(0), "one ÷ this": "1.000" },
    [`${revisions.length} separate processes, ms (sum)`]: {
      ms: all.separate.toFixed(0),
      "one ÷ this": (all.one / all.separate).toFixed(3),
    },
  });
  console.log(`group took ${((Date.now() - began) / 1000).toFixed(1)} s`);
  return { one: runs, all, ratio, firstRatio, defaultRatio, revisions };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchGenerate(process.env.BENCH_REVISION ?? "2026-07-28");
}
