/**
 * The check helpers (`VALID`, `checked`, `anyOf`, `paramsOf`) live once, in `runtime/schema/checks.ts`,
 * which every generated module that composes checks imports: each of them imports exactly the
 * helpers its code calls (recorded as the code was built, never found by reading it back) and
 * defines none of its own. The protocol's own checks are put in place at run time from the
 * description (`runtime/shared/protocol.ts`'s `bindProtocol`, which composes them with the same helpers).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REVISIONS, ROOT, generatedDir } from "../../helpers/spec.js";

const HELPERS = ["VALID", "anyOf", "checked", "paramsOf"] as const;
const RUNTIME_SOURCE = readFileSync(join(ROOT, "runtime", "schema", "checks.ts"), "utf8");

/** Every output folder `npm test` generates, with the modules in it that compose checks. */
const OUTPUTS = [
  ...REVISIONS.map((revision) => ({
    dir: generatedDir(revision),
    modules: ["server.ts", "client.ts"],
  })),
  { dir: join(ROOT, "generated", "dual"), modules: ["server.ts", "client.ts"] },
  { dir: join(ROOT, "generated", "tools"), modules: ["tools.ts"] },
];

/** The names a module imports from `./runtime/schema/checks.js` (prettier puts one import on one or more lines). */
function importedHelpers(text: string): string[] {
  const found = /import \{([^}]*)\} from "\.\/runtime\/schema\/checks\.js";/.exec(text);
  if (!found) return [];
  return found[1]!
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "" && !name.startsWith("type "));
}

/** The helpers the module's code uses, outside its import declarations. */
function usedHelpers(text: string): string[] {
  const body = text.replace(/^import [^;]*;$/gms, "");
  return HELPERS.filter((name) =>
    name === "VALID" ? /\bVALID\b/.test(body) : new RegExp(`\\b${name}\\(`).test(body),
  );
}

describe.each(OUTPUTS)("$dir", ({ dir, modules }) => {
  it("holds runtime/schema/checks.ts as written, after the header", () => {
    const copy = readFileSync(join(dir, "runtime", "schema", "checks.ts"), "utf8");
    expect(copy.endsWith(`\n\n${RUNTIME_SOURCE}`)).toBe(true);
  });

  it.each(modules)("%s imports exactly the helpers it calls and defines none", (module) => {
    const path = join(dir, module);
    expect(existsSync(path)).toBe(true);
    const text = readFileSync(path, "utf8");
    expect([...importedHelpers(text)].sort()).toEqual([...usedHelpers(text)].sort());
    // Every check a module composes goes through the shared `checked`.
    if (usedHelpers(text).length > 0) expect(importedHelpers(text)).toContain("checked");
    for (const name of HELPERS)
      expect(text, `${module} defines ${name}`).not.toMatch(
        new RegExp(`^(const|function) ${name}\\b`, "m"),
      );
  });
});

describe("the runtime reads one Validate", () => {
  it("is defined in checks.ts only; the dispatcher's results, the legacy bridge and the protocol both runtimes read import it", () => {
    const runtime = join(ROOT, "runtime");
    for (const module of [
      "server/results.ts",
      "server/legacy-host.ts",
      "shared/protocol.ts",
      "client/protocol.ts",
    ]) {
      const text = readFileSync(join(runtime, module), "utf8");
      expect(text).not.toMatch(/^(export )?type Validate =/m);
      if (module !== "client/protocol.ts")
        expect(text).toContain('import type { Validate } from "../schema/checks.js";');
    }
    // The client's names are the shared protocol's types.
    expect(readFileSync(join(runtime, "client/protocol.ts"), "utf8")).toContain(
      'from "../shared/protocol.js"',
    );
    expect(RUNTIME_SOURCE).toMatch(/^export type Validate =/m);
  });
});
