import { describe, expect, it } from "vitest";
import { GENERATED_MARK, header } from "../../../generator/emit/file.js";
import type { ProtocolModel } from "../../../generator/ir/model.js";

const model = {
  revision: "2026-07-28",
  source: { sha256: "ab".repeat(32) },
  lifecycle: { kind: "stateless" },
} as unknown as ProtocolModel;

describe("the header of a generated file", () => {
  it("names the generator, the schema and the command, each on a comment line", () => {
    expect(String(header({ model, generatorVersion: "1.2.3", releases: {} }))).toBe(
      [
        `${GENERATED_MARK}1.2.3 from the MCP schema, revision 2026-07-28.`,
        `// schema.ts sha256: ${"ab".repeat(32)}`,
        // A stateless revision generated alone says so: the command's default would add legacy eras.
        "// Do not edit: regenerate with `mcp-gen --revision 2026-07-28 --legacy none`.",
      ].join("\n"),
    );
  });

  it("keeps an output path with a line break in its comment", () => {
    const text = String(
      header({
        model,
        generatorVersion: "1.2.3",
        releases: {},
        provenance: { regenerate: "mcp-gen --out 'x\nexport const evil = 1;'" },
      }),
    );
    expect(text.split("\n").every((line) => line.startsWith("// "))).toBe(true);
    expect(new Function(`${text}\nreturn typeof evil;`)()).toBe("undefined");
  });
});
