/**
 * The HTTP transport's sessions when the handler has a `Store` (runtime/store.ts): kept there, so
 * that each of several processes behind a load balancer, round-robin, serves any session. A
 * session is its owner and the handler's snapshot of its record, read on each of its requests (and
 * its time to live renewed) and written back when a request changed it, before the response goes;
 * what the server sends outside any request is appended to the session's event log and announced on
 * the bus, and the process holding the session's GET stream writes it there, after replaying what
 * a resuming client (`Last-Event-ID`) missed, from whichever process it was sent by. A process keeps
 * its copy of a session's record for what cannot be shared (requests waiting for the client),
 * bounded. Revision-independent; copied verbatim into generated output.
 */
import type { HttpOut } from "../../shared/http-wire.js";
import { randomUUID } from "../../shared/builtins.js";
import type { JsonRpcNotification } from "../../shared/jsonrpc.js";
import { compareEventIds, isEventId, STORE_KEYS, type Store } from "../store.js";
import { SESSION_ID, SESSION_SEND, unrefTimer, type MessageHandler } from "../transport.js";

export interface SharedSessionOptions {
  /** Session copies a process keeps (least recently used forgotten first). */
  max: number;
  /** Sessions one client keeps in the store, whichever processes opened them (its own least recently used forgotten first). */
  maxPerClient: number;
  /** A session's time to live in the store from its last request. */
  idleMs: number;
  /** Events of a session's log kept for resumption. */
  replay: number;
  sseHeaders: Readonly<Record<string, string>>;
  log(message: string): void;
}

/** A process's copy of one session. */
interface Copy {
  record: Record<string | symbol, unknown>;
  /** The session as last read or written, as stored (owner and snapshot): a request that leaves it so writes nothing. */
  saved: string;
  /** `saved`, parsed: what a trusted copy is restored from without reading the store. */
  owner: string | undefined;
  state: unknown;
  /** When the store last confirmed the copy (read or written). */
  confirmed: number;
  /**
   * The process's trust epoch when that read or write began (`null`: not to be trusted; another
   * process changed the session since): a copy of the current epoch, confirmed less than
   * `trustMs` ago, is served without a read.
   */
  epoch: number | null;
}

/** The GET stream a process holds for a session. */
interface Held {
  res: HttpOut;
  /**
   * The last event the client had when the stream went live: the one it resumed after, or the last
   * the replay wrote. A live event at or before it was in the log when the log was read (the client
   * has it) and is not written again; every other one is, in the order it is announced, which is
   * not the log's when two processes send to the session at once.
   */
  upTo: string | undefined;
  /** Live events that came while the log was being replayed; `null` once it has been. */
  waiting: Array<{ id: string; line: string }> | null;
  keepAlive: ReturnType<typeof setInterval> | undefined;
}

/** Longest a copy is served without reading the store (less when sessions live shorter). */
const TRUST_MS = 1000;

interface Saved {
  owner: string | null;
  state: unknown;
}

export class SharedSessions {
  private readonly copies = new Map<string, Copy>();
  private readonly streams = new Map<string, Held>();
  private listening: Promise<void> | null = null;
  private unlisten: (() => void) | null = null;
  /** Tells this process's changes apart from the others' on the sessions channel. */
  private readonly origin = randomUUID();
  /**
   * `null` until this process hears the sessions channel (only then is a copy served without a
   * read); then a count of the store's troubles (a failed call, a connection lost or back: a
   * change may have gone by unheard), which distrusts every copy confirmed before.
   */
  private epoch: number | null = null;
  private readonly unwatch: (() => void) | undefined;
  private unhear: (() => void) | null = null;
  private closed = false;
  /** How long a copy confirmed by the store is served without reading it again. */
  private readonly trustMs: number;

  constructor(
    private readonly store: Store,
    private readonly handler: MessageHandler,
    private readonly options: SharedSessionOptions,
  ) {
    handler.shareSessions?.((id, message) => this.send(id, message), options.idleMs);
    // Each request read its session from the store (one round trip before any work). A copy is
    // served from this process instead while the bus says nobody changed it; it is read again at
    // least every `trustMs` (which renews its time to live, and bounds what a lost bus message
    // could cost), and at once after another process wrote or ended it.
    this.trustMs = Math.min(TRUST_MS, options.idleMs / 4);
    this.unwatch = store.onTrouble?.(() => {
      if (this.epoch !== null) this.epoch++;
    });
    store
      .subscribe(STORE_KEYS.sessionsChannel, (text) => this.changed(text))
      .then(
        (stop) => {
          if (this.closed) return stop();
          this.unhear = stop;
          this.epoch = 0;
        },
        (error: unknown) =>
          options.log(
            `mcp http: not hearing of session changes (every request reads its session): ${String(error)}`,
          ),
      );
  }

  /**
   * The record of session `id` when `owner` opened it (else undefined: unknown, ended, or
   * another's): at once from a trusted copy (the request goes on in the same turn, as it does
   * without a store), else once the store has been read.
   */
  resolve(
    id: string,
    owner: string | undefined,
  ): Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined> {
    const known = this.copies.get(id);
    if (
      known !== undefined &&
      known.epoch !== null &&
      known.epoch === this.epoch &&
      Date.now() - known.confirmed < this.trustMs
    ) {
      if (known.owner !== owner) return undefined;
      return this.use(id, known);
    }
    return this.read(id, owner);
  }

  /** `resolve` from the store. */
  private async read(
    id: string,
    owner: string | undefined,
  ): Promise<Record<string, unknown> | undefined> {
    // Trusted later only if the bus was heard, with no trouble, from before the read began (no
    // change can slip between).
    const epoch = this.epoch;
    const text = await this.store.get(STORE_KEYS.session(id), this.options.idleMs);
    if (text === undefined) {
      // Ended or expired: its stream here ends too.
      this.forget(id);
      this.streams.get(id)?.res.end();
      return undefined;
    }
    const saved = JSON.parse(text) as Saved;
    if ((saved.owner ?? undefined) !== owner) return undefined;
    const copy = this.copies.get(id) ?? {
      record: this.record(id),
      saved: "",
      owner: undefined,
      state: undefined,
      confirmed: 0,
      epoch: null,
    };
    copy.saved = text;
    copy.owner = saved.owner ?? undefined;
    copy.state = saved.state;
    copy.confirmed = Date.now();
    copy.epoch = epoch;
    return this.use(id, copy);
  }

  /** A copy put to use: the most recently used, restored into its record, the bound kept. */
  private use(id: string, copy: Copy): Record<string, unknown> {
    this.copies.delete(id);
    this.copies.set(id, copy);
    // Restored every time: a copy the handler dropped (its own bound) comes back, and the handler
    // skips what it already holds (`copy.state` is a new object whenever it was read or written).
    this.handler.restoreSession?.(copy.record as Record<string, unknown>, copy.state);
    if (this.copies.size > this.options.max) this.forget(this.copies.keys().next().value!);
    return copy.record as Record<string, unknown>;
  }

  /** Another process wrote or ended a session: this process's copy is read again before its next use. */
  private changed(text: string): void {
    let change: { session?: unknown; from?: unknown };
    try {
      change = JSON.parse(text) as typeof change;
    } catch {
      return;
    }
    if (change.from === this.origin || typeof change.session !== "string") return;
    const copy = this.copies.get(change.session);
    if (copy) copy.epoch = null;
  }

  /** Tells the other processes that session `id` changed, in order after the write (one connection). */
  private announce(id: string): Promise<void> {
    return this.store.publish(
      STORE_KEYS.sessionsChannel,
      JSON.stringify({ session: id, from: this.origin }),
    );
  }

  /**
   * Keeps a new session (the handler stored something in `record`) of `client` (the key of its
   * quotas): its id, once it is in the store.
   */
  async create(
    record: Record<string, unknown>,
    owner: string | undefined,
    client: string,
  ): Promise<string> {
    const id = randomUUID();
    const copy: Copy = {
      record: Object.assign(record, this.record(id)),
      saved: "",
      owner,
      state: undefined,
      confirmed: 0,
      epoch: null,
    };
    this.copies.set(id, copy);
    try {
      await this.persist(id, copy, owner);
      await this.handler.sessionOpened?.(record);
      await this.admitClient(client, id);
    } catch (error) {
      // Not opened (the store is away): nothing of it stays in this process either.
      this.forget(id);
      this.handler.endSession?.(record);
      throw error;
    }
    return id;
  }

  /**
   * Counts session `id` against its client's quota in the store, so that processes opening its
   * sessions at once count them together: past `maxPerClient`, the client's own sessions used least
   * recently (those with the least time left to live: each request renews it by as much) are ended,
   * never another client's. Ids of sessions that expired leave the client's set here.
   */
  private async admitClient(client: string, id: string): Promise<void> {
    const key = STORE_KEYS.clientSessions(client);
    const { idleMs, maxPerClient } = this.options;
    // The set lives as long as a session opened now could (a busier one outlives it: counted less, never more).
    const ids = await this.store.join(key, id, idleMs);
    if (ids.length <= maxPerClient) return;
    const left = await Promise.all(ids.map((other) => this.store.ttl(STORE_KEYS.session(other))));
    const alive: Array<{ id: string; left: number }> = [];
    const gone: string[] = [];
    ids.forEach((other, i) => {
      const ttl = left[i];
      if (ttl === undefined) gone.push(other);
      else if (other !== id) alive.push({ id: other, left: ttl });
    });
    // The new session is the most recently used; the others by time left, least first (a stable
    // sort: ties end the one the set lists first).
    alive.sort((x, y) => x.left - y.left);
    const over = alive.slice(0, Math.max(0, alive.length + 1 - maxPerClient)).map((e) => e.id);
    await Promise.all([
      ...gone.map((other) => this.store.removeMember(key, other)),
      ...over.map(async (other) => {
        await this.store.removeMember(key, other);
        await this.delete(other);
      }),
    ]);
  }

  /** Writes a session's snapshot back when its request changed it (else undefined: nothing to wait for). */
  save(record: Record<string, unknown>, owner: string | undefined): Promise<void> | undefined {
    const id = (record as Record<symbol, unknown>)[SESSION_ID];
    const copy = typeof id === "string" ? this.copies.get(id) : undefined;
    return copy && copy.record === record ? this.persist(id as string, copy, owner) : undefined;
  }

  /** Ends a session everywhere (DELETE). */
  async delete(id: string): Promise<void> {
    await Promise.all([
      this.store.delete(STORE_KEYS.session(id)),
      this.store.delete(STORE_KEYS.events(id)),
      this.announce(id),
    ]);
    const copy = this.copies.get(id);
    this.forget(id);
    this.streams.get(id)?.res.end();
    if (copy) this.handler.endSession?.(copy.record as Record<string, unknown>);
  }

  /**
   * Sends a message outside any request: appended to the session's log, then announced, for the
   * process holding its stream (this one or another) to write.
   */
  async send(id: string, message: JsonRpcNotification | unknown): Promise<void> {
    let line: string | undefined;
    try {
      line = JSON.stringify(message);
    } catch {
      line = undefined;
    }
    if (typeof line !== "string") return;
    const { replay, idleMs } = this.options;
    const event = await this.store.append(STORE_KEYS.events(id), line, replay, idleMs);
    await this.store.publish(
      STORE_KEYS.eventsChannel,
      JSON.stringify({ session: id, id: event, line }),
    );
  }

  /** Opens session `id`'s GET stream here: what the client missed after `lastEventId`, then what comes. */
  async open(
    id: string,
    res: HttpOut,
    lastEventId: string | undefined,
    keepAliveMs: number,
  ): Promise<void> {
    await this.listen();
    this.streams.get(id)?.res.end();
    const after = lastEventId !== undefined && isEventId(lastEventId) ? lastEventId : undefined;
    const held: Held = { res, upTo: after, waiting: [], keepAlive: undefined };
    this.streams.set(id, held);
    res.on("close", () => {
      if (held.keepAlive !== undefined) clearInterval(held.keepAlive);
      if (this.streams.get(id) === held) this.streams.delete(id);
    });
    res.writeHead(200, this.options.sseHeaders);
    res.flushHeaders();
    if (keepAliveMs > 0) {
      held.keepAlive = setInterval(() => res.write(": keep-alive\n\n"), keepAliveMs);
      unrefTimer(held.keepAlive);
    }
    // Only a resuming client gets the log, as a process of its own would replay it.
    const missed = after === undefined ? [] : await this.store.read(STORE_KEYS.events(id), after);
    for (const event of missed) this.write(held, event);
    if (missed.length > 0) held.upTo = missed[missed.length - 1]!.id;
    const waiting = held.waiting ?? [];
    held.waiting = null;
    for (const event of waiting) this.write(held, event);
  }

  /** Stops listening and ends the streams this process holds. */
  close(): void {
    this.closed = true;
    this.epoch = null;
    this.unhear?.();
    this.unwatch?.();
    this.unlisten?.();
    for (const held of this.streams.values()) held.res.end();
    this.streams.clear();
  }

  private listen(): Promise<void> {
    return (this.listening ??= this.store
      .subscribe(STORE_KEYS.eventsChannel, (text) => this.announced(text))
      .then(
        (stop) => {
          this.unlisten = stop;
        },
        (error: unknown) => {
          // Tried again by the next stream (the store may be back by then).
          this.listening = null;
          throw error;
        },
      ));
  }

  /** An event some process appended: written here when this process holds the session's stream. */
  private announced(text: string): void {
    let event: { session?: unknown; id?: unknown; line?: unknown };
    try {
      event = JSON.parse(text) as typeof event;
    } catch {
      return;
    }
    if (typeof event.session !== "string" || typeof event.id !== "string") return;
    const held = this.streams.get(event.session);
    if (!held || typeof event.line !== "string") return;
    if (held.waiting) held.waiting.push({ id: event.id, line: event.line });
    else this.write(held, { id: event.id, line: event.line });
  }

  /** Writes one event, unless the client has it (`Held.upTo`). */
  private write(held: Held, event: { id: string; line: string }): void {
    if (held.upTo !== undefined && compareEventIds(event.id, held.upTo) <= 0) return;
    if (held.res.writableEnded || held.res.destroyed) return;
    held.res.write(`id: ${event.id}\nevent: message\ndata: ${event.line}\n\n`);
  }

  /** Writes a session's copy to the store, unless it is as saved (undefined then). */
  private persist(id: string, copy: Copy, owner: string | undefined): Promise<void> | undefined {
    const saved: Saved = {
      owner: owner ?? null,
      state: this.handler.snapshotSession?.(copy.record as Record<string, unknown>) ?? {},
    };
    const text = JSON.stringify(saved);
    return text === copy.saved ? undefined : this.writeBack(id, copy, owner, saved, text);
  }

  private async writeBack(
    id: string,
    copy: Copy,
    owner: string | undefined,
    saved: Saved,
    text: string,
  ): Promise<void> {
    const epoch = this.epoch;
    // The write and its announcement go out together (in order on the store's connection): one
    // round trip, not two.
    try {
      await Promise.all([
        this.store.set(STORE_KEYS.session(id), text, this.options.idleMs),
        this.announce(id),
      ]);
    } catch (error) {
      // The record holds what the store may not: read and restored again before its next use
      // (a restore of the state it was restored from last changes nothing).
      copy.epoch = null;
      throw error;
    }
    copy.saved = text;
    copy.owner = owner;
    copy.state = saved.state;
    copy.confirmed = Date.now();
    copy.epoch = epoch;
  }

  /** A fresh record's transport keys: its id, and its way to the client. */
  private record(id: string): Record<string | symbol, unknown> {
    return {
      [SESSION_ID]: id,
      [SESSION_SEND]: (message: unknown) => {
        this.send(id, message).catch((error: unknown) =>
          this.options.log(`mcp http: sending to session ${id} failed: ${String(error)}`),
        );
      },
    };
  }

  /** Forgets this process's copy of a session (the session may live on in the store). */
  private forget(id: string): void {
    this.copies.delete(id);
  }
}
