/**
 * The server the official conformance suite tests: every tool, resource and prompt its 2026-07-28
 * and 2025-11-25 scenarios call, written once against the generated 2026-07-28 output of
 * `mcp-gen --revision 2026-07-28` (generated/dual; `--legacy` left at its default, every released
 * initialize-era revision): modern clients are served per request, initialize-era clients (2024-11-05
 * to 2025-11-25) in sessions, by the same handlers.
 *
 *   node dist/examples/conformance-server.js --port 3000   # Streamable HTTP on 127.0.0.1:3000/mcp
 *   node dist/examples/conformance-server.js --stdio       # newline-delimited JSON on stdin/stdout
 */
import {
  createServer,
  RpcError,
  type Handlers,
  type RequestContext,
} from "../generated/dual/index.js";
import type * as T from "../generated/dual/index.js";

// A 1×1 transparent PNG and a 44-byte silent WAV: the smallest valid media of each kind.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

const text = (value: string): T.TextContent => ({ type: "text", text: value });
const objectSchema = (
  properties: Record<string, object> = {},
  required: string[] = [],
): T.Tool["inputSchema"] => ({
  type: "object",
  properties,
  ...(required.length > 0 ? { required } : {}),
});

type ToolHandler = (
  args: Record<string, unknown>,
  ctx: RequestContext,
) => ReturnType<NonNullable<Handlers["tools/call"]>>;

interface ToolDefinition {
  description: string;
  inputSchema?: T.Tool["inputSchema"];
  run: ToolHandler;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const elicitName = {
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
const sampleGreeting = {
  method: "sampling/createMessage",
  params: {
    messages: [{ role: "user", content: { type: "text", text: "Write a one-line greeting." } }],
    maxTokens: 50,
  },
};
const listRoots = { method: "roots/list", params: {} };

/** The `content` of an accepted elicitation, if that is what came back. */
function accepted(response: unknown): Record<string, unknown> | null {
  const r = response as { action?: unknown; content?: unknown } | undefined;
  return r?.action === "accept" && typeof r.content === "object" && r.content !== null
    ? (r.content as Record<string, unknown>)
    : null;
}

const TOOLS: Record<string, ToolDefinition> = {
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
      server.publish({ method: "notifications/tools/list_changed" });
      return { content: [text("tools/list_changed published.")] };
    },
  },
  test_trigger_prompt_change: {
    description: "Announces that the prompt list changed.",
    run: () => {
      server.publish({ method: "notifications/prompts/list_changed" });
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
    inputSchema: objectSchema({ region: { type: "string", "x-mcp-header": "Region" } }, ["region"]),
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
      const sent = server.publish({
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
        return { isError: true, content: [text(`Elicitation failed: ${ctx.inputError.message}`)] };
      const answer = ctx.inputResponses.user as { action?: string; content?: unknown } | undefined;
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
      const answer = ctx.inputResponses.enums as { action?: string; content?: unknown } | undefined;
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

const RESOURCES: T.Resource[] = [
  {
    uri: "test://static-text",
    name: "static-text",
    mimeType: "text/plain",
    description: "A fixed text.",
  },
  {
    uri: "test://static-binary",
    name: "static-binary",
    mimeType: "image/png",
    description: "A fixed PNG.",
  },
];

const PROMPTS: T.Prompt[] = [
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

function readResource(uri: string): T.ReadResourceResult["contents"] {
  if (uri === "test://static-text")
    return [{ uri, mimeType: "text/plain", text: "Static text served by the mcp-gen fixture." }];
  if (uri === "test://static-binary") return [{ uri, mimeType: "image/png", blob: PNG }];
  const templated = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
  if (templated)
    return [
      {
        uri,
        mimeType: "application/json",
        text: JSON.stringify({ id: templated[1], source: "template" }),
      },
    ];
  throw new RpcError(-32602, "Resource not found", { uri });
}

const handlers: Handlers = {
  "tools/list": () => ({
    tools: Object.entries(TOOLS).map(([name, tool]) => ({
      name,
      description: tool.description,
      inputSchema: tool.inputSchema ?? objectSchema(),
    })),
    ttlMs: 300_000,
    cacheScope: "public",
  }),
  "tools/call": (params, ctx) => {
    const tool = TOOLS[params.name];
    if (!tool) throw new RpcError(-32602, `Unknown tool: ${params.name}`);
    return tool.run(params.arguments ?? {}, ctx);
  },
  "resources/list": () => ({ resources: RESOURCES, ttlMs: 300_000, cacheScope: "public" }),
  "resources/templates/list": () => ({
    resourceTemplates: [
      {
        uriTemplate: "test://template/{id}/data",
        name: "template",
        mimeType: "application/json",
        description: "Data by id.",
      },
    ],
    ttlMs: 300_000,
    cacheScope: "public",
  }),
  "resources/read": (params) => ({
    contents: readResource(params.uri),
    ttlMs: 60_000,
    cacheScope: "private",
  }),
  "prompts/list": () => ({ prompts: PROMPTS, ttlMs: 300_000, cacheScope: "public" }),
  "prompts/get": (params, ctx) => {
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
          messages: [
            { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
          ],
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
  },
  "completion/complete": (params) => {
    const prefix = params.argument.value;
    const values = ["test", "testing", "tested"].filter((v) => v.startsWith(prefix));
    return { completion: { values, total: values.length, hasMore: false } };
  },
};

const server = createServer({
  info: { name: "mcp-gen-conformance-fixture", version: "1.0.0" },
  capabilities: {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { subscribe: true },
    completions: {},
    logging: {},
  },
  handlers,
  cache: { ttlMs: 0, cacheScope: "private" },
  ...(process.env.MCP_SERVER_SECRET ? { secret: process.env.MCP_SERVER_SECRET } : {}),
});

const args = process.argv.slice(2);
if (args.includes("--stdio")) {
  server.serveStdio();
} else {
  const portAt = args.indexOf("--port");
  const port = portAt >= 0 ? Number(args[portAt + 1]) : 3000;
  const listening = await server.listen({ port });
  process.stderr.write(`conformance fixture listening on ${listening.url}\n`);
  const stop = () => {
    server.close();
    void listening.close().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
