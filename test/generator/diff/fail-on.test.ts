/**
 * `mcp-gen diff` in CI: `--fail-on breaking|breaking-client|breaking-server` exits 1 only for the
 * changes that break that party (`breaking-both` breaks either), and `--format github` annotates
 * schema files by their path from the repository root (`GITHUB_WORKSPACE`, else the git repository
 * of the working directory), leaving out a file GitHub could not place (outside the repository).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FAIL_ON, failsOn, SEVERITIES, type Severity } from "../../../generator/diff/index.js";
import { runCli } from "../../helpers/cli.js";
import { diffFixture } from "../../helpers/diff-fixtures.js";
import { ROOT } from "../../helpers/spec.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-diff-fail-on-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const diff = (rule: string, ...flags: string[]) =>
  runCli(["diff", diffFixture(rule, "from"), diffFixture(rule, "to"), ...flags], {
    cwd: ROOT,
    env: {},
  });

describe("failsOn", () => {
  it("fails each --fail-on value on exactly the severities that break its party", () => {
    const table = Object.fromEntries(
      FAIL_ON.map((failOn) => [failOn, SEVERITIES.filter((s: Severity) => failsOn(s, failOn))]),
    );
    expect(table).toEqual({
      breaking: ["breaking-both", "breaking-client", "breaking-server"],
      "breaking-client": ["breaking-both", "breaking-client"],
      "breaking-server": ["breaking-both", "breaking-server"],
    });
  });
});

describe("mcp-gen diff --fail-on", () => {
  // Fixture pairs with one change each: a literal value added (breaks servers, which read it),
  // a result property removed (breaks clients), a constant removed (breaks both).
  it.each([
    ["literal-value-added", "breaking-server", 1],
    ["literal-value-added", "breaking-client", 0],
    ["literal-value-added", "breaking", 1],
    ["property-removed", "breaking-client", 1],
    ["property-removed", "breaking-server", 0],
    ["constant-removed", "breaking-client", 1],
    ["constant-removed", "breaking-server", 1],
    ["definition-added", "breaking", 0],
  ] as const)("%s with --fail-on %s exits %i", async (rule, failOn, expected) => {
    const { code, stdout, stderr } = await diff(rule, "--fail-on", failOn);
    expect(code).toBe(expected);
    expect(stdout).toContain(rule); // the report is printed either way
    if (expected === 0) expect(stderr).toBe("");
    else expect(stderr.trim().split("\n")).toHaveLength(1);
  });

  it("says which party's changes failed it", async () => {
    const { stderr } = await diff("literal-value-added", "--fail-on", "breaking-server");
    expect(stderr).toContain(
      "1 change breaking servers from from to to (--fail-on breaking-server)",
    );
  });

  it("rejects another value as a usage error, naming the choices", async () => {
    const { code, stderr } = await diff("constant-removed", "--fail-on", "breaking-both");
    expect(code).toBe(2);
    expect(stderr).toMatch(/breaking-client/);
  });
});

describe("mcp-gen diff --format github: annotation paths", () => {
  /** A made-up repository (a `.git` folder) holding the fixture pair under `schemas/`. */
  function repository(name: string): string {
    const repo = join(work, name);
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "schemas", "from"), { recursive: true });
    mkdirSync(join(repo, "schemas", "to"), { recursive: true });
    mkdirSync(join(repo, "tools"), { recursive: true });
    copyFileSync(diffFixture("method-removed", "from"), join(repo, "schemas", "from", "schema.ts"));
    copyFileSync(diffFixture("method-removed", "to"), join(repo, "schemas", "to", "schema.ts"));
    return repo;
  }
  const files = (stdout: string) =>
    [...new Set([...stdout.matchAll(/^::\w+ file=([^,]*),/gm)].map((m) => m[1]))].sort();

  it("are relative to the git repository holding the working directory, whatever the folder run from", async () => {
    const repo = repository("git");
    const { code, stdout } = await runCli(
      ["diff", "../schemas/from/schema.ts", "../schemas/to/schema.ts", "--format", "github"],
      { cwd: join(repo, "tools"), env: {} },
    );
    expect(code).toBe(0);
    // Every change of this pair is a removal: annotated where it was, in the older schema.
    expect(files(stdout)).toEqual(["schemas/from/schema.ts"]);
    expect(stdout).toMatch(
      /^::error file=schemas\/from\/schema\.ts,line=\d+,title=method-removed/m,
    );
  });

  it("are relative to GITHUB_WORKSPACE when the workflow sets it", async () => {
    const repo = repository("workspace");
    const { stdout } = await runCli(
      [
        "diff",
        join(repo, "schemas", "from", "schema.ts"),
        join(repo, "schemas", "to", "schema.ts"),
        "--format",
        "github",
      ],
      { cwd: work, env: { GITHUB_WORKSPACE: repo } },
    );
    // Every change of this pair is a removal: annotated where it was, in the older schema.
    expect(files(stdout)).toEqual(["schemas/from/schema.ts"]);
  });

  it("leave the file out for a schema outside the repository", async () => {
    const repo = repository("outside");
    const { code, stdout } = await runCli(
      [
        "diff",
        diffFixture("method-removed", "from"),
        diffFixture("method-removed", "to"),
        "--format",
        "github",
      ],
      { cwd: repo, env: {} },
    );
    expect(code).toBe(0);
    expect(stdout).not.toContain("file=");
    expect(stdout).toMatch(/^::error title=method-removed/m);
  });
});
