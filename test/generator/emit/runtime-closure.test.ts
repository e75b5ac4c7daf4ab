/**
 * The output's runtime is the import closure of what the targets emit: every relative import of an
 * output resolves to a file of that output, and every runtime module in it is imported by another
 * file, except the add-on adapters, which are roots the user imports (each imports its package).
 * And neither the generator nor the runtime has an import cycle (type-only imports count: the
 * targets once imported the registry that imports them; the dispatcher's parts its types).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { runtimeClosure } from "../../../generator/emit/runtime-closure.js";
import {
  RUNTIME,
  RUNTIME_ADAPTERS,
  RUNTIME_DIR,
  runtimeCopy,
} from "../../../generator/emit/runtime.js";
import { generatedDir, REVISIONS, ROOT } from "../../helpers/spec.js";

const IMPORT = /^\s*(?:import|export)\b[^;"']*?\bfrom\s*["']([^"']+)["']/gm;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const specifiers = (source: string): string[] => [...source.matchAll(IMPORT)].map((m) => m[1]!);

/** Relative imports as resolved `.ts` paths. */
const localImports = (file: string): string[] =>
  specifiers(readFileSync(file, "utf8"))
    .filter((s) => s.startsWith("."))
    .map((s) => resolve(dirname(file), s.replace(/\.js$/, ".ts")));

describe("runtime closure", () => {
  it("adds what a file imports, type-only imports and re-exports too, transitively, once", () => {
    const added = runtimeClosure([
      {
        path: "a.ts",
        content: 'import type { ProtocolDescription } from "./runtime/shared/protocol.js";\n',
      },
      { path: "b.ts", content: 'export { FORMATS } from "./runtime/schema/formats.js";\n' },
      { path: "runtime/schema/checks.ts", content: "// already there: not copied again\n" },
    ]).map((f) => f.path);
    // protocol.ts imports checks.ts, already present; checks.ts itself imports the rest.
    expect(added.sort()).toEqual(["runtime/schema/formats.ts", "runtime/shared/protocol.ts"]);
    expect(
      runtimeClosure([
        { path: "c.ts", content: 'import { x } from "./runtime/shared/protocol.js";\n' },
      ])
        .map((f) => f.path)
        .sort(),
    ).toEqual(["runtime/schema/checks.ts", "runtime/shared/protocol.ts"]);
  });

  for (const revision of [...REVISIONS, "dual", "otel"]) {
    it(`${revision}: every import resolves inside the output, every runtime module but an add-on root is imported`, () => {
      const dir = generatedDir(revision);
      const files = filesUnder(dir);
      const imported = new Set<string>();
      for (const file of files)
        for (const target of localImports(file)) {
          expect(files, `${relative(dir, file)} imports ${relative(dir, target)}`).toContain(
            target,
          );
          imported.add(target);
        }
      const roots = files
        .filter((f) => relative(dir, f).startsWith("runtime") && !imported.has(f))
        .map((f) => relative(dir, f));
      for (const root of roots) {
        const packages = specifiers(readFileSync(join(dir, root), "utf8")).filter(
          (s) => !s.startsWith(".") && !s.startsWith("node:"),
        );
        expect(packages, `${root} is copied but nothing imports it`).not.toEqual([]);
      }
    });
  }
});

describe("import cycles", () => {
  /** Strongly connected components of more than one module (Tarjan). */
  function cycles(dir: string): string[][] {
    const files = filesUnder(dir);
    const graph = new Map(files.map((f) => [f, localImports(f).filter((t) => files.includes(t))]));
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const found: string[][] = [];
    const visit = (v: string): void => {
      index.set(v, index.size);
      low.set(v, index.get(v)!);
      stack.push(v);
      for (const w of graph.get(v)!) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) !== index.get(v)) return;
      const component: string[] = [];
      for (let w = stack.pop(); ; w = stack.pop()) {
        component.push(relative(dir, w!));
        if (w === v) break;
      }
      if (component.length > 1) found.push(component.sort());
    };
    for (const f of files) if (!index.has(f)) visit(f);
    return found;
  }

  for (const dir of ["generator", "runtime"])
    it(`${dir} has none`, () => expect(cycles(join(ROOT, dir))).toEqual([]));
});

describe("the runtime table (emit/runtime.ts)", () => {
  it("names modules of runtime/ by the path they keep in the output", () => {
    const paths = [
      ...Object.values(RUNTIME).map((m) => m.path.slice(RUNTIME_DIR.length)),
      ...Object.values(RUNTIME_ADAPTERS),
    ];
    for (const path of paths) expect(existsSync(join(ROOT, "runtime", path)), path).toBe(true);
    expect(runtimeCopy(RUNTIME_ADAPTERS.redis).path).toBe("runtime/server/store-redis.ts");
  });
});
