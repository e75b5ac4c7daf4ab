/**
 * Deep and large schemas are refused within a budget, with one line naming the file and the line
 * where it ran out, before any parser or printer recursion overflows (issue 33: a 2,000-deep
 * object, a 3,000-deep `Array<>` and a 20,000-member union ended in "internal error: Maximum call
 * stack size exceeded", exit 70); a schema at the budget generates; a Unicode name generates (it
 * was an internal error).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkNesting, SCHEMA_BUDGET } from "../../../generator/load/budget.js";
import { runCli } from "../../helpers/cli.js";

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-budget-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let revisions = 0;
/** Generates a schema text as a revision of its own; the exit code and stderr. */
async function generate(text: string): Promise<{ code: number; stderr: string; file: string }> {
  const revision = `2099-01-${String(++revisions).padStart(2, "0")}`;
  const file = join(work, "spec", revision, "schema.ts");
  mkdirSync(join(work, "spec", revision), { recursive: true });
  writeFileSync(file, text);
  const r = await runCli(
    ["--revision", revision, "--spec-dir", "spec", "--out", `out/${revision}`],
    {
      env: { MCP_GEN_CACHE_DIR: join(work, "cache") },
      cwd: work,
    },
  );
  return { code: r.code, stderr: r.stderr, file };
}

const PRELUDE = "/** Fine. */\nexport interface Ok {\n  ok: boolean;\n}\n\n"; // 5 lines
const deepObject = (n: number) =>
  `export interface Deep {\n  a: ${"{ a: ".repeat(n)}string${" }".repeat(n)};\n}\n`;
const deepArray = (n: number) =>
  `export type Deep = ${"Array<".repeat(n)}string${">".repeat(n)};\n`;
const deepSuffix = (n: number) => `export type Suffixes = string${"[]".repeat(n)};\n`;
const union = (n: number) =>
  `export type Big =\n${Array.from({ length: n }, (_, i) => `  | "m${i}"`).join("\n")};\n`;

describe("budgets", () => {
  it.each([
    [
      "a 2,000-deep object",
      PRELUDE + deepObject(2000),
      7,
      /a type nested more than 100 levels deep, over the budget/,
    ],
    [
      "a 3,000-deep Array<>",
      PRELUDE + deepArray(3000),
      6,
      /a type nested more than 100 levels deep, over the budget/,
    ],
    [
      "a 3,000-deep T[][]…",
      PRELUDE + deepSuffix(3000),
      6,
      /a type nested more than 100 levels deep, over the budget/,
    ],
    [
      "a 20,000-member union",
      PRELUDE + union(20000),
      7,
      /a union of 20000 members, over the budget of 1000/,
    ],
  ])(
    "%s: one line naming file and line, exit 1, nothing written",
    async (_name, text, line, message) => {
      const r = await generate(text);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^mcp-gen: [^\n]+\n$/);
      expect(r.stderr.startsWith(`mcp-gen: ${r.file}:${line}: `)).toBe(true);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain("docs/limits-generator.md");
    },
  );

  it("a schema over the size budget is refused before it is parsed", async () => {
    const r = await generate(`${PRELUDE}/*${" ".repeat(SCHEMA_BUDGET.maxBytes)}*/\n`);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `mcp-gen: ${r.file}: schema is ${SCHEMA_BUDGET.maxBytes + PRELUDE.length + 5} bytes, over the budget of ${SCHEMA_BUDGET.maxBytes} bytes (docs/limits-generator.md)\n`,
    );
  });

  it("at the budget: a type 99 levels deep inside an interface and a union of 1,000 members generate", async () => {
    const deep = await generate(
      deepObject(SCHEMA_BUDGET.maxDepth - 1) + deepSuffix(SCHEMA_BUDGET.maxDepth),
    );
    expect(deep.code, deep.stderr).toBe(0);
    const wide = await generate(union(SCHEMA_BUDGET.maxUnionMembers));
    expect(wide.code, wide.stderr).toBe(0);
  });

  it("the nesting scan skips brackets in comments and strings, and counts lines through them", () => {
    const noise = `/** ${"{".repeat(500)}\n */\n// ${"<".repeat(500)}\nexport const S = "${"[".repeat(500)}";\n`;
    expect(() => checkNesting(noise, "x.ts")).not.toThrow();
    expect(() => checkNesting(`${noise}${deepArray(200)}`, "x.ts")).toThrow(
      expect.objectContaining({ file: "x.ts", line: 5 }),
    );
    // `=>` closes nothing.
    expect(() =>
      checkNesting(`${"<".repeat(60)}${"=>".repeat(100)}${"<".repeat(60)}`, "x.ts"),
    ).toThrow(/nested more than 100 levels/);
  });
});

describe("Unicode names", () => {
  it("interfaces and properties named outside ASCII generate, and their validators work", async () => {
    const r = await generate(
      "/** Größe. */\nexport interface Größe {\n  maß: string;\n  名前?: string;\n}\n\nexport interface Ünïcödé {\n  g: Größe;\n}\n",
    );
    expect(r.code, r.stderr).toBe(0);
    const out = join(work, "out", `2099-01-${String(revisions).padStart(2, "0")}`);
    expect(readFileSync(join(out, "types.ts"), "utf8")).toContain("export interface Größe {");
    const validators = (await import(join(out, "validators.ts"))) as Record<
      string,
      (value: unknown) => { ok: boolean }
    >;
    expect(validators["validateÜnïcödé"]!({ g: { maß: "1", 名前: "n" } }).ok).toBe(true);
    expect(validators["validateÜnïcödé"]!({ g: { 名前: "n" } }).ok).toBe(false);
  });
});
