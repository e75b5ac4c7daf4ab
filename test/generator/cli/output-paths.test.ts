/**
 * Regeneration deletes and writes only inside the output folder, never through a link (issue 33):
 * a `.mcp-gen.json` entry naming a file outside the folder, or a link inside it, is refused with one
 * line naming the place, exit 1, before anything is written; what the entry or the link points to
 * is left as it was. In-process, on a small schema (one case on a real revision, for `runtime/`).
 */
import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isOutputPath } from "../../../generator/emit/output-paths.js";
import { runCli } from "../../helpers/cli.js";
import { ROOT, SPEC_DIR } from "../../helpers/spec.js";

const REV = "2099-01-01";
let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-paths-"));
  mkdirSync(join(work, "spec", REV), { recursive: true });
  writeFileSync(
    join(work, "spec", REV, "schema.ts"),
    readFileSync(join(ROOT, "test", "fixtures", "protocol-surface", "schema.ts")),
  );
  mkdirSync(join(work, "outside"));
  writeFileSync(join(work, "outside", "x"), "not mcp-gen's\n");
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: string[]) =>
  runCli(args, { env: { MCP_GEN_CACHE_DIR: join(work, "cache") }, cwd: work });
const generate = (...extra: string[]) =>
  cli(["--revision", REV, "--spec-dir", "spec", "--out", "out/gen", ...extra]);

/** Every entry under dir, links as links (never followed), with content: equal means untouched. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    files[name] = stat.isSymbolicLink()
      ? `link ${readlinkSync(path)}`
      : stat.isFile()
        ? readFileSync(path, "utf8")
        : "dir";
  }
  return files;
}

/** Adds an entry to the output's manifest, as a hand (or a hostile commit) would. */
function addEntry(out: string, path: string, content = "x\n"): void {
  const file = join(out, ".mcp-gen.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { files: Record<string, string> };
  manifest.files[path] = createHash("sha256").update(content).digest("hex");
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The manifest's line holding an entry. */
const lineOf = (out: string, path: string): number =>
  readFileSync(join(out, ".mcp-gen.json"), "utf8")
    .split("\n")
    .findIndex((line) => line.includes(JSON.stringify(path))) + 1;

describe("manifest entries outside the output folder", () => {
  it.each([
    ["a path up and out", "../../outside/x"],
    ["an absolute path", "ABSOLUTE"],
    ["a path that leaves and comes back", "sub/../../../outside/x"],
  ])("%s: refused naming the manifest's line, nothing deleted or written", async (_name, entry) => {
    expect((await generate()).code).toBe(0);
    const out = join(work, "out", "gen");
    const path = entry === "ABSOLUTE" ? join(work, "outside", "x") : entry;
    addEntry(out, path);
    const before = snapshot(work);
    for (const extra of [[], ["--force"], ["--check"]]) {
      const r = await generate(...extra);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `mcp-gen: ${join(out, ".mcp-gen.json")}:${lineOf(out, path)}: lists ${JSON.stringify(path)}, which is not a file inside the output folder; mcp-gen never wrote it and will not delete it: remove the entry (or the manifest) and run again\n`,
      );
      expect(snapshot(work)).toEqual(before);
    }
    expect(readFileSync(join(work, "outside", "x"), "utf8")).toBe("not mcp-gen's\n");
  });

  it("an entry inside the folder that is no longer generated is still removed (control)", async () => {
    expect((await generate()).code).toBe(0);
    const out = join(work, "out", "gen");
    mkdirSync(join(out, "old"));
    writeFileSync(join(out, "old", "gone.ts"), "x\n");
    addEntry(out, "old/gone.ts");
    expect((await generate()).code).toBe(0);
    expect(readdirSync(out)).not.toContain("old");
  });

  it.each([
    ["..", false],
    ["../x", false],
    ["a/../../x", false],
    ["./a", false],
    ["a//b", false],
    ["/etc/passwd", false],
    ["C:\\x", false],
    ["a\\..\\..\\x", false],
    ["a\0b", false],
    ["", false],
    ["types.ts", true],
    ["runtime/server/http.ts", true],
    [".mcp-gen.json", true],
  ])("isOutputPath(%j) is %s", (path, inside) => {
    expect(isOutputPath(path)).toBe(inside);
  });
});

describe("links inside the output folder", () => {
  it("a folder the manifest lists a file in, made a link: refused, the file it points to kept", async () => {
    expect((await generate()).code).toBe(0);
    const out = join(work, "out", "gen");
    addEntry(out, "sub/x");
    symlinkSync(join(work, "outside"), join(out, "sub"));
    const before = snapshot(work);
    const r = await generate("--force");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `mcp-gen: ${out}: cannot write output: sub is a symbolic link; mcp-gen writes and deletes only inside the output folder, never through a link: replace the link with what it points to, or choose another --out\n`,
    );
    expect(snapshot(work)).toEqual(before);
  });

  it("a generated file made a link: refused, its target unread and unchanged", async () => {
    expect((await generate()).code).toBe(0);
    const out = join(work, "out", "gen");
    rmSync(join(out, "types.ts"));
    symlinkSync(join(work, "outside", "x"), join(out, "types.ts"));
    const before = snapshot(work);
    const r = await generate("--check");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot write output: types\.ts is a symbolic link;/);
    expect(snapshot(work)).toEqual(before);
  });

  it("out/runtime made a link to another folder: refused, that folder untouched", async () => {
    const spec = ["--revision", "2026-07-28", "--spec-dir", SPEC_DIR, "--legacy", "none"];
    expect((await cli([...spec, "--out", "out/full"])).code).toBe(0);
    const out = join(work, "out", "full");
    renameSync(join(out, "runtime"), join(work, "outside", "runtime"));
    writeFileSync(join(work, "outside", "runtime", "shared", "jsonrpc.ts"), "// mine\n");
    symlinkSync(join(work, "outside", "runtime"), join(out, "runtime"));
    const before = snapshot(work);
    const r = await cli([...spec, "--out", "out/full", "--force"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^mcp-gen: [^\n]*: cannot write output: runtime is a symbolic link;[^\n]*\n$/,
    );
    expect(snapshot(work)).toEqual(before);
  });

  it("the output folder itself may be a link the user named: written in the folder it points to", async () => {
    mkdirSync(join(work, "real"));
    symlinkSync(join(work, "real"), join(work, "out-link"));
    const r = await cli(["--revision", REV, "--spec-dir", "spec", "--out", "out-link"]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(work, "out-link")).isSymbolicLink()).toBe(true);
    expect(readdirSync(join(work, "real"))).toContain("types.ts");
    expect(
      (await cli(["--revision", REV, "--spec-dir", "spec", "--out", "out-link", "--check"])).code,
    ).toBe(0);
  });
});
