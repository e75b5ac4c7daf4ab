/**
 * Every TypeScript block of the README and of docs/*.md compiles, strict, against the generated
 * code. The blocks become the files of one project under generated/docs-check: a block titled
 * `title="src/server.ts"` is that file (the quick start's), any other is a module of its own at the
 * project's root, so its imports read `./src/mcp/…` (the output `mcp-gen init` configures, generated
 * here with every add-on the docs use) and `./src/mcp-tools/…` (the quick start's tools). A block
 * may be left out only with `<!-- not compiled: reason -->` on the line before it. New pages are
 * picked up as they are added.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import {
  allCodeBlocks,
  codeBlocks,
  docPages,
  isTypeScript,
  type CodeBlock,
} from "../helpers/markdown.js";
import { ROOT, SPEC_DIR } from "../helpers/spec.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../helpers/tsc.js";

const PROJECT = join(ROOT, "generated", "docs-check");
/**
 * The output the blocks import as `./src/mcp/`: the quick start's revision and default `--legacy`,
 * with every add-on a page uses. A page that needs another flag adds it here.
 */
const OUTPUT_FLAGS = [
  "--revision",
  "2026-07-28",
  "--json-schema",
  "ajv",
  "--auth",
  "--store",
  "redis",
  "--telemetry",
  "otel",
];

/**
 * A strict consumer's settings (the generated code's promise), less the unused-name checks: a
 * block may show a declaration without using it.
 */
const {
  noUnusedLocals: _locals,
  noUnusedParameters: _parameters,
  ...BLOCK_OPTIONS
} = STRICT_OPTIONS;

/** A block known to be wrong, compiled with the others: the check must point at its page and line. */
const CANARY: CodeBlock = {
  page: "canary.md",
  line: 10,
  lang: "ts",
  code: 'import { createServer } from "./src/mcp/index.js";\nconst server: number = createServer;',
};

/** Where each block's file is, relative to the project. */
function fileOf(block: CodeBlock): string {
  if (block.title !== undefined) return block.title;
  return `${block.page.replace(/\.md$/, "").replace(/[^A-Za-z0-9]+/g, "-")}-${block.line}.ts`;
}

interface BlockError {
  /** `page:line` in the documentation, or the file when it is no block's. */
  where: string;
  message: string;
}

let blocks: CodeBlock[];
let errors: BlockError[];
let tscStatus: number | null;

beforeAll(async () => {
  blocks = allCodeBlocks(ROOT).filter((block) => isTypeScript(block) && block.skip === undefined);
  rmSync(PROJECT, { recursive: true, force: true });
  mkdirSync(PROJECT, { recursive: true });
  const byFile = new Map<string, CodeBlock>();
  for (const block of [...blocks, CANARY]) {
    const file = fileOf(block);
    const other = byFile.get(file);
    if (other)
      throw new Error(
        `${block.page}:${block.line} and ${other.page}:${other.line} are both ${file}`,
      );
    byFile.set(file, block);
    mkdirSync(dirname(join(PROJECT, file)), { recursive: true });
    // A block without imports or exports is made a module (names of its own, top-level await) by
    // `export {}` after its last line, which moves none of its lines.
    const isModule = /^(import|export)\b/m.test(block.code);
    writeFileSync(join(PROJECT, file), `${block.code}\n${isModule ? "" : "export {};\n"}`);
  }

  // `import … from "mcp-gen"` resolves to this package, as installed (its exports, the built dist/).
  if (!existsSync(join(ROOT, "dist", "generator", "api.d.ts")))
    throw new Error("dist/ is missing: run `npm run build` first");
  mkdirSync(join(PROJECT, "node_modules"));
  symlinkSync(ROOT, join(PROJECT, "node_modules", "mcp-gen"), "dir");

  const env = { ...process.env, MCP_GEN_CACHE_DIR: join(PROJECT, ".cache") };
  const io = { cwd: PROJECT, env };
  const generated = await runCli([...OUTPUT_FLAGS, "--out", "src/mcp", "--spec-dir", SPEC_DIR], io);
  if (generated.code !== 0) throw new Error(generated.stderr);
  const tools = await runCli(["tools", "src/tools.ts", "--out", "src/mcp-tools"], io);
  if (tools.code !== 0) throw new Error(tools.stderr);

  const checked = tsc(PROJECT, {
    compilerOptions: { ...BLOCK_OPTIONS, ...NODE_TYPES, noEmit: true },
    files: [...byFile.keys()],
  });
  // The link back to the package would make a loop of the folder for whatever walks it later.
  rmSync(join(PROJECT, "node_modules"), { recursive: true, force: true });
  tscStatus = checked.status;
  const files = new Map([...byFile].map(([file, block]) => [resolve(PROJECT, file), block]));
  errors = [...checked.output.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+: .*)$/gm)].map(
    ([, path, line, message]) => {
      const block = files.get(resolve(path!));
      return {
        where: block ? `${block.page}:${block.line + Number(line)}` : path!,
        message: message!,
      };
    },
  );
  // tsc failing without a message this test can place is a failure of its own.
  if (checked.status !== 0 && errors.length === 0) throw new Error(checked.output);
}, 600_000);

describe("the TypeScript blocks of the README and docs/", () => {
  it("a wrong block is reported at its page and line", () => {
    expect(tscStatus).not.toBe(0);
    expect(errors.some((error) => error.where === `canary.md:${CANARY.line + 2}`)).toBe(true);
  });

  it.each(docPages(ROOT))("%s: every TypeScript block compiles", (page) => {
    const own = errors.filter(
      (error) => error.where.startsWith(`${page}:`) || !error.where.includes(".md:"),
    );
    expect(own.map((error) => `${error.where}: ${error.message}`)).toEqual([]);
  });

  it("the pages hold TypeScript blocks, and each one left out says why", () => {
    const all = allCodeBlocks(ROOT).filter(isTypeScript);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of all.filter((b) => b.skip !== undefined))
      expect(block.skip!.length, `${block.page}:${block.line}`).toBeGreaterThan(10);
  });
});

describe("reading the blocks of a page", () => {
  it("takes the language, the title, the opening line and a stated reason to skip", () => {
    const text = [
      "# Page",
      "",
      '```ts title="src/a.ts"',
      "export const a = 1;",
      "```",
      "<!-- not compiled: a fragment of the block above -->",
      "```ts",
      "a + 1",
      "```",
      "```sh",
      "npm test",
      "```",
    ].join("\n");
    expect(codeBlocks("p.md", text)).toEqual([
      { page: "p.md", line: 3, lang: "ts", title: "src/a.ts", code: "export const a = 1;" },
      { page: "p.md", line: 7, lang: "ts", skip: "a fragment of the block above", code: "a + 1" },
      { page: "p.md", line: 10, lang: "sh", code: "npm test" },
    ]);
  });

  it("names the line of a block never closed", () => {
    expect(() => codeBlocks("p.md", "text\n```ts\nconst a = 1;\n")).toThrow(
      "p.md:2: code block never closed",
    );
  });

  it("reads the README and every page under docs/, a page added later included", () => {
    const root = mkdtempSync(join(tmpdir(), "mcp-gen-pages-"));
    try {
      mkdirSync(join(root, "docs"));
      writeFileSync(join(root, "README.md"), "# r\n");
      writeFileSync(join(root, "docs", "b.md"), "# b\n");
      writeFileSync(join(root, "docs", "notes.txt"), "not a page\n");
      expect(docPages(root)).toEqual(["README.md", "docs/b.md"]);
      writeFileSync(join(root, "docs", "a.md"), "```ts\nconst a = 1;\n```\n");
      expect(docPages(root)).toEqual(["README.md", "docs/a.md", "docs/b.md"]);
      expect(allCodeBlocks(root).map((block) => `${block.page}:${block.line}`)).toEqual([
        "docs/a.md:1",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
