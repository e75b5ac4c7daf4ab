/**
 * The protocol description a generated client hands to its core: the revision's facts (lifecycle,
 * methods and their validators, error codes, `_meta` keys, deprecations, tools), derived from the
 * schema by the generator. Types only. Revision-independent; copied verbatim into generated output.
 */

import type { Validate } from "./checks.js";

export type { Validate } from "./checks.js";

export interface ClientMethodSpec {
  /** Validates a complete result (the input-required result is checked by `inputRequiredResult`). */
  result: Validate;
  /** Whether the method may answer `input_required`. */
  inputRequired: boolean;
  /** Whether its result carries caching hints. */
  cacheable: boolean;
  /** The param naming the request's target (`name`, `uri`), mirrored in `Mcp-Name`. */
  target: string | null;
}

export interface ClientProtocol {
  revision: string;
  protocolVersion: string;
  lifecycle:
    | {
        kind: "stateless";
        discover: string;
        protocolVersionKey: string;
        clientCapabilitiesKey: string;
      }
    | { kind: "stateful"; initialize: string; initialized: string | null };
  methods: Readonly<Record<string, ClientMethodSpec>>;
  /** Input requests: the client capability each needs. */
  inputRequests: Readonly<Record<string, { capability: string }>>;
  inputRequiredResult: Validate | null;
  resultTypes: { complete: string; inputRequired: string } | null;
  errors: {
    unsupportedVersion: number | null;
    missingCapability: number | null;
    headerMismatch: number | null;
  };
  meta: { clientInfo: string | null; progressToken: string | null; subscriptionId: string | null };
  notifications: { progress: string | null; cancelled: string | null; acknowledged: string | null };
  listen: { method: string } | null;
  /** The liveness request a client answers with an empty result (stateful revisions), or `null`. */
  ping: string | null;
  /**
   * Deprecated features by where they show on the wire, each with the notice reported (once per
   * client) when one is actually used: a deprecated method called, input request answered or
   * notification received, a deprecated client capability both declared and used.
   */
  deprecated: {
    methods: Readonly<Record<string, string>>;
    metaKeys: Readonly<Record<string, string>>;
    clientCapabilities: Readonly<Record<string, string>>;
  };
  /** The tool listing and calling methods, for `x-mcp-header` mirroring; `null` when the revision has none. */
  tools: {
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
  } | null;
}
