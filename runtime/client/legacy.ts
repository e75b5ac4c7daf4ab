/**
 * The initialize era, spoken by a client of a stateless (per-request `_meta`) revision: how a
 * modern call becomes a request on a legacy session and how its answer, once checked against the
 * legacy revision's validators, becomes the modern result. Everything revision-specific comes from
 * the eras (`LegacyEra`, `runtime/protocol.ts`) the generator derives from the legacy revisions'
 * schemas and their diff with the modern one (`generator/derive/eras.ts`). Revision-independent; copied
 * verbatim into generated output.
 */
import type { ClientProtocol } from "./protocol.js";
import { isRecord, type JsonRpcNotification } from "../shared/jsonrpc.js";
import { legacyMetaKey, type LegacyEra } from "../shared/protocol.js";

export { legacyMetaKey, type LegacyEra };

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
 * A modern call's params as the legacy request carries them: the caller's own `_meta` keys kept
 * (under `metaField`, the description's name for `_meta`), the modern protocol keys
 * (`modernKeys`) left out, the progress token under the legacy key.
 */
export function legacyParams(
  era: LegacyEra,
  params: Record<string, unknown>,
  metaField: string,
  modernKeys: ReadonlySet<string>,
  progressToken: string | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = Object.assign({}, params);
  const meta: Record<string, unknown> = {};
  const given = params[metaField];
  if (isRecord(given))
    for (const [key, value] of Object.entries(given)) if (!modernKeys.has(key)) meta[key] = value;
  const progressTokenKey = legacyMetaKey(era, "progressToken");
  if (progressToken !== undefined && progressTokenKey) meta[progressTokenKey] = progressToken;
  if (Object.keys(meta).length > 0) out[metaField] = meta;
  else delete out[metaField];
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
  metaField: string,
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
    result[metaField] = { [discover.info.metaKey]: session.handshake[discover.info.field] };
  return result;
}

/** A modern listen filter as a legacy session can honour it. */
export interface LegacyListen {
  /** The part of the filter the session honours: what the modern acknowledgement would report. */
  honoured: Record<string, unknown>;
  /** The resources to subscribe to, one legacy request each (none when the revision cannot). */
  resources: string[];
  /** Whether a notification of the session is one the filter asked for. */
  wants(notification: JsonRpcNotification): boolean;
}

/**
 * What a legacy session gives a modern listen filter. A legacy server sends list changes (and the
 * rest) to the whole session unasked, and resource updates only after the per-resource subscribe:
 * a filter key is honoured when the revision has its notification and the server declared the
 * capability flag it needs; a list of resources only where the revision can subscribe to them.
 */
export function legacyListen(
  session: LegacySession,
  listen: NonNullable<ClientProtocol["listen"]>,
  filter: Record<string, unknown>,
): LegacyListen {
  const { era, handshake } = session;
  const capabilities =
    era.serverCapabilities !== null && isRecord(handshake[era.serverCapabilities])
      ? handshake[era.serverCapabilities]
      : {};
  const declares = ([name, flag]: readonly [string, string]): boolean => {
    const declared = (capabilities as Record<string, unknown>)[name];
    return isRecord(declared) && declared[flag] === true;
  };
  const honoured: Record<string, unknown> = {};
  const whole = new Set<string>();
  const resources: string[] = [];
  for (const [key, entry] of Object.entries(listen.filter)) {
    const asked = filter[key];
    if (!era.notifications.includes(entry.notification)) continue;
    if (Array.isArray(asked)) {
      const subscribe = era.subscribe;
      if (!subscribe || subscribe.notification !== entry.notification) continue;
      if (!declares(subscribe.capability)) continue;
      const uris = asked.filter((uri): uri is string => typeof uri === "string");
      if (uris.length === 0) continue;
      honoured[key] = uris;
      resources.push(...uris.filter((uri) => !resources.includes(uri)));
    } else if (asked === true && declares(entry.capability)) {
      honoured[key] = true;
      whole.add(entry.notification);
    }
  }
  return {
    honoured,
    resources,
    wants: (notification) => {
      if (whole.has(notification.method)) return true;
      const subscribe = era.subscribe;
      const uri = notification.params?.[subscribe?.param ?? ""];
      return (
        subscribe !== null &&
        notification.method === subscribe.notification &&
        typeof uri === "string" &&
        resources.some((resource) => within(uri, resource))
      );
    },
  };
}

/** Whether `uri` is the resource subscribed to or one of its sub-resources (the server may name either). */
function within(uri: string, resource: string): boolean {
  return uri === resource || uri.startsWith(resource.endsWith("/") ? resource : `${resource}/`);
}
