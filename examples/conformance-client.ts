/**
 * The client the official conformance suite tests (`conformance client --command "node
 * dist/examples/conformance-client.js"`): one program that switches on `MCP_CONFORMANCE_SCENARIO`,
 * written against nothing but the dual-era client generated for 2026-07-28 with the default
 * `--legacy` (every released initialize-era revision; generated/dual). It is told nothing about the server's era: the same
 * program passes the 2026-07-28 scenarios and the 2025-11-25 ones, whose mocks are initialize-era
 * servers. The harness appends the mock server's URL as the last argument; it is used exactly as
 * given.
 *
 *   MCP_CONFORMANCE_SCENARIO=tools_call node dist/examples/conformance-client.js http://localhost:3000/mcp
 *
 * Exit 0 when the scenario's flow ran to the end; 1 (with the error on stderr) when the client
 * threw, so that a client bug shows up as a failed scenario rather than as a silent pass.
 */
import { createClient, httpTransport, type McpClient } from "../generated/dual/client.js";
import {
  oauthClient,
  type OAuthClientCredentials,
} from "../generated/2026-07-28/runtime/auth/oauth-client.js";
import type * as T from "../generated/2026-07-28/types.js";

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = parseContext(process.env.MCP_CONFORMANCE_CONTEXT);

const INFO = { name: "mcp-gen-conformance-client", version: "1.0.0" };

function parseContext(raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const log = (message: string) => process.stderr.write(`${message}\n`);

/** A client on the scenario's URL; the diagnostics of the generated client go to stderr. */
function client(options: Partial<Parameters<typeof createClient>[0]> = {}): McpClient {
  return createClient({ transport: httpTransport(url!), info: INFO, log, ...options });
}

/** Arguments that satisfy a tool's input schema well enough for the mocks: one plain value per declared property. */
function sampleArguments(tool: T.Tool): Record<string, unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const args: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    switch (schema?.type) {
      case "string":
        args[name] = name === "region" ? "us-west1" : "example";
        break;
      case "integer":
      case "number":
        args[name] = 1;
        break;
      case "boolean":
        args[name] = true;
        break;
      default:
        break;
    }
  }
  return args;
}

/** A form elicitation's answer: every field of the requested schema that declares a default, at its default. */
function withDefaults(
  params: T.ElicitRequest["params"],
): Record<string, string | number | boolean> {
  const content: Record<string, string | number | boolean> = {};
  const schema = "requestedSchema" in params ? params.requestedSchema : undefined;
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    const fallback = (field as { default?: unknown }).default;
    if (
      typeof fallback === "string" ||
      typeof fallback === "number" ||
      typeof fallback === "boolean"
    )
      content[name] = fallback;
  }
  return content;
}

const text = (result: T.CallToolResult) =>
  result.content
    .filter((block): block is T.TextContent => block.type === "text")
    .map((block) => block.text)
    .join(" ");

const SCENARIOS: Record<string, () => Promise<void>> = {
  /** List the tools, then call add_numbers with numbers. */
  async tools_call() {
    const mcp = client();
    const { tools } = await mcp.listTools();
    if (!tools.some((t) => t.name === "add_numbers"))
      throw new Error(`add_numbers not listed: ${tools.map((t) => t.name).join(", ")}`);
    const result = await mcp.callTool({ name: "add_numbers", arguments: { a: 2, b: 3 } });
    log(`add_numbers: ${text(result)}`);
    await mcp.close();
  },

  /**
   * 2025-11-25 (SEP-1034): the tool elicits a form whose fields all have defaults, and the client
   * accepts with the defaults applied to every field the user left out.
   */
  async "elicitation-sep1034-client-defaults"() {
    const mcp = client({
      onElicit: (params) => ({ action: "accept", content: withDefaults(params) }),
    });
    const { tools } = await mcp.listTools();
    for (const tool of tools) log(`${tool.name}: ${text(await mcp.callTool({ name: tool.name }))}`);
    await mcp.close();
  },

  /**
   * 2025-11-25 (SEP-1699): the tool call's SSE stream closes before its answer; the client
   * reconnects with Last-Event-ID after the server's retry and reads the answer there.
   */
  async "sse-retry"() {
    const mcp = client();
    const { tools } = await mcp.listTools();
    for (const tool of tools) log(`${tool.name}: ${text(await mcp.callTool({ name: tool.name }))}`);
    await mcp.close();
  },

  /** Discover (the mock rejects the first POST with -32022; the client renegotiates and retries), then list tools. */
  async "request-metadata"() {
    const mcp = client({ capabilities: { roots: {}, sampling: {}, elicitation: {} } });
    const discovered = await mcp.discover();
    log(
      `discover: versions ${discovered.supportedVersions.join(", ")}; speaking ${mcp.protocolVersion}`,
    );
    await mcp.listTools();
    await mcp.close();
  },

  /**
   * MRTR: test_mrtr_echo_state asks for an elicitation with a requestState; while it waits for the
   * answer the client calls test_mrtr_unrelated (which must carry no MRTR fields), then the retry
   * echoes the state. test_mrtr_no_state asks without state; test_mrtr_no_result_type answers
   * without resultType (complete).
   */
  async "sep-2322-client-request-state"() {
    let unrelatedCalled = false;
    const mcp: McpClient = client({
      onElicit: async () => {
        if (!unrelatedCalled) {
          unrelatedCalled = true;
          log(
            `test_mrtr_unrelated: ${text(await mcp.callTool({ name: "test_mrtr_unrelated", arguments: {} }))}`,
          );
        }
        return { action: "accept", content: { confirmed: true } };
      },
    });
    const { tools } = await mcp.listTools();
    log(`tools: ${tools.map((t) => t.name).join(", ")}`);
    log(
      `test_mrtr_echo_state: ${text(await mcp.callTool({ name: "test_mrtr_echo_state", arguments: {} }))}`,
    );
    log(
      `test_mrtr_no_state: ${text(await mcp.callTool({ name: "test_mrtr_no_state", arguments: {} }))}`,
    );
    log(
      `test_mrtr_no_result_type: ${text(await mcp.callTool({ name: "test_mrtr_no_result_type", arguments: {} }))}`,
    );
    if (!unrelatedCalled)
      log(
        `test_mrtr_unrelated: ${text(await mcp.callTool({ name: "test_mrtr_unrelated", arguments: {} }))}`,
      );
    await mcp.close();
  },

  /** One request of each kind that carries Mcp-Method / Mcp-Name: list and use every tool, resource and prompt. */
  async "http-standard-headers"() {
    const mcp = client();
    const { tools } = await mcp.listTools();
    for (const tool of tools)
      await mcp.callTool({ name: tool.name, arguments: sampleArguments(tool) });
    const { resources } = await mcp.listResources();
    for (const resource of resources) await mcp.readResource({ uri: resource.uri });
    const { prompts } = await mcp.listPrompts();
    for (const prompt of prompts) await mcp.getPrompt({ name: prompt.name });
    log(`used ${tools.length} tools, ${resources.length} resources, ${prompts.length} prompts`);
    await mcp.close();
  },

  /** List the tools (so that their x-mcp-header annotations are known), then make the calls the context names. */
  async "http-custom-headers"() {
    const calls = Array.isArray(context.toolCalls)
      ? (context.toolCalls as Array<{ name: string; arguments?: Record<string, unknown> }>)
      : [];
    if (calls.length === 0) throw new Error("MCP_CONFORMANCE_CONTEXT has no toolCalls");
    const mcp = client();
    await mcp.listTools();
    for (const call of calls)
      await mcp.callTool({ name: call.name, arguments: call.arguments ?? {} });
    log(`made ${calls.length} tool calls`);
    await mcp.close();
  },

  /** The client drops the tools with invalid x-mcp-header annotations from the listing; call every tool that survives. */
  async "http-invalid-tool-headers"() {
    const mcp = client();
    const { tools } = await mcp.listTools();
    log(`tools kept: ${tools.map((t) => t.name).join(", ")}`);
    for (const tool of tools)
      await mcp.callTool({ name: tool.name, arguments: sampleArguments(tool) });
    await mcp.close();
  },

  /** List the tools; the schema's network $ref must never be fetched. */
  async "json-schema-ref-no-deref"() {
    const mcp = client();
    const { tools } = await mcp.listTools();
    log(`tools: ${tools.map((t) => t.name).join(", ")}`);
    await mcp.close();
  },

  /** Unscored: hand json_schema_2020_12_tool's inputSchema, as received, back through json_schema_echo. */
  async "json-schema-2020-12-preservation"() {
    const mcp = client();
    const { tools } = await mcp.listTools();
    const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
    if (!focal)
      throw new Error(
        `json_schema_2020_12_tool not listed: ${tools.map((t) => t.name).join(", ")}`,
      );
    await mcp.callTool({ name: "json_schema_echo", arguments: { schema: focal.inputSchema } });
    await mcp.close();
  },
};

/** The Client ID Metadata Document URL the auth scenarios expect where the server supports one. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** Nothing listens here: the mocks redirect to it and the headless browser step reads the redirect. */
const REDIRECT_URI = "http://127.0.0.1:33418/callback";

/**
 * The browser step without a browser: the mocks' authorization endpoint approves at once and
 * redirects, so the redirect's Location is the URL a browser would have landed on.
 */
async function headlessBrowser(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (response.status < 300 || response.status >= 400 || !location)
    throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return new URL(location, authorizationUrl).href;
}

/**
 * auth/*: an OAuth client on the HTTP transport (pre-registered credentials when the context gives
 * them); list the tools, then call each one (a call may need more scope than the listing: step-up).
 */
async function authorized(): Promise<void> {
  const clients: OAuthClientCredentials[] =
    typeof context.client_id === "string" && typeof context.issuer === "string"
      ? [
          {
            issuer: context.issuer,
            clientId: context.client_id,
            ...(typeof context.client_secret === "string"
              ? { clientSecret: context.client_secret }
              : {}),
          },
        ]
      : [];
  const authorization = oauthClient({
    redirectUri: REDIRECT_URI,
    authorize: headlessBrowser,
    clientMetadataUrl: CLIENT_METADATA_URL,
    clients,
    log,
  });
  const mcp = createClient({ transport: httpTransport(url!, { authorization }), info: INFO, log });
  try {
    const { tools } = await mcp.listTools();
    log(`tools: ${tools.map((t) => t.name).join(", ")}`);
    for (const tool of tools)
      log(
        `${tool.name}: ${text(await mcp.callTool({ name: tool.name, arguments: sampleArguments(tool) }))}`,
      );
  } finally {
    await mcp.close();
  }
}

/** Anything else (auth/* and scenarios of later suites): discover and list tools; failures are reported, not fatal. */
async function generic(): Promise<void> {
  const mcp = client();
  try {
    const discovered = await mcp.discover();
    log(`discover: versions ${discovered.supportedVersions.join(", ")}`);
    const { tools } = await mcp.listTools();
    log(`tools: ${tools.map((t) => t.name).join(", ")}`);
  } catch (error) {
    log(
      `scenario ${scenario || "(none)"}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    );
  } finally {
    await mcp.close();
  }
}

if (!url || !/^https?:\/\//.test(url)) {
  log("usage: conformance-client <server-url> (MCP_CONFORMANCE_SCENARIO names the scenario)");
  process.exit(2);
}

try {
  await (
    Object.hasOwn(SCENARIOS, scenario)
      ? SCENARIOS[scenario]!
      : scenario.startsWith("auth/")
        ? authorized
        : generic
  )();
  process.exit(0);
} catch (error) {
  log(
    `scenario ${scenario} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
}
