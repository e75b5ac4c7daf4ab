/**
 * The state a server shares with the other processes behind one load balancer, and the bus they
 * talk on: what an initialize-era session is (its snapshot), the event log a client resumes its GET
 * stream from (`Last-Event-ID`), the messages the process holding a stream writes to it, the answer
 * to a server request that reaches another process than the one waiting for it, and single-use
 * marks (a `requestState` opened once). A server without a store keeps all of this in its own
 * process, as before; `MemoryStore` is this interface in one process (the contract the Redis one,
 * runtime/store-redis.ts, is tested against). Revision-independent; copied verbatim into generated
 * output.
 */

/**
 * A store call failed because the store cannot be reached (down, stalled past its command
 * timeout, reconnecting): the server answers "busy, retry later" (HTTP 503, JSON-RPC -32000) and
 * keeps serving; the store says once that it is away, not on every call.
 */
export class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";
}

/**
 * Whether `error` is a `StoreUnavailableError`, by its name: the store and the transport may come
 * from two copies of the runtime (a store made by one generated output, a server by another).
 */
export function isStoreUnavailable(error: unknown): boolean {
  return error instanceof Error && error.name === "StoreUnavailableError";
}

/** What a server answers a request a store call failed for: it is not the client's fault, and passes. */
export const STORE_AWAY_MESSAGE = "Server busy: the session store is unavailable; retry later";

/** One event of a log: its id (increasing, `ms-seq`) and the serialized message. */
export interface StoredEvent {
  id: string;
  line: string;
}

export interface Store {
  /** Keeps `value` under `key` for `ttlMs`, replacing what was there. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** The value under `key`; with `ttlMs`, kept that long from now on (a session's last use). */
  get(key: string, ttlMs?: number): Promise<string | undefined>;
  delete(key: string): Promise<void>;
  /** Sets `key` for `ttlMs` only if it is not set: true when this call set it (single use). */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** The time `key` has left to live in ms; undefined when it is not set. */
  ttl(key: string): Promise<number | undefined>;
  /**
   * Adds to a set of strings (an index: the sessions, those subscribed to a resource); with
   * `ttlMs`, the set is kept that long from now on (every set the runtime makes has one, so that
   * one nobody cleans up still goes).
   */
  addMember(key: string, member: string, ttlMs?: number): Promise<void>;
  /**
   * Adds `member` to the set and keeps the set `ttlMs` from now, in one step: its members after
   * (a client's sessions, counted at once by the processes that open them).
   */
  join(key: string, member: string, ttlMs: number): Promise<string[]>;
  removeMember(key: string, member: string): Promise<void>;
  members(key: string): Promise<string[]>;
  /**
   * One page of a set's members, about `count` of them, from `cursor` ("0" to begin): the next
   * cursor is "0" once done. A member there from start to end is listed at least once (maybe
   * twice, as Redis's SSCAN has it), so that a set of any size is walked without holding it whole.
   */
  scan(key: string, cursor: string, count: number): Promise<{ cursor: string; members: string[] }>;
  /** Appends to a log kept for `ttlMs` after its last append, at most `max` events: the new event's id. */
  append(log: string, line: string, max: number, ttlMs: number): Promise<string>;
  /** The events after `after` (exclusive; every one kept when undefined), oldest first. */
  read(log: string, after: string | undefined): Promise<StoredEvent[]>;
  /** Sends `message` to every listener of `channel`, in every process (this one too). */
  publish(channel: string, message: string): Promise<void>;
  /** Listens on `channel` until the returned function is called; resolves once listening. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => void>;
  /**
   * Tells `listener` whenever the store may have failed or missed something: a call it could not
   * make, a connection lost or back (a bus message may have gone by unheard). What a process holds
   * on the bus's word is read again after it. Until the returned function is called; a store that
   * cannot fail (one process's memory) need not have it.
   */
  onTrouble?(listener: () => void): () => void;
  /** Ends the store's connections. */
  close(): Promise<void>;
}

/** Event ids are `ms-seq`, as Redis Streams make them; a client's `Last-Event-ID` must be one too. */
const EVENT_ID = /^(\d{1,16})-(\d{1,16})$/;

export function isEventId(value: string): boolean {
  return EVENT_ID.test(value);
}

/** Orders two event ids (negative: `a` is older). */
export function compareEventIds(a: string, b: string): number {
  const [, am = "0", as = "0"] = EVENT_ID.exec(a) ?? [];
  const [, bm = "0", bs = "0"] = EVENT_ID.exec(b) ?? [];
  return Number(am) - Number(bm) || Number(as) - Number(bs);
}

/**
 * The names the runtime keeps its shared state under, in one place: the transport and the session
 * layer both reach a session's log and the bus through them.
 */
export const STORE_KEYS = {
  /** A session's snapshot (owner, what the dispatcher keeps). */
  session: (id: string) => `session:${id}`,
  /** The events of a session's GET stream, for resumption. */
  events: (id: string) => `events:${id}`,
  /** The open sessions of one initialize-era protocol version (for list-change notifications). */
  sessions: (version: string) => `sessions:${version}`,
  /** The sessions of one protocol version subscribed to a resource. */
  subscribers: (version: string, uri: string) => `subscribers:${version}:${uri}`,
  /** The sessions one client opened (its principal, else its address's network), for its quota. */
  clientSessions: (client: string) => `client-sessions:${client}`,
  /** A `requestState` opened once. */
  opened: (tag: string) => `opened:${tag}`,
  /** Channel: an event appended to a session's log (`{ session, id, line }`), for the process holding its stream. */
  eventsChannel: "events",
  /** Channel: a client's response to, or cancellation of, a request a process waits on (`{ session, message }`). */
  controlChannel: "control",
  /** Channel: a notification published by one process for the listen streams of the others (`{ from, notification }`). */
  publishChannel: "publish",
  /** Channel: a session's snapshot changed or the session ended (`{ session, from }`): the other processes' copies are no longer to be trusted. */
  sessionsChannel: "sessions",
} as const;

/** The store in one process: what a server without one does, behind the shared interface. */
export class MemoryStore implements Store {
  private readonly values = new Map<string, { value: string; expires: number }>();
  private readonly sets = new Map<string, Set<string>>();
  /** When a set kept for a time (`join`) expires. */
  private readonly setExpiry = new Map<string, number>();
  private readonly logs = new Map<
    string,
    { events: StoredEvent[]; expires: number; last: number; seq: number }
  >();
  private readonly channels = new Map<string, Set<(message: string) => void>>();

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.values.set(key, { value, expires: Date.now() + ttlMs });
  }

  async get(key: string, ttlMs?: number): Promise<string | undefined> {
    const entry = this.values.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.values.delete(key);
      return undefined;
    }
    if (ttlMs !== undefined) entry.expires = Date.now() + ttlMs;
    return entry.value;
  }

  async ttl(key: string): Promise<number | undefined> {
    const entry = this.values.get(key);
    const left = entry ? entry.expires - Date.now() : 0;
    return left > 0 ? left : undefined;
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
    this.sets.delete(key);
    this.setExpiry.delete(key);
    this.logs.delete(key);
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    // Checked and set in one turn: claims made at once must not both see the key absent.
    const entry = this.values.get(key);
    if (entry && entry.expires > Date.now()) return false;
    this.values.set(key, { value: "1", expires: Date.now() + ttlMs });
    return true;
  }

  async addMember(key: string, member: string, ttlMs?: number): Promise<void> {
    this.expire(key);
    let set = this.sets.get(key);
    if (!set) this.sets.set(key, (set = new Set()));
    set.add(member);
    if (ttlMs !== undefined) this.setExpiry.set(key, Date.now() + ttlMs);
  }

  async join(key: string, member: string, ttlMs: number): Promise<string[]> {
    await this.addMember(key, member, ttlMs);
    return [...this.sets.get(key)!];
  }

  async removeMember(key: string, member: string): Promise<void> {
    const set = this.sets.get(key);
    set?.delete(member);
    if (set?.size !== 0) return;
    this.sets.delete(key);
    this.setExpiry.delete(key);
  }

  async members(key: string): Promise<string[]> {
    this.expire(key);
    return [...(this.sets.get(key) ?? [])];
  }

  /** The whole set in one page: it is in this process's memory already, and a page of it could skip a member another call removed. */
  async scan(key: string): Promise<{ cursor: string; members: string[] }> {
    return { cursor: "0", members: await this.members(key) };
  }

  /** Drops a set kept for a time once the time is up. */
  private expire(key: string): void {
    const expires = this.setExpiry.get(key);
    if (expires === undefined || expires > Date.now()) return;
    this.sets.delete(key);
    this.setExpiry.delete(key);
  }

  async append(log: string, line: string, max: number, ttlMs: number): Promise<string> {
    const now = Date.now();
    let entry = this.logs.get(log);
    if (!entry || entry.expires <= now)
      this.logs.set(log, (entry = { events: [], expires: 0, last: 0, seq: 0 }));
    // Ids as Redis makes them: the time, and a sequence within one millisecond.
    if (now > entry.last) {
      entry.last = now;
      entry.seq = 0;
    } else entry.seq++;
    const id = `${entry.last}-${entry.seq}`;
    entry.events.push({ id, line });
    if (entry.events.length > max) entry.events.splice(0, entry.events.length - max);
    entry.expires = now + ttlMs;
    return id;
  }

  async read(log: string, after: string | undefined): Promise<StoredEvent[]> {
    const entry = this.logs.get(log);
    if (!entry || entry.expires <= Date.now()) return [];
    return entry.events.filter((e) => after === undefined || compareEventIds(e.id, after) > 0);
  }

  async publish(channel: string, message: string): Promise<void> {
    // Delivered on a later turn, as a message from the network would be.
    const listeners = [...(this.channels.get(channel) ?? [])];
    queueMicrotask(() => {
      for (const listener of listeners) listener(message);
    });
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => void> {
    let set = this.channels.get(channel);
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}
