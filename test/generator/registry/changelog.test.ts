/**
 * Migrations from the changelog (`generator/registry/changelog.ts`, `migrations.ts`): the
 * "Deprecated" section's items parsed, each registry entry given the migration its item names for
 * its feature; `mcp-gen deprecations` shows them in its MIGRATION column when the docs are beside
 * the schema. Generated output never reads the docs (test/interop/package-consumer checks `--check` from
 * the download cache, which has none).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../generator/cli/main.js";
import { loadModel } from "../../../generator/load/index.js";
import { parseChangelog } from "../../../generator/registry/changelog.js";
import { deprecationRegistry, releasesOf } from "../../../generator/registry/index.js";
import { changelogText, docsDirsOf } from "../../../generator/spec/docs.js";
import { readRevisions } from "../../../generator/spec/revisions.js";
import { ROOT, schemaFile, SPEC_DIR } from "../../helpers/spec.js";

const REVISION = "2026-07-28";
const model = loadModel(schemaFile(REVISION), { revision: REVISION });
const releases = releasesOf(readRevisions());

/** A made-up changelog in the docs' form: per-feature migrations, a whole-item one, two items of one SEP. */
const CHANGELOG = `---
title: Key Changes
---

## Major changes

1. Use the new thing instead of the old one (SEP-1).

## Deprecated

Features listed here remain part of the specification.

1. Deprecate the Roots, Sampling, and Logging features
   ([SEP-2577](https://example.invalid/2577)).
   These stay for a while. Suggested migrations: pass directories
   instead of Roots; call the model **yourself** instead of Sampling; log to \`stderr\` instead of
   Logging.

2. Reclassify the HTTP+SSE transport ([SEP-2596](https://example.invalid/2596)).
   Migrate to [Streamable HTTP](/specification/x).

3. Reclassify the \`includeContext\` values \`"thisServer"\` and \`"allServers"\`
   ([SEP-2596](https://example.invalid/2596)).
   Omit the field or use \`"none"\`.

## Other schema changes

1. Instead of nothing, use everything (SEP-2577).
`;

describe("parseChangelog", () => {
  const items = parseChangelog(CHANGELOG);

  it("reads only the Deprecated section's items, their SEPs, quoted names and migrations", () => {
    expect(items).toEqual([
      {
        seps: ["SEP-2577"],
        quoted: ["stderr"],
        migrations: [
          { feature: "Roots", text: "Pass directories." },
          { feature: "Sampling", text: "Call the model yourself." },
          { feature: "Logging", text: "Log to `stderr`." },
        ],
      },
      {
        seps: ["SEP-2596"],
        quoted: [],
        migrations: [{ feature: null, text: "Migrate to Streamable HTTP." }],
      },
      {
        seps: ["SEP-2596"],
        quoted: ["includeContext", "thisServer", "allServers", "none"],
        migrations: [{ feature: null, text: 'Omit the field or use `"none"`.' }],
      },
    ]);
  });

  it("is empty for a changelog without a Deprecated section", () => {
    expect(parseChangelog("## Major changes\n\n1. Use X instead of Y.\n")).toEqual([]);
  });
});

describe(`migrations of the ${REVISION} registry from a changelog`, () => {
  const registry = deprecationRegistry(model, releases, parseChangelog(CHANGELOG));
  const migration = (location: string) =>
    registry.find((e) => e.location.text === location)!.migration.changelog;

  it.each([
    // By the entry's own names.
    ["ClientCapabilities.roots", "Pass directories."],
    ["Root", "Pass directories."],
    ["SamplingMessage", "Call the model yourself."],
    ["ServerCapabilities.logging", "Log to `stderr`."],
    ["LoggingLevel", "Log to `stderr`."],
    // By the methods it belongs to (sampling/createMessage).
    ["ModelHint", "Call the model yourself."],
    ["ToolChoice", "Call the model yourself."],
    // A `_meta` key reaches every method: by the definition its type names (LoggingLevel).
    ["RequestMetaObject.io.modelcontextprotocol/logLevel", "Log to `stderr`."],
    // Two items cite SEP-2596: the one quoting the entry's field.
    [
      'CreateMessageRequestParams.includeContext = "thisServer" | "allServers"',
      'Omit the field or use `"none"`.',
    ],
  ])("%s: %s", (location, expected) => {
    expect(migration(location)).toBe(expected);
  });

  it("gives every entry of the revision one, as the changelog names a migration for each feature", () => {
    expect(registry.filter((e) => e.migration.changelog === null)).toEqual([]);
  });

  it("names none where it cannot tell: two items of the SEP and neither quotes the entry", () => {
    const items = parseChangelog(CHANGELOG).map((item) =>
      item.quoted.includes("includeContext") ? { ...item, quoted: [] } : item,
    );
    const entries = deprecationRegistry(model, releases, items);
    expect(
      entries.find((e) => e.location.path.includes("includeContext"))!.migration.changelog,
    ).toBeNull();
  });

  it("names none where the feature is ambiguous (the entry's words name two features)", () => {
    // Features "Level" and "Logging": `LoggingLevel` speaks of both.
    const items = parseChangelog(CHANGELOG.replace("instead of Roots", "instead of Level"));
    const entries = deprecationRegistry(model, releases, items);
    const at = (text: string) => entries.find((e) => e.location.text === text)!.migration;
    expect(at("LoggingLevel").changelog).toBeNull();
    expect(at("LoggingMessageNotification").changelog).toBe("Log to `stderr`.");
  });

  it("without a changelog, no entry has the field: the emitted registry's shape never depends on the docs", () => {
    for (const e of deprecationRegistry(model, releases))
      expect(e.migration).not.toHaveProperty("changelog");
  });
});

describe("the docs beside a schema", () => {
  const work = mkdtempSync(join(tmpdir(), "mcp-gen-changelog-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("are found in the shared layout (docs/<rev>) and the upstream one (docs/specification/<rev>)", () => {
    const file = join(work, "schema", REVISION, "schema.ts");
    expect(docsDirsOf(file)).toEqual([
      join(work, "docs", REVISION),
      join(work, "docs", "specification", REVISION),
    ]);
    expect(changelogText(file)).toBeNull();
    mkdirSync(join(work, "docs", "specification", REVISION), { recursive: true });
    writeFileSync(join(work, "docs", "specification", REVISION, "changelog.mdx"), CHANGELOG);
    expect(changelogText(file)).toBe(CHANGELOG);
  });
});

const DOCS = join(SPEC_DIR, "..", "docs", REVISION, "changelog.mdx");

describe.skipIf(!existsSync(DOCS))(`the ${REVISION} changelog of the spec docs`, () => {
  it("names a migration for all 21 entries (one of them the tag's own sentence too)", () => {
    const registry = deprecationRegistry(
      model,
      releases,
      parseChangelog(readFileSync(DOCS, "utf8")),
    );
    expect(registry).toHaveLength(21);
    expect(registry.filter((e) => e.migration.changelog === null)).toEqual([]);
    expect(registry.filter((e) => e.migration.sentence !== null)).toHaveLength(1);
    const by = (text: string) => registry.find((e) => e.location.text === text)!.migration;
    expect(by("ListRootsResult").changelog).toMatch(/^Pass directories or files via tool/);
    expect(by("CreateMessageResult").changelog).toBe("Integrate directly with LLM provider APIs.");
    expect(by("LoggingMessageNotification").changelog).toMatch(/OpenTelemetry\.$/);
  });

  it("mcp-gen deprecations --width 0 shows each entry's migration in the last column", async () => {
    let stdout = "";
    const argv = [
      "deprecations",
      "-r",
      REVISION,
      "--spec-dir",
      SPEC_DIR,
      "--offline",
      "--width",
      "0",
    ];
    const code = await main(argv, {
      stdout: (t) => void (stdout += t),
      stderr: () => {},
      env: {},
      cwd: ROOT,
    });
    expect(code).toBe(0);
    const rows = stdout.trimEnd().split("\n").slice(1);
    expect(rows).toHaveLength(21);
    expect(rows.filter((r) => / {2}-$/.test(r))).toEqual([]);
    expect(rows.find((r) => r.startsWith("ModelHint "))).toMatch(
      /Integrate directly with LLM provider APIs\.$/,
    );
    expect(rows.find((r) => r.startsWith("CreateMessageRequestParams.includeContext"))).toMatch(
      /Omit this field or use `"none"`\.$/,
    );
  });
});
