/**
 * Real revisions nobody tuned for: the upstream `schema.ts` versions in `history/` beside the spec
 * (`manifest.tsv`: folder, commit, date, path, subject) each generate with no code change, and the
 * output of all of them type-checks under the strict options in one compiler run. A version that is
 * not valid TypeScript itself (found by type-checking the schema files, not by a list) may be
 * refused, but only with the generator's one-line error.
 *
 * `npm test` takes an even sample of the history; `MCP_HISTORY=all` (set by `.ci/run`) takes all.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffModels } from "../../../generator/diff/index.js";
import { emitRevision } from "../../../generator/emit/index.js";
import { GeneratorError } from "../../../generator/errors.js";
import { loadModel } from "../../../generator/load/index.js";
import { emitFacts } from "../../helpers/spec.js";
import {
  ALL_HISTORY,
  HISTORY_VERSIONS,
  historySchema,
  sampled,
  type Version,
} from "../../helpers/history.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../../helpers/tsc.js";

/** How many versions `npm test` takes, spread evenly over the history. */
const SAMPLE = 12;

const all = HISTORY_VERSIONS;
const versions = ALL_HISTORY ? all : sampled(all, SAMPLE);
const schemaOf = (v: Version) => historySchema(v.name);

describe.skipIf(versions.length === 0)(
  `upstream schema history (${versions.length} of ${all.length} versions)`,
  () => {
    const work = mkdtempSync(join(tmpdir(), "mcp-gen-history-"));
    /** Versions whose own schema.ts does not type-check. */
    const invalid = new Set<string>();
    const failures = new Map<string, unknown>();
    const generated: string[] = [];

    beforeAll(async () => {
      const check = tsc(join(work), {
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: versions.map(schemaOf),
      });
      for (const v of versions)
        if (check.output.includes(`${v.name}/schema.ts(`)) invalid.add(v.name);
      for (const v of versions) {
        try {
          const model = loadModel(schemaOf(v), { revision: v.name });
          await emitRevision(model, {
            outDir: join(work, "out", v.name),
            generatorVersion: "0.0.0-history",
            ...emitFacts(model),
          });
          generated.push(v.name);
        } catch (error) {
          failures.set(v.name, error);
        }
      }
      if (invalid.size > 0)
        console.log(`history: not valid TypeScript themselves: ${[...invalid].join(", ")}`);
    }, 600_000);

    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it("generates every version that is valid TypeScript", () => {
      const refused = [...failures]
        .filter(([name]) => !invalid.has(name))
        .map(([name, error]) => `${name}: ${(error as Error).message}`);
      expect(refused).toEqual([]);
    });

    it("refuses an invalid version, if at all, with the generator's own error", () => {
      for (const [name, error] of failures) expect(error, name).toBeInstanceOf(GeneratorError);
    });

    it("type-checks every generated version under the strict options, in one compiler run", () => {
      expect(generated.length).toBeGreaterThan(0);
      const result = tsc(join(work, "out"), {
        compilerOptions: { ...STRICT_OPTIONS, ...NODE_TYPES, noEmit: true },
        include: generated.map((name) => `${name}/**/*.ts`),
      });
      expect(result.output).toBe("");
      expect(result.status).toBe(0);
    }, 600_000);
  },
);

/** The diff between two commits of the history, as rows; the commit subject says what changed. */
const historyDiff = (from: string, to: string) =>
  diffModels(
    loadModel(historySchema(from), { revision: from }),
    loadModel(historySchema(to), { revision: to }),
  ).map((c) => [c.ruleId, c.severity, c.location, c.from ?? null, c.to ?? null]);
const has = (name: string) => all.some((v) => v.name === name);

describe.skipIf(!has("a-a3087c29") || !has("a-cb98bebd"))(
  "the diff on named commits of the history",
  () => {
    it('a-a3087c29 "Rename ResourceReference to ResourceTemplateReference": a rename naming both (and the branch\'s own change)', () => {
      expect(historyDiff("a-e5d3133c", "a-a3087c29")).toEqual([
        [
          "property-removed",
          "breaking-server",
          "CompleteRequest.params.resolved",
          "{ [key: string]: string }",
          null,
        ],
        [
          "definition-renamed",
          "non-breaking",
          "ResourceReference",
          "ResourceReference",
          "ResourceTemplateReference",
        ],
      ]);
    });

    it('a-cb98bebd "Factor out `Icons` interface": the extraction itself is no change; only optional fields are new', () => {
      const rows = historyDiff("a-a470342d", "a-cb98bebd");
      expect(rows.filter((r) => r[1] !== "non-breaking")).toEqual([]);
      expect(rows).toContainEqual([
        "property-added-optional",
        "non-breaking",
        "Tool.icons",
        null,
        "Array<Icon>",
      ]);
      expect(rows.filter((r) => r[0] === "definition-added").map((r) => r[2])).toEqual(
        expect.arrayContaining(["Icon", "Icons"]),
      );
    });
  },
);
