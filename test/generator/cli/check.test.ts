/**
 * `--check` is stable however the same inputs are spelled (the header names the normalized inputs,
 * never where the schema was read from), and says per file why it would change: edited by hand,
 * changed by the schema, or both. In-process, on a small schema.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { ROOT } from "../../helpers/spec.js";

const REV = "2099-01-01";
const work = mkdtempSync(join(tmpdir(), "mcp-gen-check-"));
const spec = join(work, "spec");
const schema = join(spec, REV, "schema.ts");
beforeAll(() => {
  mkdirSync(join(spec, REV), { recursive: true });
  writeFileSync(
    schema,
    readFileSync(join(ROOT, "test", "fixtures", "protocol-surface", "schema.ts")),
  );
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: string[], env: NodeJS.ProcessEnv = {}, cwd = work) =>
  runCli(args, { env: { MCP_GEN_CACHE_DIR: join(work, "cache"), ...env }, cwd });

describe("--check however the inputs are spelled", () => {
  it("exit 0 with --spec-dir relative or absolute, MCP_SPEC_DIR, the cache, and the config file", async () => {
    const written = await cli(["-r", REV, "--spec-dir", "spec", "--out", "out", "--auth"]);
    expect(written.code, written.stderr).toBe(0);
    const header = readFileSync(join(work, "out", "types.ts"), "utf8");
    expect(header).toContain(`regenerate with \`mcp-gen --revision ${REV} --out out --auth\``);

    const up = { code: 0, stdout: "", stderr: "mcp-gen: --check: out up to date\n" };
    expect(await cli(["-r", REV, "--spec-dir", spec, "--out", "out", "--auth", "--check"])).toEqual(
      up,
    );
    expect(
      await cli(["-r", REV, "--out", join(work, "out"), "--auth", "--check"], {
        MCP_SPEC_DIR: spec,
      }),
    ).toEqual(up);
    // An unstamped copy in the cache is served as it is.
    cpSync(join(spec, REV), join(work, "cache", "spec", REV), { recursive: true });
    expect(await cli(["-r", REV, "--out", "out", "--auth", "--check", "--offline"])).toEqual({
      ...up,
      stderr: up.stderr,
    });
    writeFileSync(
      join(work, "mcp-gen.config.json"),
      JSON.stringify({ revisions: [REV], out: "out", auth: true }),
    );
    try {
      expect(await cli(["--check"])).toEqual(up);
    } finally {
      rmSync(join(work, "mcp-gen.config.json"));
    }
  });

  it("says which files were edited by hand and which the schema changed, with a unified diff", async () => {
    expect((await cli(["-r", REV, "--spec-dir", "spec", "--out", "why"])).code).toBe(0);
    const types = join(work, "why", "types.ts");
    const readme = join(work, "why", "README.md");
    writeFileSync(types, readFileSync(types, "utf8").replace(/\n$/, "\n// mine\n"));
    writeFileSync(readme, `${readFileSync(readme, "utf8")}mine\n`);
    const original = readFileSync(schema, "utf8");
    writeFileSync(
      schema,
      `${original}\n/** Added upstream. */\nexport interface AddedLater {\n  a: string;\n}\n`,
    );
    try {
      const r = await cli(["-r", REV, "--spec-dir", "spec", "--out", "why", "--check"]);
      expect(r.code).toBe(1);
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines).toContain(
        "mcp-gen: --check: why/types.ts: edited by hand since mcp-gen wrote it, and changed by the schema, the options or the generator",
      );
      expect(lines).toContain(
        "mcp-gen: --check: why/validators.ts: changed by the schema, the options or the generator",
      );
      expect(lines).toContain(
        "mcp-gen: --check: why/README.md: edited by hand since mcp-gen wrote it, and changed by the schema, the options or the generator",
      );
      expect(lines.at(-1)).toMatch(
        /^mcp-gen: --check: \d+ files would change \(the diff is on stdout\); move hand edits elsewhere, or pass --force to overwrite them$/,
      );
      expect(r.stdout).toContain("--- a/why/types.ts\n+++ b/why/types.ts\n");
      expect(r.stdout).toMatch(/\n-\/\/ mine\n/);
      expect(r.stdout).toMatch(/\n\+export interface AddedLater \{\n/);
      // Only the schema changed: no hand edit named.
      writeFileSync(schema, original);
      expect((await cli(["-r", REV, "--spec-dir", "spec", "--out", "why", "--force"])).code).toBe(
        0,
      );
      writeFileSync(schema, `${original}\nexport interface AddedLater {\n  a: string;\n}\n`);
      const schemaOnly = await cli(["-r", REV, "--spec-dir", "spec", "--out", "why", "--check"]);
      expect(schemaOnly.code).toBe(1);
      expect(schemaOnly.stderr).not.toContain("edited by hand");
      expect(schemaOnly.stderr.trimEnd().split("\n").at(-1)).toMatch(
        /run the same command without --check to regenerate$/,
      );
    } finally {
      writeFileSync(schema, original);
    }
  });

  it("after an option change: names the option, and the files differing only in their header in one line", async () => {
    expect((await cli(["-r", REV, "--spec-dir", "spec", "--out", "opts", "--auth"])).code).toBe(0);
    const r = await cli(["-r", REV, "--spec-dir", "spec", "--out", "opts", "--check"]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe("mcp-gen: --check: opts: options changed: --auth (was on, now off)");
    expect(lines[1]).toMatch(
      /^mcp-gen: --check: opts: \d+ files differ only in their generated header \(it names the options, the source's sha256 and the generator\)$/,
    );
    const headerOnly = Number(/opts: (\d+) files differ/.exec(lines[1]!)![1]);
    // The modules the option does not touch: changed in their header alone, so not named one by one.
    expect(headerOnly).toBeGreaterThan(1);
    expect(lines.some((l) => l.includes("opts/types.ts"))).toBe(false);
    // A file whose body the option changed is still named on its own.
    expect(lines).toContain(
      "mcp-gen: --check: opts/README.md: changed by the schema, the options or the generator",
    );
    const total = Number(/--check: (\d+) files would change/.exec(lines.at(-1)!)![1]);
    expect(lines).toHaveLength(total - headerOnly + 3);
    // The patch stays whole: every changed file's diff is on stdout, header-only ones included.
    expect(r.stdout).toContain("--- a/opts/types.ts\n+++ b/opts/types.ts\n");
    // Options that changed back: up to date, nothing named.
    expect(
      await cli(["-r", REV, "--spec-dir", "spec", "--out", "opts", "--auth", "--check"]),
    ).toEqual({ code: 0, stdout: "", stderr: "mcp-gen: --check: opts up to date\n" });
  });

  it("a file mcp-gen no longer writes is named as such; --check with --force or --watch is a usage error", async () => {
    expect((await cli(["-r", REV, "--spec-dir", "spec", "--out", "gone"])).code).toBe(0);
    const manifestFile = join(work, "gone", ".mcp-gen.json");
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as {
      files: Record<string, string>;
    };
    writeFileSync(join(work, "gone", "old.ts"), "");
    manifest.files["old.ts"] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const r = await cli(["-r", REV, "--spec-dir", "spec", "--out", "gone", "--check"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "mcp-gen: --check: gone/old.ts: no longer generated (a run removes it)\n",
    );
    for (const flag of ["--force", "--watch"]) {
      const bad = await cli(["-r", REV, "--spec-dir", "spec", "--check", flag]);
      expect(bad).toMatchObject({
        code: 2,
        stderr:
          "mcp-gen: --check writes nothing: it goes with neither --force nor --watch (see mcp-gen --help)\n",
      });
    }
  });
});
