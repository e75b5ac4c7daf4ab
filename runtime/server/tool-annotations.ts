/**
 * Which arguments of each tool a call mirrors into `Mcp-Param-*` headers (the `x-mcp-header`
 * annotations of its input schema), for the envelope stage (envelope.ts) to check a call's headers
 * against. A server whose tools are `Definitions` answers from its definitions (the tool listing
 * handler it makes carries `TOOL_ANNOTATIONS`); any other server's dispatcher learns them from the
 * tool listings it sends, and lists its tools once itself when a call comes first (a process behind
 * a load balancer may get a call before it has answered any listing). Every method and field name
 * comes from the protocol description. Revision-independent; copied verbatim into generated output.
 */
import { isRecord, type JsonRpcRequest } from "../shared/jsonrpc.js";
import { headerAnnotations, type HeaderAnnotation } from "../shared/param-headers.js";
import type { ProtocolDescription, ToolsDescription } from "../shared/protocol.js";
import type { Delivery, Outcome } from "./transport.js";

/** The annotations of one tool by name; `undefined` for a tool without any (or unknown). */
export type AnnotationsOf = (tool: string) => readonly HeaderAnnotation[] | undefined;

/**
 * Where a tool listing handler that knows its tools' schemas (the definitions layer's) keeps how to
 * answer `AnnotationsOf`: a symbol, so that it travels with the handler through the handler map the
 * generated server builds, and is lost with it when the application replaces the handler. From the
 * global registry, so that definitions made with one copy of the runtime are understood by a
 * dispatcher of another (two generated outputs in one program).
 */
export const TOOL_ANNOTATIONS: unique symbol = Symbol.for("mcp-gen tool annotations");

/** A handler that may carry `TOOL_ANNOTATIONS`. */
export type Annotated = { [TOOL_ANNOTATIONS]?: AnnotationsOf };

/** The annotations a tool's input schema declares; none when it declares none or they are invalid. */
export function annotationsOfSchema(schema: unknown): readonly HeaderAnnotation[] | undefined {
  const found = headerAnnotations(schema);
  return found.ok && found.annotations.length > 0 ? found.annotations : undefined;
}

/** Most tools whose header annotations a server remembers; past it the oldest are forgotten. */
const MAX_KNOWN_TOOLS = 10_000;

/** Pages of its own tool listing a process reads to learn the tools' header annotations. */
const MAX_LISTING_PAGES = 100;

/** Answers one request through the dispatcher (how a process lists its own tools). */
export type Handle = (request: JsonRpcRequest, delivery: Delivery) => Promise<Outcome>;

/**
 * The annotations of a server whose tool listing handler is not the definitions layer's: learned
 * from the listings the server sends, bounded (`MAX_KNOWN_TOOLS`), and from one listing of its own
 * when a call to a tool it has not listed comes first.
 */
export class LearnedAnnotations {
  private readonly known = new Map<string, readonly HeaderAnnotation[]>();
  /** The process's own tool listing, once a call to a tool it had not listed started it. */
  private listed: Promise<void> | null = null;
  /** That listing has finished (calls no longer wait for it). */
  private done = false;

  constructor(
    private readonly protocol: Pick<ProtocolDescription, "cursor" | "envelope">,
    private readonly tools: ToolsDescription,
    private readonly handle: Handle,
    private readonly log: (message: string) => void,
  ) {}

  readonly of: AnnotationsOf = (tool) => this.known.get(tool);

  /**
   * What a call to a tool this process has not learned waits for: the process's one listing of its
   * own (shared by every call that comes meanwhile); `null` for any other request, or once done.
   */
  pending(request: JsonRpcRequest): Promise<void> | null {
    if (this.done || request.method !== this.tools.call) return null;
    const name = request.params?.[this.tools.name];
    if (typeof name !== "string" || this.known.has(name)) return null;
    return (this.listed ??= this.listOwn(request).finally(() => (this.done = true)));
  }

  /** Remembers the annotations of the tools a listing result names (the newest win). */
  learn(result: Record<string, unknown>): void {
    const { tools, known } = this;
    const items = result[tools.items];
    if (!Array.isArray(items)) return;
    for (const item of items) {
      if (!isRecord(item)) continue;
      const name = item[tools.name];
      if (typeof name !== "string") continue;
      const annotations = annotationsOfSchema(item[tools.schema]);
      known.delete(name);
      if (annotations !== undefined) known.set(name, annotations);
      if (known.size > MAX_KNOWN_TOOLS) known.delete(known.keys().next().value!);
    }
  }

  /**
   * Lists the server's tools through the dispatcher, as the client of `request` would (its
   * metadata), and learns their annotations. Never fails: without a listing, calls are checked
   * without their tool's annotations.
   */
  private async listOwn(request: JsonRpcRequest): Promise<void> {
    const { cursor, envelope } = this.protocol;
    const meta = request.params?.[envelope.meta];
    let next: string | undefined;
    try {
      for (let page = 0; page < MAX_LISTING_PAGES; page++) {
        const params: Record<string, unknown> = {};
        if (meta !== undefined) params[envelope.meta] = meta;
        if (next !== undefined && cursor) params[cursor.param] = next;
        const listing: JsonRpcRequest = {
          jsonrpc: "2.0",
          id: `mcp-gen-listing-${page}`,
          method: this.tools.list,
          params,
        };
        const { response } = await this.handle(listing, new ListingDelivery());
        if (response === null || !("result" in response)) return;
        this.learn(response.result);
        const following = cursor ? response.result[cursor.result] : undefined;
        if (typeof following !== "string") return;
        next = following;
      }
    } catch (error) {
      this.log(
        `mcp-gen server: listing the tools to check Mcp-Param headers failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/** The delivery of the process's own tool listing: nothing to notify, never cancelled, no envelope. */
class ListingDelivery implements Delivery {
  private controller: AbortController | null = null;

  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  notify(): void {}
}
