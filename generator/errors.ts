/**
 * The one error type the generator raises on bad input. It always renders as a single line,
 * `file:line: message` when the place is known, so that the CLI can print it as is.
 */
export class GeneratorError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = "GeneratorError";
  }

  /** The one-line form the CLI prints. */
  override toString(): string {
    const where = this.file ? `${this.file}${this.line ? `:${this.line}` : ""}: ` : "";
    return `mcp-gen: ${where}${this.message.replace(/\s*\n\s*/g, " ")}`;
  }
}

/**
 * Runs `work` (emitting a model loaded from `schemaFile`) so that an error an emitter places in the
 * model's own file name (the IR holds `schema.ts`, not a path) names the schema's path instead, as
 * the loader's errors do.
 */
export async function inSchemaFile<T>(
  schemaFile: string,
  modelFile: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GeneratorError && error.file === modelFile)
      throw new GeneratorError(error.message, schemaFile, error.line);
    throw error;
  }
}
