/**
 * The few facts about MCP that `schema.ts` does not state in its types, kept in one place.
 * Everything else the loader derives from the schema's own content.
 */
import type { TypeNode } from "./model.js";

/** What being a member of one of the schema's membership unions means. */
export interface MembershipRole {
  kind: "request" | "notification" | "inputRequest";
  sender: "client" | "server";
  /** The union holding the results the receiver may answer with (requests only). */
  resultUnion: string | null;
}

/**
 * The unions by which the schema says who sends what. A revision uses a subset of them:
 * `InputRequest` exists only where servers ask for input inside results instead of sending requests.
 */
export const MEMBERSHIP_UNIONS: Readonly<Record<string, MembershipRole>> = {
  ClientRequest: { kind: "request", sender: "client", resultUnion: "ServerResult" },
  ServerRequest: { kind: "request", sender: "server", resultUnion: "ClientResult" },
  ClientNotification: { kind: "notification", sender: "client", resultUnion: null },
  ServerNotification: { kind: "notification", sender: "server", resultUnion: null },
  InputRequest: { kind: "inputRequest", sender: "server", resultUnion: "InputResponse" },
};

/** Each party's capability object; the lifecycle is found by where the client's travels. */
export const CAPABILITY_TYPES = {
  client: "ClientCapabilities",
  server: "ServerCapabilities",
} as const;

/** The field (a plain param, or the last segment of a `_meta` key) naming the protocol version. */
export const PROTOCOL_VERSION_FIELD = "protocolVersion";

/**
 * The request metadata headers of the Streamable HTTP transport, by role: the protocol version a
 * request is sent under, its method, its target's name. The transport's specification names them;
 * the schema does not.
 */
export const HTTP_HEADERS = {
  protocolVersion: "MCP-Protocol-Version",
  method: "Mcp-Method",
  name: "Mcp-Name",
} as const;

/** Constants by role: the spec's own names for them. */
export const CONSTANT_ROLES = {
  protocolVersion: /(^|_)PROTOCOL_VERSION$/,
  jsonrpcVersion: /^JSONRPC_VERSION$/,
} as const;

/** JSON-RPC 2.0 reserves this range for error codes; a numeric constant inside it is one. */
export const JSONRPC_ERROR_RANGE = { min: -32768, max: -32000 } as const;

/**
 * `schema.json` is produced with numbers defaulting to integers, and `@TJS-type number` marks the
 * real numbers; the validators accept what `schema.json` accepts, so the IR follows suit.
 */
export const NUMBERS_ARE_INTEGERS_BY_DEFAULT = true;

/**
 * TypeScript's library types a schema may name, as `schema.json` renders them (its generator writes
 * a `Date` as a string in `date-time` format). A schema declaring a type of the same name uses its own.
 */
export const LIBRARY_TYPES: Readonly<Record<string, TypeNode>> = {
  Date: { kind: "string", format: "date-time" },
};

/**
 * Anchors for the wire facts of `wire.ts`: the names of types and fields by which a protocol role
 * is recognised. Each is checked against the model; a revision without one simply lacks the fact.
 */
export const WIRE_CONVENTIONS = {
  /** The field of params and results holding their metadata. */
  metaField: "_meta",
  /** The result a cacheable result extends: the fields it declares are the caching hints. */
  cacheableResult: "CacheableResult",
  /** The caching hints that mean "not cacheable", by role: what a result of a revision without them stands for. */
  uncached: { ttl: 0, scope: "private" },
  /** The field of the server's description filled from the server's `instructions` option. */
  instructionsField: "instructions",
  /** Params that name a request's target, in order of preference. */
  targetParams: ["name", "uri"],
  /** The param of `subscriptions/listen` holding its filter (and of its acknowledgement). */
  listenFilterParam: "notifications",
  /** Per last segment of a subscribable notification, the capability flag that must be declared. */
  subscriptionFlags: { list_changed: "listChanged", updated: "subscribe" } as Readonly<
    Record<string, string>
  >,
  resultTypeDefinition: "ResultType",
  resultTypes: { complete: "complete", inputRequired: "input_required" },
  inputResponseUnion: "InputResponse",
  errorConstants: {
    unsupportedVersion: "UNSUPPORTED_PROTOCOL_VERSION",
    missingCapability: "MISSING_REQUIRED_CLIENT_CAPABILITY",
    headerMismatch: "HEADER_MISMATCH",
  },
  implementationType: "Implementation",
  progressTokenType: "ProgressToken",
  logLevelType: "LoggingLevel",
  requestIdType: "RequestId",
  /**
   * What a JSON Schema keyword of the protocol's own looks like (an extension keyword, `x-` by
   * JSON Schema's custom): a revision defines those its tool input schema's documentation names
   * in backticks (`x-mcp-header`); one it does not name is not part of that revision.
   */
  schemaKeyword: /`(x-[A-Za-z0-9-]+)`/g,
} as const;

/**
 * Anchors for the server features the definitions layer serves (`features.ts`): the messages that
 * list, use and announce changes to each kind of definition, and the fields the runtime reads or
 * writes in them. Methods, list fields, cursors and literal values are read from the model; a
 * revision lacking a message or field lacks the feature (or the optional part).
 */
export const FEATURE_CONVENTIONS = {
  cursorType: "Cursor",
  tools: {
    list: "ListToolsRequest",
    use: "CallToolRequest",
    changed: "ToolListChangedNotification",
  },
  resources: {
    list: "ListResourcesRequest",
    use: "ReadResourceRequest",
    changed: "ResourceListChangedNotification",
  },
  resourceTemplates: { list: "ListResourceTemplatesRequest" },
  prompts: {
    list: "ListPromptsRequest",
    use: "GetPromptRequest",
    changed: "PromptListChangedNotification",
  },
  completion: "CompleteRequest",
  /** The content block a tool-execution error is written as. */
  textContent: { type: "TextContent", discriminator: "type", field: "text" },
  toolFields: {
    name: "name",
    arguments: "arguments",
    inputSchema: "inputSchema",
    outputSchema: "outputSchema",
    content: "content",
    structuredContent: "structuredContent",
    isError: "isError",
  },
  resourceFields: { uri: "uri", contents: "contents", uriTemplate: "uriTemplate" },
  promptFields: {
    name: "name",
    arguments: "arguments",
    argumentName: "name",
    required: "required",
  },
  completionFields: {
    ref: "ref",
    refType: "type",
    promptName: "name",
    resourceUri: "uri",
    argument: "argument",
    argumentName: "name",
    argumentValue: "value",
    context: "context",
    contextArguments: "arguments",
    result: "completion",
    values: "values",
    total: "total",
    hasMore: "hasMore",
  },
} as const;
