/**
 * `mcp-gen deprecations` fits a terminal: the table's long columns wrap to `--width` (default: the
 * terminal's, else 100), what an entry affects and how to migrate stand on lines of their own under
 * it, and nothing is cut: every word of the full text is still there. `--width 0` gives one line per
 * entry, `--format json` the whole registry.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { SPEC_DIR } from "../../helpers/spec.js";
import { formatWrappedTable, wrap } from "../../../generator/cli/table.js";

const REVISION = "2026-07-28";
const cli = (args: string[], columns?: number) =>
  runCli(["deprecations", "-r", REVISION, "--spec-dir", SPEC_DIR, ...args], {
    cwd: "/",
    env: {},
    ...(columns === undefined ? {} : { columns }),
  });

interface Entry {
  location: { text: string };
  migration: { sentence: string | null; changelog: string | null };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe("the deprecations table", () => {
  it.each([
    ["--width 80", ["--width", "80"], undefined, 80],
    ["a 120-column terminal", [], 120, 120],
    ["no terminal", [], undefined, 100],
  ])(
    "%s: no line is wider, and every entry's full text is there",
    async (_case, args, columns, width) => {
      const [table, json] = await Promise.all([cli(args, columns), cli(["--format", "json"])]);
      expect(table.code, table.stderr).toBe(0);
      const lines = table.stdout.trimEnd().split("\n");
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(width);
      const entries = JSON.parse(json.stdout) as Entry[];
      expect(entries.length).toBeGreaterThan(3);
      // Wrapped text joined back: each migration's words, in order, under the entry.
      const flat = words(table.stdout).join(" ");
      for (const entry of entries) {
        const migration = entry.migration.sentence ?? entry.migration.changelog;
        if (migration) expect(flat).toContain(`migration: ${words(migration).join(" ")}`);
      }
    },
  );

  it("--width 0: one line per entry, every column side by side", async () => {
    const [table, json] = await Promise.all([cli(["--width", "0"]), cli(["--format", "json"])]);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength((JSON.parse(json.stdout) as Entry[]).length + 1);
    expect(lines[0]).toMatch(/^LOCATION +KIND +AS OF +SEP +EARLIEST REMOVAL +AFFECTS +MIGRATION$/);
  });

  it("a --width that is not a number is a usage error", async () => {
    expect(await cli(["--width", "wide"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'mcp-gen: --width must be a number of characters (0: no limit), not "wide" (see mcp-gen --help)\n',
    });
  });
});

describe("wrapping", () => {
  it("breaks at spaces, else after . / or , else at the width", () => {
    expect(wrap("one two three", 7)).toEqual(["one two", "three"]);
    expect(wrap("Capabilities.roots/list", 14)).toEqual(["Capabilities.", "roots/list"]);
    expect(wrap("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
  });

  it("narrows only the wrapped columns, never below a readable width, and keeps the others whole", () => {
    const rows = [
      ["NAME", "KIND", "TEXT"],
      ["short", "fixed-width-kind", "a long text that has to wrap onto several lines to fit"],
    ];
    const text = formatWrappedTable(rows, 40, new Set([2]), (i) =>
      i === 0 ? [] : ["below: under the row"],
    );
    expect(text).toBe(
      [
        "NAME   KIND              TEXT",
        "short  fixed-width-kind  a long text",
        "                         that has to",
        "                         wrap onto",
        "                         several lines",
        "                         to fit",
        "    below: under the row",
        "",
      ].join("\n"),
    );
  });
});
