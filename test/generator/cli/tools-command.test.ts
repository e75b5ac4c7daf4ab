/**
 * `mcp-gen tools FILE`: the example tools file becomes listing entries with JSON Schema 2020-12
 * (descriptions, constraint tags, `$defs`), compiled validators and `defineTool`, which compile
 * under strict TypeScript; bad input is one line naming file and line, and leaves the output alone.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { snakeCase } from "../../../generator/emit/tools/find.js";
import { ROOT } from "../../helpers/spec.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../../helpers/tsc.js";

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-tools-"));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: string[]) =>
  runCli(args, { env: { MCP_GEN_CACHE_DIR: join(work, "cache") }, cwd: work });

/** The TOOLS object of a generated tools.ts, read back as data. */
async function toolsOf(out: string): Promise<Record<string, Record<string, unknown>>> {
  const module = (await import(join(out, "tools.ts"))) as {
    TOOLS: Record<string, Record<string, unknown>>;
  };
  return module.TOOLS;
}

describe("mcp-gen tools", () => {
  it("emits each tool's listing entry with JSON Schema 2020-12 from the types and their JSDoc", async () => {
    const out = join(work, "out");
    const run = await cli(["tools", join(ROOT, "examples", "tools.ts"), "--out", out]);
    expect(run.stderr).toMatch(/wrote \d+ files/);
    expect(run.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      ".mcp-gen.json",
      "README.md",
      "client.ts",
      "index.ts",
      "runtime",
      "tools.ts",
      "types.ts",
      "validators.ts",
    ]);
    const tools = await toolsOf(out);
    expect(Object.keys(tools)).toEqual(["get_weather", "sum", "search-flights"]);
    const weather = tools.get_weather!;
    expect(weather.title).toBe("Weather");
    expect(weather.description).toBe("Reports the weather at a place, today or a few days ahead.");
    expect(weather.inputSchema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        at: { description: "Where.", $ref: "#/$defs/Coordinates" },
        units: {
          description: "The unit of the temperature; celsius when left out.",
          enum: ["celsius", "fahrenheit"],
        },
        days: {
          description: "How many days ahead, today being 0.",
          type: "integer",
          minimum: 0,
          maximum: 7,
        },
      },
      required: ["at"],
      $defs: {
        Coordinates: {
          description: "A place on Earth.",
          type: "object",
          properties: {
            latitude: {
              description: "Degrees north of the equator.",
              type: "number",
              minimum: -90,
              maximum: 90,
            },
            longitude: {
              description: "Degrees east of Greenwich.",
              type: "number",
              minimum: -180,
              maximum: 180,
            },
          },
          required: ["latitude", "longitude"],
        },
      },
    });
    expect(
      (weather.outputSchema as { properties: Record<string, unknown> }).properties.source,
    ).toEqual({
      description: "Where the forecast comes from.",
      type: "string",
      format: "uri",
    });
    expect(
      (tools.sum!.inputSchema as { properties: Record<string, unknown> }).properties.values,
    ).toEqual({
      description: "The numbers.",
      type: "array",
      items: { type: "number" },
      minItems: 1,
      maxItems: 100,
    });
    expect(
      Object.keys((tools["search-flights"]!.inputSchema as { properties: object }).properties),
    ).toHaveLength(10);
  });

  it("is byte-identical from run to run, and the output compiles under strict TypeScript", async () => {
    const a = join(work, "a");
    const files = [
      "tools.ts",
      "types.ts",
      "validators.ts",
      "index.ts",
      "runtime/schema/formats.ts",
    ];
    expect((await cli(["tools", join(ROOT, "examples", "tools.ts"), "--out", a])).code).toBe(0);
    const first = files.map((file) => readFileSync(join(a, file), "utf8"));
    expect((await cli(["tools", join(ROOT, "examples", "tools.ts"), "--out", a])).code).toBe(0);
    expect(files.map((file) => readFileSync(join(a, file), "utf8"))).toEqual(first);
    // A handler typed by defineTool: a wrong argument type or a wrong structured result must not compile.
    writeFileSync(
      join(a, "use.ts"),
      `import { defineTool } from "./index.js";
const ok = defineTool("sum", ({ values }) => ({ content: [], structuredContent: { total: values.length, count: 1 } }));
void ok;
// @ts-expect-error: values are numbers
defineTool("sum", ({ values }) => ({ content: [], structuredContent: { total: values[0]!.length, count: 1 } }));
// @ts-expect-error: the structured result lacks count
defineTool("sum", () => ({ content: [], structuredContent: { total: 1 } }));
// @ts-expect-error: no such tool
defineTool("nope", () => ({}));
`,
    );
    const result = tsc(a, {
      compilerOptions: { ...STRICT_OPTIONS, ...NODE_TYPES, noEmit: true },
      include: ["**/*.ts"],
    });
    expect(result.output).toBe("");
    expect(result.status).toBe(0);
  }, 300_000);

  it.each([
    [
      "an unsupported construct",
      "export interface FooArguments {\n  a: Map<string, number>;\n}\n",
      /tools\.ts:2: .*unsupported/,
    ],
    ["no tools at all", "export interface Foo {\n  a: string;\n}\n", /no tools/],
    [
      "an unsupported format",
      "export interface FooArguments {\n  /** @format email */\n  a: string;\n}\n",
      /tools\.ts:\d+: .*format/,
    ],
    [
      "arguments that are not an object",
      "export type FooArguments = string;\n",
      /tools\.ts:1: .*must be an object/,
    ],
  ])(
    "%s: one line naming file and line, exit 1, the output untouched",
    async (_case, source, message) => {
      writeFileSync(join(work, "tools.ts"), source);
      const out = join(work, "out");
      const first = await cli(["tools", join(ROOT, "examples", "tools.ts"), "--out", out]);
      expect(first.code).toBe(0);
      const before = readFileSync(join(out, "tools.ts"), "utf8");
      const run = await cli(["tools", "tools.ts", "--out", out]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(message);
      expect(readFileSync(join(out, "tools.ts"), "utf8")).toBe(before);
    },
  );

  it("names tools in snake_case unless an @tool tag names them", () => {
    expect(snakeCase("GetWeather")).toBe("get_weather");
    expect(snakeCase("fetchURL")).toBe("fetch_url");
    expect(snakeCase("HTMLToText")).toBe("html_to_text");
  });
});
