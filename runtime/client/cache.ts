/**
 * The client's opt-in result cache: results whose caching hints (a time to live and a scope, under
 * the revision's names) allow it, keyed by method and params. Browser-safe. Revision-independent; copied verbatim into generated
 * output.
 */
import { isRecord } from "../shared/jsonrpc.js";

/** A stable key for params: JSON with object keys sorted. */
export function stableKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableKey).join(",")}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableKey(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

interface CacheEntry {
  expires: number;
  result: Record<string, unknown>;
}

/**
 * Cached results. Private entries live in the client instance that fetched them; public entries
 * are shared by every client whose transport names the same server (`cacheKey`), or kept in the
 * instance when the transport names none. Entries expire after the result's time to live (0: never
 * cached); past `maxEntries` the oldest go first.
 */
export class Cache {
  private static readonly shared = new Map<string, Map<string, CacheEntry>>();
  private readonly own = new Map<string, CacheEntry>();
  private readonly publicEntries: Map<string, CacheEntry>;

  constructor(
    private readonly maxEntries: number,
    serverKey: string | undefined,
    /** The result fields holding the caching hints, as the revision names them. */
    private readonly hints: { ttl: string; scope: string },
  ) {
    if (serverKey === undefined) this.publicEntries = new Map();
    else {
      let shared = Cache.shared.get(serverKey);
      if (!shared) Cache.shared.set(serverKey, (shared = new Map()));
      this.publicEntries = shared;
    }
  }

  get(key: string): Record<string, unknown> | undefined {
    const now = Date.now();
    for (const store of [this.own, this.publicEntries]) {
      const entry = store.get(key);
      if (!entry) continue;
      if (entry.expires > now) return structuredClone(entry.result);
      store.delete(key);
    }
    return undefined;
  }

  set(key: string, result: Record<string, unknown>): void {
    const ttl = result[this.hints.ttl];
    if (typeof ttl !== "number" || !(ttl > 0)) return;
    const store = result[this.hints.scope] === "public" ? this.publicEntries : this.own;
    store.delete(key);
    store.set(key, { expires: Date.now() + ttl, result: structuredClone(result) });
    while (store.size > this.maxEntries) store.delete(store.keys().next().value!);
  }

  clear(): void {
    this.own.clear();
    this.publicEntries.clear();
  }
}

/** The cache the client's `cache` option asks for (default 256 entries); none when off, or when the revision has no caching hints (nothing is cacheable). */
export function clientCache(
  option: boolean | { maxEntries?: number } | undefined,
  serverKey: string | undefined,
  hints: { ttl: string; scope: string } | null,
): Cache | null {
  if (!option || !hints) return null;
  return new Cache(typeof option === "object" ? (option.maxEntries ?? 256) : 256, serverKey, hints);
}
