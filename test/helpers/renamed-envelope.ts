import { readFileSync } from "node:fs";
import { schemaFile } from "./spec.js";
import { ELICIT_CONFIRM } from "./server-fixture.js";

/** The names `renamedSchema` gives the fields the runtime writes and reads back itself. */
export const RENAMED_ENVELOPE = {
  resultType: "kind",
  inputRequests: "asks",
  inputResponses: "answers",
  requestState: "continuation",
  ttl: "maxAgeMs",
  scope: "shareScope",
  sharedScope: "everyone",
  cursorParam: "pageFrom",
  cursorResult: "continueFrom",
} as const;

/**
 * The 2026-07-28 schema with every field the runtime writes itself renamed: the result type, the
 * input-required result's requests and state, the retry's responses and state, the caching hints,
 * the shared caching scope's value, the pagination cursor and the next one.
 * Each edit must apply exactly as often as stated, so that a changed schema fails here, loudly.
 */
export function renamedSchema(): string {
  const n = RENAMED_ENVELOPE;
  const edits: Array<[from: string, to: string, count: number]> = [
    ["  resultType: ResultType;\n", `  ${n.resultType}: ResultType;\n`, 1],
    ["  inputRequests?: InputRequests;\n", `  ${n.inputRequests}?: InputRequests;\n`, 1],
    ["  inputResponses?: InputResponses;\n", `  ${n.inputResponses}?: InputResponses;\n`, 1],
    ["  requestState?: string;\n", `  ${n.requestState}?: string;\n`, 2],
    ["  ttlMs: number;\n", `  ${n.ttl}: number;\n`, 1],
    ['  cacheScope: "public" | "private";\n', `  ${n.scope}: "${n.sharedScope}" | "private";\n`, 1],
    ["  cursor?: Cursor;\n", `  ${n.cursorParam}?: Cursor;\n`, 1],
    ["  nextCursor?: Cursor;\n", `  ${n.cursorResult}?: Cursor;\n`, 1],
  ];
  let text = readFileSync(schemaFile("2026-07-28"), "utf8");
  for (const [from, to, count] of edits) {
    const found = text.split(from).length - 1;
    if (found !== count)
      throw new Error(`renamedSchema: ${JSON.stringify(from)} occurs ${found} times, not ${count}`);
    text = text.replaceAll(from, to);
  }
  return text;
}

/** A `tools/call` handler that asks for confirmation, then answers with the state and responses it got back. */
export function askingToolCall(
  _params: unknown,
  ctx: {
    state: unknown;
    inputResponses: Record<string, unknown>;
    inputRequired: (r: unknown, s: unknown) => unknown;
  },
): unknown {
  return ctx.state === undefined
    ? ctx.inputRequired({ confirm: ELICIT_CONFIRM }, { round: 1 })
    : {
        content: [
          {
            type: "text",
            text: JSON.stringify({ state: ctx.state, responses: ctx.inputResponses }),
          },
        ],
      };
}
