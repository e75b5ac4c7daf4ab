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
