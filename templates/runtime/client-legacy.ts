/**
 * The initialize era, spoken by a client of a stateless (per-request `_meta`) revision: how a
 * modern call becomes a request on a legacy session and how its answer, once checked against the
 * legacy revision's validators, becomes the modern result. Everything revision-specific comes from
 * the `LegacyEra` descriptions the generator derives from the legacy revisions' schemas and their
 * diff with the modern one (`generator/derive/client-eras.ts`). Revision-independent; copied
 * verbatim into generated output.
 */
import type { Validate } from "./client-protocol.js";
import { isRecord } from "./jsonrpc.js";

/** One legacy revision the client was generated for (`--legacy`). */
export interface LegacyEra {
  revision: string;
  protocolVersion: string;
  initialize: string;
  initialized: string | null;
  initializeResult: Validate;
  /** Modern methods the revision has: the legacy result's validator, and the modern fields put back (with their value). */
  methods: Readonly<Record<string, { result: Validate; fill: Readonly<Record<string, unknown>> }>>;
  /** The modern discovery request, answered from the handshake's result; `null` when it cannot be. */
  discover: {
    method: string;
    fields: Readonly<Record<string, { version: true } | { field: string } | { value: unknown }>>;
    info: { metaKey: string; field: string } | null;
  } | null;
  /** The liveness request the server may send; answered with the empty result. */
  ping: string | null;
  /** Requests the server sends on the wire that an input handler answers, with the capability each needs. */
  serverRequests: Readonly<Record<string, { capability: string; response: Validate }>>;
  progressTokenKey: string | null;
  cancelled: string | null;
}

/** A legacy session as the client holds it: the era the server agreed to and what its handshake said. */
export interface LegacySession {
  era: LegacyEra;
  handshake: Record<string, unknown>;
}

/** The era whose protocol version the server answered, or `undefined` when the client has none. */
export function eraOf(eras: readonly LegacyEra[], version: unknown): LegacyEra | undefined {
  return eras.find((era) => era.protocolVersion === version);
}

/**
 * A modern call's params as the legacy request carries them: the caller's own `_meta` keys kept,
 * the modern protocol keys (`modernKeys`) left out, the progress token under the legacy key.
 */
export function legacyParams(
  era: LegacyEra,
  params: Record<string, unknown>,
  modernKeys: ReadonlySet<string>,
  progressToken: string | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = Object.assign({}, params);
  const meta: Record<string, unknown> = {};
  if (isRecord(params._meta))
    for (const [key, value] of Object.entries(params._meta))
      if (!modernKeys.has(key)) meta[key] = value;
  if (progressToken !== undefined && era.progressTokenKey)
    meta[era.progressTokenKey] = progressToken;
  if (Object.keys(meta).length > 0) out._meta = meta;
  else delete out._meta;
  return out;
}

/** A legacy result, already checked, as the modern result: the fields the modern type requires put back where absent. */
export function modernResult(
  fill: Readonly<Record<string, unknown>>,
  result: Record<string, unknown>,
): Record<string, unknown> {
  for (const [field, value] of Object.entries(fill))
    if (result[field] === undefined) result[field] = value;
  return result;
}

/** The modern server description, built from the legacy handshake's result. */
export function describeSession(
  session: LegacySession,
  discover: NonNullable<LegacyEra["discover"]>,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [field, source] of Object.entries(discover.fields)) {
    const value =
      "version" in source
        ? [session.era.protocolVersion]
        : "field" in source
          ? session.handshake[source.field]
          : source.value;
    if (value !== undefined) result[field] = value;
  }
  if (discover.info && session.handshake[discover.info.field] !== undefined)
    result._meta = { [discover.info.metaKey]: session.handshake[discover.info.field] };
  return result;
}
