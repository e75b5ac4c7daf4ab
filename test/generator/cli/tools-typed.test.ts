/**
 * `mcp-gen tools` from both sides, as a user writes them: a `defineTool` handler returning
 * `content: [{ type: "text", text }]` fits a revision's `ServerDefinitions.tool` without `as const`,
 * and `toolsClient` calls each tool by name over the generated client, its arguments and structured
 * result typed (compile time) and checked by the tools' compiled checks (run time). A one-line JSDoc
 * `@title` is a title, not part of the description.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { generatedDir } from "../../helpers/spec.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../../helpers/tsc.js";
import { DUAL_REVISION } from "../../global-setup.js";

/** Two tools: one with a structured result, one without; the first with a one-line `@title`. */
const TOOLS = `/** Adds two numbers. @title Add */
export interface AddArguments {
  a: number;
  b: number;
}

export interface AddResult {
  sum: number;
}

/** Says something back. */
export interface EchoArguments {
  text: string;
}
`;

interface ToolsModule {
  TOOLS: Record<string, { title?: string; description?: string }>;
  ToolCheckError: new (...args: never[]) => Error;
  toolsClient: (client: {
    callTool(params: {
      name: string;
      arguments?: Record<string, unknown>;
    }): Promise<Record<string, unknown>>;
  }) => Record<string, (args: unknown) => Promise<Record<string, unknown>>>;
}

let work: string;
let tools: ToolsModule;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-tools-typed-"));
  writeFileSync(join(work, "tools.ts"), TOOLS);
  const run = await runCli(["tools", "tools.ts", "--out", "out"], {
    cwd: work,
    env: { MCP_GEN_CACHE_DIR: join(work, "cache") },
  });
  expect(run.code, run.stderr).toBe(0);
  tools = (await import(join(work, "out", "index.ts"))) as ToolsModule;
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("mcp-gen tools, typed on both sides", () => {
  it("reads a one-line JSDoc's @title as the title, the text before it as the description", () => {
    expect(tools.TOOLS.add).toMatchObject({ title: "Add", description: "Adds two numbers." });
    expect(tools.TOOLS.echo!.title).toBeUndefined();
  });

  it("toolsClient sends each tool's call by its name and returns the checked result", async () => {
    const sent: unknown[] = [];
    const client = tools.toolsClient({
      callTool: (params) => {
        sent.push(params);
        return Promise.resolve({ content: [], structuredContent: { sum: 5 } });
      },
    });
    expect(await client.add!({ a: 2, b: 3 })).toEqual({
      content: [],
      structuredContent: { sum: 5 },
    });
    expect(sent).toEqual([{ name: "add", arguments: { a: 2, b: 3 } }]);
  });

  it("refuses arguments the tool's schema rejects before sending anything", async () => {
    const sent: unknown[] = [];
    const client = tools.toolsClient({
      callTool: (params) => {
        sent.push(params);
        return Promise.resolve({ content: [] });
      },
    });
    await expect(client.add!({ a: 2, b: "3" })).rejects.toThrow(
      expect.objectContaining({
        name: "ToolCheckError",
        message: expect.stringMatching(/^tool "add": arguments at .*b/) as string,
      }) as Error,
    );
    expect(sent).toEqual([]);
  });

  it("refuses a structured result that breaks the tool's output schema; passes a tool error through", async () => {
    const answers: Record<string, unknown>[] = [
      { content: [], structuredContent: { sum: "five" } },
      { content: [] },
      { content: [{ type: "text", text: "overflow" }], isError: true },
      { content: [{ type: "text", text: "hi" }] },
    ];
    const client = tools.toolsClient({ callTool: () => Promise.resolve(answers.shift()!) });
    await expect(client.add!({ a: 1, b: 1 })).rejects.toBeInstanceOf(tools.ToolCheckError);
    await expect(client.add!({ a: 1, b: 1 })).rejects.toThrow(/^tool "add": structuredContent/);
    expect(await client.add!({ a: 1, b: 1 })).toMatchObject({ isError: true });
    // No result type: nothing to check.
    expect(await client.echo!({ text: "hi" })).toEqual({ content: [{ type: "text", text: "hi" }] });
  });

  it("type-checks under strict TypeScript against a revision's server and client", () => {
    const revision = generatedDir(DUAL_REVISION);
    writeFileSync(
      join(work, "out", "use.ts"),
      `import { ServerDefinitions, createClient, httpTransport } from ${JSON.stringify(join(revision, "index.js"))};
import { defineTool, toolsClient } from "./index.js";

const definitions = new ServerDefinitions();
definitions.tool(
  defineTool("add", ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
    structuredContent: { sum: a + b },
  })),
);
definitions.tool(defineTool("echo", ({ text }) => ({ content: [{ type: "text", text }] })));
definitions.tool(defineTool("add", () => ({ content: [{ type: "text", text: "no" }], isError: true })));
definitions.tool(
  // @ts-expect-error: no such content block
  defineTool("add", () => ({ content: [{ type: "txt", text: "x" }], structuredContent: { sum: 1 } })),
);

export async function use(): Promise<number> {
  const client = createClient({ info: { name: "t", version: "1" }, transport: httpTransport("http://127.0.0.1:1/mcp") });
  const tools = toolsClient(client);
  const result = await tools.add({ a: 1, b: 2 });
  // @ts-expect-error: b is a number
  await tools.add({ a: 1, b: "2" });
  // @ts-expect-error: no such tool
  await tools.subtract({ a: 1, b: 2 });
  await tools.echo({ text: "hi" }, { timeoutMs: 1000 });
  if (result.isError) return -1;
  const sum: number = result.structuredContent.sum;
  // @ts-expect-error: the structured result has no such field
  void result.structuredContent.product;
  return sum;
}
`,
    );
    const result = tsc(join(work, "out"), {
      compilerOptions: { ...STRICT_OPTIONS, ...NODE_TYPES, noEmit: true },
      files: ["use.ts"],
    });
    expect(result.output).toBe("");
    expect(result.status).toBe(0);
  }, 300_000);
});
