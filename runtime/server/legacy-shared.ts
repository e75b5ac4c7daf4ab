/**
 * Initialize-era sessions shared by several processes through a `Store` (runtime/store.ts): the
 * indexes that say which sessions a notification goes to (every open session of a protocol
 * version for a list change, those subscribed to a resource for its update), so that the process
 * that publishes reaches sessions whose streams other processes hold; and the bus on which a
 * client's answer to a server request (an elicitation), or its cancellation of a request, reaches
 * the process that waits for it, when the load balancer sent it elsewhere. Every index has a time
 * to live, renewed while a session in it is used, so that indexes nobody cleans up (every process
 * gone) still go; ids of sessions that expired are swept from the session indexes on a timer, not
 * only when a notification is published; a notification walks its index a page at a time, never
 * holding it whole. Revision-independent; copied verbatim into generated output.
 */
import type { JsonRpcNotification } from "../shared/jsonrpc.js";
import { isStoreUnavailable, STORE_KEYS, type Store } from "./store.js";
import { SESSION_ID } from "./transport.js";
import type { LegacyEra } from "../shared/protocol.js";

/** What the shared layer needs of a session. */
export interface SharedSession {
  readonly protocol: LegacyEra;
  readonly subscriptions: ReadonlySet<string>;
  readonly record: Record<string | symbol, unknown>;
  /** When this process last renewed the session's indexes (ms since the epoch; 0: never). */
  indexesRenewed: number;
}

/** Members of an index handled at once: what a publish or a sweep holds in memory, and in flight. */
export const INDEX_PAGE = 500;

/** What the shared layer needs of the process's sessions. */
export interface SharedHost<S extends SharedSession> {
  /** The session `id` names, when this process has a copy of it. */
  find(id: string): S | undefined;
  /** A message another process took for one of this process's requests; false when none here waits for it. */
  received(session: S, message: Record<string, unknown>): boolean;
  log(message: string): void;
}

/** The id a transport that shares sessions gave this one; undefined for a session of one process (stdio). */
export function sharedId(session: SharedSession): string | undefined {
  const id = session.record[SESSION_ID];
  return typeof id === "string" ? id : undefined;
}

export class SharedLegacy<S extends SharedSession> {
  private stop: (() => void) | null = null;
  private closed = false;
  private readonly sweeper: ReturnType<typeof setInterval>;
  /** A sweep is running: the next tick waits for it rather than start another. */
  private sweeping = false;
  /**
   * An index's time to live: a session's, and a quarter more. A session renews its indexes at most
   * once a quarter of its time to live (`renew`), so an index outlives every session still in it.
   */
  private readonly indexTtlMs: number;

  constructor(
    private readonly store: Store,
    /** The transport's way to a session by id (its event log, then whichever process holds its stream). */
    private readonly send: (id: string, message: JsonRpcNotification) => Promise<void>,
    private readonly host: SharedHost<S>,
    /** The protocol versions whose session indexes this process sweeps. */
    private readonly versions: readonly string[],
    /** A session's time to live in the store from its last request (the transport's `idleMs`). */
    private readonly sessionTtlMs: number,
    /** How often the session indexes are swept of expired ids; default a quarter of `sessionTtlMs`, at most a minute. */
    sweepMs = Math.min(60_000, Math.max(1_000, sessionTtlMs / 4)),
  ) {
    this.indexTtlMs = Math.ceil(sessionTtlMs * 1.25);
    store
      .subscribe(STORE_KEYS.controlChannel, (text) => this.control(text))
      .then((stop) => {
        if (this.closed) stop();
        else this.stop = stop;
      })
      .catch((error: unknown) => host.log(`mcp-gen server: the store's bus: ${String(error)}`));
    this.sweeper = setInterval(() => void this.sweep(), sweepMs);
    this.sweeper.unref?.();
  }

  /** The session was opened: list changes reach it from now on. */
  async joined(session: S): Promise<void> {
    const id = sharedId(session);
    if (!id) return;
    session.indexesRenewed = Date.now();
    await this.store.addMember(
      STORE_KEYS.sessions(session.protocol.protocolVersion),
      id,
      this.indexTtlMs,
    );
  }

  /** The session subscribed to (or unsubscribed from) a resource. */
  async subscribed(session: S, uri: string, on: boolean): Promise<void> {
    const id = sharedId(session);
    if (!id) return;
    const key = STORE_KEYS.subscribers(session.protocol.protocolVersion, uri);
    await (on ? this.store.addMember(key, id, this.indexTtlMs) : this.store.removeMember(key, id));
  }

  /**
   * The session was used (a request of its, in any process): the indexes it is in are kept as
   * long as it is, renewed at most once a quarter of its time to live (a few commands per session
   * per quarter, not per request). Adding again also puts back an id a sweep took too early.
   */
  renew(session: S): Promise<void> | undefined {
    const id = sharedId(session);
    const now = Date.now();
    // Asked on every request of a shared session: undefined (no promise made) until it is due.
    if (!id || now - session.indexesRenewed < this.sessionTtlMs / 4) return undefined;
    session.indexesRenewed = now;
    return this.addToIndexes(session, id);
  }

  private async addToIndexes(session: S, id: string): Promise<void> {
    const version = session.protocol.protocolVersion;
    const keys = [
      STORE_KEYS.sessions(version),
      ...[...session.subscriptions].map((uri) => STORE_KEYS.subscribers(version, uri)),
    ];
    for (let i = 0; i < keys.length; i += INDEX_PAGE)
      await Promise.all(
        keys.slice(i, i + INDEX_PAGE).map((key) => this.store.addMember(key, id, this.indexTtlMs)),
      );
  }

  /**
   * Takes the ids of sessions that expired out of every session index, a page at a time: without
   * it they would stay until the next list change is published, however long that is.
   */
  async sweep(): Promise<number> {
    if (this.sweeping || this.closed) return 0;
    this.sweeping = true;
    let removed = 0;
    try {
      for (const version of this.versions)
        removed += (await this.walk(STORE_KEYS.sessions(version), null)).removed;
    } catch (error) {
      // An outage is said by the store, once; the next tick tries again.
      if (!isStoreUnavailable(error))
        this.host.log(`mcp-gen server: sweeping the session indexes: ${String(error)}`);
    } finally {
      this.sweeping = false;
    }
    return removed;
  }

  /**
   * Walks index `key` a page at a time: each live session gets `form` (when there is one), each
   * expired one leaves the index. Each page is done before the next is read: memory and the
   * commands in flight stay at one page, and other requests are served between pages.
   */
  private async walk(
    key: string,
    form: JsonRpcNotification | null,
  ): Promise<{ sent: number; removed: number }> {
    let sent = 0;
    let removed = 0;
    let cursor = "0";
    do {
      const page = await this.store.scan(key, cursor, INDEX_PAGE);
      cursor = page.cursor;
      const ids = [...new Set(page.members)];
      for (let i = 0; i < ids.length; i += INDEX_PAGE) {
        const batch = ids.slice(i, i + INDEX_PAGE);
        const alive = await Promise.all(
          batch.map(async (id) => (await this.store.ttl(STORE_KEYS.session(id))) !== undefined),
        );
        await Promise.all(
          batch.map((id, j) => {
            if (!alive[j]) return this.store.removeMember(key, id);
            return form ? this.send(id, form) : undefined;
          }),
        );
        const live = alive.filter(Boolean).length;
        if (form) sent += live;
        removed += batch.length - live;
      }
    } while (cursor !== "0" && !this.closed);
    return { sent, removed };
  }

  /** The session ended: no index names it any more. */
  async left(session: S): Promise<void> {
    const id = sharedId(session);
    if (!id) return;
    const version = session.protocol.protocolVersion;
    await Promise.all([
      this.store.removeMember(STORE_KEYS.sessions(version), id),
      ...[...session.subscriptions].map((uri) =>
        this.store.removeMember(STORE_KEYS.subscribers(version, uri), id),
      ),
    ]);
  }

  /**
   * Sends a notification to the shared sessions it concerns, whichever process holds them: for each
   * protocol version that has it, `message` gives its form there (or null when it has none).
   */
  async publish(
    protocols: readonly LegacyEra[],
    notification: { method: string; params?: Record<string, unknown> },
    message: (protocol: LegacyEra) => JsonRpcNotification | null,
  ): Promise<number> {
    let sent = 0;
    for (const protocol of protocols) {
      const form = message(protocol);
      if (!form) continue;
      const version = protocol.protocolVersion;
      const subscribe = protocol.subscribe;
      let key: string;
      if (subscribe?.notification === notification.method) {
        const uri = notification.params?.[subscribe.param];
        if (typeof uri !== "string") continue;
        key = STORE_KEYS.subscribers(version, uri);
      } else key = STORE_KEYS.sessions(version);
      // A session that expired (idle) and is still in the index is dropped from it on the way.
      sent += (await this.walk(key, form)).sent;
    }
    return sent;
  }

  /** A message for a request this process does not hold: to the process that does. */
  async forward(session: S, message: Record<string, unknown>): Promise<void> {
    const id = sharedId(session);
    if (!id) return;
    await this.store.publish(STORE_KEYS.controlChannel, JSON.stringify({ session: id, message }));
  }

  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    this.stop?.();
  }

  private control(text: string): void {
    let forwarded: { session?: unknown; message?: unknown };
    try {
      forwarded = JSON.parse(text) as typeof forwarded;
    } catch {
      return;
    }
    const { session: id, message } = forwarded;
    if (typeof id !== "string" || typeof message !== "object" || message === null) return;
    const session = this.host.find(id);
    if (session) this.host.received(session, message as Record<string, unknown>);
  }
}
