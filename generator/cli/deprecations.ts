import { readRevisions } from "../spec/revisions.js";
import { UsageError, type CliIO } from "./context.js";
import { formatTable, formatWrappedTable } from "./table.js";
import { resolveForCli } from "./generate.js";
import { withProjectDefaults } from "./project-defaults.js";

/**
 * `mcp-gen deprecations [--revision R]`: the revision's (default: the config's) deprecation registry,
 * as a table or JSON.
 * The migration is the tag's own sentence, else what the revision's changelog says, when the spec's
 * docs are beside its schema (`generator/spec/docs.ts`).
 */
export async function deprecationsCommand(
  given: {
    revision?: string | undefined;
    format: string;
    width?: string | undefined;
    specDir?: string | undefined;
    offline: boolean;
  },
  io: CliIO,
): Promise<void> {
  const args = withProjectDefaults(given, io);
  if (args.format !== "table" && args.format !== "json")
    throw new UsageError(`--format must be table or json, not "${args.format}"`);
  const width = tableWidth(args.width, io);
  const schema = await resolveForCli(args.revision, args, io);
  const [
    { loadModel },
    { deprecationRegistry, releasesOf },
    { parseChangelog },
    { changelogText },
  ] = await Promise.all([
    import("../load/index.js"),
    import("../registry/index.js"),
    import("../registry/changelog.js"),
    import("../spec/docs.js"),
  ]);
  const changelog = changelogText(schema.schemaFile);
  const registry = deprecationRegistry(
    loadModel(schema.schemaFile, { revision: schema.revision }),
    releasesOf(readRevisions()),
    changelog === null ? [] : parseChangelog(changelog),
  );
  if (args.format === "json") {
    io.stdout(`${JSON.stringify(registry, null, 2)}\n`);
    return;
  }
  const affects = (e: (typeof registry)[number]) =>
    [
      ...e.capabilities.map((c) => `${c.party} capability ${c.name}`),
      ...(e.kind === "metaKey" ? ["every method"] : e.methods),
    ].join(", ") || "-";
  const migration = (e: (typeof registry)[number]) =>
    e.migration.sentence ?? e.migration.changelog ?? "-";
  const rows = [
    ["LOCATION", "KIND", "AS OF", "SEP", "EARLIEST REMOVAL"],
    ...registry.map((e) => [
      e.location.text.replace(/\s+/g, " "),
      e.kind,
      e.asOf ?? "-",
      e.sep ?? "-",
      e.earliestRemoval
        ? `${e.earliestRemoval.date} (${e.earliestRemoval.revision ?? "no revision yet"}${e.earliestRemoval.follows ? `, with ${e.earliestRemoval.follows.feature}` : ""})`
        : "-",
    ]),
  ];
  if (width === 0)
    // No limit: one line per entry, every column side by side.
    io.stdout(
      formatTable(
        rows.map((row, i) => {
          const e = registry[i - 1];
          return [...row, e ? affects(e) : "AFFECTS", e ? migration(e) : "MIGRATION"];
        }),
      ),
    );
  else
    // Fitted: what it affects and how to migrate, the long texts, on lines of their own under it.
    io.stdout(
      formatWrappedTable(rows, width, new Set([0, 4]), (i) => {
        const e = registry[i - 1];
        return e ? [`affects: ${affects(e)}`, `migration: ${migration(e)}`] : [];
      }),
    );
  if (registry.length === 0) io.stdout(`(no deprecations in ${schema.revision})\n`);
}

/** Without a terminal to measure, the width a table is fitted to. */
const DEFAULT_WIDTH = 100;

/** `--width N` (0: no limit), else the terminal's width, else DEFAULT_WIDTH. */
function tableWidth(given: string | undefined, io: CliIO): number {
  if (given === undefined) return io.columns ?? DEFAULT_WIDTH;
  if (!/^\d+$/.test(given))
    throw new UsageError(`--width must be a number of characters (0: no limit), not "${given}"`);
  return Number(given);
}
