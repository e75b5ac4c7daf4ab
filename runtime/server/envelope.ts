/**
 * The envelope stage of the dispatcher's request pipeline: a request's envelope (over HTTP, the
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers the transport
 * received with it) against its body. The transport only hands over what it received
 * (`Delivery.headers`); the rules come from the dispatcher's own protocol description
 * (`headerRulesOf`), the tools' `x-mcp-header` annotations from tool-annotations.ts. A request
 * that came without an envelope (stdio, the dispatcher's own listing) passes. Revision-independent;
 * copied verbatim into generated output.
 */
import type { JsonRpcErrorObject, JsonRpcRequest } from "../shared/jsonrpc.js";
import { checkHeaders, headerRulesOf, type HeaderRules } from "../shared/http-headers.js";
import type { ProtocolDescription } from "../shared/protocol.js";
import { isThenable, type Delivery, type Outcome } from "./transport.js";
import {
  LearnedAnnotations,
  TOOL_ANNOTATIONS,
  type Annotated,
  type AnnotationsOf,
  type Handle,
} from "./tool-annotations.js";

export class EnvelopeStage {
  private readonly rules: HeaderRules;
  /** The tools' annotations; `null` for a revision without tools. */
  private readonly annotations: AnnotationsOf | null = null;
  /** Annotations learned from listings, when the tool listing handler does not know them itself. */
  private readonly learned: LearnedAnnotations | null = null;
  /** The tool listing method, whose results teach `learned`. */
  private readonly listing: string | null;

  constructor(
    protocol: Pick<
      ProtocolDescription,
      "methods" | "envelope" | "lifecycle" | "errors" | "tools" | "cursor"
    >,
    handlers: Readonly<Record<string, unknown>>,
    /** How the stage lists the server's tools itself (the dispatcher's `handle`). */
    handle: Handle,
    log: (message: string) => void,
  ) {
    this.rules = headerRulesOf(protocol);
    const { tools } = protocol;
    this.listing = tools?.list ?? null;
    if (tools === null) return;
    const list = Object.hasOwn(handlers, tools.list) ? handlers[tools.list] : undefined;
    const own = typeof list === "function" ? (list as Annotated)[TOOL_ANNOTATIONS] : undefined;
    if (own !== undefined) this.annotations = own;
    else {
      this.learned = new LearnedAnnotations(protocol, tools, handle, log);
      this.annotations = this.learned.of;
    }
  }

  /**
   * What a request must wait for before its envelope can be checked: a call to a tool whose
   * annotations the server has not learned yet waits for its own listing. `null`: nothing (the
   * common case, and every request without an envelope).
   */
  pending(request: JsonRpcRequest, delivery: Delivery): Promise<void> | null {
    if (this.learned === null || delivery.headers === undefined) return null;
    return this.learned.pending(request);
  }

  /** Why the request's envelope refuses it (a header missing, malformed or disagreeing), or `null`. */
  refused(
    request: JsonRpcRequest,
    params: Record<string, unknown>,
    delivery: Delivery,
  ): JsonRpcErrorObject | null {
    const headers = delivery.headers;
    if (headers === undefined) return null;
    // The request itself when it has its params: no copy on the common path.
    const body =
      request.params === params
        ? (request as { method: string; params: Record<string, unknown> })
        : { method: request.method, params };
    const { tools } = this.rules;
    const name = tools !== null && request.method === tools.call ? params[tools.name] : undefined;
    const annotations = typeof name === "string" ? this.annotations?.(name) : undefined;
    return checkHeaders(headers, body, this.rules, annotations);
  }

  /**
   * The outcome of a request, as the dispatcher sends it: a tool listing teaches the stage its
   * tools' annotations (when they are learned, and only for a request with an envelope: without
   * one no call is checked against them, and a stdio server never pays for it).
   */
  sent(
    request: JsonRpcRequest,
    delivery: Delivery,
    outcome: Outcome | Promise<Outcome>,
  ): Outcome | Promise<Outcome> {
    const { learned } = this;
    if (learned === null || delivery.headers === undefined || request.method !== this.listing)
      return outcome;
    const learn = (settled: Outcome): Outcome => {
      const { response } = settled;
      if (response !== null && "result" in response) learned.learn(response.result);
      return settled;
    };
    return isThenable(outcome) ? (outcome as Promise<Outcome>).then(learn) : learn(outcome);
  }
}
