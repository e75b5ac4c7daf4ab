import { existsSync } from "node:fs";
import { basename, resolve } from "node:path";
import { GeneratorError } from "../errors.js";
import { enableCompileCache } from "./compile-cache.js";
import { cacheDirFor, displayPath, UsageError, type CliIO } from "./context.js";
import { generatorVersion } from "./version.js";

/**
 * `mcp-gen tools FILE`: reads a file of tool argument and result types through the schema loader
 * and writes, into `--out` (default `generated/tools/`), each tool's listing entry with its
 * JSON Schemas, compiled validators and `defineTool` (see `generator/emit/tools/`). Bad input ends
 * as for generation: one line naming file and line, the output folder untouched.
 */
export async function toolsCommand(
  args: { file: string; out?: string | undefined },
  io: CliIO,
): Promise<void> {
  if (!args.file) throw new UsageError("missing the tools file (mcp-gen tools FILE)");
  const file = resolve(io.cwd, args.file);
  if (!existsSync(file)) throw new GeneratorError("no such file", displayPath(io, file));
  const compileCache = enableCompileCache(cacheDirFor(io));
  const [{ loadModel }, { renderTools }, { writeOutput }] = await Promise.all([
    import("../load/index.js"),
    import("../emit/tools/render.js"),
    import("../emit/write.js"),
  ]);
  // A tools file says `number` for real numbers; integers are tagged `@TJS-type integer`.
  const model = loadModel(file, { revision: basename(file, ".ts"), integersByDefault: false });
  const source = displayPath(io, file);
  const outDir = resolve(io.cwd, args.out ?? "generated/tools");
  const regenerate = `mcp-gen tools ${source}${args.out === undefined ? "" : ` --out ${displayPath(io, outDir)}`}`;
  const files = await renderTools(model, {
    file: source,
    source,
    generatorVersion: generatorVersion(),
    regenerate,
  });
  writeOutput(outDir, files, {
    generator: `mcp-gen ${generatorVersion()}`,
    revision: model.revision,
    schemaSha256: model.source.sha256,
    regenerate,
  });
  compileCache.save();
  io.stderr(
    `mcp-gen: tools from ${source}: wrote ${files.length} files to ${displayPath(io, outDir)}\n`,
  );
}
