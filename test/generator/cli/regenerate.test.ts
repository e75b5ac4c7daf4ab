/**
 * Regeneration into a folder that is not only mcp-gen's: it replaces and removes only the files its
 * manifest says it wrote, stops on a generated file edited by hand (unless --force), and --check
 * tells CI what a run would change without writing anything. In-process, on a small schema.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { readRevisions } from "../../../generator/spec/revisions.js";
import { ROOT, SPEC_DIR } from "../../helpers/spec.js";

const REV = "2099-01-01";
let work: string;
let spec: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-regen-"));
  spec = join(work, "spec");
  mkdirSync(join(spec, REV), { recursive: true });
  writeFileSync(
    join(spec, REV, "schema.ts"),
    readFileSync(join(ROOT, "test", "fixtures", "protocol-surface", "schema.ts")),
  );
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: string[]) =>
  runCli(args, { env: { MCP_GEN_CACHE_DIR: join(work, "cache") }, cwd: work });

/** Every file under dir (dot-folders included) with its content. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    if (statSync(join(dir, name)).isFile()) files[name] = readFileSync(join(dir, name), "utf8");
  }
  return files;
}

const generate = (...extra: string[]) =>
  cli(["--revision", REV, "--spec-dir", "spec", "--out", "out", ...extra]);

describe("regeneration", () => {
  it("writes a manifest of every file with its sha256, and a README and headers naming the command from the normalized inputs", async () => {
    const r = await generate();
    expect(r.code, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(work, "out", ".mcp-gen.json"), "utf8")) as {
      files: Record<string, string>;
      regenerate: string;
    };
    const files = Object.keys(snapshot(join(work, "out"))).filter((f) => f !== ".mcp-gen.json");
    expect(Object.keys(manifest.files).sort()).toEqual(files);
    expect(manifest.files["types.ts"]).toMatch(/^[0-9a-f]{64}$/);
    // Where the schema was read from is not an input: --spec-dir is not part of the command.
    const command = `mcp-gen --revision ${REV} --out out`;
    expect(manifest.regenerate).toBe(command);
    expect(readFileSync(join(work, "out", "types.ts"), "utf8")).toContain(
      `// Do not edit: regenerate with \`${command}\`.`,
    );
    const readme = readFileSync(join(work, "out", "README.md"), "utf8");
    expect(readme).toContain(`| regenerate | \`${command}\` |`);
    expect(readme).toContain("a local `schema.ts` (not a pinned upstream copy)");
    expect(readme).toMatch(/TypeScript 5\.5 or later, Node\.js 20 or later/);
    for (const file of files.filter((f) => !f.startsWith("runtime/") && f !== "README.md"))
      expect(readme, file).toContain(`| \`${file}\` |`);
  });

  it("says what a run changed: every file when new, nothing when up to date, else how many it wrote and left", async () => {
    const first = await generate();
    expect(first.code, first.stderr).toBe(0);
    const total = Object.keys(snapshot(join(work, "out"))).length - 1; // the manifest is not counted
    expect(first.stderr).toMatch(
      new RegExp(
        `^mcp-gen: ${REV}: wrote ${total} files to out \\(schema from spec-dir, \\d+ ms\\)\n$`,
      ),
    );
    const again = await generate();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      new RegExp(
        `^mcp-gen: ${REV}: up to date, nothing written \\(${total} files in out\\) \\(schema from spec-dir, \\d+ ms\\)\n$`,
      ),
    );
    const schema = join(spec, REV, "schema.ts");
    writeFileSync(
      schema,
      `${readFileSync(schema, "utf8")}\n/** Added. */\nexport interface Added {\n  a: string;\n}\n`,
    );
    const changed = await generate();
    expect(changed.code, changed.stderr).toBe(0);
    const [, written, unchanged] =
      /: wrote (\d+) files? to out, (\d+) unchanged \(/.exec(changed.stderr) ?? [];
    expect(Number(written)).toBeGreaterThan(0);
    expect(Number(written) + Number(unchanged)).toBe(total);
  });

  it("leaves foreign files and .git alone and removes only its own files it no longer generates", async () => {
    expect((await generate()).code).toBe(0);
    const out = join(work, "out");
    mkdirSync(join(out, ".git"));
    writeFileSync(join(out, ".git", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(out, "NOTES.md"), "mine\n");
    // A file an earlier version generated, no longer produced: listed in the manifest.
    const manifest = JSON.parse(readFileSync(join(out, ".mcp-gen.json"), "utf8")) as {
      files: Record<string, string>;
    };
    writeFileSync(join(out, "old.ts"), "// old\n");
    manifest.files["old.ts"] = createHash("sha256").update("// old\n").digest("hex");
    writeFileSync(join(out, ".mcp-gen.json"), JSON.stringify(manifest));
    const r = await generate();
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, ".git", "HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
    expect(readFileSync(join(out, "NOTES.md"), "utf8")).toBe("mine\n");
    expect(existsSync(join(out, "old.ts"))).toBe(false);
  });

  it("a generated file edited by hand stops the run, naming it, output untouched; --force overwrites", async () => {
    expect((await generate()).code).toBe(0);
    const types = join(work, "out", "types.ts");
    writeFileSync(types, `${readFileSync(types, "utf8")}// my change\n`);
    const before = snapshot(join(work, "out"));
    const r = await generate();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `mcp-gen: ${join(work, "out")}: 1 generated file was edited by hand since mcp-gen wrote it: types.ts; move the change elsewhere, or pass --force to overwrite\n`,
    );
    expect(snapshot(join(work, "out"))).toEqual(before);
    const forced = await generate("--force");
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(types, "utf8")).not.toContain("// my change");
  });

  it("--check: 0 when up to date, 1 saying per file why it would change; it writes nothing", async () => {
    const missing = await generate("--check");
    expect(missing.code).toBe(1);
    expect(existsSync(join(work, "out"))).toBe(false);
    const lines = missing.stderr.trimEnd().split("\n");
    expect(lines).toContain("mcp-gen: --check: out/README.md: not generated yet");
    expect(lines.at(-1)).toMatch(
      /^mcp-gen: --check: \d+ files would change; run the same command without --check to regenerate$/,
    );
    expect(missing.stdout).toBe("");
    expect((await generate()).code).toBe(0);
    const clean = await generate("--check");
    expect(clean).toMatchObject({ code: 0, stderr: "mcp-gen: --check: out up to date\n" });
    writeFileSync(join(work, "out", "validators.ts"), "// edited\n");
    writeFileSync(join(work, "out", "NOTES.md"), "foreign files do not count\n");
    const before = snapshot(join(work, "out"));
    const edited = await generate("--check");
    expect(edited.code).toBe(1);
    expect(edited.stderr).toBe(
      "mcp-gen: --check: out/validators.ts: edited by hand since mcp-gen wrote it\n" +
        "mcp-gen: --check: 1 file would change (the diff is on stdout); move hand edits elsewhere, or pass --force to overwrite them\n",
    );
    expect(edited.stdout).toMatch(
      /^--- a\/out\/validators\.ts\n\+\+\+ b\/out\/validators\.ts\n@@ -1,1 \+1,\d+ @@\n-\/\/ edited\n\+\/\/ Generated by mcp-gen /,
    );
    expect(snapshot(join(work, "out"))).toEqual(before);
  });

  it("refuses a non-empty folder it did not write; a folder holding only .git is fine", async () => {
    mkdirSync(join(work, "out", ".git"), { recursive: true });
    expect((await generate()).code).toBe(0);
    mkdirSync(join(work, "src"));
    writeFileSync(join(work, "src", "app.ts"), "export {};\n");
    const r = await cli(["--revision", REV, "--spec-dir", "spec", "--out", "src"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not mcp-gen output \(no \.mcp-gen\.json\); choose another --out/);
    expect(readdirSync(join(work, "src"))).toEqual(["app.ts"]);
  });

  it("prunes cache entries no run used for 30 days, after generating", async () => {
    const v8 = join(work, "cache", "v8");
    mkdirSync(v8, { recursive: true });
    writeFileSync(join(v8, "stale.bin"), "old code");
    const month = new Date(Date.now() - 31 * 86_400_000);
    utimesSync(join(v8, "stale.bin"), month, month);
    writeFileSync(join(v8, "fresh.bin"), "recent code");
    expect((await generate()).code).toBe(0);
    expect(existsSync(join(v8, "stale.bin"))).toBe(false);
    expect(existsSync(join(v8, "fresh.bin"))).toBe(true);
  });

  it("the README names the upstream commit when the schema is the pinned copy", async () => {
    const r = await cli(["--revision", "2025-03-26", "--spec-dir", SPEC_DIR, "--out", "pinned"]);
    expect(r.code, r.stderr).toBe(0);
    const pin = readRevisions().revisions["2025-03-26"]!;
    expect(readFileSync(join(work, "pinned", "README.md"), "utf8")).toContain(
      `pinned at upstream commit \`${pin.commit}\``,
    );
  });
});
