// A server written with the official TypeScript SDK 1.0.1 (the npm alias sdk-v1-0-1), the SDK the
// first deployed servers were built on: it speaks only protocol 2024-11-05 (and 2024-10-07), over
// stdio, and answers any other requested version with its own. Two tools, a resource and a prompt,
// registered with the low-level Server of that release (McpServer came later).
//
//   node test/peers/sdk-v1-0-1-server.mjs
import { Server } from "sdk-v1-0-1/server/index.js";
import { StdioServerTransport } from "sdk-v1-0-1/server/stdio.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "sdk-v1-0-1/types.js";

const server = new Server(
  { name: "peer-sdk-v1-0-1", version: "1.0.1" },
  { capabilities: { tools: {}, resources: {}, prompts: {} } },
);

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: "add",
      description: "Adds two numbers.",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    },
    {
      name: "fail",
      description: "Always reports a tool error.",
      inputSchema: { type: "object", properties: {} },
    },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params;
  if (name === "add")
    return { content: [{ type: "text", text: String(Number(args.a) + Number(args.b)) }] };
  if (name === "fail") return { content: [{ type: "text", text: "it failed" }], isError: true };
  throw new Error(`unknown tool ${name}`);
});

server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [{ uri: "memo://greeting", name: "greeting", mimeType: "text/plain" }],
}));

server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({
  contents: [{ uri: request.params.uri, mimeType: "text/plain", text: "hello from 2024-11-05" }],
}));

server.setRequestHandler(ListPromptsRequestSchema, async () => ({
  prompts: [{ name: "greet", arguments: [{ name: "who", required: true }] }],
}));

server.setRequestHandler(GetPromptRequestSchema, async (request) => ({
  messages: [
    {
      role: "user",
      content: { type: "text", text: `Say hello to ${request.params.arguments?.who ?? "nobody"}` },
    },
  ],
}));

await server.connect(new StdioServerTransport());
