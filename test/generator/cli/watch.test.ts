/**
 * `--watch`: after generating, the CLI regenerates when the schema changes, keeps going after a
 * broken edit (one line, output untouched), and stops cleanly on SIGTERM. A real process on the
 * built bin, reading its stderr line by line; every wait is bounded by the test's timeout.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stderrLines } from "../../helpers/cli.js";
import { ROOT } from "../../helpers/spec.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-watch-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("mcp-gen --watch", () => {
  it("regenerates on each change of schema.ts, survives a broken edit, stops on SIGTERM", async () => {
    const schema = join(work, "spec", "2099-01-01", "schema.ts");
    mkdirSync(join(work, "spec", "2099-01-01"), { recursive: true });
    writeFileSync(schema, "export interface First {\n  a: string;\n}\n");
    const child = spawn(
      process.execPath,
      [
        join(ROOT, "dist", "generator", "cli", "main.js"),
        "-r",
        "2099-01-01",
        "--spec-dir",
        "spec",
        "--out",
        "out",
        "--watch",
      ],
      {
        cwd: work,
        env: { ...process.env, MCP_GEN_CACHE_DIR: join(work, "cache") },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    const next = stderrLines(child, "mcp-gen --watch");
    try {
      expect(await next()).toMatch(/^mcp-gen: 2099-01-01: wrote \d+ files? to out/);
      expect(await next()).toMatch(/^mcp-gen: watching .*schema\.ts/);

      writeFileSync(
        schema,
        "export interface First {\n  a: string;\n}\n\nexport interface Second {\n  b: number;\n}\n",
      );
      expect(await next()).toMatch(/^mcp-gen: 2099-01-01: wrote \d+ files? to out/);
      expect(readFileSync(join(work, "out", "types.ts"), "utf8")).toContain(
        "export interface Second",
      );

      const before = readFileSync(join(work, "out", "types.ts"), "utf8");
      writeFileSync(schema, "export interface Broken {\n  b: ;\n}\n");
      expect(await next()).toMatch(/schema\.ts:2: syntax error/);
      expect(readFileSync(join(work, "out", "types.ts"), "utf8")).toBe(before);
    } finally {
      const exited = new Promise<number | null>((resolve) =>
        child.once("exit", (code) => resolve(code)),
      );
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  });
});
