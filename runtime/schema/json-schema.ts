/**
 * The JSON Schema engine the definitions layer and the client call to check tool arguments and
 * structured results. The runtime ships none: an engine is an adapter over a library (Ajv,
 * `@cfworker/json-schema`), emitted only when asked for at generation, or any object of this
 * shape. Revision-independent; copied verbatim into generated output.
 */

/** A check's answer: `errors[0].path` is the JSON pointer of the first failure inside the value. */
export interface SchemaCheckResult {
  ok: boolean;
  errors?: ReadonlyArray<{ path: string; message: string }>;
}

export type SchemaCheck = (value: unknown) => SchemaCheckResult;

export interface JsonSchemaEngine {
  /**
   * Compiles a schema into a check. Throws when the schema cannot be used: invalid for its dialect,
   * a dialect the engine lacks, or a `$ref` it cannot resolve inside the schema. Engines must never
   * fetch a `$ref`: a reference outside the schema is a failure, not a download.
   */
  compile(schema: Record<string, unknown>): SchemaCheck;
}

/** A schema the engine refused: every value is rejected with the reason (never treated as permissive). */
function refused(reason: string): SchemaCheck {
  const answer: SchemaCheckResult = {
    ok: false,
    errors: [{ path: "", message: `cannot be checked: the schema is unusable (${reason})` }],
  };
  return () => answer;
}

/**
 * Compiles each schema once. Keyed by the schema object (tool definitions hand the same object on
 * every call) and, for schemas that arrive anew with every listing (a client's), by their JSON text.
 */
export class SchemaCache {
  private readonly byObject = new WeakMap<object, SchemaCheck>();
  private readonly byText = new Map<string, SchemaCheck>();

  constructor(
    private readonly engine: JsonSchemaEngine,
    /** Distinct schema texts kept; the oldest is dropped beyond it (a hostile peer may send many). */
    private readonly maxTexts = 1000,
  ) {}

  /** The schema's check; a schema the engine refuses gets a check that fails every value. */
  check(schema: Record<string, unknown>): SchemaCheck {
    const known = this.byObject.get(schema);
    if (known) return known;
    const text = JSON.stringify(schema);
    let check = this.byText.get(text);
    if (!check) {
      check = this.compile(schema);
      if (this.byText.size >= this.maxTexts) this.byText.delete(this.byText.keys().next().value!);
      this.byText.set(text, check);
    }
    this.byObject.set(schema, check);
    return check;
  }

  private compile(schema: Record<string, unknown>): SchemaCheck {
    try {
      const compiled = this.engine.compile(schema);
      return (value) => {
        try {
          return compiled(value);
        } catch (error) {
          // Deep values overflow recursive engines: the value's fault, reported as a failure.
          return {
            ok: false,
            errors: [{ path: "", message: `cannot be checked (${errorText(error)})` }],
          };
        }
      };
    } catch (error) {
      return refused(errorText(error));
    }
  }
}

const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** `/a/b: message` of a failed check's first error, for logs and tool-execution errors. */
export function describeFailure(result: SchemaCheckResult): { pointer: string; message: string } {
  const first = result.errors?.[0];
  return { pointer: first?.path ?? "", message: first?.message ?? "is invalid" };
}
