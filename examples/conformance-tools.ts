/**
 * The tools of the conformance fixture server (conformance-server.ts), by name: every tool the
 * suite's 2026-07-28 and 2025-11-25 scenarios call — content of each kind, progress, logging,
 * errors, elicitation, sampling and roots, asked for by `input_required`.
 */
import type { McpServer } from "../generated/dual/index.js";
import {
  accepted,
  elicitName,
  listRoots,
  objectSchema,
  PNG,
  sampleGreeting,
  sleep,
  text,
  WAV,
  type ToolDefinition,
} from "./conformance-fixtures.js";

/**
 * The tools, announcing list and resource changes through `publish`: the server's, which is created
 * with handlers that already name these tools.
 */
export function conformanceTools(publish: McpServer["publish"]): Record<string, ToolDefinition> {
  return {
    test_simple_text: {
      description: "Answers with one text block.",
      run: () => ({ content: [text("A plain text answer from the mcp-gen fixture.")] }),
    },
    test_image_content: {
      description: "Answers with a PNG image.",
      run: () => ({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] }),
    },
    test_audio_content: {
      description: "Answers with a WAV clip.",
      run: () => ({ content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] }),
    },
    test_embedded_resource: {
      description: "Answers with an embedded text resource.",
      run: () => ({
        content: [
          {
            type: "resource",
            resource: {
              uri: "test://embedded-resource",
              mimeType: "text/plain",
              text: "Embedded text.",
            },
          },
        ],
      }),
    },
    test_multiple_content_types: {
      description: "Answers with text, an image and a resource.",
      run: () => ({
        content: [
          text("Three kinds of content follow."),
          { type: "image", data: PNG, mimeType: "image/png" },
          {
            type: "resource",
            resource: {
              uri: "test://mixed-content-resource",
              mimeType: "application/json",
              text: '{"kinds":3}',
            },
          },
        ],
      }),
    },
    test_error_handling: {
      description: "Fails as a tool (isError), not as a protocol error.",
      run: () => ({ isError: true, content: [text("The tool failed on purpose.")] }),
    },
    test_tool_with_progress: {
      description: "Reports progress three times, then answers.",
      run: async (_args, ctx) => {
        for (const progress of [0, 50, 100]) {
          ctx.progress(progress, 100);
          await sleep(5);
        }
        return { content: [text("Done after three progress reports.")] };
      },
    },
    test_missing_capability: {
      description: "Needs the client's sampling capability.",
      run: (_args, ctx) => {
        ctx.requireCapabilities({ sampling: {} });
        return { content: [text("The client can sample.")] };
      },
    },
    test_streaming_elicitation: {
      description: "Answers at once; never sends a request on the stream.",
      run: () => ({ content: [text("No request was sent.")] }),
    },
    test_logging_tool: {
      description: "Logs when the request opted into logging, then answers.",
      run: (_args, ctx) => {
        ctx.log("info", "the logging tool ran");
        return { content: [text("Logged only if asked to.")] };
      },
    },
    test_trigger_tool_change: {
      description: "Announces that the tool list changed.",
      run: () => {
        publish({ method: "notifications/tools/list_changed" });
        return { content: [text("tools/list_changed published.")] };
      },
    },
    test_trigger_prompt_change: {
      description: "Announces that the prompt list changed.",
      run: () => {
        publish({ method: "notifications/prompts/list_changed" });
        return { content: [text("prompts/list_changed published.")] };
      },
    },
    test_input_required_result_elicitation: {
      description: "Asks the user's name, then greets them.",
      run: (_args, ctx) => {
        const answer = accepted(ctx.inputResponses.user_name);
        if (!answer || typeof answer.name !== "string")
          return ctx.inputRequired({ user_name: elicitName });
        return { content: [text(`Hello, ${answer.name}!`)] };
      },
    },
    test_input_required_result_sampling: {
      description: "Asks the client's model for a greeting.",
      run: (_args, ctx) => {
        const sampled = ctx.inputResponses.sample_request as
          { content?: { text?: string } } | undefined;
        if (!sampled) return ctx.inputRequired({ sample_request: sampleGreeting });
        return { content: [text(`The model said: ${sampled.content?.text ?? ""}`)] };
      },
    },
    test_input_required_result_list_roots: {
      description: "Asks for the client's roots.",
      run: (_args, ctx) => {
        const roots = ctx.inputResponses.roots_request as { roots?: unknown[] } | undefined;
        if (!roots) return ctx.inputRequired({ roots_request: listRoots });
        return { content: [text(`The client has ${roots.roots?.length ?? 0} root(s).`)] };
      },
    },
    test_input_required_result_request_state: {
      description: "Asks for confirmation, carrying state across the round trip.",
      run: (_args, ctx) => {
        const answer = accepted(ctx.inputResponses.confirm);
        if (ctx.state === "awaiting-confirmation" && answer)
          return { content: [text(`state-ok: confirmed=${String(answer.ok)}`)] };
        return ctx.inputRequired(
          {
            confirm: {
              method: "elicitation/create",
              params: {
                mode: "form",
                message: "Go ahead?",
                requestedSchema: {
                  type: "object",
                  properties: { ok: { type: "boolean" } },
                  required: ["ok"],
                },
              },
            },
          },
          "awaiting-confirmation",
        );
      },
    },
    test_input_required_result_multiple_inputs: {
      description: "Asks for a name, a sampled greeting and the roots at once.",
      run: (_args, ctx) => {
        const { user_name, greeting, client_roots } = ctx.inputResponses;
        if (ctx.state === "all-three" && user_name && greeting && client_roots)
          return { content: [text("Got all three inputs.")] };
        return ctx.inputRequired(
          { user_name: elicitName, greeting: sampleGreeting, client_roots: listRoots },
          "all-three",
        );
      },
    },
    test_input_required_result_multi_round: {
      description: "Asks for a name, then a colour, then answers.",
      run: (_args, ctx) => {
        if (ctx.state === undefined) return ctx.inputRequired({ name: elicitName }, { step: 1 });
        const step = (ctx.state as { step?: number }).step;
        const name = accepted(ctx.inputResponses.name)?.name;
        if (step === 1 && typeof name === "string") {
          const colour = {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: "Favourite colour?",
              requestedSchema: {
                type: "object",
                properties: { colour: { type: "string" } },
                required: ["colour"],
              },
            },
          };
          return ctx.inputRequired({ colour }, { step: 2, name });
        }
        const second = accepted(ctx.inputResponses.colour);
        if (step === 2 && second) {
          const colour = typeof second.colour === "string" ? second.colour : "an unnamed colour";
          return { content: [text(`${(ctx.state as { name: string }).name} likes ${colour}.`)] };
        }
        return ctx.inputRequired({ name: elicitName }, { step: 1 });
      },
    },
    test_input_required_result_tampered_state: {
      description: "Carries integrity-protected state; a tampered state is rejected.",
      run: (_args, ctx) => {
        if (ctx.state === "sealed" && accepted(ctx.inputResponses.user_name))
          return { content: [text("The state came back intact.")] };
        return ctx.inputRequired({ user_name: elicitName }, "sealed");
      },
    },
    test_input_required_result_capabilities: {
      description: "Asks only for input the client declared it can give.",
      run: (_args, ctx) => {
        if (ctx.inputResponses.sample_input) return { content: [text("Sampled as declared.")] };
        if (ctx.clientCapabilities.sampling !== undefined)
          return ctx.inputRequired({ sample_input: sampleGreeting });
        if (ctx.clientCapabilities.elicitation !== undefined)
          return ctx.inputRequired({ user_name: elicitName });
        return { content: [text("The client declared no input capability.")] };
      },
    },
    test_header_param: {
      description:
        "Echoes its region, which HTTP clients mirror into the Mcp-Param-Region header (checked against the body).",
      inputSchema: objectSchema({ region: { type: "string", "x-mcp-header": "Region" } }, [
        "region",
      ]),
      run: (args) => ({ content: [text(`Region: ${String(args.region)}`)] }),
    },
    // The 2025-11-25 scenarios' tools: written as modern handlers, served to initialize-era clients
    // through real requests on their session.
    test_tool_with_logging: {
      description: "Logs three times at info level, 50 ms apart, then answers.",
      run: async (_args, ctx) => {
        for (const [i, message] of [
          "Tool execution started",
          "Tool processing data",
          "Tool execution completed",
        ].entries()) {
          if (i > 0) await sleep(50);
          ctx.log("info", message);
        }
        return { content: [text("Logged three messages.")] };
      },
    },
    test_trigger_resource_update: {
      description: "Announces that a resource changed.",
      inputSchema: objectSchema({ uri: { type: "string" } }, ["uri"]),
      run: (args) => {
        const sent = publish({
          method: "notifications/resources/updated",
          params: { uri: String(args.uri ?? "") },
        });
        return { content: [text(`resources/updated published to ${sent} subscriber(s).`)] };
      },
    },
    test_sampling: {
      description: "Asks the client's model to answer a prompt.",
      inputSchema: objectSchema({ prompt: { type: "string" } }, ["prompt"]),
      run: (args, ctx) => {
        const sampled = ctx.inputResponses.sample as { content?: { text?: string } } | undefined;
        if (ctx.inputError)
          return { isError: true, content: [text(`Sampling failed: ${ctx.inputError.message}`)] };
        if (!sampled)
          return ctx.inputRequired({
            sample: {
              method: "sampling/createMessage",
              params: {
                messages: [
                  { role: "user", content: { type: "text", text: String(args.prompt ?? "") } },
                ],
                maxTokens: 100,
              },
            },
          });
        return { content: [text(`LLM response: ${sampled.content?.text ?? ""}`)] };
      },
    },
    test_elicitation: {
      description: "Asks the user for a username and an email address.",
      inputSchema: objectSchema({ message: { type: "string" } }, ["message"]),
      run: (args, ctx) => {
        if (ctx.inputError)
          return {
            isError: true,
            content: [text(`Elicitation failed: ${ctx.inputError.message}`)],
          };
        const answer = ctx.inputResponses.user as
          { action?: string; content?: unknown } | undefined;
        if (!answer) {
          const requestedSchema = {
            type: "object" as const,
            properties: {
              username: { type: "string" as const, description: "User's response" },
              email: { type: "string" as const, description: "User's email address" },
            },
            required: ["username", "email"],
          };
          return ctx.inputRequired({
            user: {
              method: "elicitation/create",
              params: { mode: "form", message: String(args.message ?? ""), requestedSchema },
            },
          });
        }
        return {
          content: [
            text(
              `User response: action=${answer.action ?? ""}, content=${JSON.stringify(answer.content ?? {})}`,
            ),
          ],
        };
      },
    },
    test_elicitation_sep1034_defaults: {
      description: "Asks for values of every primitive type, each with a default.",
      run: (_args, ctx) => {
        const answer = ctx.inputResponses.defaults as
          { action?: string; content?: unknown } | undefined;
        if (!answer) {
          const requestedSchema = {
            type: "object" as const,
            properties: {
              name: { type: "string" as const, default: "John Doe" },
              age: { type: "integer" as const, default: 30 },
              score: { type: "number" as const, default: 95.5 },
              status: {
                type: "string" as const,
                enum: ["active", "inactive", "pending"],
                default: "active",
              },
              verified: { type: "boolean" as const, default: true },
            },
          };
          return ctx.inputRequired({
            defaults: {
              method: "elicitation/create",
              params: { mode: "form", message: "Confirm or change the defaults.", requestedSchema },
            },
          });
        }
        return {
          content: [
            text(
              `Elicitation completed: action=${answer.action ?? ""}, content=${JSON.stringify(answer.content ?? {})}`,
            ),
          ],
        };
      },
    },
    test_elicitation_sep1330_enums: {
      description: "Asks for values of every enum schema form.",
      run: (_args, ctx) => {
        const answer = ctx.inputResponses.enums as
          { action?: string; content?: unknown } | undefined;
        if (!answer) {
          const requestedSchema = {
            type: "object" as const,
            properties: {
              untitledSingle: { type: "string" as const, enum: ["option1", "option2", "option3"] },
              titledSingle: {
                type: "string" as const,
                oneOf: [
                  { const: "value1", title: "First" },
                  { const: "value2", title: "Second" },
                ],
              },
              legacyEnum: {
                type: "string" as const,
                enum: ["opt1", "opt2"],
                enumNames: ["Option one", "Option two"],
              },
              untitledMulti: {
                type: "array" as const,
                items: { type: "string" as const, enum: ["option1", "option2", "option3"] },
              },
              titledMulti: {
                type: "array" as const,
                items: {
                  anyOf: [
                    { const: "value1", title: "First" },
                    { const: "value2", title: "Second" },
                  ],
                },
              },
            },
          };
          return ctx.inputRequired({
            enums: {
              method: "elicitation/create",
              params: { mode: "form", message: "Pick from each list.", requestedSchema },
            },
          });
        }
        return {
          content: [
            text(
              `Elicitation completed: action=${answer.action ?? ""}, content=${JSON.stringify(answer.content ?? {})}`,
            ),
          ],
        };
      },
    },
  };
}
