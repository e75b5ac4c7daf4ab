/**
 * docs/telemetry.md's TypeScript blocks compile: each block is a module of its own in a folder
 * where `./mcp/` is the output generated with `--telemetry otel` (generated/otel), compiled with the
 * settings of a strict consumer.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/spec.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../helpers/tsc.js";

/** Inside the project, so that the blocks' packages resolve from its node_modules. */
const DIR = join(ROOT, `.docs-tmp-telemetry-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

function blocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

describe("docs/telemetry.md", () => {
  it("has TypeScript blocks, and every one compiles against the generated output", () => {
    const found = blocks(readFileSync(join(ROOT, "docs", "telemetry.md"), "utf8"));
    expect(found.length).toBeGreaterThanOrEqual(4);
    mkdirSync(DIR, { recursive: true });
    symlinkSync(join(ROOT, "generated", "otel"), join(DIR, "mcp"), "dir");
    const files = found.map((code, i) => {
      const file = `block-${i + 1}.ts`;
      // A module each, whatever it imports.
      writeFileSync(join(DIR, file), `${code}\nexport {};\n`);
      return file;
    });
    const { status, output } = tsc(DIR, {
      compilerOptions: { ...STRICT_OPTIONS, ...NODE_TYPES, noEmit: true },
      files,
    });
    expect(output).toBe("");
    expect(status).toBe(0);
  });
});
