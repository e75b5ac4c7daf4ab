import { posix } from "node:path";
import type { GeneratedFile } from "./file.js";
import { RUNTIME_DIR, runtimeFile } from "./runtime.js";

// Every relative module specifier of a file: imports, type imports and re-exports alike (a type-only
// import still needs the module for the output to type-check).
const RELATIVE = /^\s*(?:import|export)\b[^;"']*?\bfrom\s*["'](\.{1,2}\/[^"']+)\.js["']/gm;

/**
 * The runtime modules `files` need and do not hold yet: every `runtime/` module reachable through
 * relative imports from the emitted files, copied verbatim. The output's runtime is its import
 * closure, so a target names only the generated modules it writes and the runtime roots nothing
 * imports (an add-on adapter), never a hand list that can miss a module or copy one no file uses.
 */
export function runtimeClosure(files: readonly GeneratedFile[]): GeneratedFile[] {
  const have = new Set(files.map((f) => f.path));
  const added: GeneratedFile[] = [];
  const queue = [...files];
  for (let file = queue.shift(); file; file = queue.shift()) {
    if (!file.path.endsWith(".ts")) continue;
    for (const [, specifier] of file.content.matchAll(RELATIVE)) {
      const path = posix.normalize(posix.join(posix.dirname(file.path), `${specifier!}.ts`));
      if (!path.startsWith(RUNTIME_DIR) || have.has(path)) continue;
      have.add(path);
      const module = { path, content: runtimeFile(path.slice(RUNTIME_DIR.length)) };
      added.push(module);
      queue.push(module);
    }
  }
  return added;
}
