import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { Project, ts, type Node, type SourceFile } from "./ts-morph.js";
import { GeneratorError } from "../errors.js";
import { checkNesting, checkSize } from "./budget.js";

/** The in-memory TypeScript project schemas are parsed in (syntax only: no lib, no checker). */
export type SchemaProject = InstanceType<typeof Project>;

export function schemaProject(): SchemaProject {
  return new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { noLib: true, target: ts.ScriptTarget.ES2022 },
  });
}

export interface OpenedSchema {
  file: string;
  sha256: string;
  sourceFile: SourceFile;
}

/**
 * Reads `schema.ts` and parses it, syntax only: the loader walks declarations and never needs the
 * type checker, which keeps a whole revision's load well under a second.
 *
 * A run that loads several schemas (the default command reads the initialize-era revisions it
 * serves beside the one it generates) opens them all in one `SchemaProject`: one compiler host
 * and one program instead of one per schema. Files are only ever added to it, never removed:
 * removing one makes ts-morph forget every node it wrapped, one by one (a tenth of a second per
 * revision). Without a project, a schema gets one of its own, dropped with it.
 */
export function openSchema(file: string, project: SchemaProject = schemaProject()): OpenedSchema {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT"
        ? "no such file"
        : String((error as Error).message);
    throw new GeneratorError(`cannot read schema: ${reason}`, file);
  }
  // The budgets the parser needs (its recursion), before it runs.
  checkSize(bytes.length, file);
  const text = bytes.toString("utf8");
  checkNesting(text, file);
  // Each schema under a name of its own: a project may hold several, and the same one twice.
  const sourceFile = project.createSourceFile(
    `/${project.getSourceFiles().length}/schema.ts`,
    text,
  );
  const diagnostics = project
    .getProgram()
    .compilerObject.getSyntacticDiagnostics(sourceFile.compilerNode);
  const first = diagnostics[0];
  if (first) {
    const line =
      first.start === undefined ? undefined : sourceFile.getLineAndColumnAtPos(first.start).line;
    throw new GeneratorError(
      `syntax error: ${ts.flattenDiagnosticMessageText(first.messageText, " ")}`,
      file,
      line,
    );
  }
  return { file, sha256: createHash("sha256").update(bytes).digest("hex"), sourceFile };
}

/**
 * The 1-based line a node starts on (after its JSDoc). ts-morph's `getStartLineNumber` counts line
 * breaks from the top of the file on every call; the compiler's line map is built once per file.
 */
export function lineOf(node: Node): number {
  return node.getSourceFile().compilerNode.getLineAndCharacterOfPosition(node.getStart()).line + 1;
}
