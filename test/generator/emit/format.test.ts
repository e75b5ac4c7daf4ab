import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { format, PRETTIER_OPTIONS } from "../../../generator/emit/format.js";
import { generatedDir, ROOT } from "../../helpers/spec.js";

// The generator formats with prettier's standalone build (loadable from the compile cache); it must
// print what the `prettier` package itself prints with the same options, which is what
// `npm run format` and editors use. Inputs: a revision's output, and the same with its layout undone.
const revision = "2026-07-28";
const files = readdirSync(generatedDir(revision), { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts"))
  .sort();

describe("format", () => {
  it("has output files to compare", () => {
    expect(files).toEqual(
      expect.arrayContaining([
        "types.ts",
        "validators.ts",
        "server.ts",
        "client.ts",
        "runtime/server/dispatch.ts",
      ]),
    );
  });

  it.each(files)("%s: prints what the prettier package prints", async (file) => {
    const text = readFileSync(join(generatedDir(revision), file), "utf8");
    const squashed = text.replace(/\n\s+/g, "\n").replace(/,\n\)/g, ")");
    for (const input of [text, squashed])
      expect(await format(input)).toBe(await prettier.format(input, PRETTIER_OPTIONS));
  });

  it("uses the project's .prettierrc.json", () => {
    const rc = JSON.parse(readFileSync(join(ROOT, ".prettierrc.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(PRETTIER_OPTIONS).toMatchObject(rc);
  });
});
