/**
 * Golden tests: each fixture `test/fixtures/<construct>/schema.ts` is loaded and rendered, and the
 * IR (`ir.json`), `types.ts` and `validators.ts` (and, for a fixture that describes a protocol, its
 * protocol description `protocol.json` as `mcp-gen ir --protocol` prints it, `server.ts` and
 * `client.ts`) are compared byte for byte with `test/fixtures/<construct>/expected/`.
 *
 * After an intended change to the loader or an emitter, rewrite the expected files with
 *
 *     UPDATE_GOLDEN=1 npx vitest run test/generator/emit/golden.test.ts
 *
 * then READ THE DIFF (`git diff test/fixtures`) before accepting it: a golden file is only as right
 * as the review it got. The facts that matter most (methods, pairing, lifecycle, deprecations,
 * constraints) are also asserted directly in `test/generator/load/`, so a wrong golden file cannot
 * hide a loader bug on its own.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  expectedDir,
  fixtureNames,
  GOLDEN_FILES,
  readExpected,
  renderFixture,
  writeExpected,
  writeToTemp,
  type RenderedFixture,
} from "../../helpers/golden.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../../helpers/tsc.js";

const UPDATE = process.env.UPDATE_GOLDEN === "1";
const FIXTURES = fixtureNames();
const rendered = new Map<string, RenderedFixture>();

async function render(name: string): Promise<RenderedFixture> {
  let result = rendered.get(name);
  if (!result) {
    result = await renderFixture(name);
    rendered.set(name, result);
  }
  return result;
}

describe("golden fixtures", () => {
  it("has one fixture per construct", () => {
    expect(FIXTURES).toEqual(
      expect.arrayContaining([
        "arrays",
        "constraints",
        "date",
        "deprecations",
        "empty-statement",
        "extends",
        "index-signatures",
        "intersection",
        "jsdoc",
        "lifecycle-stateful",
        "lifecycle-stateless",
        "literals",
        "merging",
        "nested-objects",
        "never",
        "omit",
        "primitives",
        "properties",
        "protocol-surface",
        "readonly",
        "record",
        "record-named-key",
        "typeof-constants",
        "unions",
      ]),
    );
  });

  describe.each(FIXTURES)("%s", (name) => {
    it.each(GOLDEN_FILES)("%s matches expected/", async (file) => {
      const actual = (await render(name)).golden[file];
      if (UPDATE) {
        if (actual !== null) writeExpected(name, file, actual);
        return;
      }
      const expected = readExpected(name, file);
      if (actual === null) {
        expect(expected, `${name} describes no protocol: no expected/${file}`).toBeNull();
        return;
      }
      expect(
        expected,
        `missing ${join(expectedDir(name), file)}: run UPDATE_GOLDEN=1 npx vitest run test/generator/emit/golden.test.ts`,
      ).not.toBeNull();
      expect(actual).toBe(expected);
    });

    it("expected/ holds nothing but the golden files", async () => {
      if (UPDATE) return;
      const { golden } = await render(name);
      const made = GOLDEN_FILES.filter((file) => golden[file] !== null);
      expect(readdirSync(expectedDir(name)).sort()).toEqual([...made].sort());
    });

    it("renders deterministically", async () => {
      const again = await renderFixture(name);
      expect(again.golden).toEqual((await render(name)).golden);
    });
  });
});

describe("generated code of every fixture", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("type-checks under strict TypeScript", async () => {
    // One tsc run over every fixture's output, each in its own folder.
    const all = await Promise.all(
      FIXTURES.map(async (name) => ({ name, files: (await render(name)).files })),
    );
    const root = writeToTemp([], "mcp-gen-golden-tsc-");
    dirs.push(root);
    for (const { name, files } of all) {
      for (const file of files) {
        const path = join(root, name, file.path);
        mkdirSync(join(path, ".."), { recursive: true });
        writeFileSync(path, file.content);
      }
    }
    // A fixture with a protocol surface gets a server, whose runtime is for Node.
    const checked = tsc(root, {
      compilerOptions: { ...STRICT_OPTIONS, ...NODE_TYPES, noEmit: true },
      include: ["**/*.ts"],
    });
    expect(checked.output).toBe("");
    expect(checked.status).toBe(0);
  });
});
