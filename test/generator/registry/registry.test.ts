/**
 * The deprecation registry (`generator/registry`), its emitted `deprecations.json`/`deprecations.ts`
 * and `mcp-gen deprecations`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../generator/cli/main.js";
import {
  addMonths,
  deprecationRegistry,
  earliestRemoval,
  migrationSentence,
  releasesOf,
  removalTie,
  type RegistryEntry,
} from "../../../generator/registry/index.js";
import { parseChangelog } from "../../../generator/registry/changelog.js";
import { changelogText } from "../../../generator/spec/docs.js";
import { readRevisions } from "../../../generator/spec/revisions.js";
import { loadModel } from "../../../generator/load/index.js";
import { ROOT, SPEC_DIR, generatedDir, schemaFile } from "../../helpers/spec.js";

const REVISION = "2026-07-28";
const model = loadModel(schemaFile(REVISION), { revision: REVISION });
const releases = releasesOf(readRevisions());
const registry = deprecationRegistry(model, releases);
const tagCount = (readFileSync(schemaFile(REVISION), "utf8").match(/@deprecated\b/g) ?? []).length;

/** Every tag of the revision: where it stands and what kind of thing it deprecates. */
const EXPECTED: Array<[string, RegistryEntry["kind"]]> = [
  ["RequestMetaObject.io.modelcontextprotocol/logLevel", "metaKey"],
  ["ClientCapabilities.roots", "capability"],
  ["ClientCapabilities.sampling", "capability"],
  ["ServerCapabilities.logging", "capability"],
  ["LoggingMessageNotificationParams", "definition"],
  ["LoggingMessageNotification", "definition"],
  ["LoggingLevel", "definition"],
  ["CreateMessageRequestParams", "definition"],
  ['CreateMessageRequestParams.includeContext = "thisServer" | "allServers"', "literal"],
  ["ToolChoice", "definition"],
  ["CreateMessageRequest", "definition"],
  ["CreateMessageResult", "definition"],
  ["SamplingMessage", "definition"],
  ["SamplingMessageContentBlock", "definition"],
  ["ToolUseContent", "definition"],
  ["ToolResultContent", "definition"],
  ["ModelPreferences", "definition"],
  ["ModelHint", "definition"],
  ["ListRootsRequest", "definition"],
  ["ListRootsResult", "definition"],
  ["Root", "definition"],
];
const INCLUDE_CONTEXT = EXPECTED[8]![0];
const entry = (location: string): RegistryEntry => {
  const found = registry.find((e) => e.location.text === location);
  if (!found) throw new Error(`no registry entry at ${location}`);
  return found;
};

describe(`the ${REVISION} registry`, () => {
  it("has exactly one entry per @deprecated tag of the schema", () => {
    expect(tagCount).toBe(21);
    expect(registry).toHaveLength(tagCount);
    expect(new Set(registry.map((e) => e.line)).size).toBe(tagCount);
  });

  it("lists every tag's location and kind, in schema order", () => {
    expect(registry.map((e) => [e.location.text, e.kind])).toEqual(EXPECTED);
  });

  it.each(EXPECTED.filter(([location]) => location !== INCLUDE_CONTEXT))(
    "%s: as of 2026-07-28 (SEP-2577), removable from 2027-07-28",
    (location) => {
      const e = entry(location);
      expect([e.asOf, e.sep]).toEqual(["2026-07-28", "SEP-2577"]);
      expect(e.earliestRemoval).toEqual({
        date: "2027-07-28",
        rule: "the first revision released on or after 2027-07-28",
        revision: null,
        follows: null,
      });
      expect(e.migration.text).toContain(
        "Deprecated as of protocol version 2026-07-28 (SEP-2577).",
      );
      expect(e.migration.sentence).toBeNull();
    },
  );

  it("includeContext's literal values: as of 2025-11-25 (SEP-2596), removed with the Sampling feature, with the migration sentence", () => {
    const e = entry(INCLUDE_CONTEXT);
    expect(e.location).toMatchObject({
      definition: "CreateMessageRequestParams",
      path: ["includeContext"],
      values: ["thisServer", "allServers"],
    });
    expect([e.asOf, e.sep]).toEqual(["2025-11-25", "SEP-2596"]);
    // Its tag ties it to Sampling ("no later than the Sampling feature itself (SEP-2577)"), deprecated as of 2026-07-28.
    expect(e.earliestRemoval).toEqual({
      date: "2027-07-28",
      rule: "with the Sampling feature (SEP-2577): the first revision released on or after 2027-07-28",
      revision: null,
      follows: { feature: "Sampling", sep: "SEP-2577" },
    });
    expect(e.migration.text).toBe(
      model.deprecations.find((d) => d.target.kind === "literal")!.text,
    );
    expect(e.migration.sentence).toBe('Omit this field or use `"none"`.');
    expect(e.methods).toContain("sampling/createMessage");
  });

  it("names the first known revision released on or after the removal date", () => {
    const later = deprecationRegistry(model, {
      ...releases,
      "2026-12-01": "2026-12-01",
      "2027-09-01": "2027-09-01",
      "2028-01-01": "2028-01-01",
    });
    expect(later.find((e) => e.location.text === INCLUDE_CONTEXT)!.earliestRemoval!.revision).toBe(
      "2027-09-01",
    );
    expect(later.filter((e) => e.earliestRemoval?.revision === "2027-09-01")).toHaveLength(21);
  });

  it("a deprecated capability affects that capability and the methods it gates", () => {
    expect(entry("ClientCapabilities.roots")).toMatchObject({
      capabilities: [{ party: "client", name: "roots" }],
      methods: ["roots/list"],
    });
    expect(entry("ClientCapabilities.sampling")).toMatchObject({
      capabilities: [{ party: "client", name: "sampling" }],
      methods: ["sampling/createMessage"],
    });
    expect(entry("ServerCapabilities.logging").capabilities).toEqual([
      { party: "server", name: "logging" },
    ]);
    expect(
      registry.filter((e) => e.kind !== "capability").every((e) => e.capabilities.length === 0),
    ).toBe(true);
  });

  it("a deprecated _meta key affects every method", () => {
    expect(entry(EXPECTED[0]![0]).methods).toEqual(model.methods.map((m) => m.method));
  });

  it("a deprecated definition affects the methods reaching it through refs", () => {
    expect(entry("LoggingMessageNotification").methods).toEqual(["notifications/message"]);
    expect(entry("ListRootsRequest").methods).toContain("roots/list");
    expect(entry("ListRootsRequest").methods).not.toContain("tools/list");
    expect(entry("CreateMessageResult").methods).toContain("sampling/createMessage");
    expect(entry("ModelHint").methods).not.toContain("completion/complete");
  });
});

describe("a fixture's registry", () => {
  const fixture = loadModel(join(ROOT, "test", "fixtures", "deprecations", "schema.ts"), {
    revision: "deprecations",
  });
  const entries = deprecationRegistry(fixture, {});

  it("covers definitions, properties, nested properties, literal values and union members", () => {
    expect(entries.map((e) => [e.kind, e.location.text])).toEqual([
      ["definition", "LegacyReport"],
      ["property", "ReportOptions.pageSize"],
      ["literal", 'ReportOptions.mode = "b"'],
      ["property", "ReportOptions.layout.margin"],
      ["property", "ReportOptions.note"],
      ["unionMember", "AnyReport | LegacyReport"],
    ]);
  });

  it("extracts migration sentences and leaves the rest null", () => {
    expect(entries.map((e) => e.migration.sentence)).toEqual([
      "Use {@link ReportOptions} instead.",
      null,
      'Use "c" instead.',
      null,
      null,
      null,
    ]);
  });

  it("has no removal date without an asOf", () => {
    expect(entries.map((e) => e.earliestRemoval?.date ?? null)).toEqual([
      "2100-02-03",
      "2100-02-03",
      "2100-02-03",
      "2100-05-06",
      null,
      "2100-02-03",
    ]);
  });
});

describe("dates and sentences", () => {
  it("adds twelve months, clamping to the month's end", () => {
    expect(addMonths("2026-07-28", 12)).toBe("2027-07-28");
    expect(addMonths("2024-02-29", 12)).toBe("2025-02-28");
    expect(addMonths("2025-11-30", 3)).toBe("2026-02-28");
  });

  it("picks the earliest revision on or after the date, ignoring unreleased ones", () => {
    expect(
      earliestRemoval("2025-01-01", {
        b: "2026-03-01",
        a: "2026-02-01",
        draft: null,
        old: "2025-12-31",
      })?.revision,
    ).toBe("a");
    expect(earliestRemoval(null, { a: "2030-01-01" })).toBeNull();
  });

  it("counts a release exactly on the anniversary of the deprecation, and not one a day before", () => {
    expect(earliestRemoval("2026-07-28", { on: "2027-07-28", after: "2027-07-29" })?.revision).toBe(
      "on",
    );
    expect(earliestRemoval("2026-07-28", { before: "2027-07-27" })?.revision).toBeNull();
    expect(
      earliestRemoval("2026-07-28", { before: "2027-07-27", after: "2027-07-29" })?.revision,
    ).toBe("after");
  });

  it("takes leap days into account", () => {
    // Deprecated on a leap day: the anniversary in a common year is the last day of February.
    expect(earliestRemoval("2024-02-29", { x: "2025-02-28" })).toMatchObject({
      date: "2025-02-28",
      revision: "x",
    });
    expect(earliestRemoval("2024-02-29", { x: "2025-02-27" })?.revision).toBeNull();
    // Four years on, the leap day exists again; a window ending on one counts a release that day.
    expect(addMonths("2024-02-29", 48)).toBe("2028-02-29");
    expect(
      earliestRemoval("2027-02-28", { leap: "2028-02-28", later: "2028-02-29" })?.revision,
    ).toBe("leap");
    expect(
      earliestRemoval("2027-03-01", { leap: "2028-02-29", march: "2028-03-01" })?.revision,
    ).toBe("march");
  });

  it("reads the feature a removal is tied to", () => {
    expect(
      removalTie(
        "Values deprecated as of 2025-11-25 and removed no later than the Sampling feature itself (SEP-2577).",
      ),
    ).toEqual({ feature: "Sampling", sep: "SEP-2577" });
    expect(removalTie("Removed no later than the Roots feature.")).toEqual({
      feature: "Roots",
      sep: null,
    });
    expect(removalTie("Deprecated as of protocol version 2026-07-28 (SEP-2577).")).toBeNull();
  });

  it("finds the sentence telling what to do", () => {
    expect(migrationSentence("Old. Omit this field or use `x`. More.")).toBe(
      "Omit this field or use `x`.",
    );
    expect(
      migrationSentence(
        "Deprecated as of protocol version 2026-07-28 (SEP-2577).\nRemains for twelve months.",
      ),
    ).toBeNull();
  });
});

describe("emitted files", () => {
  it("deprecations.json is the registry", () => {
    expect(
      JSON.parse(readFileSync(join(generatedDir(REVISION), "deprecations.json"), "utf8")),
    ).toEqual(registry);
  });

  it("deprecations.ts exports the entries and lookups by method, capability and definition", async () => {
    const generated = (await import(join(generatedDir(REVISION), "deprecations.ts"))) as {
      DEPRECATIONS: readonly RegistryEntry[];
      deprecationsForMethod(method: string): RegistryEntry[];
      deprecationsForCapability(party: string, name: string): RegistryEntry[];
      deprecationsForDefinition(definition: string): RegistryEntry[];
    };
    expect(generated.DEPRECATIONS).toEqual(registry);
    expect(generated.deprecationsForMethod("roots/list").map((e) => e.location.text)).toEqual(
      expect.arrayContaining([
        "ClientCapabilities.roots",
        "ListRootsRequest",
        "ListRootsResult",
        "Root",
      ]),
    );
    expect(
      generated.deprecationsForCapability("server", "logging").map((e) => e.location.text),
    ).toEqual(["ServerCapabilities.logging"]);
    expect(generated.deprecationsForDefinition("CreateMessageRequestParams")).toHaveLength(2);
    expect(generated.deprecationsForMethod("no/such/method")).toEqual([]);
  });
});

describe("mcp-gen deprecations", () => {
  const run = async (argv: string[]) => {
    let stdout = "";
    let stderr = "";
    const code = await main(argv, {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      env: {},
      cwd: ROOT,
    });
    return { code, stdout, stderr };
  };

  it("prints a table by default; --width 0: a header and one row per entry", async () => {
    const { code, stdout } = await run([
      "deprecations",
      "--width",
      "0",
      "--revision",
      REVISION,
      "--spec-dir",
      SPEC_DIR,
      "--offline",
    ]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^LOCATION\s+KIND\s+AS OF\s+SEP\s+EARLIEST REMOVAL\s+AFFECTS\s+MIGRATION$/,
    );
    expect(lines).toHaveLength(tagCount + 1);
    expect(stdout).toContain("2027-07-28 (no revision yet, with Sampling)");
  });

  it("prints JSON with --format json", async () => {
    const { code, stdout } = await run([
      "deprecations",
      "-r",
      REVISION,
      "--format",
      "json",
      "--spec-dir",
      SPEC_DIR,
      "--offline",
    ]);
    expect(code).toBe(0);
    // The registry, with what the changelog beside the schema says (test/generator/registry/changelog).
    const changelog = changelogText(schemaFile(REVISION));
    expect(JSON.parse(stdout)).toEqual(
      deprecationRegistry(model, releases, changelog === null ? [] : parseChangelog(changelog)),
    );
  });
});
