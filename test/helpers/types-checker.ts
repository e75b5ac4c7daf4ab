import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Node, Project } from "ts-morph";
import { format } from "../../generator/emit/format.js";
import { typesTarget } from "../../generator/emit/types/target.js";
import type { ProtocolModel } from "../../generator/ir/model.js";

/*
 * The machinery of test/generator/emit/assignability.test.ts: generated types.ts files are compared with the
 * spec's own schema.ts by the TypeScript compiler, in a temporary directory (spec files are read in
 * place and copied only there, never into the repository).
 */

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** `$MCP_SPEC_DIR`, or `../shared/mcp-spec/schema` next to the repository. */
export const SPEC_DIR = resolve(
  process.env.MCP_SPEC_DIR ?? join(ROOT, "..", "shared", "mcp-spec", "schema"),
);

/** Every revision of the spec dir (any folder with a schema.ts), in name order. */
export function specRevisions(): string[] {
  return readdirSync(SPEC_DIR)
    .filter((name) => existsSync(join(SPEC_DIR, name, "schema.ts")))
    .sort();
}

export const specSchemaFile = (revision: string): string => join(SPEC_DIR, revision, "schema.ts");

/** types.ts for a model, as the generator writes it (prettier-formatted; the header is left out). */
export async function generateTypes(model: ProtocolModel): Promise<string> {
  const files = typesTarget.emit({ model, generatorVersion: "0.0.0-test", releases: {} });
  const file = files.find((f) => f.path === "types.ts");
  if (!file || files.length !== 1)
    throw new Error(`typesTarget emitted ${files.map((f) => f.path).join(", ")}`);
  return format(file.content);
}

export interface ExportedNames {
  /** Exported interfaces and type aliases. */
  types: string[];
  /** Exported constants. */
  values: string[];
}

/**
 * The names a module exports, read by the compiler (ts-morph), sorted. Anything exported that is
 * neither a type nor a constant is reported as such, so that it cannot go unnoticed.
 */
export function exportedNames(sources: Record<string, string>): Record<string, ExportedNames> {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { noLib: true } });
  const result: Record<string, ExportedNames> = {};
  for (const [id, text] of Object.entries(sources)) {
    const sourceFile = project.createSourceFile(`/${id}.ts`, text);
    const types: string[] = [];
    const values: string[] = [];
    for (const [name, declarations] of sourceFile.getExportedDeclarations()) {
      for (const declaration of declarations) {
        if (Node.isInterfaceDeclaration(declaration) || Node.isTypeAliasDeclaration(declaration))
          types.push(name);
        else if (Node.isVariableDeclaration(declaration)) values.push(name);
        else types.push(`<unexpected ${declaration.getKindName()}> ${name}`);
      }
    }
    result[id] = { types: [...new Set(types)].sort(), values: [...new Set(values)].sort() };
  }
  return result;
}

/** One compiled assertion of a checker file. */
export interface Check {
  name: string;
  /**
   * - `spec→gen` / `gen→spec`: a value of one type is assignable to the other;
   * - `spec→gen required` / `gen→spec required`: the same with every property, at every depth,
   *   made required, which catches an optional property one side lacks (plain assignability lets
   *   a missing optional property through in both directions);
   * - `identical`: the two types are identical for the compiler (this also tells `any` from `unknown`);
   * - `const spec→gen` / `const gen→spec`: the types of a constant.
   */
  kind:
    | "spec→gen"
    | "gen→spec"
    | "spec→gen required"
    | "gen→spec required"
    | "identical"
    | "const spec→gen"
    | "const gen→spec";
}

/**
 * A checker module comparing `./types.js` (Gen) with `./schema.js` (Spec) for every name given.
 * Each assertion stands on its own line; `lines` maps a line number to what it asserts.
 *
 * Values are never made up with casts: each check is an assignment from a parameter of the source
 * type, which the compiler checks with exactOptionalPropertyTypes and no generic inference involved.
 */
export function checkerSource(names: ExportedNames): { text: string; lines: Map<number, Check> } {
  const out: string[] = [
    'import type * as Gen from "./types.js";',
    'import type * as Spec from "./schema.js";',
    "",
    "/** T with every property required, at every depth (arrays through an interface, so recursion stays lazy). */",
    "type DeepRequired<T> = T extends readonly (infer E)[]",
    "  ? DeepRequiredArray<E>",
    "  : T extends object",
    "    ? { [K in keyof T]-?: DeepRequired<T[K]> }",
    "    : T;",
    "interface DeepRequiredArray<E> extends Array<DeepRequired<E>> {}",
    "",
    "/** true only when A and B are identical types (the compiler's identity relation, not assignability). */",
    "type Identical<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;",
    "declare function identical<T extends true>(): T;",
    "",
  ];
  const lines = new Map<number, Check>();
  const add = (text: string, check?: Check): void => {
    out.push(text);
    if (check) lines.set(out.length, check);
  };
  for (const name of names.types) {
    const spec = `Spec.${name}`;
    const gen = `Gen.${name}`;
    add(`export function type_${name}(`);
    add(`  spec: ${spec},`);
    add(`  gen: ${gen},`);
    add(`  specRequired: DeepRequired<${spec}>,`);
    add(`  genRequired: DeepRequired<${gen}>,`);
    add(`): void {`);
    add(`  const specToGen: ${gen} = spec;`, { name, kind: "spec→gen" });
    add(`  const genToSpec: ${spec} = gen;`, { name, kind: "gen→spec" });
    add(`  const specToGenRequired: DeepRequired<${gen}> = specRequired;`, {
      name,
      kind: "spec→gen required",
    });
    add(`  const genToSpecRequired: DeepRequired<${spec}> = genRequired;`, {
      name,
      kind: "gen→spec required",
    });
    add(`  identical<Identical<${gen}, ${spec}>>();`, { name, kind: "identical" });
    add(`  void [specToGen, genToSpec, specToGenRequired, genToSpecRequired];`);
    add(`}`);
  }
  for (const name of names.values) {
    add(
      `export function const_${name}(spec: typeof Spec.${name}, gen: typeof Gen.${name}): void {`,
    );
    add(`  const specToGen: typeof Gen.${name} = spec;`, { name, kind: "const spec→gen" });
    add(`  const genToSpec: typeof Spec.${name} = gen;`, { name, kind: "const gen→spec" });
    add(`  void [specToGen, genToSpec];`);
    add(`}`);
  }
  return { text: `${out.join("\n")}\n`, lines };
}

/** The compiler options every check runs under: those of a strict consumer of the generated code. */
export const CHECK_COMPILER_OPTIONS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  module: "NodeNext",
  moduleResolution: "NodeNext",
  target: "ES2022",
  types: [],
  skipLibCheck: true,
};

/** One folder of a check run: Gen (types.ts), Spec (schema.ts) and the checker comparing them. */
export interface CheckDir {
  dir: string;
  lines: Map<number, Check>;
}

export function writeCheckDir(
  dir: string,
  files: { types: string; spec: string; names: ExportedNames },
): CheckDir {
  mkdirSync(dir, { recursive: true });
  const checker = checkerSource(files.names);
  writeFileSync(join(dir, "types.ts"), files.types);
  writeFileSync(join(dir, "schema.ts"), files.spec);
  writeFileSync(join(dir, "check.ts"), checker.text);
  return { dir, lines: checker.lines };
}

/** A tsconfig at root compiling the given check dirs (their types.ts on its own, and check.ts). */
export function writeTsconfig(root: string, name: string, dirs: CheckDir[]): string {
  if (!existsSync(join(root, "package.json")))
    writeFileSync(join(root, "package.json"), '{ "type": "module", "private": true }\n');
  const files = dirs.flatMap(({ dir }) => [
    relative(root, join(dir, "types.ts")),
    relative(root, join(dir, "check.ts")),
  ]);
  const file = join(root, name);
  writeFileSync(
    file,
    `${JSON.stringify({ compilerOptions: CHECK_COMPILER_OPTIONS, files }, null, 2)}\n`,
  );
  return file;
}

export interface Diagnostic {
  /** Path relative to the tsconfig's folder. */
  file: string;
  line: number;
  code: string;
  message: string;
}

export interface TscResult {
  exitCode: number;
  output: string;
  diagnostics: Diagnostic[];
}

/** Runs the project's TypeScript compiler (`node_modules/.bin/tsc`) on a tsconfig. */
export function runTsc(tsconfig: string): Promise<TscResult> {
  const tsc = join(ROOT, "node_modules", ".bin", "tsc");
  return new Promise((done, fail) => {
    execFile(
      tsc,
      ["-p", tsconfig, "--pretty", "false"],
      { cwd: resolve(tsconfig, ".."), maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) => {
        const exitCode = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        if (error && exitCode === -1) return fail(error);
        const output = `${stdout}${stderr}`;
        const diagnostics = [...output.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/gm)].map(
          (m) => ({
            file: m[1]!.replace(/\\/g, "/"),
            line: Number(m[2]),
            code: m[3]!,
            message: m[4]!,
          }),
        );
        done({ exitCode, output, diagnostics });
      },
    );
  });
}

/** The checks that a run's diagnostics hit in one check dir, as `Name: kind` strings (sorted, unique). */
export function failedChecks(result: TscResult, root: string, checkDir: CheckDir): string[] {
  const checker = relative(root, join(checkDir.dir, "check.ts")).replace(/\\/g, "/");
  const hits = new Set<string>();
  for (const diagnostic of result.diagnostics) {
    if (diagnostic.file !== checker) continue;
    const check = checkDir.lines.get(diagnostic.line);
    hits.add(
      check ? `${check.name}: ${check.kind}` : `line ${diagnostic.line}: ${diagnostic.code}`,
    );
  }
  return [...hits].sort();
}

/** Diagnostics in a file of a check dir (`types.ts`, `schema.ts`, `check.ts`). */
export function diagnosticsIn(
  result: TscResult,
  root: string,
  checkDir: CheckDir,
  file: string,
): Diagnostic[] {
  const path = relative(root, join(checkDir.dir, file)).replace(/\\/g, "/");
  return result.diagnostics.filter((d) => d.file === path);
}

export const readSpec = (revision: string): string =>
  readFileSync(specSchemaFile(revision), "utf8");
