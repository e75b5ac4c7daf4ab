import type { ProtocolModel } from "../../ir/model.js";
import { ModelIndex } from "../../ir/query.js";
import { key } from "../code.js";
import { GENERATED_MARK, render, type GeneratedFile } from "../file.js";
import { format } from "../format.js";
import { typesTarget } from "../types/target.js";
import { validatorsTarget } from "../validators/target.js";
import { findTools } from "./find.js";
import { definitionSchema } from "./schema.js";

/**
 * `mcp-gen tools`: a tools file's types (`types.ts`), their compiled validators (`validators.ts`),
 * and `tools.ts`: each tool's listing entry with its `inputSchema`/`outputSchema`, its compiled
 * checks and `defineTool`, which types a handler's arguments. `file` names the source in errors and
 * in the header.
 */
export async function renderTools(
  model: ProtocolModel,
  options: { file: string; source: string; generatorVersion: string; regenerate: string },
): Promise<GeneratedFile[]> {
  const index = new ModelIndex(model);
  const tools = findTools(model, options.file).map((tool) => {
    const listing: Record<string, unknown> = { name: tool.name };
    if (tool.title) listing.title = tool.title;
    if (tool.description) listing.description = tool.description;
    // The tool's description is the arguments type's JSDoc: not repeated at the schema's root.
    const { description: _said, ...inputSchema } = definitionSchema(index, tool.arguments);
    listing.inputSchema = inputSchema;
    if (tool.result) listing.outputSchema = definitionSchema(index, tool.result);
    return {
      key: key(tool.name),
      arguments: tool.arguments.name,
      resultName: tool.result?.name ?? null,
      result: tool.result ? `T.${tool.result.name}` : "undefined",
      listing: JSON.stringify(listing),
    };
  });
  // A tools file is no protocol revision: no release dates, no deprecation registry.
  const ctx = { model, generatorVersion: options.generatorVersion, releases: {} };
  const files: GeneratedFile[] = [
    ...typesTarget.emit(ctx),
    ...validatorsTarget.emit(ctx),
    { path: "tools.ts", content: render("tools.ts.hbs", { tools }) },
    {
      path: "index.ts",
      content:
        'export * from "./tools.js";\nexport * as types from "./types.js";\nexport * as validators from "./validators.js";\n',
    },
  ];
  const header = [
    `${GENERATED_MARK}${options.generatorVersion} from the tools file ${options.source}.`,
    `// ${options.source} sha256: ${model.source.sha256}`,
    `// Do not edit: regenerate with \`${options.regenerate}\`.`,
  ].join("\n");
  return Promise.all(
    files.map(async ({ path, content }) => ({
      path,
      content:
        path.endsWith(".ts") && !path.startsWith("runtime/")
          ? await format(`${header}\n\n${content}`)
          : path.endsWith(".ts")
            ? `${header}\n\n${content}`
            : content,
    })),
  );
}
