/**
 * Bad input end to end through the CLI: each case must print exactly one line on stderr (naming
 * `file:line` where there is one), exit non-zero, and leave the output directory, pre-populated
 * with an earlier generation, byte for byte as it was (no stray staging folders either).
 *
 * Most cases run `main()` in-process with captured output and a temp spec dir holding
 * `<rev>/schema.ts`; one runs the built bin as a real process.
 */
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CliIO } from "../generator/cli/context.js";
import { main } from "../generator/cli/main.js";

const ROOT = resolve(import.meta.dirname, "..");
/** A revision name no manifest pins. */
const REV = "2099-12-31";

let work: string;
let specDir: string;
let outParent: string;
let out: string;
let cache: string;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-bad-"));
  specDir = join(work, "spec");
  cache = join(work, "cache");
  outParent = join(work, "outputs");
  out = join(outParent, "gen");
  mkdirSync(specDir);
  mkdirSync(cache);
  populateOutput(out);
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** What an earlier run could have left: files, a subfolder, a hidden file, and a sibling. */
function populateOutput(dir: string): void {
  mkdirSync(join(dir, "runtime"), { recursive: true });
  writeFileSync(join(dir, "types.ts"), "// an earlier generation\nexport type Old = string;\n");
  writeFileSync(join(dir, "validators.ts"), "export const validators = {};\n");
  writeFileSync(join(dir, "runtime", "formats.ts"), "export function isUri(v: string): boolean { return v !== ''; }\n");
  writeFileSync(join(dir, ".keep"), "");
  writeFileSync(join(dirname(dir), "NOTES.md"), "a sibling of the output folder\n");
}

function dirname(path: string): string {
  return resolve(path, "..");
}

/** Every path under `root` with its kind and content, sorted: equal snapshots mean nothing changed. */
function snapshot(root: string): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const rel = prefix ? `${prefix}/${name}` : name;
      const stat = lstatSync(path);
      if (stat.isDirectory()) {
        result[`${rel}/`] = `dir ${(stat.mode & 0o777).toString(8)}`;
        walk(path, rel);
      } else {
        result[rel] = `file ${(stat.mode & 0o777).toString(8)} ${readFileSync(path).toString("base64")}`;
      }
    }
  };
  walk(root, "");
  return result;
}

function writeSchema(revision: string, text: string): string {
  mkdirSync(join(specDir, revision), { recursive: true });
  const file = join(specDir, revision, "schema.ts");
  writeFileSync(file, text);
  return file;
}

const noNetwork: typeof fetch = async () => {
  throw new Error("the network must not be used by these tests");
};

/** Runs `mcp-gen` in-process and checks the contract common to every bad input. */
async function fails(args: string[], expectedCode = 1): Promise<string> {
  const before = snapshot(work);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: Partial<CliIO> = {
    stdout: (text) => void stdout.push(text),
    stderr: (text) => void stderr.push(text),
    env: { MCP_GEN_CACHE_DIR: cache },
    cwd: work,
    fetch: noNetwork,
  };
  const code = await main(args, io);
  const err = stderr.join("");
  expect(code, err).toBe(expectedCode);
  expect(stdout.join("")).toBe("");
  // Exactly one line, in the CLI's own format (not an internal error with a stack).
  expect(err).toMatch(/^mcp-gen: [^\n]+\n$/);
  expect(err).not.toMatch(/internal error/);
  expect(snapshot(work)).toEqual(before);
  if (process.env.SHOW_ERRORS) console.log(err);
  return err.trimEnd();
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The start of an error located in a schema file. */
const at = (file: string, line: number): string => `^mcp-gen: ${escape(file)}:${line}: `;

describe("a good schema (control)", () => {
  it("generates into the pre-populated folder, replacing it", async () => {
    writeSchema(REV, "export interface Fine {\n  a: string;\n}\n");
    const stderr: string[] = [];
    const code = await main(["--revision", REV, "--spec-dir", specDir, "--offline", "--out", out], {
      stdout: () => {},
      stderr: (t) => void stderr.push(t),
      env: { MCP_GEN_CACHE_DIR: cache },
      cwd: work,
      fetch: noNetwork,
    });
    expect(code, stderr.join("")).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["index.ts", "types.ts", "validators.ts"]);
    expect(readdirSync(outParent).sort()).toEqual(["NOTES.md", "gen"]);
  });
});

describe("unknown revision", () => {
  it("in an explicit spec dir", async () => {
    writeSchema(REV, "export type A = string;\n");
    const err = await fails(["--revision", "2099-01-01", "--spec-dir", specDir, "--offline", "--out", out]);
    expect(err).toMatch(/unknown revision "2099-01-01": not pinned .*; known revisions: .*\b2099-12-31\b/);
  });

  it("without a spec dir", async () => {
    const err = await fails(["--revision", "1999-01-01", "--offline", "--out", out]);
    expect(err).toMatch(/^mcp-gen: unknown revision "1999-01-01"; known revisions: /);
  });

  it("with a name that cannot be a revision", async () => {
    const err = await fails(["--revision", "../escape", "--spec-dir", specDir, "--out", out]);
    expect(err).toMatch(/invalid revision name "\.\.\/escape"/);
  });
});

describe("missing schema", () => {
  it("--offline with an empty spec dir, for a pinned revision", async () => {
    const err = await fails(["--revision", "2025-06-18", "--spec-dir", specDir, "--offline", "--out", out]);
    expect(err).toMatch(/no schema\.ts for revision 2025-06-18 in --spec-dir .* \(--offline\)/);
  });

  it("a spec dir that does not exist", async () => {
    const err = await fails(["--revision", REV, "--spec-dir", join(work, "nowhere"), "--offline", "--out", out]);
    expect(err).toMatch(/--spec-dir .*nowhere: no such directory/);
  });

  it("of several revisions, before anything is written", async () => {
    writeSchema(REV, "export type A = string;\n");
    const err = await fails(["--revision", REV, "--revision", "2025-06-18", "--spec-dir", specDir, "--offline", "--out", out]);
    expect(err).toMatch(/no schema\.ts for revision 2025-06-18/);
  });
});

describe("schema errors", () => {
  it("a syntax error, with its line", async () => {
    const file = writeSchema(REV, "export interface A {\n  a: string;\n  b: ;\n}\n");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", out]);
    expect(err).toMatch(new RegExp(`${at(file, 3)}syntax error: Type expected\\.?$`));
  });

  it("an unterminated declaration, with its line", async () => {
    const file = writeSchema(REV, "export type A = string;\n\nexport interface B {\n  b: string;\n");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", out]);
    expect(err).toMatch(new RegExp(`${at(file, 5)}syntax error: `));
  });

  const prelude = "/** Fine. */\nexport interface Ok {\n  ok: boolean;\n}\n\n"; // 5 lines
  it.each([
    ["a class", "export class Widget {\n  name = \"x\";\n}\n", 6, /unsupported top-level ClassDeclaration `export class Widget \{`/],
    ["an enum", "export enum Color {\n  Red,\n}\n", 6, /unsupported top-level EnumDeclaration `export enum Color \{`/],
    ["a generic interface", "export interface Box<T> {\n  value: T;\n}\n", 6, /unsupported generic declaration `Box`/],
    ["a generic type alias", "export type Pair<T> = { a: T; b: T };\n", 6, /unsupported generic declaration `Pair`/],
    ["a mapped type", "export type Flags = {\n  [K in \"a\" | \"b\"]: boolean;\n};\n", 6, /unsupported TypeScript construct: MappedType/],
    ["a tuple", "export interface Point {\n  x: number;\n  pair: [string, number];\n}\n", 8, /unsupported TypeScript construct: TupleType `\[string, number\]`/],
    ["keyof", "export type Keys = keyof Ok;\n", 6, /unsupported TypeScript construct: TypeOperator `keyof Ok`/],
    ["a conditional type", "export type C = Ok extends object ? string : number;\n", 6, /unsupported TypeScript construct: ConditionalType/],
    ["a function type", "export interface H {\n  run: () => void;\n}\n", 7, /unsupported TypeScript construct: FunctionType/],
    ["an indexed access type", "export type O = Ok[\"ok\"];\n", 6, /unsupported TypeScript construct: IndexedAccessType/],
    ["a template literal type", "export type T = `x-${string}`;\n", 6, /unsupported TypeScript construct: TemplateLiteralType/],
    ["a method signature", "export interface M {\n  a: string;\n  go(): void;\n}\n", 8, /unsupported member `go\(\): void;`/],
    ["a readonly property", "export interface R {\n  readonly id: string;\n}\n", 7, /unsupported readonly property `id`/],
    ["a generic reference", "export interface P {\n  p: Partial<Ok>;\n}\n", 7, /unsupported generic type `Partial<Ok>`/],
    ["a number-keyed index signature", "export interface N {\n  [i: number]: string;\n}\n", 7, /unsupported index signature key type `number`/],
    ["a non-exported interface", "interface Hidden {\n  h: string;\n}\n", 6, /`Hidden` is not exported/],
    ["a function", "export function f(): void {}\n", 6, /unsupported top-level FunctionDeclaration/],
    ["a non-literal constant", "export const X = 1 + 2;\n", 6, /constant `X` is not a literal/],
    ["a let variable", "export let Y = 1;\n", 6, /unsupported non-const variable/],
    ["typeof a non-constant", "export interface T {\n  t: typeof Nope;\n}\n", 7, /`typeof Nope` does not name an exported constant/],
    ["Omit of a non-literal key", "export interface W extends Omit<Ok, string> {\n  w: string;\n}\n", 6, /unsupported Omit key `string`/],
  ])("%s, with its line", async (_name, text, line, message) => {
    const file = writeSchema(REV, prelude + text);
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", out]);
    expect(err).toMatch(new RegExp(at(file, line)));
    expect(err).toMatch(message);
  });

  it("a reference to an undefined type, at the definition using it", async () => {
    const file = writeSchema(REV, "export interface A {\n  a: string;\n}\n\nexport interface B {\n  a: A;\n  missing?: Nowhere[];\n}\n");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", out]);
    expect(err).toMatch(new RegExp(`${at(file, 5)}\`B\` refers to unknown type \`Nowhere\`$`));
  });

  it("a base that is not defined", async () => {
    const file = writeSchema(REV, "export type A = string;\n\nexport interface B extends Missing {\n  b: string;\n}\n");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", out]);
    expect(err).toMatch(new RegExp(`${at(file, 3)}\`B\` extends unknown \`Missing\`$`));
  });

  it("a base that is not an object type", async () => {
    const file = writeSchema(REV, "export type A = string;\n\nexport interface B extends A {\n  b: string;\n}\n");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", out]);
    expect(err).toMatch(new RegExp(`${at(file, 3)}\`B\` extends \`A\`, which is not an object type$`));
  });

  it("a definition declared twice", async () => {
    const file = writeSchema(REV, "export type A = string;\nexport type A = number;\n");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", out]);
    expect(err).toMatch(new RegExp(`${at(file, 2)}\`A\` is declared twice$`));
  });

  it("a membership union naming an undefined message", async () => {
    const file = writeSchema(REV, "export interface Ping {\n  method: \"ping\";\n}\n\nexport type ClientRequest = Ping | Pong;\n");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", out]);
    expect(err).toMatch(new RegExp(`${at(file, 5)}\`ClientRequest\` names unknown \`Pong\`$`));
  });

  it("a format the validators cannot check", async () => {
    const file = writeSchema(REV, "export interface A {\n  /** @format email */\n  mail: string;\n}\n");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", out]);
    expect(err).toMatch(/email/);
    expect(err).toMatch(/^mcp-gen: .*schema\.ts(:\d+)?: /);
    void file;
  });

  it("a multi-line construct is still reported on one line", async () => {
    const file = writeSchema(REV, "export class Multi\n  extends Object\n{\n  a = 1;\n}\n");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", out]);
    expect(err).toMatch(new RegExp(`${at(file, 1)}unsupported top-level ClassDeclaration \`export class Multi\`$`));
  });
});

describe("unwritable output directory", () => {
  beforeEach(() => {
    writeSchema(REV, "export interface Fine {\n  a: string;\n}\n");
  });

  it("--out under a path that is a regular file", async () => {
    const blocker = join(work, "blocker");
    writeFileSync(blocker, "not a folder\n");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", join(blocker, "gen")]);
    expect(err).toMatch(new RegExp(`^mcp-gen: ${escape(join(blocker, "gen"))}: cannot write output: .*(ENOTDIR|EEXIST)`));
  });

  it("--out naming an existing regular file", async () => {
    const file = join(outParent, "NOTES.md");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", file]);
    expect(err).toMatch(/cannot write output/);
  });

  it("--out deeper under a regular file", async () => {
    const blocker = join(outParent, "NOTES.md");
    const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", join(blocker, "a", "b")]);
    expect(err).toMatch(/cannot write output: .*(ENOTDIR|EEXIST)/);
  });

  it.runIf(process.getuid?.() !== 0)("--out in a read-only directory (not as root, which ignores modes)", async () => {
    const { chmodSync } = await import("node:fs");
    chmodSync(outParent, 0o555);
    try {
      const err = await fails(["--revision", REV, "--spec-dir", specDir, "--out", out]);
      expect(err).toMatch(/cannot write output: .*(EACCES|EPERM)/);
    } finally {
      chmodSync(outParent, 0o755);
    }
  });
});

describe("as a real process", () => {
  const bin = join(ROOT, "dist", "generator", "cli", "main.js");

  /** The newest mtime of the TypeScript sources under a folder. */
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((e) =>
        e.isDirectory() ? newest(join(dir, e.name)) : e.name.endsWith(".ts") ? statSync(join(dir, e.name)).mtimeMs : 0,
      ),
    );

  beforeAll(() => {
    if (!existsSync(bin) || statSync(bin).mtimeMs < newest(join(ROOT, "generator"))) {
      // Type errors elsewhere in the tree do not stop tsc from emitting; the bin just has to exist.
      spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "."], { cwd: ROOT, encoding: "utf8" });
    }
    expect(existsSync(bin), `${bin} was not built`).toBe(true);
  });

  it("an unsupported construct: one line with file:line on stderr, exit 1, output untouched", () => {
    const file = writeSchema(REV, "export interface Ok {\n  ok: boolean;\n}\n\nexport enum Mode {\n  A,\n}\n");
    const before = snapshot(work);
    const env = { ...process.env, MCP_GEN_CACHE_DIR: cache };
    delete env.MCP_SPEC_DIR;
    delete env.MCP_GEN_DEBUG;
    const run = spawnSync(process.execPath, [bin, "--revision", REV, "--spec-dir", specDir, "--offline", "--out", out], {
      cwd: work,
      env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^mcp-gen: [^\n]+\n$/);
    expect(run.stderr).toMatch(new RegExp(`${at(file, 5)}unsupported top-level EnumDeclaration \`export enum Mode \\{\`\n$`));
    expect(snapshot(work)).toEqual(before);
  });
});
