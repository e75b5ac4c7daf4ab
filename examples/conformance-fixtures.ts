/**
 * What the conformance fixture server's tools and prompts (conformance-tools.ts,
 * conformance-prompts.ts) share: the smallest valid media, content and schema builders, and the
 * requests they send the client (elicitation, sampling, roots).
 */
import type { Handlers, RequestContext } from "../generated/dual/index.js";
import type * as T from "../generated/dual/index.js";

// A 1×1 transparent PNG and a 44-byte silent WAV: the smallest valid media of each kind.
export const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
export const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

export const text = (value: string): T.TextContent => ({ type: "text", text: value });
export const objectSchema = (
  properties: Record<string, object> = {},
  required: string[] = [],
): T.Tool["inputSchema"] => ({
  type: "object",
  properties,
  ...(required.length > 0 ? { required } : {}),
});

export type ToolHandler = (
  args: Record<string, unknown>,
  ctx: RequestContext,
) => ReturnType<NonNullable<Handlers["tools/call"]>>;

export interface ToolDefinition {
  description: string;
  inputSchema?: T.Tool["inputSchema"];
  run: ToolHandler;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const elicitName = {
  method: "elicitation/create",
  params: {
    mode: "form",
    message: "Your name, please?",
    requestedSchema: {
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    },
  },
};
export const sampleGreeting = {
  method: "sampling/createMessage",
  params: {
    messages: [{ role: "user", content: { type: "text", text: "Write a one-line greeting." } }],
    maxTokens: 50,
  },
};
export const listRoots = { method: "roots/list", params: {} };

/** The `content` of an accepted elicitation, if that is what came back. */
export function accepted(response: unknown): Record<string, unknown> | null {
  const r = response as { action?: unknown; content?: unknown } | undefined;
  return r?.action === "accept" && typeof r.content === "object" && r.content !== null
    ? (r.content as Record<string, unknown>)
    : null;
}
