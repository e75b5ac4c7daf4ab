import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./spec.js";

/** What generated code promises to compile under: the settings of a strict consumer. */
export const STRICT_OPTIONS = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  skipLibCheck: true,
} as const;

/** Node's types, from this project: the runtime is for Node, and a consumer compiles it with them. */
export const NODE_TYPES = { types: ["node"], typeRoots: [join(ROOT, "node_modules", "@types")] };

/**
 * Writes `<dir>/tsconfig.json` and an ESM `package.json`, and runs the project's tsc on that folder.
 * Returns tsc's exit status and everything it printed.
 */
export function tsc(
  dir: string,
  project: { compilerOptions: Record<string, unknown>; files?: string[]; include?: string[] },
): { status: number | null; output: string } {
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(project));
  const run = spawnSync(
    process.execPath,
    [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir],
    {
      encoding: "utf8",
      timeout: 300_000,
    },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
