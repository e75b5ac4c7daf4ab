/**
 * The client's check of tool results: `structuredContent` against the `outputSchema` the server
 * gave the tool in its last listing (servers must conform to it; clients should check before
 * handing results on). Schemas are compiled once by the JSON Schema engine the client was given.
 * Revision-independent; copied verbatim into generated output.
 */
import { describeFailure, SchemaCache, type JsonSchemaEngine } from "../schema/json-schema.js";
import { isRecord } from "../shared/jsonrpc.js";

/** The fields involved, as the generator read them from the schema. */
export interface ToolOutputFields {
  list: string;
  call: string;
  items: string;
  name: string;
  outputSchema: string;
  structuredContent: string;
  isError: string;
  /** The list request's cursor param: a listing without one starts afresh. */
  cursor: string | null;
}

/** Tools remembered from listings at most: a hostile server may list any number. */
const MAX_TOOLS = 10_000;

export class ToolOutputChecks {
  private readonly schemas: SchemaCache;
  private readonly outputSchemas = new Map<string, Record<string, unknown>>();

  constructor(
    private readonly fields: ToolOutputFields,
    engine: JsonSchemaEngine,
  ) {
    this.schemas = new SchemaCache(engine);
  }

  /**
   * Learns output schemas from a listing; checks a call's result. Returns the failure (a JSON
   * pointer into the result and what is wrong) or `null`.
   */
  observe(
    method: string,
    params: Record<string, unknown>,
    result: Record<string, unknown>,
  ): { pointer: string; message: string } | null {
    const f = this.fields;
    if (method === f.list) this.learn(params, result);
    else if (method === f.call) return this.check(params, result);
    return null;
  }

  private learn(params: Record<string, unknown>, result: Record<string, unknown>): void {
    const f = this.fields;
    if (f.cursor === null || params[f.cursor] === undefined) this.outputSchemas.clear();
    const tools = result[f.items];
    if (!Array.isArray(tools)) return;
    for (const tool of tools) {
      if (!isRecord(tool) || typeof tool[f.name] !== "string") continue;
      const name = tool[f.name] as string;
      const schema = tool[f.outputSchema];
      if (!isRecord(schema)) this.outputSchemas.delete(name);
      else if (this.outputSchemas.size < MAX_TOOLS || this.outputSchemas.has(name))
        this.outputSchemas.set(name, schema);
    }
  }

  private check(
    params: Record<string, unknown>,
    result: Record<string, unknown>,
  ): { pointer: string; message: string } | null {
    const f = this.fields;
    const name = params[f.name];
    const schema = typeof name === "string" ? this.outputSchemas.get(name) : undefined;
    if (!schema || result[f.isError] === true) return null;
    const pointer = `/${f.structuredContent}`;
    const structured = result[f.structuredContent];
    if (structured === undefined)
      return { pointer, message: `is missing, but the tool declares an ${f.outputSchema}` };
    const checked = this.schemas.check(schema)(structured);
    if (checked.ok) return null;
    const failure = describeFailure(checked);
    return { pointer: `${pointer}${failure.pointer}`, message: failure.message };
  }
}
