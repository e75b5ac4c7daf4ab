/**
 * `mcp-gen diff` (`generator/cli`, `generator/diff`): its JSON and Markdown reports, exit codes and
 * annotations, on the real revisions and the diff fixtures.
 */
import { describe, expect, it } from "vitest";
import { main } from "../../../generator/cli/main.js";
import { diffModels, isBreaking, type Change } from "../../../generator/diff/index.js";
import { loadModel } from "../../../generator/load/index.js";
import { ROOT, SPEC_DIR } from "../../helpers/spec.js";
import { diffFixture as fixture } from "../../helpers/diff-fixtures.js";

describe("mcp-gen diff", () => {
  const run = async (argv: string[]) => {
    let stdout = "";
    let stderr = "";
    const code = await main(argv, {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      env: {},
      cwd: ROOT,
    });
    return { code, stdout, stderr };
  };
  const real = ["--spec-dir", SPEC_DIR, "--offline"];

  it("prints JSON with the summary and the changes", async () => {
    const { code, stdout } = await run([
      "diff",
      "2025-11-25",
      "2026-07-28",
      "--format",
      "json",
      ...real,
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      from: string;
      to: string;
      summary: Record<string, number>;
      changes: Change[];
    };
    expect(report.from).toBe("2025-11-25");
    expect(report.to).toBe("2026-07-28");
    expect(report.summary.total).toBe(report.changes.length);
    expect(report.changes.filter((c) => isBreaking(c.severity)).length).toBe(
      report.summary["breaking-both"]! +
        report.summary["breaking-client"]! +
        report.summary["breaking-server"]!,
    );
  });

  it("prints Markdown grouped by severity, summary first", async () => {
    const { code, stdout } = await run(["diff", "2025-11-25", "2026-07-28", ...real]);
    expect(code).toBe(0);
    const summary = stdout.indexOf("| Severity | Changes |");
    const both = stdout.indexOf("## Breaking for clients and servers");
    const nonBreaking = stdout.indexOf("## Non-breaking");
    expect(summary).toBeGreaterThan(0);
    expect(both).toBeGreaterThan(summary);
    expect(nonBreaking).toBeGreaterThan(both);
    expect(stdout).toContain("| method-removed | `initialize` |");
  });

  it("--format github: a workflow annotation per change (error when breaking), then a summary", async () => {
    const from = fixture("method-removed", "from");
    const to = fixture("method-removed", "to");
    const { code, stdout } = await run(["diff", from, to, "--format", "github"]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    const changes = diffModels(
      loadModel(from, { revision: "from" }),
      loadModel(to, { revision: "to" }),
    );
    expect(lines).toHaveLength(changes.length + 1);
    const removed = changes.find((c) => c.ruleId === "method-removed")!;
    // The fixtures are written outside the repository: no file to annotate (test/generator/diff/fail-on).
    expect(lines).toContain(
      `::error title=method-removed (${removed.severity === "breaking-both" ? "breaking for clients and servers" : removed.severity === "breaking-client" ? "breaking for clients" : "breaking for servers"})::${removed.location}: ${removed.message} (from ${removed.from})`,
    );
    expect(lines.at(-1)).toMatch(/^MCP schema diff \S+ → \S+: \d+ changes? \(/);
    const added = await run(["diff", to, from, "--format", "github"]);
    expect(added.stdout).toMatch(/^::notice title=method-added \(non-breaking\)::/m);
  });

  it("--fail-on breaking exits 1 with one line on stderr when a change is breaking", async () => {
    const { code, stdout, stderr } = await run([
      "diff",
      fixture("method-removed", "from"),
      fixture("method-removed", "to"),
      "--fail-on",
      "breaking",
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain("method-removed");
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("breaking");
  });

  it("--fail-on breaking exits 0 when every change is non-breaking", async () => {
    const { code, stdout } = await run([
      "diff",
      fixture("definition-added", "from"),
      fixture("definition-added", "to"),
      "--fail-on",
      "breaking",
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain("definition-added");
  });

  it("rejects an unknown format as a usage error", async () => {
    expect((await run(["diff", "a.ts", "b.ts", "--format", "xml"])).code).toBe(2);
  });
});
