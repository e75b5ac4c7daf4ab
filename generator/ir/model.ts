/**
 * The mcp-gen intermediate model (IR): one plain, JSON-serializable description of one MCP protocol
 * revision, read from that revision's `schema.ts`.
 *
 * Everything an emitter, the deprecation registry or the diff report needs is in here, so none of
 * them ever looks at TypeScript syntax. The loader (`generator/load`) is the only producer; the IR
 * is checked by `generator/ir/check.ts` before any emitter runs, and emitters trust it.
 *
 * Conventions:
 * - Arrays are in schema source order, so that output is deterministic and reads like the spec.
 * - `line` fields are 1-based lines in the revision's `schema.ts`.
 * - No field holds `undefined`: absent facts are `null` or an empty array, so that the JSON form
 *   and the in-memory form are the same thing.
 */

/** Bumped whenever the shape below changes incompatibly. */
export const IR_VERSION = 2;

export interface ProtocolModel {
  irVersion: typeof IR_VERSION;
  /** The revision's folder name in the spec repository: a date such as `2026-07-28`, or `draft`. */
  revision: string;
  source: {
    /** Always `schema.ts`; the folder is not part of the model so the IR is path-independent. */
    file: string;
    /** sha256 of the exact bytes read, hex. */
    sha256: string;
  };
  /** Value of the schema's latest-protocol-version constant (`null` when the schema has none). */
  protocolVersion: string | null;
  /** Value of the schema's JSON-RPC version constant. */
  jsonrpcVersion: string | null;
  /** Every exported interface and type alias, in source order. */
  definitions: Definition[];
  /** Every exported `const`, in source order. */
  constants: Constant[];
  /** The numeric constants that are JSON-RPC error codes, with the error definitions using them. */
  errorCodes: ErrorCode[];
  /** The protocol surface: every method that travels between client and server. */
  methods: Method[];
  /** How a conversation begins and how requests carry version and capabilities. */
  lifecycle: Lifecycle;
  /** One entry per `@deprecated` tag in the schema, in source order. */
  deprecations: Deprecation[];
}

// ---------------------------------------------------------------------------------------------
// Documentation

/** A JSDoc comment: free text, then its block tags in written order. */
export interface Doc {
  /** The description before the first block tag, trimmed; `""` when there is none. */
  text: string;
  tags: DocTag[];
}

export interface DocTag {
  /** Tag name without `@`: `category`, `internal`, `deprecated`, `example`, `see`, `format`, … */
  name: string;
  /** The tag's text, trimmed; `""` for bare tags such as `@internal`. */
  text: string;
}

// ---------------------------------------------------------------------------------------------
// Definitions and types

/** One exported `interface` or `type` of the schema. */
export interface Definition {
  name: string;
  /** How the schema declares it; the emitted TypeScript mirrors this. */
  declaration: "interface" | "type";
  /**
   * The definition's full type. For an interface this is an `object` node holding every property,
   * inherited ones included (through `extends`, `Omit<>`), each marked with where it is declared.
   */
  type: TypeNode;
  /** An interface's `extends` clause as written, in order; empty for type aliases. */
  heritage: Heritage[];
  doc: Doc;
  /** The `@category` tag's text, backticks removed (`tools/call`, `Common Types`), or `null`. */
  category: string | null;
  /** True when tagged `@internal`: a helper of the schema rather than a wire type. */
  internal: boolean;
  /** The `@deprecated` tag on the definition itself, if any. */
  deprecated: DeprecationNote | null;
  line: number;
}

/** One entry of an interface's `extends` clause: `Base`, or `Omit<Base, "a" | "b">`. */
export interface Heritage {
  name: string;
  /** Keys removed with `Omit<>`; empty for a plain base. */
  omit: string[];
}

/**
 * A type, as a tree. Constraints that the schema states in JSDoc tags (`@format`, `@minimum`,
 * `@maximum`, `@minItems`, `@maxItems`, `@TJS-type`) are folded into the nodes they constrain.
 */
export type TypeNode =
  | StringType
  | NumberType
  | { kind: "boolean" }
  | { kind: "null" }
  /** `unknown`: every JSON value. */
  | { kind: "unknown" }
  /**
   * `any`: every JSON value too, kept apart from `unknown` because TypeScript lets a derived
   * interface narrow a property only where the base's index signature is `any`.
   */
  | { kind: "any" }
  /** The `object` keyword: any JSON object. */
  | { kind: "nonPrimitive" }
  | LiteralType
  | RefType
  | ArrayType
  | ObjectType
  | { kind: "union"; members: TypeNode[] }
  | { kind: "intersection"; members: TypeNode[] };

export interface StringType {
  kind: "string";
  /** JSON Schema format from `@format` (`uri`, `uri-template`, `byte`, …), or `null`. */
  format: string | null;
}

export interface NumberType {
  kind: "number";
  /**
   * Whether only integers are valid. The schema's convention (that of the tool generating its
   * `schema.json`) is that `number` means integer unless tagged `@TJS-type number`.
   */
  integer: boolean;
  minimum: number | null;
  maximum: number | null;
}

export interface LiteralType {
  kind: "literal";
  value: string | number | boolean;
  /** The constant's name when written `typeof CONSTANT`, else `null`. */
  constant: string | null;
}

export interface RefType {
  kind: "ref";
  /** Name of another definition of the same model. */
  name: string;
}

export interface ArrayType {
  kind: "array";
  items: TypeNode;
  minItems: number | null;
  maxItems: number | null;
}

export interface ObjectType {
  kind: "object";
  properties: Property[];
  /** The index signature `[key: string]: T`, which JSON Schema reads as "additional properties". */
  indexSignature: IndexSignature | null;
}

export interface Property {
  name: string;
  type: TypeNode;
  optional: boolean;
  /** Declared `readonly`: kept so the emitted type says it too (JSON itself has no such notion). */
  readonly: boolean;
  doc: Doc;
  deprecated: DeprecationNote | null;
  /** The definition that declares it (differs from the owner for inherited properties); `null` inside anonymous object types. */
  declaredIn: string | null;
  line: number;
}

export interface IndexSignature {
  keyName: string;
  type: TypeNode;
  declaredIn: string | null;
}

// ---------------------------------------------------------------------------------------------
// Constants and errors

export interface Constant {
  name: string;
  value: string | number | boolean;
  doc: Doc;
  internal: boolean;
  line: number;
}

/** A numeric constant in JSON-RPC's reserved error range (-32768 to -32000). */
export interface ErrorCode {
  code: number;
  constant: string;
  /** Definitions whose `code` (or `error.code`) is `typeof` this constant. */
  definitions: string[];
}

// ---------------------------------------------------------------------------------------------
// Protocol surface

/**
 * One method of the protocol, once, with every role it plays. Membership and direction come from
 * the schema's membership unions (`ClientRequest`, `ServerNotification`, `InputRequest`, …); a
 * method named by unions of two kinds (a request the server sends on the wire that is also an
 * input request) is one method with two roles, each with its own message.
 */
export interface Method {
  /** The wire name, e.g. `tools/call`. */
  method: string;
  /** What the method is and who sends it, one entry per kind, in the order of `MEMBERSHIP_UNIONS`. */
  roles: MethodRole[];
}

/** One role of a method: a kind of message, who sends it in that role, and what answers it. */
export interface MethodRole {
  /**
   * - `request`: a JSON-RPC request that expects a response;
   * - `notification`: a one-way JSON-RPC notification;
   * - `inputRequest`: a server's request for client input that travels inside an
   *   `input_required` result rather than as a JSON-RPC message of its own.
   */
  kind: "request" | "notification" | "inputRequest";
  /** Who sends it. `both` when it is a member of both parties' unions (e.g. cancellation). */
  sender: "client" | "server" | "both";
  /** The message definition, e.g. `CallToolRequest`. */
  message: string;
  /** The union(s) it was found in, e.g. `["ClientRequest"]`. */
  unions: string[];
  /** The `params` type, usually a ref to `…Params`; `null` when the message has no `params`. */
  params: TypeNode | null;
  paramsOptional: boolean;
  /** Requests and input requests: the result definitions a successful response may carry. */
  results: string[];
  /** How `results` was found: from a `…ResultResponse` of the same category, the `…Request`/`…Result` naming pair, the shared `@category`, or the schema's empty result. */
  pairing: "response" | "naming" | "category" | "empty" | null;
  /** Requests: whether the params accept `inputResponses` (multi round-trip retries). */
  acceptsInputResponses: boolean;
  category: string | null;
  deprecated: DeprecationNote | null;
}

/**
 * How a client and server agree on version and capabilities.
 * - `stateful`: an initialize handshake opens a session (revisions up to 2025-11-25);
 * - `stateless`: every request carries version and client capabilities in `params._meta`,
 *   and a discovery method describes the server (2026-07-28 on).
 */
export type Lifecycle =
  | {
      kind: "stateful";
      /** The handshake request, e.g. `initialize`. */
      initialize: string;
      /** The notification completing it, e.g. `notifications/initialized`, or `null`. */
      initialized: string | null;
    }
  | {
      kind: "stateless";
      /** The request that describes the server, e.g. `server/discover`. */
      discover: string;
      /** The definition of a request's `_meta`, e.g. `RequestMetaObject`. */
      requestMeta: string;
      /** `_meta` key carrying the protocol version. */
      protocolVersionKey: string;
      /** `_meta` key carrying the client capabilities. */
      clientCapabilitiesKey: string;
      /** Every required `_meta` key. */
      requiredMetaKeys: string[];
    }
  | { kind: "unknown" };

// ---------------------------------------------------------------------------------------------
// Deprecations

/** What a `@deprecated` tag says, parsed. */
export interface DeprecationNote {
  /** The tag's full text. */
  text: string;
  /** The revision the feature is deprecated as of, from the text (`as of … 2025-11-25`), or `null`. */
  asOf: string | null;
  /** The first SEP the text names, e.g. `SEP-2577`, or `null`. */
  sep: string | null;
}

/** Where a `@deprecated` tag stands. `path` walks property names from the definition. */
export type DeprecationTarget =
  | { kind: "definition"; definition: string }
  | { kind: "property"; definition: string; path: string[] }
  /** Only some literal values of a property are deprecated (the values the tag quotes). */
  | {
      kind: "literal";
      definition: string;
      path: string[];
      values: Array<string | number | boolean>;
    }
  | { kind: "unionMember"; definition: string; member: string };

export interface Deprecation extends DeprecationNote {
  target: DeprecationTarget;
  line: number;
}
