/**
 * The one description of a revision's protocol that both the server dispatcher and the client core
 * read. The generator derives it from the schema (`generator/derive/protocol.ts`) and emits it as
 * plain data in the output's `protocol.ts`; validators are named there by definition, and
 * `bindProtocol` puts the generated validators in their place once, when the server or client
 * module loads. Revision-independent; copied verbatim into generated output.
 */

import { anyOf, checked, paramsOf, VALID } from "../schema/checks.js";
import type { Validate } from "../schema/checks.js";

export type { Validate };

/** One client→server request method. */
export interface MethodDescription {
  /**
   * The definition whose validator checks the params: the params type when the schema names it,
   * else (`inMessage`) the request message, the params being checked in place inside it.
   */
  params: { definition: string; inMessage: boolean };
  /** The complete results it may answer with (the input-required result is `inputRequiredResult`). */
  results: readonly string[];
  /** The server capability that must be declared for the method to exist, or `null`. */
  capability: string | null;
  /** Whether the method may answer `input_required` (its params accept input responses). */
  inputRequired: boolean;
  /** Whether its results carry caching hints (`envelope.cacheHints`). */
  cacheable: boolean;
  /** The param naming the request's target (`name`, `uri`): `Mcp-Name` mirrors it, sealed state is bound to it. */
  target: string | null;
}

/** What fills a field of the result describing the server (discovery or handshake). */
export type DescribeSource =
  | "supportedVersions"
  | "protocolVersion"
  | "capabilities"
  | "info"
  | "instructions"
  | "cacheTtl"
  | "cacheScope";

/** The tool listing and calling methods and fields, for `x-mcp-header` mirroring and output checks. */
export interface ToolsDescription {
  list: string;
  call: string;
  items: string;
  name: string;
  arguments: string;
  schema: string;
  /** The tool's output schema and the result fields it governs; `null` in revisions without them. */
  output: {
    schema: string;
    structuredContent: string;
    isError: string;
    cursor: string | null;
  } | null;
}

/**
 * The initialize handshake's fields, as the revision's handshake request and result name them:
 * what the client writes into the params and reads back from the result.
 */
export interface HandshakeDescription {
  /**
   * The params: the protocol version the client offers (the string param `handshakeVersionParam`
   * names), its capabilities (the one typed as the client's capabilities) and its identity (the
   * one typed as an implementation; `null`: the revision sends none).
   */
  params: { version: string; capabilities: string; info: string | null };
  /** The result field naming the version the server chose. */
  result: { version: string };
}

/**
 * The params of the notifications the runtime writes and reads itself, as the revision's types
 * name them; `null` where the revision has no such notification.
 */
export interface NotificationParamsDescription {
  /**
   * Progress: the param naming the request by its progress token (typed as one), the progress so
   * far (the required number), the total (the optional number) and the message (the string).
   */
  progress: {
    token: string;
    progress: string | null;
    total: string | null;
    message: string | null;
  } | null;
  /** Cancellation: the param naming the request cancelled (typed as a request id) and the reason (the string). */
  cancelled: { requestId: string; reason: string | null } | null;
  /**
   * Log message: the param typed as a log level, the logger (the optional string) and the data
   * (the param of any type).
   */
  message: { level: string; logger: string | null; data: string | null } | null;
}

/**
 * A revision's protocol facts, as JSON. A fact the revision lacks is `null` (or empty); every
 * name in here is the revision's own, read from its types.
 */
export interface ProtocolDescription {
  revision: string;
  protocolVersion: string;
  lifecycle:
    | {
        kind: "stateless";
        discover: string;
        requestMeta: string;
        protocolVersionKey: string;
        clientCapabilitiesKey: string;
        requiredMetaKeys: readonly string[];
      }
    | { kind: "stateful"; initialize: string; initialized: string | null };
  methods: Readonly<Record<string, MethodDescription>>;
  /**
   * What a server may ask of the client (inside `input_required` results, or as requests of its
   * own in stateful revisions): the client capability each needs and the results it answers with.
   */
  inputRequests: Readonly<Record<string, { capability: string; results: readonly string[] }>>;
  /** The union of every input response: validates one when sealed state does not say what was asked. */
  inputResponseUnion: string | null;
  /** The result asking for input, which every method accepting input responses may answer with. */
  inputRequiredResult: string | null;
  /** The values of the result type field; `null` for revisions whose results have none. */
  resultTypes: { complete: string; inputRequired: string } | null;
  /**
   * The names of the fields the runtime writes (and reads back) itself, as the revision's types lay
   * them out; `null` where the revision has none.
   */
  envelope: {
    /** The field of params and results that holds metadata (`_meta`): the runtime reads and writes it by this name. */
    meta: string;
    /** The field every result carries telling complete from input-required results. */
    resultType: string | null;
    /** The input-required result's map of input requests, and its opaque state. */
    inputRequests: string | null;
    /** Under the same name in the input-required result and in the retried request's params. */
    requestState: string | null;
    /** The retried request's map of input responses. */
    inputResponses: string | null;
    /** The fields of one input request (its method and its params), as the revision's requests name them. */
    inputRequest: { method: string; params: string } | null;
    /**
     * The caching hints of cacheable results: how long a result stays fresh, and who may share it;
     * the values that say "do not cache" (what a server that configured no caching writes), and the
     * scope of a result that is the same for every caller (the server's own description).
     */
    cacheHints: {
      ttl: string;
      scope: string;
      uncached: { ttl: number; scope: string };
      sharedScope: string | null;
    } | null;
    /** The acknowledgement notification's param holding the filter the server honours. */
    acknowledgedFilter: string | null;
  };
  /** The error codes the revision defines; `null` where it defines none. */
  errors: {
    unsupportedVersion: number | null;
    missingCapability: number | null;
    headerMismatch: number | null;
  };
  /** The `_meta` keys with a protocol role. */
  meta: {
    serverInfo: string | null;
    clientInfo: string | null;
    progressToken: string | null;
    logLevel: string | null;
    subscriptionId: string | null;
  };
  /** The notifications with a protocol role. */
  notifications: {
    progress: string | null;
    message: string | null;
    acknowledged: string | null;
    cancelled: string | null;
  };
  /** The params of the progress, cancellation and log notifications. */
  notificationParams: NotificationParamsDescription;
  /** Severity order of log levels, least severe first. */
  logLevels: readonly string[];
  /** The liveness request both sides answer with an empty result, or `null`. */
  ping: string | null;
  /** The result describing the server, which the runtime writes itself: each field and what fills it. */
  describe: Readonly<Record<string, DescribeSource>>;
  /**
   * The param by which an initialize-era handshake names its protocol version: a stateless server
   * recognises such a handshake by it and answers with the versions it supports.
   */
  handshakeVersionParam: string;
  /** The fields of the revision's own initialize handshake; `null` for a revision without one (stateless). */
  handshake: HandshakeDescription | null;
  /**
   * The field of the server's description (the discovery result) listing the protocol versions the
   * server supports, from which the client picks one; `null` for a revision without one.
   */
  supportedVersionsField: string | null;
  /**
   * The HTTP request metadata headers by role: the protocol version a request is sent under, its
   * method, its target's name (`MethodDescription.target`). From the conventions table: the
   * transport's specification names them, the schema does not.
   */
  headers: { protocolVersion: string; method: string; name: string };
  /**
   * The listen request: its filter param, and per filter key the notification it opts into and the
   * capability flag it needs; `target`, for a key listing targets (resource URIs), the
   * notification's param naming the one it is about.
   */
  listen: {
    method: string;
    filterParam: string;
    filter: Readonly<
      Record<
        string,
        { notification: string; capability: readonly [string, string]; target: string | null }
      >
    >;
  } | null;
  /**
   * Deprecated features by where they show on the wire, each with the notice reported (once per
   * server or client) when one is actually used: a deprecated method or input request, a
   * deprecated `_meta` key, a deprecated client capability both declared and used.
   */
  deprecated: {
    methods: Readonly<Record<string, string>>;
    metaKeys: Readonly<Record<string, string>>;
    clientCapabilities: Readonly<Record<string, string>>;
  };
  /** The tool listing and calling methods; `null` when the revision has none. */
  tools: ToolsDescription | null;
  /** The cursor of paginated lists: the param asking for a page, the result field naming the next. */
  cursor: { param: string; result: string } | null;
  /**
   * The initialize-era revisions this one also speaks (`--legacy`), newest first; empty for a
   * revision generated alone.
   */
  eras: readonly EraDescription[];
}

/**
 * An initialize-era revision spoken by a server or client of a stateless (per-request `_meta`) one:
 * what a dual-era server and a dual-era client read, derived from the two revisions' schemas and
 * their diff (`generator/derive/eras.ts`). Definitions are the legacy revision's; nothing here is
 * a method name the runtime knows beforehand.
 */
export interface EraDescription {
  /** The legacy revision's folder name and the protocol version its handshake negotiates. */
  revision: string;
  protocolVersion: string;
  /** The legacy handshake: the request opening a session and the notification completing it. */
  initialize: string;
  initialized: string | null;
  /** The fields the legacy handshake's params and result name. */
  handshake: HandshakeDescription;
  /** The handshake's result definition, or `null` when the revision names none (not checked). */
  initializeResult: string | null;
  /**
   * The modern requests the legacy revision has, each served (and called) as the same method: the
   * legacy result definitions; `drop`, the top-level fields only the modern results have (a server
   * removes them from a legacy answer); `fill`, those of them the modern result requires, with the
   * value that says what a legacy answer means (a client puts them back).
   */
  methods: Readonly<
    Record<
      string,
      {
        results: readonly string[];
        drop: readonly string[];
        fill: Readonly<Record<string, unknown>>;
      }
    >
  >;
  /**
   * The modern discovery request, answered from the handshake's result: each modern field and
   * where its value comes from (the negotiated version, a handshake field, or a fixed value), and
   * the `_meta` key naming the server with the handshake field holding its identity. `null` when
   * either revision lacks what that needs.
   */
  discover: {
    method: string;
    fields: Readonly<Record<string, { version: true } | { field: string } | { value: unknown }>>;
    info: { metaKey: string; field: string } | null;
  } | null;
  /** The legacy liveness request, answered by either side. */
  ping: string | null;
  /** The legacy request setting the session's log level, its level param and the server capability it needs. */
  setLevel: { method: string; param: string; capability: string } | null;
  /**
   * Per-resource subscriptions: the requests opening and closing one, the param (and notification
   * param) naming the resource, the notification they opt into and the server capability flag they
   * need; `null` when the revision has none.
   */
  subscribe: {
    method: string;
    unsubscribe: string;
    param: string;
    notification: string;
    capability: readonly [string, string];
  } | null;
  /**
   * Modern input requests the legacy revision sends as requests of their own: the client
   * capability each needs and the legacy result definitions its answer is checked against.
   */
  serverRequests: Readonly<Record<string, { capability: string; results: readonly string[] }>>;
  /** The server notifications the legacy revision has; a modern one it lacks is not sent to its sessions. */
  notifications: readonly string[];
  /** `_meta` keys by role: the modern key, and the legacy one (`null`: the legacy revision has none). */
  metaKeys: ReadonlyArray<{ role: string; modern: string; legacy: string | null }>;
  /** The legacy cancellation, log and progress notifications. */
  cancelled: string | null;
  message: string | null;
  progress: string | null;
  /** The params of the legacy progress, cancellation and log notifications. */
  notificationParams: NotificationParamsDescription;
  /** The handshake result's field holding the server's capabilities. */
  serverCapabilities: string | null;
  /**
   * The JSON Schema keywords of the modern revision's own that the legacy one lacks (`x-mcp-header`
   * before 2026-07-28), removed from the tool input schemas a legacy tool listing carries: the
   * listing method, its items field, and the input schema field of an item. `null`: none to remove.
   */
  toolSchemaKeywords: {
    list: string;
    items: string;
    schema: string;
    drop: readonly string[];
  } | null;
  /**
   * The legacy revision's requests a client sends that have no modern form (`ping`, the log
   * level, subscriptions, …), each with its legacy result definitions: sent as they are, their
   * answers checked against these and handed back unchanged.
   */
  ownRequests: Readonly<Record<string, { results: readonly string[] }>>;
}

/** An initialize-era revision as a server and a client read it: its description with the legacy revision's validators in place. */
export interface LegacyEra extends Omit<
  EraDescription,
  "initializeResult" | "methods" | "serverRequests" | "ownRequests"
> {
  /** Validates the handshake's result. */
  initializeResult: Validate;
  methods: Readonly<
    Record<
      string,
      { result: Validate; drop: readonly string[]; fill: Readonly<Record<string, unknown>> }
    >
  >;
  serverRequests: Readonly<Record<string, { capability: string; response: Validate }>>;
  ownRequests: Readonly<Record<string, { result: Validate }>>;
}

/** The legacy `_meta` key of a role (`progressToken`…), or `null` when the legacy revision has none. */
export function legacyMetaKey(era: Pick<EraDescription, "metaKeys">, role: string): string | null {
  return era.metaKeys.find((key) => key.role === role)?.legacy ?? null;
}

/** A method as the runtimes use it: its description with its validators in place. */
export interface MethodSpec extends MethodDescription {
  /** Validates the params. */
  checkParams: Validate;
  /** Validates a complete result (any of `results`). */
  result: Validate;
}

/** A description with its validators in place: what the dispatcher and the client core are given. */
export interface Protocol extends Omit<
  ProtocolDescription,
  "methods" | "inputRequests" | "inputRequiredResult" | "eras"
> {
  methods: Readonly<Record<string, MethodSpec>>;
  inputRequests: Readonly<
    Record<string, { capability: string; results: readonly string[]; response: Validate }>
  >;
  /** Validates any input response (the union), when state does not say which was asked for. */
  anyInputResponse: Validate;
  /** Validates an `input_required` answer, or `null` in revisions without one. */
  inputRequiredResult: Validate | null;
  /** The initialize-era revisions also spoken, newest first, each with its own validators in place. */
  eras: readonly LegacyEra[];
  /** The description as generated. */
  description: ProtocolDescription;
}

/**
 * The generated validators module (`import * as V from "./validators.js"`), read by name:
 * `is<Definition>` and `validate<Definition>` for every definition of the revision.
 */
export type ValidatorsModule = { readonly [name: string]: unknown };

/**
 * The description with the revision's validators in place, each looked up once by the definition
 * it names; each era's with its own revision's validators (`legacy`, in the order of
 * `description.eras`). A name without its validators is a generator bug, reported at once.
 */
export function bindProtocol(
  description: ProtocolDescription,
  validators: ValidatorsModule,
  legacy: readonly ValidatorsModule[] = [],
): Protocol {
  const { find, validator, results } = validatorsOf(validators);
  // Object.fromEntries: a key is data, even `__proto__`.
  const methods = Object.fromEntries(
    Object.entries(description.methods).map(([method, spec]): [string, MethodSpec] => [
      method,
      {
        ...spec,
        checkParams: spec.params.inMessage
          ? paramsOf(find("validate", spec.params.definition), method)
          : validator(spec.params.definition),
        result: results(spec.results),
      },
    ]),
  );
  const inputRequests = Object.fromEntries(
    Object.entries(description.inputRequests).map(([method, input]) => [
      method,
      { ...input, response: results(input.results) },
    ]),
  );
  if (legacy.length !== description.eras.length)
    throw new Error(
      `mcp-gen runtime: ${description.eras.length} legacy eras described, ${legacy.length} validators modules given`,
    );
  return {
    ...description,
    methods,
    inputRequests,
    anyInputResponse: description.inputResponseUnion
      ? validator(description.inputResponseUnion)
      : () => VALID,
    inputRequiredResult: description.inputRequiredResult
      ? validator(description.inputRequiredResult)
      : null,
    eras: description.eras.map((era, i) => bindEra(era, legacy[i]!)),
    description,
  };
}

/** An era's description with its revision's validators in place. */
function bindEra(era: EraDescription, validators: ValidatorsModule): LegacyEra {
  const { validator, results } = validatorsOf(validators);
  return {
    ...era,
    initializeResult: era.initializeResult ? validator(era.initializeResult) : () => VALID,
    methods: Object.fromEntries(
      Object.entries(era.methods).map(([method, spec]) => [
        method,
        { result: results(spec.results), drop: spec.drop, fill: spec.fill },
      ]),
    ),
    serverRequests: Object.fromEntries(
      Object.entries(era.serverRequests).map(([method, request]) => [
        method,
        { capability: request.capability, response: results(request.results) },
      ]),
    ),
    ownRequests: Object.fromEntries(
      Object.entries(era.ownRequests).map(([method, request]) => [
        method,
        { result: results(request.results) },
      ]),
    ),
  };
}

/** A validators module's checks by definition name, and the check of "any of these results". */
function validatorsOf(validators: ValidatorsModule) {
  const find = (kind: "is" | "validate", name: string) => {
    const found = validators[`${kind}${name}`];
    if (typeof found !== "function")
      throw new Error(`mcp-gen runtime: the validators module has no ${kind}${name}`);
    return found as (value: unknown) => never;
  };
  const validator = (name: string): Validate => checked(find("is", name), find("validate", name));
  const results = (names: readonly string[]): Validate =>
    names.length === 0
      ? () => VALID
      : names.length === 1
        ? validator(names[0]!)
        : anyOf(...names.map(validator));
  return { find, validator, results };
}
