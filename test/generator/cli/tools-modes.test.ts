/**
 * `mcp-gen tools` runs through the same pipeline as revisions: `--check` (0 when up to date, else
 * per file why, with the diff), a hand edit stops the run and `--force` (which that message
 * suggests) overwrites it, and `--watch` regenerates when the tools file changes.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, stderrLines } from "../../helpers/cli.js";
import { ROOT } from "../../helpers/spec.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-tools-modes-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TOOLS = `/** Says it back. */
export interface EchoArguments {
  /** What to say. */
  text: string;
}
`;

const cli = (args: string[]) =>
  runCli(args, { env: { MCP_GEN_CACHE_DIR: join(work, "cache") }, cwd: work });

describe("mcp-gen tools --check / --force / --watch", () => {
  it("--check is 0 when up to date; a hand edit is named, stops a run, and --force overwrites it", async () => {
    writeFileSync(join(work, "tools.ts"), TOOLS);
    const first = await cli(["tools", "tools.ts", "--out", "out"]);
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(join(work, "out", "tools.ts"), "utf8")).toContain(
      "regenerate with `mcp-gen tools tools.ts --out out`",
    );
    expect(await cli(["tools", "tools.ts", "--out", "out", "--check"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "mcp-gen: --check: out up to date\n",
    });

    const generated = join(work, "out", "tools.ts");
    writeFileSync(generated, `${readFileSync(generated, "utf8")}// mine\n`);
    const checked = await cli(["tools", "tools.ts", "--out", "out", "--check"]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toBe(
      "mcp-gen: --check: out/tools.ts: edited by hand since mcp-gen wrote it\n" +
        "mcp-gen: --check: 1 file would change (the diff is on stdout); move hand edits elsewhere, or pass --force to overwrite them\n",
    );
    expect(checked.stdout).toMatch(
      /^--- a\/out\/tools\.ts\n\+\+\+ b\/out\/tools\.ts\n@@ .*\n(.*\n)*-\/\/ mine\n$/,
    );

    const stopped = await cli(["tools", "tools.ts", "--out", "out"]);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(
      /edited by hand since mcp-gen wrote it: tools\.ts; .* pass --force to overwrite\n$/,
    );
    expect(readFileSync(generated, "utf8")).toMatch(/\/\/ mine\n$/);
    const forced = await cli(["tools", "tools.ts", "--out", "out", "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(generated, "utf8")).not.toContain("// mine");
  });

  it("--watch regenerates when the tools file changes, and stops on SIGTERM", async () => {
    writeFileSync(join(work, "watched.ts"), TOOLS);
    const child = spawn(
      process.execPath,
      [
        join(ROOT, "dist", "generator", "cli", "main.js"),
        "tools",
        "watched.ts",
        "--out",
        "w",
        "--watch",
      ],
      {
        cwd: work,
        env: { ...process.env, MCP_GEN_CACHE_DIR: join(work, "cache") },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    const next = stderrLines(child, "mcp-gen tools --watch");
    try {
      expect(await next()).toMatch(/^mcp-gen: tools from watched\.ts: wrote \d+ files to w$/);
      expect(await next()).toMatch(/^mcp-gen: watching .*watched\.ts \(Ctrl-C stops\)$/);
      writeFileSync(
        join(work, "watched.ts"),
        `${TOOLS}\n/** Adds. */\nexport interface SumArguments {\n  values: number[];\n}\n`,
      );
      expect(await next()).toMatch(
        /^mcp-gen: tools from watched\.ts: wrote \d+ files? to w(, \d+ unchanged)?$/,
      );
      expect(readFileSync(join(work, "w", "tools.ts"), "utf8")).toContain("sum");
    } finally {
      const exited = new Promise<number | null>((resolve) =>
        child.once("exit", (code) => resolve(code)),
      );
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  });
});
