import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../package-root.js";
import type { GeneratedFile } from "./file.js";

/** A package the output imports (only add-on flags bring one in), the files that import it, the version mcp-gen tests with. */
export interface ImportedPackage {
  name: string;
  version: string | null;
  files: string[];
}

// A static import or re-export's module specifier; the runtime and emitted modules use no other form.
const SPECIFIER = /^\s*(?:import|export)\b[^;"']*?\bfrom\s*["']([^"']+)["']/gm;

/**
 * The npm packages the output's files import, read off the files themselves, so the README's list
 * cannot drift from what an add-on flag emits. `node:` built-ins and relative paths are no package.
 */
export function importedPackages(files: readonly GeneratedFile[]): ImportedPackage[] {
  const byName = new Map<string, Set<string>>();
  for (const file of files) {
    if (!file.path.endsWith(".ts")) continue;
    for (const [, specifier] of file.content.matchAll(SPECIFIER)) {
      const name = packageName(specifier!);
      if (name) (byName.get(name) ?? byName.set(name, new Set()).get(name)!).add(file.path);
    }
  }
  const tested = testedVersions();
  return [...byName.keys()].sort().map((name) => ({
    name,
    version: tested[name] ?? null,
    files: [...byName.get(name)!].sort(),
  }));
}

/** `ajv/dist/2020.js` → `ajv`, `@cfworker/json-schema` → itself; null for built-ins and paths. */
export function packageName(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:"))
    return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** The exact versions mcp-gen's own tests run the add-ons with: its package.json pins them. */
function testedVersions(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  return { ...pkg.dependencies, ...pkg.devDependencies };
}
