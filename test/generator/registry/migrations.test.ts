/**
 * The diff's new deprecations say what to do instead: the tag's own sentence, else what the newer
 * revision's changelog names (`diffModels(…, { changelog })`; `mcp-gen diff` reads it from the docs
 * beside the newer schema), in the JSON's `migration` and the Markdown's message.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffModels } from "../../../generator/diff/index.js";
import { loadModel } from "../../../generator/load/index.js";
import { parseChangelog } from "../../../generator/registry/changelog.js";
import { runCli } from "../../helpers/cli.js";
import { ROOT, schemaFile, SPEC_DIR } from "../../helpers/spec.js";

const load = (revision: string) => loadModel(schemaFile(revision), { revision });
const from = load("2025-11-25");
const to = load("2026-07-28");

const CHANGELOG = `## Deprecated

1. Deprecate the Roots, Sampling, and Logging features (SEP-2577).
   Suggested migrations: use paths instead of Roots; call a model instead of Sampling;
   write to a file instead of Logging.
`;

describe("diffModels and the changelog", () => {
  const added = (changelog?: string) =>
    diffModels(from, to, changelog ? { changelog: parseChangelog(changelog) } : {}).filter(
      (c) => c.ruleId === "deprecation-added",
    );

  it("without one, a new deprecation carries only its tag's own migration sentence", () => {
    const changes = added();
    expect(changes.length).toBeGreaterThan(10);
    expect(changes.filter((c) => c.migration !== undefined).map((c) => c.location)).toEqual([
      'CreateMessageRequestParams.includeContext = "thisServer" | "allServers"',
    ]);
  });

  it("with one, every new deprecation of a feature it names carries that feature's migration", () => {
    const changes = added(CHANGELOG);
    expect(changes.filter((c) => c.migration === undefined)).toEqual([]);
    const at = (location: string) => changes.find((c) => c.location === location)!.migration;
    expect(at("ListRootsResult")).toBe("Use paths.");
    expect(at("ModelHint")).toBe("Call a model.");
    expect(at("LoggingLevel")).toBe("Write to a file.");
    // The tag's own sentence comes first.
    expect(at('CreateMessageRequestParams.includeContext = "thisServer" | "allServers"')).toBe(
      'Omit this field or use `"none"`.',
    );
  });

  it("changes nothing else", () => {
    const strip = (list: ReturnType<typeof diffModels>) =>
      list.map((c) => {
        const { migration: _, ...rest } = c;
        return rest;
      });
    expect(strip(diffModels(from, to, { changelog: parseChangelog(CHANGELOG) }))).toEqual(
      strip(diffModels(from, to)),
    );
  });
});

describe.skipIf(!existsSync(join(SPEC_DIR, "..", "docs", "2026-07-28", "changelog.mdx")))(
  "mcp-gen diff with the spec docs beside the schema",
  () => {
    const run = (...flags: string[]) =>
      runCli(["diff", "2025-11-25", "2026-07-28", "--spec-dir", SPEC_DIR, "--offline", ...flags], {
        cwd: ROOT,
        env: {},
      });

    it("JSON: every new deprecation has its migration", async () => {
      const { code, stdout } = await run("--format", "json");
      expect(code).toBe(0);
      const changes = (JSON.parse(stdout) as { changes: ReturnType<typeof diffModels> }).changes;
      const added = changes.filter((c) => c.ruleId === "deprecation-added");
      expect(added.length).toBeGreaterThan(10);
      expect(added.filter((c) => !c.migration)).toEqual([]);
    });

    it("Markdown: the migration follows the message", async () => {
      const { stdout } = await run();
      expect(stdout).toMatch(
        /\| deprecation-added \| `CreateMessageResult` \| CreateMessageResult deprecated as of 2026-07-28 \(SEP-2577\)\. Migration: Integrate directly with LLM provider APIs\. \|/,
      );
    });
  },
);
