/**
 * The tools example (`examples/tools-server.ts`: the definitions layer, tools typed by
 * `mcp-gen tools examples/tools.ts`) driven by the official SDK v2 client over Streamable HTTP:
 * listings, typed tool calls whose structured results the SDK checks against the emitted output
 * schemas, a wrong argument answered as a tool-execution error, a resource template, completions
 * and a prompt.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { toolsServer } from "../../examples/tools-server.js";

const REVISION = "2026-07-28";

describe("the tools example, through the SDK v2 client", () => {
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const listening = await toolsServer().listen({ port: 0 });
    client = new Client(
      { name: "tools-example-test", version: "0.0.1" },
      { versionNegotiation: { mode: { pin: REVISION } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
    close = async () => {
      await client.close();
      await listening.close();
    };
  });
  afterAll(() => close?.());

  it("lists the tools with the schemas mcp-gen tools emitted", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_weather", "sum", "search-flights"]);
    const weather = tools.find((t) => t.name === "get_weather")!;
    expect(weather.title).toBe("Weather");
    expect(weather.inputSchema.required).toEqual(["at"]);
    expect(weather.outputSchema?.required).toEqual(["temperature", "conditions", "source"]);
  });

  it("calls a tool: typed arguments in, a structured result the SDK checks against its output schema", async () => {
    await client.listTools(); // the SDK checks structured results against the schemas of its last listing
    const result = await client.callTool({
      name: "get_weather",
      arguments: { at: { latitude: 50, longitude: 4 }, units: "fahrenheit", days: 5 },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      temperature: (15 + 5 - 5) * 1.8 + 32,
      conditions: "rain",
      source: "https://weather.example/forecast",
    });
    const sum = await client.callTool({ name: "sum", arguments: { values: [1, 2, 3.5] } });
    expect(sum.structuredContent).toEqual({ total: 6.5, count: 3 });
  });

  it("answers a wrong argument with a tool-execution error naming the pointer, before the handler", async () => {
    const result = await client.callTool({
      name: "get_weather",
      arguments: { at: { latitude: 91, longitude: 4 } },
    });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: "text",
        text: expect.stringMatching(/^Invalid arguments: \/at\/latitude must be .*<= 90/),
      },
    ]);
    const days = await client.callTool({
      name: "get_weather",
      arguments: { at: { latitude: 1, longitude: 4 }, days: 1.5 },
    });
    expect(days.isError).toBe(true);
    expect((days.content[0] as { text: string }).text).toMatch(
      /^Invalid arguments: \/days must be integer/,
    );
  });

  it("reads a resource through its URI template and completes the template's variable", async () => {
    const read = await client.readResource({ uri: "weather://cities/athens?days=2" });
    expect(read.contents[0]).toMatchObject({ text: "Forecast for athens, 2 days ahead" });
    const completion = await client.complete({
      ref: { type: "ref/resource", uri: "weather://cities/{city}{?days}" },
      argument: { name: "city", value: "a" },
    });
    expect(completion.completion.values).toEqual(["amsterdam", "athens", "auckland"]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.name)).toEqual([
      "city-forecast",
    ]);
  });

  it("gets a prompt with its arguments", async () => {
    const prompt = await client.getPrompt({
      name: "plan-trip",
      arguments: { city: "berlin", season: "spring" },
    });
    expect(prompt.messages[0]!.content).toEqual({
      type: "text",
      text: "Plan a trip to berlin in spring.",
    });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["plan-trip"]);
  });
});
