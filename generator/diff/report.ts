import type { Change, Severity } from "./rules.js";
import { isBreaking, SEVERITIES } from "./rules.js";
import { summarize } from "./index.js";

const TITLES: Record<Severity, string> = {
  "breaking-both": "Breaking for clients and servers",
  "breaking-client": "Breaking for clients",
  "breaking-server": "Breaking for servers",
  "non-breaking": "Non-breaking",
};

/** The diff as JSON for machines: revisions, counts by severity, then every change. */
export function diffJson(from: string, to: string, changes: Change[]): string {
  return `${JSON.stringify({ from, to, summary: summarize(changes), changes }, null, 2)}\n`;
}

/** The diff as Markdown for a pull request: summary counts, then one table per severity. */
export function diffMarkdown(from: string, to: string, changes: Change[]): string {
  const summary = summarize(changes);
  const lines = [
    `# MCP schema diff: ${code(from)} → ${code(to)}`,
    "",
    "| Severity | Changes |",
    "| --- | ---: |",
  ];
  for (const severity of SEVERITIES) lines.push(`| ${TITLES[severity]} | ${summary[severity]} |`);
  lines.push(`| **Total** | **${summary.total}** |`);
  for (const severity of SEVERITIES) {
    const group = changes.filter((c) => c.severity === severity);
    if (group.length === 0) continue;
    lines.push(
      "",
      `## ${TITLES[severity]} (${group.length})`,
      "",
      "| Rule | Location | Change | From | To |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const c of group)
      lines.push(
        `| ${c.ruleId} | ${code(c.location)} | ${cell(said(c))} | ${c.from === undefined ? "" : code(c.from)} | ${c.to === undefined ? "" : code(c.to)} |`,
      );
  }
  if (changes.length === 0) lines.push("", "No changes.");
  return `${lines.join("\n")}\n`;
}

/** A change's message, with what to do instead when it names it. */
function said(change: Change): string {
  return change.migration ? `${change.message}. Migration: ${change.migration}` : change.message;
}

/** Table-cell text: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s+/g, " ").replace(/\|/g, "\\|");
}

/** Inline code that survives backticks inside and pipes in a table. */
function code(text: string): string {
  const flat = cell(text);
  const fence = flat.includes("`") ? "``" : "`";
  return `${fence}${fence === "``" ? " " : ""}${flat}${fence === "``" ? " " : ""}${fence}`;
}

/** Where a change is in a schema file, for an annotation; null when the model cannot tell. */
export type Locate = (change: Change) => { file: string; line: number | null } | null;

/**
 * The diff as GitHub Actions workflow commands: one annotation per change (`error` when breaking,
 * `notice` otherwise) on the schema line it concerns, so it shows on the pull request's diff, then a
 * summary line.
 */
export function diffGithub(from: string, to: string, changes: Change[], locate: Locate): string {
  const lines = changes.map((c) => {
    const at = locate(c);
    const props = [
      at ? `file=${property(at.file)}` : null,
      at?.line ? `line=${at.line}` : null,
      `title=${property(`${c.ruleId} (${TITLES[c.severity].toLowerCase()})`)}`,
    ];
    const detail = [
      c.from === undefined ? null : `from ${c.from}`,
      c.to === undefined ? null : `to ${c.to}`,
    ]
      .filter((x) => x !== null)
      .join(" ");
    return `::${isBreaking(c.severity) ? "error" : "notice"} ${props.filter((p) => p !== null).join(",")}::${data(`${c.location}: ${said(c)}${detail ? ` (${detail})` : ""}`)}`;
  });
  const summary = summarize(changes);
  const counts = SEVERITIES.map((s) => `${summary[s]} ${TITLES[s].toLowerCase()}`).join(", ");
  lines.push(
    `MCP schema diff ${from} → ${to}: ${summary.total} change${summary.total === 1 ? "" : "s"} (${counts})`,
  );
  return `${lines.join("\n")}\n`;
}

/** Workflow-command escaping: a message's data, and (stricter) a property's value. */
const data = (text: string): string =>
  text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const property = (text: string): string => data(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
