/**
 * The definitions layer: tools, resources, resource templates and prompts declared once, from
 * which the list, call/read/get and completion handlers are made (paginated), and whose changes
 * are announced to whoever listens. It sits on the dispatcher's handler map, which stays available
 * underneath: it makes handlers and knows nothing of eras or transports.
 *
 * Tool schemas are checked on the server's side of the wire: arguments against `inputSchema`
 * before the handler runs (a failure is a tool-execution error naming the JSON pointer), and
 * `structuredContent` against `outputSchema` before the result leaves (a failure is the server's
 * bug: an internal error, logged with the pointer). The checks are a definition's own compiled
 * validators (`mcp-gen tools`) or a JSON Schema engine's.
 *
 * Every method and field name comes from `Features`, generated from the revision's schema.
 * Revision-independent; copied verbatim into generated output.
 */
import { isInputRequired, type Handler, type RequestContext } from "./dispatch.js";
import { ErrorCode, isRecord, RpcError } from "../shared/jsonrpc.js";
import {
  describeFailure,
  SchemaCache,
  type JsonSchemaEngine,
  type SchemaCheck,
  type SchemaCheckResult,
} from "../schema/json-schema.js";
import { MAX_URI_LENGTH, UriTemplate, type UriVariables } from "./uri-template.js";
import type { HeaderAnnotation } from "../shared/param-headers.js";
import { annotationsOfSchema, TOOL_ANNOTATIONS, type Annotated } from "./tool-annotations.js";

/** The revision's features, as the generator read them from the schema (see `generator/ir/features.ts`). */
export interface Features {
  cursor: { param: string; result: string } | null;
  tools: {
    capability: string | null;
    list: string;
    call: string;
    items: string;
    changed: string | null;
    name: string;
    arguments: string;
    inputSchema: string;
    outputSchema: string | null;
    content: string;
    structuredContent: string | null;
    isError: string;
    text: { discriminator: string; type: string; field: string };
  } | null;
  resources: {
    capability: string | null;
    list: string;
    read: string;
    items: string;
    changed: string | null;
    uri: string;
    templates: { list: string; items: string; uriTemplate: string } | null;
  } | null;
  prompts: {
    capability: string | null;
    list: string;
    get: string;
    items: string;
    changed: string | null;
    name: string;
    arguments: string;
    argumentName: string;
    required: string;
  } | null;
  completion: {
    method: string;
    ref: string;
    refType: string;
    prompt: { type: string; name: string } | null;
    resource: { type: string; uri: string } | null;
    argument: string;
    argumentName: string;
    argumentValue: string;
    context: string | null;
    contextArguments: string | null;
    result: string;
    values: string;
    total: string | null;
    hasMore: string | null;
    maxValues: number | null;
  } | null;
}

type Awaitable<R> = R | Promise<R>;
type Result = Record<string, unknown>;

/** Suggests values for one argument or template variable: given what was typed and the other arguments. */
export type Completer = (value: string, context: Record<string, string>) => Awaitable<string[]>;

/**
 * A tool: its listing entry (every field but the ones below is listed as written) and its handler.
 * `validate` holds compiled checks (from `mcp-gen tools`), used instead of the engine.
 */
export interface ToolDefinition<A = Record<string, unknown>> {
  handler: (args: A, ctx: RequestContext) => Awaitable<unknown>;
  validate?: { input?: SchemaCheck; output?: SchemaCheck };
}

/** A resource at a fixed URI: its listing entry and what reading it answers. */
export interface ResourceDefinition {
  read: (uri: string, ctx: RequestContext) => Awaitable<unknown>;
}

/** A resource template: URIs matching its RFC 6570 template are read by it, with the template's variables. */
export interface ResourceTemplateDefinition {
  read: (uri: string, variables: UriVariables, ctx: RequestContext) => Awaitable<unknown>;
  /** Completions per template variable. */
  complete?: Record<string, Completer>;
}

/** A prompt: its listing entry (with its arguments) and what getting it answers. */
export interface PromptDefinition {
  get: (args: Record<string, string>, ctx: RequestContext) => Awaitable<unknown>;
  /** Completions per argument. */
  complete?: Record<string, Completer>;
}

/** Our own keys on a definition: everything else is its listing entry. */
const OWN_KEYS = new Set(["handler", "validate", "read", "get", "complete"]);

export interface DefinitionsOptions {
  /** Compiles tool schemas that have no compiled validators; without one, see `define`. */
  engine?: JsonSchemaEngine;
  /** Entries per page of every list; default 100. */
  pageSize?: number;
  /** Where diagnostics go (invalid tool results, unchecked schemas); default stderr. */
  log?: (message: string) => void;
  /** Longest URI a resource template is matched against (UTF-16 units); a longer one is not found. Default 65,536. */
  maxUriLength?: number;
  /**
   * Hands a resource template's `read` decoded variables that hold a `..` path segment, a `/` the
   * expansion does not allow (a simple `{x}` whose value came as `%2F`) or a control character (NUL
   * included). Default false: such a read is refused with invalid params before `read` runs.
   */
  allowUnsafeUriValues?: boolean;
}

interface Entry<D> {
  definition: D;
  /** What the list shows: the definition without our own keys. */
  listing: Readonly<Result>;
}

interface ToolEntry extends Entry<ToolDefinition<never>> {
  input: SchemaCheck;
  output: SchemaCheck | null;
  /** Its `x-mcp-header` annotations, read from its input schema when first asked for (HTTP only). */
  annotations?: readonly HeaderAnnotation[] | undefined;
}

interface TemplateEntry extends Entry<ResourceTemplateDefinition> {
  template: UriTemplate;
}

type Kind = "tools" | "resources" | "prompts";

/** A check of the one thing the protocol itself says of arguments: they are an object. */
const OBJECT_ONLY: SchemaCheck = (value) =>
  isRecord(value)
    ? { ok: true }
    : { ok: false, errors: [{ path: "", message: "must be an object" }] };

export class Definitions {
  private readonly tools = new Map<string, ToolEntry>();
  private readonly resources = new Map<string, Entry<ResourceDefinition>>();
  private readonly templates = new Map<string, TemplateEntry>();
  private readonly prompts = new Map<string, Entry<PromptDefinition>>();
  private readonly listeners = new Set<(notification: { method: string }) => void>();
  private readonly schemas: SchemaCache | null;
  private readonly pageSize: number;

  constructor(
    readonly features: Features,
    private readonly options: DefinitionsOptions = {},
  ) {
    this.schemas = options.engine ? new SchemaCache(options.engine) : null;
    this.pageSize = Math.max(1, options.pageSize ?? 100);
  }

  /**
   * Defines (or replaces) a tool; returns its remover. Its schemas are compiled now: by its own
   * `validate` checks, else by the engine; with neither, arguments are only checked to be an object
   * and structured results are not checked (logged once here).
   */
  tool<A>(definition: ToolDefinition<A>): () => void {
    const f = this.need("tools");
    const name = this.nameOf(definition, f.name);
    const inputSchema = fieldsOf(definition)[f.inputSchema];
    const outputSchema = f.outputSchema ? fieldsOf(definition)[f.outputSchema] : undefined;
    if (!isRecord(inputSchema))
      throw new TypeError(`tool "${name}": ${f.inputSchema} must be an object`);
    const compile = (schema: unknown): SchemaCheck | null =>
      isRecord(schema) && this.schemas ? this.schemas.check(schema) : null;
    const input = definition.validate?.input ?? compile(inputSchema);
    const output = isRecord(outputSchema)
      ? (definition.validate?.output ?? compile(outputSchema))
      : null;
    if (!input || (isRecord(outputSchema) && !output))
      this.log(
        `mcp-gen server: tool "${name}" has schemas but neither compiled validators nor a JSON Schema engine: its arguments are only checked to be an object and its structured results are not checked`,
      );
    const entry: ToolEntry = {
      definition: definition as ToolDefinition<never>,
      listing: listingOf(definition),
      input: input ?? OBJECT_ONLY,
      output,
    };
    return this.put("tools", this.tools, name, entry);
  }

  resource(definition: ResourceDefinition): () => void {
    const f = this.need("resources");
    return this.put("resources", this.resources, this.nameOf(definition, f.uri), {
      definition,
      listing: listingOf(definition),
    });
  }

  resourceTemplate(definition: ResourceTemplateDefinition): () => void {
    const f = this.need("resources");
    if (!f.templates) throw new TypeError("this revision has no resource templates");
    const uriTemplate = this.nameOf(definition, f.templates.uriTemplate);
    return this.put("resources", this.templates, uriTemplate, {
      definition,
      listing: listingOf(definition),
      template: new UriTemplate(uriTemplate),
    });
  }

  prompt(definition: PromptDefinition): () => void {
    const f = this.need("prompts");
    return this.put("prompts", this.prompts, this.nameOf(definition, f.name), {
      definition,
      listing: listingOf(definition),
    });
  }

  /** Listens for changed lists (`list_changed` notifications); returns the remover. */
  onChange(listener: (notification: { method: string }) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The handlers of every feature the revision has, by method: spread them into the handler map. */
  handlers(): Record<string, Handler> {
    const { tools, resources, prompts, completion } = this.features;
    const handlers: Record<string, Handler> = {};
    if (tools) {
      const list: Handler & Annotated = (params) => this.page(this.tools, tools.items, params);
      // The dispatcher's envelope stage asks the definitions for a call's annotations.
      list[TOOL_ANNOTATIONS] = (name) => this.toolAnnotations(name);
      handlers[tools.list] = list;
      handlers[tools.call] = (params, ctx) => this.call(params, ctx);
    }
    if (resources) {
      handlers[resources.list] = (params) => this.page(this.resources, resources.items, params);
      if (resources.templates) {
        const items = resources.templates.items;
        handlers[resources.templates.list] = (params) => this.page(this.templates, items, params);
      }
      handlers[resources.read] = (params, ctx) => this.read(params, ctx);
    }
    if (prompts) {
      handlers[prompts.list] = (params) => this.page(this.prompts, prompts.items, params);
      handlers[prompts.get] = (params, ctx) => this.get(params, ctx);
    }
    if (completion) handlers[completion.method] = (params) => this.complete(params);
    return handlers;
  }

  /** The `x-mcp-header` annotations of a defined tool's input schema (none for an unknown tool). */
  toolAnnotations(name: string): readonly HeaderAnnotation[] | undefined {
    const tool = this.tools.get(name);
    if (tool === undefined) return undefined;
    if (!Object.hasOwn(tool, "annotations"))
      tool.annotations = annotationsOfSchema(
        fieldsOf(tool.definition)[this.features.tools!.inputSchema],
      );
    return tool.annotations;
  }

  /** The features that have definitions, by the server capability that gates them. */
  definedCapabilities(): string[] {
    const { tools, resources, prompts } = this.features;
    const defined: Array<[string | null | undefined, number]> = [
      [tools?.capability, this.tools.size],
      [resources?.capability, this.resources.size + this.templates.size],
      [prompts?.capability, this.prompts.size],
    ];
    return defined.flatMap(([capability, size]) => (capability && size > 0 ? [capability] : []));
  }

  // -------------------------------------------------------------------------------------------

  private need<K extends Kind>(kind: K): NonNullable<Features[K]> {
    const feature = this.features[kind];
    if (!feature) throw new TypeError(`this revision has no ${kind}`);
    return feature as NonNullable<Features[K]>;
  }

  private nameOf(definition: object, field: string): string {
    const name = fieldsOf(definition)[field];
    if (typeof name !== "string" || name === "")
      throw new TypeError(`a definition needs a non-empty string ${field}`);
    return name;
  }

  private put<E>(kind: Kind, map: Map<string, E>, key: string, entry: E): () => void {
    map.set(key, entry);
    this.changed(kind);
    return () => {
      if (map.get(key) !== entry) return; // replaced since: not ours to remove
      map.delete(key);
      this.changed(kind);
    };
  }

  private changed(kind: Kind): void {
    const method = this.features[kind]?.changed;
    if (!method) return;
    for (const listener of this.listeners) listener({ method });
  }

  private log(message: string): void {
    if (this.options.log) this.options.log(message);
    else process.stderr.write(`${message}\n`);
  }

  /** One page of a list; the cursor is the offset of the page, opaque to clients. */
  private page(map: Map<string, Entry<unknown>>, items: string, params: Result): Result {
    const cursor = this.features.cursor;
    let offset = 0;
    const given = cursor ? params[cursor.param] : undefined;
    if (given !== undefined) {
      offset = typeof given === "string" ? decodeCursor(given) : -1;
      if (offset < 0) throw new RpcError(ErrorCode.InvalidParams, "Invalid params: unknown cursor");
    }
    const all = [...map.values()];
    const end = cursor ? offset + this.pageSize : all.length;
    const result: Result = { [items]: all.slice(offset, end).map((entry) => entry.listing) };
    if (cursor && end < all.length) result[cursor.result] = encodeCursor(end);
    return result;
  }

  private async call(params: Result, ctx: RequestContext): Promise<unknown> {
    const f = this.features.tools!;
    const name = params[f.name];
    const tool = typeof name === "string" ? this.tools.get(name) : undefined;
    if (!tool)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params: unknown tool ${JSON.stringify(name)}`,
      );
    const args = params[f.arguments] ?? {};
    const input = runCheck(tool.input, args);
    if (!input.ok) {
      const { pointer, message } = describeFailure(input);
      return this.toolError(`Invalid arguments: ${pointer || "/"} ${message}`);
    }
    const result = await tool.definition.handler(args as never, ctx);
    const check = tool.output;
    if (!check || isInputRequired(result) || !isRecord(result) || result[f.isError] === true)
      return result;
    const structured = f.structuredContent ? result[f.structuredContent] : undefined;
    const output: SchemaCheckResult =
      structured === undefined
        ? { ok: false, errors: [{ path: "", message: "is missing" }] }
        : runCheck(check, structured);
    if (!output.ok) {
      const { pointer, message } = describeFailure(output);
      this.log(
        `mcp-gen server: tool "${String(name)}" returned ${f.structuredContent} that does not conform to its ${f.outputSchema}: ${pointer || "/"} ${message}`,
      );
      throw new RpcError(
        ErrorCode.InternalError,
        "Internal error: the tool produced an invalid result",
      );
    }
    return result;
  }

  /** A tool-execution error: a result the model can read and correct itself from. */
  private toolError(text: string): Result {
    const f = this.features.tools!;
    return {
      [f.content]: [{ [f.text.discriminator]: f.text.type, [f.text.field]: text }],
      [f.isError]: true,
    };
  }

  private async read(params: Result, ctx: RequestContext): Promise<unknown> {
    const f = this.features.resources!;
    const uri = params[f.uri];
    if (typeof uri === "string") {
      const fixed = this.resources.get(uri);
      if (fixed) return fixed.definition.read(uri, ctx);
      const maxLength = this.options.maxUriLength ?? MAX_URI_LENGTH;
      for (const entry of this.templates.values()) {
        const variables = entry.template.match(uri, maxLength);
        if (!variables) continue;
        // The URI is this template's: a value a handler could take as a path is refused, not passed on.
        const unsafe = this.options.allowUnsafeUriValues
          ? null
          : entry.template.unsafeValue(variables);
        if (unsafe !== null)
          throw new RpcError(
            ErrorCode.InvalidParams,
            `Invalid params: the URI's variable ${unsafe}`,
            {
              [f.uri]: uri,
            },
          );
        return entry.definition.read(uri, variables, ctx);
      }
    }
    throw new RpcError(ErrorCode.InvalidParams, "Resource not found", { [f.uri]: uri });
  }

  private async get(params: Result, ctx: RequestContext): Promise<unknown> {
    const f = this.features.prompts!;
    const name = params[f.name];
    const prompt = typeof name === "string" ? this.prompts.get(name) : undefined;
    if (!prompt)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params: unknown prompt ${JSON.stringify(name)}`,
      );
    const given = isRecord(params[f.arguments])
      ? (params[f.arguments] as Record<string, string>)
      : {};
    const declared = fieldsOf(prompt.definition)[f.arguments];
    for (const argument of Array.isArray(declared) ? declared : []) {
      if (!isRecord(argument) || argument[f.required] !== true) continue;
      const argumentName = String(argument[f.argumentName]);
      // Own only: an argument named `constructor` is missing when the client did not give it.
      if (!Object.hasOwn(given, argumentName) || given[argumentName] === undefined)
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params: missing required argument ${JSON.stringify(argumentName)}`,
        );
    }
    return prompt.definition.get(given, ctx);
  }

  private async complete(params: Result): Promise<Result> {
    const f = this.features.completion!;
    const ref = isRecord(params[f.ref]) ? (params[f.ref] as Result) : {};
    const argument = isRecord(params[f.argument]) ? (params[f.argument] as Result) : {};
    const context = f.context && isRecord(params[f.context]) ? (params[f.context] as Result) : {};
    const others = f.contextArguments ? context[f.contextArguments] : undefined;
    let completers: Record<string, Completer> | undefined;
    if (f.prompt && ref[f.refType] === f.prompt.type)
      completers = this.prompts.get(String(ref[f.prompt.name]))?.definition.complete;
    else if (f.resource && ref[f.refType] === f.resource.type)
      completers = this.templates.get(String(ref[f.resource.uri]))?.definition.complete;
    const argumentName = String(argument[f.argumentName]);
    const completer =
      completers && Object.hasOwn(completers, argumentName) ? completers[argumentName] : undefined;
    const all = completer
      ? await completer(
          String(argument[f.argumentValue] ?? ""),
          isRecord(others) ? (others as Record<string, string>) : {},
        )
      : [];
    const values = f.maxValues === null ? all : all.slice(0, f.maxValues);
    const completion: Result = { [f.values]: values };
    if (f.total) completion[f.total] = all.length;
    if (f.hasMore) completion[f.hasMore] = values.length < all.length;
    return { [f.result]: completion };
  }
}

/** A definition's fields by name (its listing entry's fields are the revision's, not ours). */
const fieldsOf = (definition: object): Record<string, unknown> =>
  definition as Record<string, unknown>;

function listingOf(definition: object): Readonly<Result> {
  const listing: Result = {};
  // defineProperty: a listing field named `__proto__` (a JSON-parsed definition can hold one) is data.
  for (const [key, value] of Object.entries(definition))
    if (!OWN_KEYS.has(key))
      Object.defineProperty(listing, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  return Object.freeze(listing);
}

/** Runs a check; a check that throws (a recursive one on a deep value) fails instead. */
function runCheck(check: SchemaCheck, value: unknown): SchemaCheckResult {
  try {
    return check(value);
  } catch (error) {
    const reason =
      error instanceof RangeError ? "is nested too deeply to validate" : "cannot be checked";
    return { ok: false, errors: [{ path: "", message: reason }] };
  }
}

const encodeCursor = (offset: number): string => btoa(`o${offset}`);

function decodeCursor(cursor: string): number {
  try {
    const text = atob(cursor);
    return /^o\d{1,9}$/.test(text) ? Number(text.slice(1)) : -1;
  } catch {
    return -1;
  }
}
