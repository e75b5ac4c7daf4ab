import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The real bin, as a separate process: shebang/ESM entry detection, exit codes
// and stderr as the shell sees them. CI builds before testing; locally the
// build is (re)done here when dist/ is missing or older than the CLI sources.
const repoRoot = resolve(import.meta.dirname, "../../..");
const bin = join(repoRoot, "dist", "generator", "cli", "main.js");
const specDir = resolve(repoRoot, process.env.MCP_SPEC_DIR ?? "../shared/mcp-spec/schema");
const haveSpec = existsSync(join(specDir, "draft", "schema.ts"));

function newestSource(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((e) =>
      e.isDirectory()
        ? newestSource(join(dir, e.name))
        : e.name.endsWith(".ts")
          ? statSync(join(dir, e.name)).mtimeMs
          : 0,
    ),
  );
}

let work: string;
beforeAll(() => {
  const sources = Math.max(
    newestSource(join(repoRoot, "generator", "cli")),
    newestSource(join(repoRoot, "generator", "spec")),
  );
  if (!existsSync(bin) || statSync(bin).mtimeMs < sources) {
    // Type errors elsewhere in the tree do not stop tsc from emitting; only the bin's existence matters here.
    spawnSync(
      process.execPath,
      [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"],
      { cwd: repoRoot },
    );
  }
  work = mkdtempSync(join(tmpdir(), "mcp-gen-proc-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}) {
  const base = { ...process.env };
  delete base.MCP_SPEC_DIR;
  delete base.MCP_SPEC_BASE_URL;
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: work,
    encoding: "utf8",
    env: { ...base, MCP_GEN_CACHE_DIR: join(work, "cache"), ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("node dist/generator/cli/main.js", () => {
  it("exists after the build", () => {
    expect(existsSync(bin)).toBe(true);
  });

  it.skipIf(!haveSpec)("list: table on stdout, exit 0", () => {
    const r = run(["list"], { MCP_SPEC_DIR: specDir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^REVISION\s+RELEASED\s+PINNED\s+PRESENT$/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^2026-07-28\s+2026-07-28\s+[0-9a-f]{12}\??\s+env$/),
    );
  });

  it("missing schema with --offline: one stderr line, exit 1", () => {
    const r = run(["--revision", "2026-07-28", "--offline"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "mcp-gen: no schema.ts for revision 2026-07-28 (--offline): put it at DIR/2026-07-28/schema.ts and pass --spec-dir DIR or set MCP_SPEC_DIR=DIR (mcp-gen's own npm scripts use ../shared/mcp-spec/schema beside the checkout), or run without --offline to download the pinned copy (MCP_SPEC_BASE_URL=URL fetches it from a mirror)\n",
    );
  });

  it("unknown option: one stderr line, exit 2", () => {
    const r = run(["--frob"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("mcp-gen: Unknown argument: frob (see mcp-gen --help)\n");
  });
});
