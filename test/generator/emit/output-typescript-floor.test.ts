/**
 * The generated README promises a TypeScript floor (REQUIREMENTS.typescript): every revision's
 * output must compile, strictly, with exactly that version. It is installed apart from the project's
 * own TypeScript (tools/typescript-floor), on first use.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REQUIREMENTS } from "../../../generator/emit/readme.js";
import { generatedDir, REVISIONS, ROOT } from "../../helpers/spec.js";
import { NODE_TYPES, STRICT_OPTIONS } from "../../helpers/tsc.js";

const FLOOR = join(ROOT, "tools", "typescript-floor");
const floorTsc = join(FLOOR, "node_modules", "typescript", "bin", "tsc");

beforeAll(() => {
  if (!existsSync(floorTsc))
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--prefix", FLOOR], { stdio: "ignore" });
}, 300_000);

describe(`the output compiles with TypeScript ${REQUIREMENTS.typescript}`, () => {
  it("the installed compiler is that version", () => {
    const version = execFileSync(process.execPath, [floorTsc, "--version"], { encoding: "utf8" });
    expect(version.trim()).toMatch(
      new RegExp(`^Version ${REQUIREMENTS.typescript.replace(".", "\\.")}\\.\\d+$`),
    );
  });

  it("every revision, with the strictest settings", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-gen-ts-floor-"));
    const files = REVISIONS.flatMap((r) =>
      readdirSync(generatedDir(r), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".ts"))
        .map((f) => join(generatedDir(r), f)),
    );
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { ...STRICT_OPTIONS, ...NODE_TYPES, noEmit: true },
        files,
      }),
    );
    const run = spawnSync(process.execPath, [floorTsc, "-p", dir], {
      encoding: "utf8",
      timeout: 300_000,
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  });
});
