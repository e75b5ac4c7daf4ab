/**
 * The one description of a revision's protocol that both the server dispatcher and the client core
 * read. The generator derives it from the schema (`generator/derive/protocol.ts`) and emits it as
 * plain data in the output's `protocol.ts`; validators are named there by definition, and
 * `bindProtocol` puts the generated validators in their place once, when the server or client
 * module loads. Revision-independent; copied verbatim into generated output.
 */

import { anyOf, checked, paramsOf, VALID } from "./checks.js";
import type { Validate } from "./checks.js";

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
    /** The caching hints of cacheable results: how long a result stays fresh, and who may share it. */
    cacheHints: { ttl: string; scope: string } | null;
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
  /** The listen request: its filter param, and per filter key the notification it opts into and the capability flag it needs. */
  listen: {
    method: string;
    filterParam: string;
    filter: Readonly<
      Record<string, { notification: string; capability: readonly [string, string] }>
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
  "methods" | "inputRequests" | "inputRequiredResult"
> {
  methods: Readonly<Record<string, MethodSpec>>;
  inputRequests: Readonly<
    Record<string, { capability: string; results: readonly string[]; response: Validate }>
  >;
  /** Validates any input response (the union), when state does not say which was asked for. */
  anyInputResponse: Validate;
  /** Validates an `input_required` answer, or `null` in revisions without one. */
  inputRequiredResult: Validate | null;
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
 * it names. A name without its validators is a generator bug, reported at once.
 */
export function bindProtocol(
  description: ProtocolDescription,
  validators: ValidatorsModule,
): Protocol {
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
    description,
  };
}
