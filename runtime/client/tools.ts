/**
 * What the client learns from tool listings and checks in tool results: each tool's
 * `x-mcp-header` annotations (mirrored into `Mcp-Param-*` headers by transports that say so;
 * a tool whose annotations are invalid is dropped from the listing), and each tool's output
 * schema (`structuredContent` of its results is checked against it, given a JSON Schema engine).
 * Revision-independent; copied verbatim into generated output.
 */
import type { CoreOptions } from "./options.js";
import type { ClientProtocol } from "./protocol.js";
import { ToolOutputChecks } from "./tool-output.js";
import { InvalidResultError } from "./errors.js";
import { isRecord } from "../shared/jsonrpc.js";
import { headerAnnotations, paramHeaders, type HeaderAnnotation } from "../shared/param-headers.js";

export class ToolResults {
  /** Tool name → its `x-mcp-header` annotations, learned from tool listings. */
  private readonly toolHeaders = new Map<string, HeaderAnnotation[]>();
  private readonly outputs: ToolOutputChecks | null;

  constructor(
    private readonly protocol: ClientProtocol,
    private readonly options: CoreOptions,
    private readonly log: (message: string) => void,
  ) {
    const tools = protocol.tools;
    // Without an engine nothing can be checked: said once when the check was asked for explicitly.
    if (tools?.output && options.checkToolOutput === true && !options.jsonSchema)
      log(
        "mcp client: checkToolOutput needs a jsonSchema engine: structured results are not checked",
      );
    this.outputs =
      tools?.output && options.checkToolOutput !== false && options.jsonSchema
        ? new ToolOutputChecks(
            {
              list: tools.list,
              call: tools.call,
              items: tools.items,
              name: tools.name,
              outputSchema: tools.output.schema,
              structuredContent: tools.output.structuredContent,
              isError: tools.output.isError,
              cursor: tools.output.cursor,
            },
            options.jsonSchema,
          )
        : null;
  }

  /**
   * A complete, validated result of `method` called with `params`: a listing teaches the tools'
   * annotations and output schemas; a tool result that breaks its output schema is an error.
   */
  observe(method: string, params: Record<string, unknown>, result: Record<string, unknown>): void {
    this.learnHeaders(method, result);
    const failure = this.outputs?.observe(method, params, result);
    if (failure) throw new InvalidResultError(method, failure.pointer, failure.message, result);
  }

  /** The `Mcp-Param-*` headers a tool call mirrors, over transports that mirror them. */
  headers(method: string, params: Record<string, unknown>): Record<string, string> | null {
    const { tools } = this.protocol;
    if (
      !this.options.transport.mirrorsHeaders ||
      !tools ||
      method !== tools.call ||
      typeof params[tools.name] !== "string"
    )
      return null;
    const annotations = this.toolHeaders.get(params[tools.name] as string);
    return annotations ? paramHeaders(annotations, params[tools.arguments]) : null;
  }

  /** Tool listings: remembers each tool's header annotations; over HTTP, drops tools whose annotations are invalid. */
  private learnHeaders(method: string, result: Record<string, unknown>): void {
    const tools = this.protocol.tools;
    if (!tools || method !== tools.list || !this.options.transport.mirrorsHeaders) return;
    const items = result[tools.items];
    if (!Array.isArray(items)) return;
    result[tools.items] = items.filter((tool: unknown) => {
      if (!isRecord(tool)) return true;
      const name = String(tool[tools.name]);
      let found: ReturnType<typeof headerAnnotations>;
      try {
        found = headerAnnotations(tool[tools.schema]);
      } catch (error) {
        // Whatever one tool's schema does, it costs that tool, never the list.
        found = { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
      if (!found.ok) {
        this.log(`mcp client: dropped tool "${name}": ${found.reason}`);
        this.toolHeaders.delete(name);
        return false;
      }
      this.toolHeaders.set(name, found.annotations);
      return true;
    });
  }
}
