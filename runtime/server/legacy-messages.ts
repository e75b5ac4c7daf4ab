/**
 * Messages translated between the eras on a legacy session: the metadata a legacy request stands
 * for in the modern revision (the session's version, capabilities and log level, the request's own
 * keys renamed), and a modern result or notification put into the legacy shape (the fields and
 * metadata keys only the modern revision has left out, the keys the legacy revision names
 * otherwise renamed). The metadata field is the one the protocol description names
 * (`envelope.meta`): the same in every revision a server speaks. Revision-independent; copied
 * verbatim into generated output.
 */
import { isRecord } from "../shared/jsonrpc.js";
import type { JsonRpcNotification } from "../shared/jsonrpc.js";
import { LazyAbort, type Delivery } from "./transport.js";
import type { Principal } from "../auth/http-auth.js";
import type { LegacyEra } from "../shared/protocol.js";
import type { LegacySession } from "./legacy-session.js";
import type { LegacyCall } from "./legacy-host.js";

/**
 * The modern metadata a legacy request stands for: the session's version, capabilities and log
 * level, and the request's own keys renamed.
 */
export function modernMeta(
  session: LegacySession,
  sent: unknown,
  modern: {
    protocolVersion: string;
    requestMeta: { protocolVersionKey: string; clientCapabilitiesKey: string };
  },
): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  const legacy = isRecord(sent) ? sent : {};
  for (const key of session.protocol.metaKeys) {
    if (key.legacy !== null && legacy[key.legacy] !== undefined)
      meta[key.modern] = legacy[key.legacy];
    else if (key.role === "clientInfo" && session.clientInfo !== undefined)
      meta[key.modern] = session.clientInfo;
    else if (key.role === "logLevel" && session.logLevel !== null)
      meta[key.modern] = session.logLevel;
  }
  meta[modern.requestMeta.protocolVersionKey] = modern.protocolVersion;
  meta[modern.requestMeta.clientCapabilitiesKey] = session.clientCapabilities;
  return meta;
}

/** Metadata with the keys the legacy revision lacks removed (and renamed where it has them under another name). */
export function legacyMeta(
  protocol: LegacyEra,
  meta: Record<string, unknown>,
): Record<string, unknown> {
  const kept: Record<string, unknown> = { ...meta };
  for (const key of protocol.metaKeys) {
    if (!(key.modern in kept)) continue;
    const value = kept[key.modern];
    delete kept[key.modern];
    if (key.legacy !== null) kept[key.legacy] = value;
  }
  return kept;
}

/**
 * A handler's result in the legacy shape: the fields only the modern revision has (`resultType`,
 * caching hints) left out, and the metadata keys the legacy revision lacks removed (an empty
 * metadata object left out). Built key by key: deleting from a copy would turn it into a slow
 * dictionary object.
 */
export function legacyResult(
  call: LegacyCall,
  result: Record<string, unknown>,
  metaField: string,
  method: string,
): Record<string, unknown> {
  const shaped: Record<string, unknown> = {};
  const drop = call.method.drop;
  for (const key in result) {
    if (!Object.hasOwn(result, key) || drop.includes(key)) continue;
    const value = result[key];
    if (key !== metaField || !isRecord(value)) shaped[key] = value;
    else {
      const meta = legacyMeta(call.protocol, value);
      if (Object.keys(meta).length > 0) shaped[metaField] = meta;
    }
  }
  const keywords = call.protocol.toolSchemaKeywords;
  if (keywords && method === keywords.list && Array.isArray(shaped[keywords.items]))
    shaped[keywords.items] = (shaped[keywords.items] as unknown[]).map((tool) =>
      isRecord(tool) && isRecord(tool[keywords.schema])
        ? { ...tool, [keywords.schema]: withoutKeywords(tool[keywords.schema], keywords.drop) }
        : tool,
    );
  return shaped;
}

/**
 * A tool's input schema without the keywords its revision lacks (`drop`), on the schema itself
 * and on every property schema reached through `properties`, where the protocol's keywords go (a
 * property named like a keyword is a name, and stays). Copied where it changes: the handler's
 * definition is left as it is, for the modern sessions it is also served to.
 */
function withoutKeywords(schema: unknown, drop: readonly string[]): unknown {
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const key in schema) {
    if (!Object.hasOwn(schema, key) || drop.includes(key)) continue;
    const value = schema[key];
    // A data property: a key such as `__proto__` stays data.
    Object.defineProperty(out, key, {
      value:
        key === "properties" && isRecord(value)
          ? Object.fromEntries(
              Object.entries(value).map(([name, sub]) => [name, withoutKeywords(sub, drop)]),
            )
          : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A modern notification as a legacy revision sends it. */
export function legacyMessage(
  protocol: LegacyEra,
  notification: { method: string; params?: Record<string, unknown> },
  metaField: string,
): JsonRpcNotification {
  const params = legacyParams(protocol, notification.params, metaField);
  return params
    ? { jsonrpc: "2.0", method: notification.method, params }
    : { jsonrpc: "2.0", method: notification.method };
}

/** A modern notification's params with the metadata keys the legacy revision lacks removed. */
function legacyParams(
  protocol: LegacyEra,
  params: Record<string, unknown> | undefined,
  metaField: string,
): Record<string, unknown> | undefined {
  const meta = params?.[metaField];
  if (!params || !isRecord(meta)) return params;
  return withField(params, metaField, legacyMeta(protocol, meta));
}

/**
 * `{ ...record, [field]: value }` for the model's own field names (`field` is assigned), without
 * the spread: V8 copies an object `JSON.parse` built by spread through its slow path (on the legacy
 * request path, 1.1 against 0.39 µs, and a slower params check of the copy). Only an own
 * `__proto__` key, which `Object.assign` would make the copy's prototype, takes the spread.
 */
export function withField(
  record: Record<string, unknown>,
  field: string,
  value: unknown,
): Record<string, unknown> {
  const copy: Record<string, unknown> = Object.hasOwn(record, "__proto__")
    ? { ...record }
    : Object.assign({}, record);
  copy[field] = value;
  return copy;
}

/**
 * What a handler's request sees of its transport on a legacy session: its notifications are those
 * of the legacy revision (others are dropped), with the legacy metadata keys.
 */
export class LegacyDelivery extends LazyAbort implements Delivery {
  private linked = false;

  constructor(
    private readonly inner: Delivery,
    private readonly legacySession: LegacySession,
    private readonly metaField: string,
  ) {
    super();
  }

  /** Aborted when the transport's is (the client went away) or the client cancels the request by id. */
  override get signal(): AbortSignal {
    if (!this.linked) {
      this.linked = true;
      const inner = this.inner.signal;
      if (inner.aborted) this.abort(inner.reason);
      else inner.addEventListener("abort", () => this.abort(inner.reason), { once: true });
    }
    return super.signal;
  }

  get session(): Record<string, unknown> {
    return this.legacySession.record as Record<string, unknown>;
  }

  /** Who the transport authenticated the request as: a legacy handler is as bound to it as a modern one. */
  get principal(): string | undefined {
    return this.inner.principal;
  }

  get auth(): Principal | undefined {
    return this.inner.auth;
  }

  notify(notification: JsonRpcNotification): void {
    const { protocol } = this.legacySession;
    if (!protocol.notifications.includes(notification.method)) return;
    const params = legacyParams(protocol, notification.params, this.metaField);
    this.inner.notify(
      params && params !== notification.params ? { ...notification, params } : notification,
    );
  }

  /** Where a request to the client goes: the underlying transport, as it is. */
  get raw(): Delivery {
    return this.inner;
  }
}
