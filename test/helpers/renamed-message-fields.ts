import { readFileSync } from "node:fs";
import { schemaFile } from "./spec.js";

/**
 * The names `renamedMessageFields` gives the fields the runtime writes into the handshake, the
 * discovery result and the progress, cancellation and log notifications, and the resource-updated
 * notification's target (2026-07-28 only: in 2025-11-25 the subscribe request shares its name).
 */
export const RENAMED_FIELDS = {
  capabilities: "abilities",
  clientInfo: "client",
  supportedVersions: "versions",
  progressToken: "ticket",
  requestId: "cancels",
  reason: "why",
  level: "severity",
  logger: "source",
  data: "payload",
  updatedUri: "resource",
} as const;

/**
 * A revision's schema (2025-11-25 for the handshake, 2026-07-28 for discovery) with those fields
 * renamed wherever they are declared. Each edit must apply exactly as often as stated for the
 * revision, so that a changed schema fails here, loudly.
 */
export function renamedMessageFields(revision: "2025-11-25" | "2026-07-28"): string {
  const n = RENAMED_FIELDS;
  const edits: Array<[from: string, to: string, count: Record<typeof revision, number>]> = [
    [
      "  capabilities: ClientCapabilities;\n  clientInfo: Implementation;\n",
      `  ${n.capabilities}: ClientCapabilities;\n  ${n.clientInfo}: Implementation;\n`,
      { "2025-11-25": 1, "2026-07-28": 0 },
    ],
    [
      "  supportedVersions: string[];\n",
      `  ${n.supportedVersions}: string[];\n`,
      { "2025-11-25": 0, "2026-07-28": 1 },
    ],
    [
      "  progressToken: ProgressToken;\n",
      `  ${n.progressToken}: ProgressToken;\n`,
      { "2025-11-25": 1, "2026-07-28": 1 },
    ],
    [
      "  requestId?: RequestId;\n",
      `  ${n.requestId}?: RequestId;\n`,
      { "2025-11-25": 1, "2026-07-28": 0 },
    ],
    [
      "  requestId: RequestId;\n",
      `  ${n.requestId}: RequestId;\n`,
      { "2025-11-25": 0, "2026-07-28": 1 },
    ],
    ["  logger?: string;\n", `  ${n.logger}?: string;\n`, { "2025-11-25": 1, "2026-07-28": 1 }],
    ["  data: unknown;\n", `  ${n.data}: unknown;\n`, { "2025-11-25": 1, "2026-07-28": 1 }],
  ];
  let text = readFileSync(schemaFile(revision), "utf8");
  for (const [from, to, counts] of edits) {
    const found = text.split(from).length - 1;
    if (found !== counts[revision])
      throw new Error(
        `renamedMessageFields(${revision}): ${JSON.stringify(from)} occurs ${found} times, not ${counts[revision]}`,
      );
    text = text.replaceAll(from, to);
  }
  // The cancellation's reason: the one optional string after the request id.
  const reason = new RegExp(
    `(  ${n.requestId}\\??: RequestId;\\n(?:.*\\n)*?)  reason\\?: string;\\n`,
  );
  if (!reason.test(text))
    throw new Error(`renamedMessageFields(${revision}): no cancellation reason`);
  text = text.replace(reason, `$1  ${n.reason}?: string;\n`);
  // The log level: the one right before the logger (with only its doc between), not set-level's.
  const level = new RegExp(
    `  level: LoggingLevel;\\n((?:\\s*(?:/\\*\\*|\\*).*\\n)*  ${n.logger}\\?)`,
  );
  if (!level.test(text)) throw new Error(`renamedMessageFields(${revision}): no log level`);
  text = text.replace(level, `  ${n.level}: LoggingLevel;\n$1`);
  if (revision === "2025-11-25") return text;
  const uri = /(export interface ResourceUpdatedNotificationParams [^}]*?) {2}uri: string;\n/;
  if (!uri.test(text)) throw new Error(`renamedMessageFields(${revision}): no updated uri`);
  return text.replace(uri, `$1  ${n.updatedUri}: string;\n`);
}
