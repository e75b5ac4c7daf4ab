/**
 * The generated 2026-07-28 client against the generated 2026-07-28 server: the example conformance
 * fixture (examples/conformance-server.ts), compiled from this run's generated output into a
 * private folder, over stdio (spawned by the client's stdioTransport) and over Streamable HTTP (the
 * fixture on a free loopback port). The expected values are the fixture's own answers, the same
 * ones test/interop/sdk.test.ts sees through the official SDK client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChildProcess } from "node:child_process";
import {
  createClient,
  httpTransport,
  InvalidParamsError,
  MissingRequiredClientCapabilityError,
  type ClientOptions,
  type McpClient,
} from "../../generated/2026-07-28/client.js";
import { stdioTransport } from "../../generated/2026-07-28/client-node.js";
import { validators } from "../../generated/2026-07-28/validators.js";
import {
  FIXTURE_SERVER_INFO,
  FIXTURE_TOOL_NAMES,
  buildFixture,
  elicitationAnswer,
  startHttpFixture,
  stopProcess,
  validIn,
} from "../helpers/interop.js";

const expectValid = validIn(validators);

const REVISION = "2026-07-28";
const SERVER_INFO = FIXTURE_SERVER_INFO;
const TOOL_NAMES = FIXTURE_TOOL_NAMES;

let fixture: string;
let removeFixture: (() => void) | undefined;

beforeAll(() => {
  ({ fixture, remove: removeFixture } = buildFixture());
});

afterAll(() => removeFixture?.());

type Kind = "stdio" | "http";

interface Session {
  client: McpClient;
  elicitations: string[];
  logs: string[];
  close(): Promise<void>;
}

async function connect(kind: Kind, options: Partial<ClientOptions> = {}): Promise<Session> {
  const elicitations: string[] = [];
  const logs: string[] = [];
  let child: ChildProcess | undefined;
  const transport =
    kind === "stdio"
      ? stdioTransport({
          command: process.execPath,
          args: [fixture, "--stdio"],
          onStderr: (line) => logs.push(`stderr: ${line}`),
        })
      : httpTransport(
          (await startHttpFixture(fixture).then((started) => ((child = started.child), started)))
            .url,
        );
  const client = createClient({
    transport,
    info: { name: "mcp-gen-interop", version: "0.0.1" },
    log: (message) => logs.push(message),
    onElicit: async (params) => {
      const message = (params as { message: string }).message;
      elicitations.push(message);
      return { action: "accept", content: elicitationAnswer(message) };
    },
    onSample: async () => ({
      model: "interop-model",
      role: "assistant",
      content: { type: "text", text: "Hello from the sampled model." },
    }),
    onListRoots: async () => ({ roots: [{ uri: "file:///tmp/interop", name: "interop" }] }),
    ...options,
  });
  return {
    client,
    elicitations,
    logs,
    async close() {
      await client.close();
      await stopProcess(child);
    },
  };
}

describe.each<Kind>(["stdio", "http"])(
  "the generated client against the generated server (example fixture) over %s",
  (kind) => {
    let session: Session;
    beforeAll(async () => {
      session = await connect(kind);
    });
    afterAll(async () => {
      await session?.close();
    });

    it("discovers", async () => {
      const discovered = await session.client.discover();
      expectValid("DiscoverResult", discovered);
      expect(discovered.supportedVersions).toEqual([REVISION]);
      expect(discovered.capabilities).toEqual({
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true },
        completions: {},
        logging: {},
      });
      expect(discovered._meta?.["io.modelcontextprotocol/serverInfo"]).toEqual(SERVER_INFO);
    });

    it("lists the tools and calls test_simple_text", async () => {
      const listed = await session.client.listTools();
      expectValid("ListToolsResult", listed);
      expect(listed.tools.map((t) => t.name)).toEqual(TOOL_NAMES);
      const result = await session.client.callTool({ name: "test_simple_text", arguments: {} });
      expectValid("CallToolResult", result);
      expect(result.content).toEqual([
        { type: "text", text: "A plain text answer from the mcp-gen fixture." },
      ]);
    });

    it("receives every progress notification of test_tool_with_progress", async () => {
      const progress: unknown[] = [];
      const result = await session.client.callTool(
        { name: "test_tool_with_progress", arguments: {} },
        { onProgress: (p) => progress.push(p) },
      );
      expect(result.content).toEqual([
        { type: "text", text: "Done after three progress reports." },
      ]);
      expect(progress).toEqual(
        [0, 50, 100].map((value) => expect.objectContaining({ progress: value, total: 100 })),
      );
    });

    it("gets a tool error as a result and an unknown tool as InvalidParamsError", async () => {
      const failed = await session.client.callTool({ name: "test_error_handling", arguments: {} });
      expect(failed.isError).toBe(true);
      const unknown = await session.client
        .callTool({ name: "no_such_tool", arguments: {} })
        .catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(InvalidParamsError);
      expect(unknown).toMatchObject({ code: -32602, message: "Unknown tool: no_such_tool" });
    });

    it("reads resources, static and templated", async () => {
      const { resources } = await session.client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(["test://static-text", "test://static-binary"]);
      const text = await session.client.readResource({ uri: "test://static-text" });
      expectValid("ReadResourceResult", text);
      expect(text.contents).toEqual([
        {
          uri: "test://static-text",
          mimeType: "text/plain",
          text: "Static text served by the mcp-gen fixture.",
        },
      ]);
      const templated = await session.client.readResource({ uri: "test://template/42/data" });
      expect(templated.contents).toEqual([
        {
          uri: "test://template/42/data",
          mimeType: "application/json",
          text: '{"id":"42","source":"template"}',
        },
      ]);
    });

    it("gets prompts and completes an argument", async () => {
      const result = await session.client.getPrompt({
        name: "test_prompt_with_arguments",
        arguments: { arg1: "alpha", arg2: "beta" },
      });
      expectValid("GetPromptResult", result);
      expect(result.messages).toEqual([
        { role: "user", content: { type: "text", text: "First: alpha; second: beta." } },
      ]);
      const completed = await session.client.complete({
        ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
        argument: { name: "arg1", value: "testi" },
      });
      expect(completed.completion).toEqual({ values: ["testing"], total: 1, hasMore: false });
    });

    it("fulfils input_required elicitation, sampling and roots (MRTR), over several rounds", async () => {
      session.elicitations.length = 0;
      const hello = await session.client.callTool({
        name: "test_input_required_result_elicitation",
        arguments: {},
      });
      expect(hello.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
      const rounds = await session.client.callTool({
        name: "test_input_required_result_multi_round",
        arguments: {},
      });
      expect(rounds.content).toEqual([{ type: "text", text: "Ada likes teal." }]);
      expect(session.elicitations).toEqual([
        "Your name, please?",
        "Your name, please?",
        "Favourite colour?",
      ]);
      const state = await session.client.callTool({
        name: "test_input_required_result_request_state",
        arguments: {},
      });
      expect(state.content).toEqual([{ type: "text", text: "state-ok: confirmed=true" }]);
      const all = await session.client.callTool({
        name: "test_input_required_result_multiple_inputs",
        arguments: {},
      });
      expect(all.content).toEqual([{ type: "text", text: "Got all three inputs." }]);
      const sampled = await session.client.callTool({
        name: "test_input_required_result_sampling",
        arguments: {},
      });
      expect(sampled.content).toEqual([
        { type: "text", text: "The model said: Hello from the sampled model." },
      ]);
      const roots = await session.client.callTool({
        name: "test_input_required_result_list_roots",
        arguments: {},
      });
      expect(roots.content).toEqual([{ type: "text", text: "The client has 1 root(s)." }]);
      const prompt = await session.client.getPrompt({ name: "test_input_required_result_prompt" });
      expect(prompt.messages).toEqual([
        { role: "user", content: { type: "text", text: "With context: from the interop test" } },
      ]);
    });

    it("listens for tools/list_changed", async () => {
      const stream = session.client.listen({ toolsListChanged: true });
      const acknowledged = await stream.acknowledged;
      expect(acknowledged).toMatchObject({ notifications: { toolsListChanged: true } });
      await session.client.callTool({ name: "test_trigger_tool_change", arguments: {} });
      const first = await stream.next();
      expect(first.done).toBe(false);
      expect(first.value).toMatchObject({ method: "notifications/tools/list_changed" });
      await stream.return!();
      await stream.finished;
    });

    it("logged no client diagnostics beyond the deprecation notices for sampling and roots (SEP-2577)", () => {
      const diagnostics = session.logs.filter((line) => !line.startsWith("stderr: "));
      expect(
        diagnostics.filter((line) => !line.startsWith("mcp client: deprecated feature used: ")),
      ).toEqual([]);
      expect(diagnostics.join("\n")).toContain("CreateMessageRequest is deprecated");
    });
  },
);

describe.each<Kind>(["stdio", "http"])(
  "a generated client with no input handlers against the fixture over %s",
  (kind) => {
    let session: Session;
    beforeAll(async () => {
      session = await connect(kind, {
        onElicit: undefined as never,
        onSample: undefined as never,
        onListRoots: undefined as never,
        capabilities: {},
      });
    });
    afterAll(async () => {
      await session?.close();
    });

    it("gets MissingRequiredClientCapabilityError (-32021) with the capability the server needs", async () => {
      const error = await session.client
        .callTool({ name: "test_missing_capability", arguments: {} })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
      expect(error).toMatchObject({ code: -32021, requiredCapabilities: { sampling: {} } });
    });

    it("lets the tool see that no input capability was declared", async () => {
      const result = await session.client.callTool({
        name: "test_input_required_result_capabilities",
        arguments: {},
      });
      expect(result.content).toEqual([
        { type: "text", text: "The client declared no input capability." },
      ]);
    });
  },
);
