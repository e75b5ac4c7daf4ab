import type { ProtocolModel } from "../../ir/model.js";
import { ModelIndex } from "../../ir/query.js";
import { code, ident, json, key } from "../code.js";
import { CodeFile } from "../code-file.js";
import { typesModule, validatorsModule } from "../modules.js";
import { CheckCode, CHECKS } from "../checks.js";
import { generatedHeader, render, type GeneratedFile } from "../file.js";
import { RUNTIME_DIR } from "../runtime.js";
import { runtimeClosure } from "../runtime-closure.js";
import { finishedText } from "../format-kept.js";
import { typesTarget } from "../types/target.js";
import { validatorsTarget } from "../validators/target.js";
import { findTools } from "./find.js";
import { definitionSchema } from "./schema.js";

/**
 * `mcp-gen tools`: a tools file's types (`types.ts`), their compiled validators (`validators.ts`),
 * and `tools.ts`: each tool's listing entry with its `inputSchema`/`outputSchema`, its compiled
 * checks and `defineTool`, which types a handler's arguments; and `client.ts`: `toolsClient`, the
 * same tools called from a client, typed and checked. `file` names the source in errors and in the
 * header.
 */
export async function renderTools(
  model: ProtocolModel,
  options: { file: string; source: string; generatorVersion: string; regenerate: string },
): Promise<GeneratedFile[]> {
  const index = new ModelIndex(model);
  const file = new CodeFile("tools.ts");
  const T = file.use(typesModule());
  const checks = new CheckCode(file, validatorsModule());
  const found = findTools(model, options.file);
  const tools = found.map((tool) => {
    const listing: Record<string, unknown> = { name: tool.name };
    if (tool.title) listing.title = tool.title;
    if (tool.description) listing.description = tool.description;
    // The tool's description is the arguments type's JSDoc: not repeated at the schema's root.
    const { description: _said, ...inputSchema } = definitionSchema(index, tool.arguments);
    listing.inputSchema = inputSchema;
    if (tool.result) listing.outputSchema = definitionSchema(index, tool.result);
    return {
      key: key(tool.name),
      arguments: code`${T}.${ident(tool.arguments.name)}`,
      result: tool.result ? code`${T}.${ident(tool.result.name)}` : code`undefined`,
      listing: json(listing),
      input: checks.of(tool.arguments.name),
      output: tool.result ? checks.of(tool.result.name) : null,
    };
  });
  const validate = file.use(CHECKS.type("Validate"));
  const content = file.render("tools.ts.hbs", { tools, validate });
  // A tools file is no protocol revision: no release dates, no deprecation registry.
  const ctx = { model, generatorVersion: options.generatorVersion, releases: {} };
  const modules: GeneratedFile[] = [
    ...typesTarget.emit(ctx),
    ...validatorsTarget.emit(ctx),
    { path: file.path, content },
    // The client side of the same tools: one typed method per tool over any revision's client.
    { path: "client.ts", content: render("tools-client.ts.hbs", {}) },
    {
      path: "index.ts",
      content:
        'export * from "./tools.js";\nexport * from "./client.js";\nexport * as types from "./types.js";\nexport * as validators from "./validators.js";\n',
    },
  ];
  const runtime = runtimeClosure(modules);
  const files: GeneratedFile[] = [
    ...modules,
    ...runtime,
    {
      path: "README.md",
      content: render("tools-README.md.hbs", {
        source: options.source,
        version: options.generatorVersion,
        sha256: model.source.sha256,
        regenerate: options.regenerate,
        tools: found.map((t) => ({
          name: t.name,
          arguments: t.arguments.name,
          result: t.result?.name,
        })),
        runtime: runtime
          .map((f) => f.path.slice(RUNTIME_DIR.length))
          .sort()
          .join(", "),
      }),
    },
  ];
  const header = generatedHeader([
    `${options.generatorVersion} from the tools file ${options.source}.`,
    `${options.source} sha256: ${model.source.sha256}`,
    `Do not edit: regenerate with \`${options.regenerate}\`.`,
  ]);
  return Promise.all(
    files.map(async ({ path, content }) => ({
      path,
      content: await finishedText(path, header, content),
    })),
  );
}
