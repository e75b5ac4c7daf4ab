import type { Change, Severity } from "./rules.js";
import { SEVERITIES } from "./rules.js";
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
  const lines = [`# MCP schema diff: ${code(from)} → ${code(to)}`, "", "| Severity | Changes |", "| --- | ---: |"];
  for (const severity of SEVERITIES) lines.push(`| ${TITLES[severity]} | ${summary[severity]} |`);
  lines.push(`| **Total** | **${summary.total}** |`);
  for (const severity of SEVERITIES) {
    const group = changes.filter((c) => c.severity === severity);
    if (group.length === 0) continue;
    lines.push("", `## ${TITLES[severity]} (${group.length})`, "", "| Rule | Location | Change | From | To |", "| --- | --- | --- | --- | --- |");
    for (const c of group) lines.push(`| ${c.ruleId} | ${code(c.location)} | ${cell(c.message)} | ${c.from === undefined ? "" : code(c.from)} | ${c.to === undefined ? "" : code(c.to)} |`);
  }
  if (changes.length === 0) lines.push("", "No changes.");
  return `${lines.join("\n")}\n`;
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
