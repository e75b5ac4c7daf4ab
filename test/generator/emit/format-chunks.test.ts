/**
 * A large module is formatted a run of top-level statements at a time (issue 33: 15,000
 * definitions took 2.2 GiB in one prettier call): the result must be byte for byte what formatting
 * it whole gives. Checked on the real 2026-07-28 modules, their indentation taken away so that
 * prettier has work to do, cut into runs of 2 KiB; and the cuts never fall inside a string, a
 * template, a comment, a regular expression or brackets.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { format } from "../../../generator/emit/format.js";
import { topLevelChunks } from "../../../generator/emit/format-chunks.js";
import { generatedDir } from "../../helpers/spec.js";

const MODULES = ["validators.ts", "types.ts", "protocol.ts", "client.ts", "server.ts"];

describe("formatting in runs of top-level statements", () => {
  it.each(MODULES)("2026-07-28 %s: the same bytes as formatting it whole", async (name) => {
    const text = readFileSync(join(generatedDir("2026-07-28"), name), "utf8").replace(
      /^[ \t]+/gm,
      "",
    );
    const chunks = topLevelChunks(text, 2048);
    expect(chunks.join("")).toBe(text);
    if (name === "validators.ts" || name === "types.ts") expect(chunks.length).toBeGreaterThan(10);
    expect(await format(text, 2048)).toBe(await format(text, Infinity));
  });

  it("never cuts inside a string, template, comment, regular expression or brackets", () => {
    const pad = "x".repeat(40);
    const text = [
      `const a = "${pad}\\"\\n\\nfunction no() {}";`,
      "",
      `const b = \`${pad}`,
      "",
      "function no() {}`;",
      "",
      `const c = /\\/${pad}/g.test("x");`,
      "",
      `/* ${pad}`,
      "",
      "function no() {} */",
      "const d = {",
      "",
      "e: 1 };",
      "",
      "function yes() {}",
      "",
    ].join("\n");
    const chunks = topLevelChunks(text, 1);
    expect(chunks.join("")).toBe(text);
    expect(chunks.map((c) => c.split("\n")[0])).toEqual([
      chunks[0]!.split("\n")[0],
      "const b = `" + pad,
      `const c = /\\/${pad}/g.test("x");`,
      `/* ${pad}`,
      "function yes() {}",
    ]);
  });

  it("a module under the size stays whole", () => {
    expect(topLevelChunks("a;\n\nb;\n", 1000)).toEqual(["a;\n\nb;\n"]);
  });
});
