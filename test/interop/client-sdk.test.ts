/**
 * Interop of the generated 2026-07-28 client with a server nobody here wrote: one built on the
 * official SDK v2 (@modelcontextprotocol/server 2.4.0, served over HTTP through
 * @modelcontextprotocol/node 2.1.2 as bench/servers/sdk-echo.mjs serves it, and over stdio through
 * its `serveStdio`). The server's source is below and runs in a child process of its own
 * (`node --input-type=module -e`, from the repository root so that its imports resolve).
 *
 * Covered over both transports: discovery, tools (listed, called, structured output, a validated
 * listing), resources (listed, read, templated), prompts (listed, got), one elicitation round trip
 * (input_required → onElicit → retry with the state echoed), and the headers the client sends over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChildProcess } from "node:child_process";
import {
  createClient,
  httpTransport,
  InvalidParamsError,
  McpError,
  type McpClient,
} from "../../generated/2026-07-28/client.js";
import { stdioTransport } from "../../generated/2026-07-28/client-node.js";
import { validators } from "../../generated/2026-07-28/validators.js";
import { ROOT } from "../helpers/spec.js";
import { startListening, stopProcess, validIn } from "../helpers/interop.js";

const expectValid = validIn(validators);

const REVISION = "2026-07-28";
const SERVER_INFO = { name: "interop-sdk", version: "2.4.0-test" };

const SERVER_SOURCE = String.raw`
import { createServer } from "node:http";
import { McpServer, ResourceTemplate, acceptedContent, createMcpHandler, inputRequired } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from "@modelcontextprotocol/node";
import * as z from "zod";

function factory() {
  const server = new McpServer({ name: "interop-sdk", version: "2.4.0-test" }, { capabilities: { tools: {}, resources: {}, prompts: {} } });
  server.registerTool("echo", { description: "Answers with its text argument.", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool(
    "add",
    { description: "Adds two numbers.", inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool("confirm", { description: "Asks for a confirmation first.", inputSchema: z.object({ action: z.string() }) }, async ({ action }, ctx) => {
    const schema = z.object({ confirmed: z.boolean() });
    const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm", schema);
    if (answer === undefined) {
      return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: "Really " + action + "?", requestedSchema: schema }) }, requestState: "pending:" + action });
    }
    return { content: [{ type: "text", text: action + ": " + (answer.confirmed ? "done" : "cancelled") + " (state " + (ctx.mcpReq.requestState?.() ?? "-") + ")" }] };
  });
  server.registerResource("readme", "docs://readme", { description: "The readme.", mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "Read me first." }] }));
  server.registerResource(
    "page",
    new ResourceTemplate("docs://pages/{n}", { list: undefined }),
    { description: "A numbered page.", mimeType: "text/plain" },
    async (uri, { n }) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "Page " + n + "." }] }),
  );
  server.registerPrompt("greet", { description: "Greets someone.", argsSchema: z.object({ name: z.string() }) }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: "Say hello to " + name + "." } }],
  }));
  return server;
}

if (process.argv.includes("--stdio")) {
  serveStdio(factory, { legacy: "reject" });
} else {
  const node = toNodeHandler(createMcpHandler(factory, { legacy: "reject" }));
  const host = localhostHostValidation();
  const origin = localhostOriginValidation();
  const http = createServer((req, res) => {
    if (!host(req, res) || !origin(req, res)) return;
    void node(req, res);
  });
  http.listen(0, "127.0.0.1", () => process.stderr.write("listening on http://127.0.0.1:" + http.address().port + "/mcp\n"));
  process.on("SIGTERM", () => { http.closeAllConnections(); http.close(() => process.exit(0)); });
}
`;

const SERVER_ARGS = ["--input-type=module", "-e", SERVER_SOURCE];

const startHttpServer = () => startListening(SERVER_ARGS, "the SDK server");

type Kind = "stdio" | "http";

interface Posted {
  headers: Record<string, string>;
  body: { method?: string; id?: unknown; params?: Record<string, unknown> };
}

interface Session {
  client: McpClient;
  /** HTTP only: every POST the client made, headers lower-cased. */
  posted: Posted[];
  elicitations: unknown[];
  logs: string[];
  close(): Promise<void>;
}

async function connect(kind: Kind): Promise<Session> {
  const posted: Posted[] = [];
  const elicitations: unknown[] = [];
  const logs: string[] = [];
  let child: ChildProcess | undefined;
  let transport;
  if (kind === "stdio") {
    transport = stdioTransport({
      command: process.execPath,
      args: [...SERVER_ARGS, "--", "--stdio"],
      cwd: ROOT,
      onStderr: (line) => logs.push(`stderr: ${line}`),
    });
  } else {
    const started = await startHttpServer();
    child = started.child;
    const recordingFetch: typeof fetch = async (input, init) => {
      const headers = Object.fromEntries(
        Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [
          k.toLowerCase(),
          v,
        ]),
      );
      posted.push({ headers, body: JSON.parse(String(init?.body)) as Posted["body"] });
      return fetch(input, init);
    };
    transport = httpTransport(started.url, { fetch: recordingFetch });
  }
  const client = createClient({
    transport,
    info: { name: "mcp-gen-interop", version: "0.0.1" },
    log: (message) => logs.push(message),
    onElicit: async (params) => {
      elicitations.push(params);
      return { action: "accept", content: { confirmed: true } };
    },
  });
  return {
    client,
    posted,
    elicitations,
    logs,
    async close() {
      await client.close();
      await stopProcess(child);
    },
  };
}

describe.each<Kind>(["stdio", "http"])(
  "the generated 2026-07-28 client against an SDK v2 server over %s",
  (kind) => {
    let session: Session;
    beforeAll(async () => {
      session = await connect(kind);
    });
    afterAll(async () => {
      await session?.close();
    });

    it("discovers the server", async () => {
      const discovered = await session.client.discover();
      expectValid("DiscoverResult", discovered);
      expect(discovered.supportedVersions).toEqual([REVISION]);
      expect(discovered.capabilities).toEqual({
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: { listChanged: true },
      });
      expect(discovered._meta?.["io.modelcontextprotocol/serverInfo"]).toEqual(SERVER_INFO);
      expect(session.client.protocolVersion).toBe(REVISION);
    });

    it("lists the tools, every page of them, with their schemas as the SDK wrote them", async () => {
      const listed = await session.client.listTools();
      expectValid("ListToolsResult", listed);
      expect(listed.tools.map((t) => t.name)).toEqual(["echo", "add", "confirm"]);
      expect(listed.tools[0]!.inputSchema).toEqual({
        type: "object",
        $schema: "https://json-schema.org/draft/2020-12/schema",
        properties: { text: { type: "string" } },
        required: ["text"],
      });
      expect(listed.tools[1]!.outputSchema).toMatchObject({
        type: "object",
        properties: { sum: { type: "number" } },
        required: ["sum"],
      });
      const all = [];
      for await (const tool of session.client.listToolsAll()) all.push(tool.name);
      expect(all).toEqual(["echo", "add", "confirm"]);
    });

    it("calls tools, with text and with structured output", async () => {
      const echoed = await session.client.callTool({
        name: "echo",
        arguments: { text: "hello from mcp-gen" },
      });
      expectValid("CallToolResult", echoed);
      expect(echoed.content).toEqual([{ type: "text", text: "hello from mcp-gen" }]);
      expect(echoed.isError).toBeFalsy();
      const added = await session.client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
      expectValid("CallToolResult", added);
      expect(added.content).toEqual([{ type: "text", text: "42" }]);
      expect(added.structuredContent).toEqual({ sum: 42 });
    });

    it("gets the SDK's answer to bad arguments as a tool error or a typed protocol error", async () => {
      const outcome = await session.client
        .callTool({ name: "add", arguments: { a: "two", b: 40 } })
        .catch((error: unknown) => error);
      if (outcome instanceof Error) {
        expect(outcome).toBeInstanceOf(McpError);
        expect(outcome).toBeInstanceOf(InvalidParamsError);
      } else {
        expectValid("CallToolResult", outcome);
        expect((outcome as { isError?: boolean }).isError).toBe(true);
      }
    });

    it("lists and reads resources, static and templated", async () => {
      const listed = await session.client.listResources();
      expectValid("ListResourcesResult", listed);
      expect(listed.resources).toEqual([
        {
          uri: "docs://readme",
          name: "readme",
          description: "The readme.",
          mimeType: "text/plain",
        },
      ]);
      const templates = await session.client.listResourceTemplates();
      expectValid("ListResourceTemplatesResult", templates);
      expect(templates.resourceTemplates).toEqual([
        {
          name: "page",
          uriTemplate: "docs://pages/{n}",
          description: "A numbered page.",
          mimeType: "text/plain",
        },
      ]);
      const readme = await session.client.readResource({ uri: "docs://readme" });
      expectValid("ReadResourceResult", readme);
      expect(readme.contents).toEqual([
        { uri: "docs://readme", mimeType: "text/plain", text: "Read me first." },
      ]);
      const page = await session.client.readResource({ uri: "docs://pages/7" });
      expect(page.contents).toEqual([
        { uri: "docs://pages/7", mimeType: "text/plain", text: "Page 7." },
      ]);
    });

    it("lists prompts and gets one with its argument", async () => {
      const listed = await session.client.listPrompts();
      expectValid("ListPromptsResult", listed);
      expect(listed.prompts).toEqual([
        {
          name: "greet",
          description: "Greets someone.",
          arguments: [{ name: "name", required: true }],
        },
      ]);
      const got = await session.client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
      expectValid("GetPromptResult", got);
      expect(got.messages).toEqual([
        { role: "user", content: { type: "text", text: "Say hello to Ada." } },
      ]);
    });

    it("answers an input_required elicitation through onElicit and retries with the request state", async () => {
      session.elicitations.length = 0;
      const before = session.posted.length;
      const result = await session.client.callTool({
        name: "confirm",
        arguments: { action: "deploy" },
      });
      expectValid("CallToolResult", result);
      expect(result.content).toEqual([
        { type: "text", text: "deploy: done (state pending:deploy)" },
      ]);
      expect(session.elicitations).toEqual([
        {
          mode: "form",
          message: "Really deploy?",
          requestedSchema: expect.objectContaining({
            type: "object",
            properties: { confirmed: { type: "boolean" } },
            required: ["confirmed"],
          }),
        },
      ]);
      if (kind === "http") {
        const calls = session.posted.slice(before);
        expect(calls.map((p) => p.body.method)).toEqual(["tools/call", "tools/call"]);
        expect(calls[0]!.body.params?.inputResponses).toBeUndefined();
        expect(calls[1]!.body.params?.inputResponses).toEqual({
          confirm: { action: "accept", content: { confirmed: true } },
        });
        expect(calls[1]!.body.params?.requestState).toBe("pending:deploy");
        expect(calls[1]!.body.id).not.toEqual(calls[0]!.body.id);
      }
    });

    it.runIf(kind === "http")(
      "sends the 2026-07-28 request headers and _meta on every POST",
      () => {
        expect(session.posted.length).toBeGreaterThan(10);
        for (const { headers, body } of session.posted) {
          expect(headers["mcp-protocol-version"]).toBe(REVISION);
          expect(headers["mcp-method"]).toBe(body.method);
          expect(headers.accept).toBe("application/json, text/event-stream");
          const meta = body.params?._meta as Record<string, unknown>;
          expect(meta["io.modelcontextprotocol/protocolVersion"]).toBe(REVISION);
          expect(meta["io.modelcontextprotocol/clientCapabilities"]).toEqual({ elicitation: {} });
          expect(meta["io.modelcontextprotocol/clientInfo"]).toEqual({
            name: "mcp-gen-interop",
            version: "0.0.1",
          });
          const target =
            body.method === "resources/read"
              ? body.params?.uri
              : body.method === "tools/call" || body.method === "prompts/get"
                ? body.params?.name
                : undefined;
          expect(headers["mcp-name"]).toBe(target);
        }
      },
    );

    it("logged no diagnostics (dropped tools, garbage)", () => {
      expect(session.logs.filter((line) => !line.startsWith("stderr: "))).toEqual([]);
    });
  },
);
