import { readRevisions } from "../spec/revisions.js";
import { UsageError, type CliIO } from "./context.js";
import { formatTable } from "./table.js";
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
    specDir?: string | undefined;
    offline: boolean;
  },
  io: CliIO,
): Promise<void> {
  const args = withProjectDefaults(given, io);
  if (args.format !== "table" && args.format !== "json")
    throw new UsageError(`--format must be table or json, not "${args.format}"`);
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
  const rows = [
    ["LOCATION", "KIND", "AS OF", "SEP", "EARLIEST REMOVAL", "AFFECTS", "MIGRATION"],
    ...registry.map((e) => [
      e.location.text.replace(/\s+/g, " "),
      e.kind,
      e.asOf ?? "-",
      e.sep ?? "-",
      e.earliestRemoval
        ? `${e.earliestRemoval.date} (${e.earliestRemoval.revision ?? "no revision yet"}${e.earliestRemoval.follows ? `, with ${e.earliestRemoval.follows.feature}` : ""})`
        : "-",
      [
        ...e.capabilities.map((c) => `${c.party} capability ${c.name}`),
        ...(e.kind === "metaKey" ? ["every method"] : e.methods),
      ].join(", ") || "-",
      e.migration.sentence ?? e.migration.changelog ?? "-",
    ]),
  ];
  io.stdout(formatTable(rows));
  if (registry.length === 0) io.stdout(`(no deprecations in ${schema.revision})\n`);
}
