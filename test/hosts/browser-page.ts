/*
 * The page of the browser test (test/interop/browser.test.ts): the generated browser entry
 * (generated/dual/browser.ts, the client over HTTP) bundled for Chromium, calling an MCP server on
 * another origin. `mcpRun(url)` connects, lists and calls tools, answering an elicitation, and
 * reports what it saw; a failure is reported as its message, as a page would show it.
 */
import { createClient, httpTransport } from "../../generated/dual/browser.js";

interface Run {
  era: string | null;
  tools: string[];
  text: string;
  elicited: string[];
}

async function mcpRun(url: string, tool: string): Promise<Run | { error: string }> {
  const elicited: string[] = [];
  const client = createClient({
    transport: httpTransport(url),
    info: { name: "browser-page", version: "1.0.0" },
    onElicit: async (params) => {
      elicited.push((params as { message: string }).message);
      return { action: "accept", content: { name: "Chromium" } };
    },
  });
  try {
    const listed = await client.listTools();
    const called = await client.callTool({ name: tool, arguments: {} });
    const first = called.content[0];
    return {
      era: client.era,
      tools: listed.tools.map((t) => t.name),
      text: first?.type === "text" ? first.text : "",
      elicited,
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.close().catch(() => undefined);
  }
}

(globalThis as { mcpRun?: typeof mcpRun }).mcpRun = mcpRun;
