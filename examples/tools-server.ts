/**
 * A server written with the definitions layer: the tools of `examples/tools.ts` (their schemas,
 * compiled validators and typed handlers from `mcp-gen tools examples/tools.ts`), a resource, a
 * resource template with completions, and a prompt. No JSON Schema engine: the tools' own compiled
 * validators check arguments and structured results.
 *
 *   node dist/examples/tools-server.js [--port N]   (Streamable HTTP on 127.0.0.1; port 0: a free one)
 *   node dist/examples/tools-server.js --stdio
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createServer, ServerDefinitions, type McpServer } from "../generated/2026-07-28/index.js";
import { defineTool } from "../generated/tools/index.js";

const CITIES = ["amsterdam", "athens", "auckland", "berlin", "bogota"];

export function toolsServer(): McpServer {
  const definitions = new ServerDefinitions();

  definitions.tool(
    defineTool("get_weather", ({ at, units = "celsius", days = 0 }) => {
      const celsius = Math.round(15 + at.latitude / 10 - days);
      const temperature = units === "celsius" ? celsius : celsius * 1.8 + 32;
      const structuredContent = {
        temperature,
        conditions: days > 3 ? "rain" : "sunny",
        source: "https://weather.example/forecast",
      } as const;
      return {
        content: [{ type: "text", text: JSON.stringify(structuredContent) }],
        structuredContent,
      };
    }),
  );

  definitions.tool(
    defineTool("sum", ({ values }) => {
      const structuredContent = { total: values.reduce((a, b) => a + b, 0), count: values.length };
      return {
        content: [{ type: "text", text: String(structuredContent.total) }],
        structuredContent,
      };
    }),
  );

  definitions.tool(
    defineTool("search-flights", (args) => {
      const flights = args.airlines.map((airline, i) => ({
        number: `${airline}${100 + i}`,
        price: Math.min(args.maxPrice, 99 + i),
        stops: Math.min(i, args.maxStops),
      }));
      return {
        content: [{ type: "text", text: `${flights.length} flights` }],
        structuredContent: { flights },
      };
    }),
  );

  definitions.resource({
    uri: "weather://stations",
    name: "stations",
    mimeType: "application/json",
    read: (uri) => ({
      contents: [{ uri, mimeType: "application/json", text: JSON.stringify(CITIES) }],
    }),
  });

  definitions.resourceTemplate({
    uriTemplate: "weather://cities/{city}{?days}",
    name: "city-forecast",
    read: (uri, { city, days }) => ({
      contents: [{ uri, text: `Forecast for ${String(city)}, ${String(days ?? 0)} days ahead` }],
    }),
    complete: { city: (value) => CITIES.filter((c) => c.startsWith(value)) },
  });

  definitions.prompt({
    name: "plan-trip",
    description: "Plans a trip to a city.",
    arguments: [{ name: "city", required: true }, { name: "season" }],
    get: ({ city, season }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `Plan a trip to ${city}${season ? ` in ${season}` : ""}.`,
          },
        },
      ],
    }),
    complete: { city: (value) => CITIES.filter((c) => c.startsWith(value)) },
  });

  return createServer({
    info: { name: "mcp-gen-tools-example", version: "1.0.0" },
    capabilities: { tools: { listChanged: true }, resources: {}, prompts: {}, completions: {} },
    definitions,
  });
}

function isEntryPoint(): boolean {
  try {
    return (
      process.argv[1] !== undefined &&
      realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
    );
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  const server = toolsServer();
  const args = process.argv.slice(2);
  if (args.includes("--stdio")) server.serveStdio();
  else {
    const at = args.indexOf("--port");
    const listening = await server.listen({ port: at >= 0 ? Number(args[at + 1]) : 3000 });
    process.stderr.write(`listening on ${listening.url}\n`);
  }
}
