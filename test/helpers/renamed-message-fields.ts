import { readFileSync } from "node:fs";
import { schemaFile } from "./spec.js";

/**
 * The names `renamedMessageFields` gives the fields the runtime writes into the handshake, the
 * discovery result and the progress and cancellation notifications.
 */
export const RENAMED_FIELDS = {
  capabilities: "abilities",
  clientInfo: "client",
  supportedVersions: "versions",
  progressToken: "ticket",
  requestId: "cancels",
  reason: "why",
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
  return text.replace(reason, `$1  ${n.reason}?: string;\n`);
}
