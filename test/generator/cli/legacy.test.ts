/**
 * `--legacy` on the command line and in `mcp-gen.config.json`, with the real loader and emitters:
 * by default every released initialize-era revision older than `--revision` (from the catalog and
 * the loaded models), `none` for none, or the list given; the header names the set served in one
 * order, so `--check` passes however the same set was asked for.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../../generator/api.js";
import { runCli } from "../../helpers/cli.js";
import { REVISIONS, SPEC_DIR } from "../../helpers/spec.js";

const OLDER = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const have = ["2026-07-28", "2025-11-25", ...OLDER].every((r) => REVISIONS.includes(r));

const work = mkdtempSync(join(tmpdir(), "mcp-gen-cli-legacy-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: string[], env: NodeJS.ProcessEnv = { MCP_SPEC_DIR: SPEC_DIR }, cwd = work) =>
  runCli(args, { env: { MCP_GEN_CACHE_DIR: join(work, "cache"), ...env }, cwd });

/** The legacy revisions an output serves (its legacy/ folder) and the command its header names. */
function served(out: string): { legacy: string[]; regenerate: string } {
  const dir = join(work, out, "legacy");
  const header = readFileSync(join(work, out, "server.ts"), "utf8");
  return {
    legacy: existsSync(dir) ? readdirSync(dir).sort().reverse() : [],
    regenerate: /regenerate with `([^`]*)`/.exec(header)![1]!,
  };
}

describe.skipIf(!have)("mcp-gen --legacy", () => {
  it("defaults to every released initialize-era revision older than --revision, named in the header", async () => {
    const r = await cli(["-r", "2026-07-28", "--out", "default"]);
    expect(r.code, r.stderr).toBe(0);
    expect(served("default")).toEqual({
      legacy: OLDER,
      regenerate: `mcp-gen --revision 2026-07-28 --legacy ${OLDER.join(",")} --out default`,
    });
  });

  it("the same set named in another order is the same output: --check exits 0", async () => {
    const r = await cli([
      "-r",
      "2026-07-28",
      "--out",
      "default",
      "--check",
      "--legacy",
      "2024-11-05,2025-06-18",
      "--legacy",
      "2025-11-25,2025-03-26",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("mcp-gen: --check: default up to date\n");
  });

  it("the library's generate() has the same default: the CLI's output is up to date for it", async () => {
    const result = await generate({
      revision: "2026-07-28",
      out: "default",
      cwd: work,
      env: { MCP_SPEC_DIR: SPEC_DIR, MCP_GEN_CACHE_DIR: join(work, "cache") },
      config: false,
      check: true,
    });
    expect(result.changes).toEqual([]);
    const none = await generate({
      revision: "2026-07-28",
      out: "default",
      legacy: ["none"],
      cwd: work,
      env: { MCP_SPEC_DIR: SPEC_DIR, MCP_GEN_CACHE_DIR: join(work, "cache") },
      config: false,
      check: true,
    });
    expect(none.changes).toContainEqual({ path: "legacy/2024-11-05/types.ts", kind: "removed" });
  });

  it("--legacy none: modern peers only, and the header says so", async () => {
    const r = await cli(["-r", "2026-07-28", "--out", "none", "--legacy", "none"]);
    expect(r.code, r.stderr).toBe(0);
    expect(served("none")).toEqual({
      legacy: [],
      regenerate: "mcp-gen --revision 2026-07-28 --legacy none --out none",
    });
  });

  it("an explicit list is that list, newest first in the header", async () => {
    const r = await cli(["-r", "2026-07-28", "--out", "two", "--legacy", "2024-11-05,2025-11-25"]);
    expect(r.code, r.stderr).toBe(0);
    expect(served("two")).toEqual({
      legacy: ["2025-11-25", "2024-11-05"],
      regenerate: "mcp-gen --revision 2026-07-28 --legacy 2025-11-25,2024-11-05 --out two",
    });
  });

  it("an initialize-era revision serves none by default, and its header names no --legacy", async () => {
    const r = await cli(["-r", "2025-11-25", "--out", "old"]);
    expect(r.code, r.stderr).toBe(0);
    expect(served("old")).toEqual({
      legacy: [],
      regenerate: "mcp-gen --revision 2025-11-25 --out old",
    });
  });

  it("none beside a revision is a usage error, nothing written", async () => {
    const r = await cli(["-r", "2026-07-28", "--out", "bad", "--legacy", "none,2025-06-18"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mcp-gen: --legacy none .*got none,2025-06-18.*\n$/);
    expect(existsSync(join(work, "bad"))).toBe(false);
  });

  it("a spec dir named is the catalog: the default takes only the revisions it holds", async () => {
    const own = join(work, "own-spec");
    for (const revision of ["2026-07-28", "2025-06-18"]) {
      mkdirSync(join(own, revision), { recursive: true });
      copyFileSync(join(SPEC_DIR, revision, "schema.ts"), join(own, revision, "schema.ts"));
    }
    const r = await cli(["-r", "2026-07-28", "--out", "own", "--spec-dir", own], {});
    expect(r.code, r.stderr).toBe(0);
    expect(served("own").legacy).toEqual(["2025-06-18"]);
  });

  it("a default revision that cannot be found says where the default came from and how to turn it off", async () => {
    // 2026-07-28 alone in the cache, nothing else local, and no download allowed.
    const cached = join(work, "cache", "spec", "2026-07-28");
    mkdirSync(cached, { recursive: true });
    copyFileSync(join(SPEC_DIR, "2026-07-28", "schema.ts"), join(cached, "schema.ts"));
    const r = await cli(["-r", "2026-07-28", "--out", "offline", "--offline"], {});
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^mcp-gen: no schema\.ts for revision 2024-11-05 \(--offline\): .* \(the default --legacy of 2026-07-28 reads every released revision before it; --legacy none generates without them\)\n$/,
    );
    expect(existsSync(join(work, "offline"))).toBe(false);
    rmSync(join(work, "cache"), { recursive: true, force: true });
  });
});

describe.skipIf(!have)('mcp-gen.config.json "legacy"', () => {
  const project = (name: string, config: object) => {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "mcp-gen.config.json"), JSON.stringify(config));
    return dir;
  };

  it('"none" turns the default off; a list is that list; the command line wins', async () => {
    const none = project("cfg-none", { revisions: ["2026-07-28"], out: "out", legacy: "none" });
    expect((await cli([], { MCP_SPEC_DIR: SPEC_DIR }, none)).code).toBe(0);
    expect(served("cfg-none/out").legacy).toEqual([]);

    const list = project("cfg-list", {
      revisions: ["2026-07-28"],
      out: "out",
      legacy: ["2025-06-18"],
    });
    expect((await cli([], { MCP_SPEC_DIR: SPEC_DIR }, list)).code).toBe(0);
    expect(served("cfg-list/out")).toEqual({
      legacy: ["2025-06-18"],
      regenerate: "mcp-gen --revision 2026-07-28 --legacy 2025-06-18 --out out",
    });

    const r = await cli(["--legacy", "none", "--check"], { MCP_SPEC_DIR: SPEC_DIR }, list);
    expect(r.code).toBe(1); // the flag beats the file: the output would lose its legacy folder
    expect(r.stderr).toMatch(/out\/legacy\/2025-06-18\/types\.ts: /);
  });

  it("absent: the default, as on the command line", async () => {
    const dir = project("cfg-default", { revisions: ["2026-07-28"], out: "out" });
    expect((await cli([], { MCP_SPEC_DIR: SPEC_DIR }, dir)).code).toBe(0);
    expect(served("cfg-default/out").legacy).toEqual(OLDER);
  });
});
