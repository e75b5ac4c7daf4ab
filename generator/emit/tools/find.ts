import { GeneratorError } from "../../errors.js";
import type { Definition, ProtocolModel } from "../../ir/model.js";
import { ModelIndex } from "../../ir/query.js";

/** The suffixes naming a tool's arguments and result types in a tools file. */
export const TOOL_TYPE_SUFFIXES = { arguments: "Arguments", result: "Result" } as const;

/** One tool of a tools file: its name, its listing fields from the JSDoc, and its two types. */
export interface ToolSource {
  name: string;
  title: string | null;
  description: string | null;
  arguments: Definition;
  result: Definition | null;
}

/**
 * The tools a tools file declares: every exported `XArguments` type is a tool's arguments, and an
 * `XResult` beside it its structured result. The tool is named by an `@tool` tag on the arguments
 * type, else `X` in snake_case; its description is that type's JSDoc, its title a `@title` tag.
 * The arguments must be an object (a tool's `inputSchema` is one).
 */
export function findTools(model: ProtocolModel, file: string): ToolSource[] {
  const index = new ModelIndex(model);
  const { arguments: argumentsSuffix, result: resultSuffix } = TOOL_TYPE_SUFFIXES;
  const tools: ToolSource[] = [];
  const names = new Map<string, Definition>();
  for (const definition of model.definitions) {
    if (!definition.name.endsWith(argumentsSuffix) || definition.name === argumentsSuffix) continue;
    const stem = definition.name.slice(0, -argumentsSuffix.length);
    const tag = (name: string) => definition.doc.tags.find((t) => t.name === name)?.text ?? null;
    const name = tag("tool") || snakeCase(stem);
    const clash = names.get(name);
    if (clash)
      throw new GeneratorError(
        `tool "${name}" is declared twice (also by ${clash.name}, line ${clash.line})`,
        file,
        definition.line,
      );
    names.set(name, definition);
    if (!index.objectOf(definition.type) && definition.type.kind !== "intersection")
      throw new GeneratorError(
        `${definition.name}: a tool's arguments must be an object type`,
        file,
        definition.line,
      );
    tools.push({
      name,
      title: tag("title"),
      description: definition.doc.text || null,
      arguments: definition,
      result: index.get(`${stem}${resultSuffix}`) ?? null,
    });
  }
  if (tools.length === 0)
    throw new GeneratorError(
      `no tools: declare each tool's arguments as an exported type named <Tool>${argumentsSuffix}`,
      file,
      1,
    );
  return tools;
}

/** `GetWeather` → `get_weather`, `fetchURL` → `fetch_url`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}
