/**
 * The prompts of the conformance fixture server (conformance-server.ts): their listing and
 * `prompts/get`, one prompt per scenario (arguments, an embedded resource, an image, and one that
 * first asks the user for context by `input_required`).
 */
import { RpcError, type Handlers } from "../generated/dual/index.js";
import type * as T from "../generated/dual/index.js";
import { accepted, PNG, text } from "./conformance-fixtures.js";

export const PROMPTS: T.Prompt[] = [
  { name: "test_simple_prompt", description: "A prompt without arguments." },
  {
    name: "test_prompt_with_arguments",
    description: "A prompt that repeats its two arguments.",
    arguments: [
      { name: "arg1", description: "First value", required: true },
      { name: "arg2", description: "Second value", required: true },
    ],
  },
  {
    name: "test_prompt_with_embedded_resource",
    description: "A prompt embedding a resource.",
    arguments: [{ name: "resourceUri", description: "The resource to embed", required: true }],
  },
  { name: "test_prompt_with_image", description: "A prompt showing an image." },
  {
    name: "test_input_required_result_prompt",
    description: "A prompt that first asks the user for context.",
  },
];

export const getPrompt: NonNullable<Handlers["prompts/get"]> = (params, ctx) => {
  const args = params.arguments ?? {};
  switch (params.name) {
    case "test_simple_prompt":
      return { messages: [{ role: "user", content: text("Say something simple.") }] };
    case "test_prompt_with_arguments":
      return {
        messages: [
          {
            role: "user",
            content: text(`First: ${args.arg1 ?? ""}; second: ${args.arg2 ?? ""}.`),
          },
        ],
      };
    case "test_prompt_with_embedded_resource":
      return {
        messages: [
          {
            role: "user",
            content: {
              type: "resource",
              resource: {
                uri: args.resourceUri ?? "test://example-resource",
                mimeType: "text/plain",
                text: "Embedded for the prompt.",
              },
            },
          },
          { role: "user", content: text("Use the resource above.") },
        ],
      };
    case "test_prompt_with_image":
      return {
        messages: [{ role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } }],
      };
    case "test_input_required_result_prompt": {
      const context = accepted(ctx.inputResponses.user_context)?.context;
      if (typeof context !== "string") {
        return ctx.inputRequired({
          user_context: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: "Some context?",
              requestedSchema: {
                type: "object",
                properties: { context: { type: "string" } },
                required: ["context"],
              },
            },
          },
        });
      }
      return { messages: [{ role: "user", content: text(`With context: ${context}`) }] };
    }
    default:
      throw new RpcError(-32602, `Unknown prompt: ${params.name}`);
  }
};
