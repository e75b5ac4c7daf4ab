/**
 * A project with an `mcp-gen.config.json` needs neither `MCP_SPEC_DIR` nor `--revision`: its
 * `spec-dir` (relative to the config's folder) is where every command reads schemas from, after
 * `--spec-dir` and MCP_SPEC_DIR; `ir`, `deprecations` and `diff` take its revision when the command
 * line names none. In-process, on a small schema, with no MCP_SPEC_DIR in the environment.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { ROOT } from "../../helpers/spec.js";

const [OLD, REV] = ["2098-01-01", "2099-01-01"];
const work = mkdtempSync(join(tmpdir(), "mcp-gen-config-project-"));
const project = join(work, "project");
beforeAll(() => {
  const fixture = readFileSync(
    join(ROOT, "test", "fixtures", "protocol-surface", "schema.ts"),
    "utf8",
  );
  mkdirSync(join(work, "spec", OLD), { recursive: true });
  mkdirSync(join(work, "spec", REV), { recursive: true });
  writeFileSync(join(work, "spec", OLD, "schema.ts"), fixture);
  writeFileSync(
    join(work, "spec", REV, "schema.ts"),
    `${fixture}\n/** Added in the newer one. */\nexport interface AddedLater {\n  a: string;\n}\n`,
  );
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(
    join(project, "mcp-gen.config.json"),
    JSON.stringify({ revisions: [REV], out: "out", "spec-dir": "../spec", legacy: "none" }),
  );
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: string[], env: NodeJS.ProcessEnv = {}, cwd = project) =>
  runCli(args, { env: { MCP_GEN_CACHE_DIR: join(work, "cache"), ...env }, cwd });

describe("a project's config: its spec folder and revision", () => {
  it("`mcp-gen` generates from the config's spec-dir, taken from the config's folder", async () => {
    const run = await cli([]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      new RegExp(`^mcp-gen: ${REV}: wrote \\d+ files to out \\(schema from spec-dir,`),
    );
    expect(readFileSync(join(project, "out", "types.ts"), "utf8")).toContain("AddedLater");
    // spec-dir says where the schema is read from, not what is generated: not in the header.
    expect(readFileSync(join(project, "out", "types.ts"), "utf8")).not.toContain("spec");
  });

  it("`deprecations` and `ir` take the config's revision", async () => {
    const table = await cli(["deprecations"]);
    expect(table.code, table.stderr).toBe(0);
    const named = await cli(["deprecations", "--revision", REV, "--spec-dir", join(work, "spec")]);
    expect(table.stdout).toBe(named.stdout);
    const ir = await cli(["ir"]);
    expect(ir.code, ir.stderr).toBe(0);
    expect((JSON.parse(ir.stdout) as { revision: string }).revision).toBe(REV);
  });

  it("`diff FROM` compares with the config's revision", async () => {
    const run = await cli(["diff", OLD, "--format", "json"]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      from: string;
      to: string;
      changes: Array<{ location: string }>;
    };
    expect([report.from, report.to]).toEqual([OLD, REV]);
    expect(report.changes.map((c) => c.location)).toContain("AddedLater");
  });

  it("--spec-dir, then MCP_SPEC_DIR, beat the config's spec-dir", async () => {
    const missing = join(work, "nowhere");
    for (const [args, env] of [
      [["ir", "--spec-dir", missing], {}],
      [["ir"], { MCP_SPEC_DIR: missing }],
    ] as const) {
      const run = await cli([...args], env);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain("nowhere");
    }
  });

  it("with no revision in the config, or several, the command line must name one", async () => {
    const elsewhere = join(work, "several");
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(
      join(elsewhere, "mcp-gen.config.json"),
      JSON.stringify({ revisions: [OLD, REV], "spec-dir": "../spec" }),
    );
    expect(await cli(["deprecations"], {}, elsewhere)).toEqual({
      code: 2,
      stdout: "",
      stderr: `mcp-gen: missing --revision R: mcp-gen.config.json names several (${OLD}, ${REV}) (see mcp-gen --help)\n`,
    });
    expect((await cli(["diff", OLD], {}, work)).stderr).toBe(
      "mcp-gen: missing --revision R (or an mcp-gen.config.json naming one: mcp-gen init writes it) (see mcp-gen --help)\n",
    );
  });
});
