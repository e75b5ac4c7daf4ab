import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { Project, ts, type Node, type SourceFile } from "./ts-morph.js";
import { GeneratorError } from "../errors.js";
import { checkNesting, checkSize } from "./budget.js";

export interface OpenedSchema {
  file: string;
  sha256: string;
  sourceFile: SourceFile;
}

/**
 * Reads `schema.ts` and parses it, syntax only: the loader walks declarations and never needs the
 * type checker, which keeps a whole revision's load well under a second.
 *
 * Each schema gets a project of its own, dropped with it: removing a file from a shared project
 * makes ts-morph forget every node it wrapped, one by one (a tenth of a second per revision).
 */
export function openSchema(file: string): OpenedSchema {
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
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { noLib: true, target: ts.ScriptTarget.ES2022 },
  });
  // The budgets the parser needs (its recursion), before it runs.
  checkSize(bytes.length, file);
  const text = bytes.toString("utf8");
  checkNesting(text, file);
  const sourceFile = project.createSourceFile("/schema.ts", text);
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
