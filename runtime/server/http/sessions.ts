/**
 * The sessions of the Streamable HTTP transport (stateful and dual-era servers): whose a session
 * is, and the bounded store of this process's sessions, each with its stream of server-initiated
 * messages (their requests are session-requests.ts's; sessions shared with other processes,
 * shared.ts's). Revision-independent; copied verbatim into generated output.
 */
import type { HttpIn, HttpOut } from "../../shared/http-wire.js";
import { randomUUID } from "../../shared/builtins.js";
import { principalOf } from "../../auth/http-auth.js";
import { SESSION_SEND, unrefTimer } from "../transport.js";
import { serialize, SSE_HEADERS, writeEvent } from "./framing.js";

/**
 * Whose a session is: the principal the guard admitted the request that opened it as, and the
 * client its token was issued to (`undefined` on a server without `auth`). A session answers only
 * to the same owner: another user's valid token with its id gets what an unknown id gets, 404 (not
 * 403, which would confirm to a guesser, or to someone who saw the id in a log, that the session
 * exists; 404 also sends a client of its own back to a handshake, as the transport prescribes).
 */
export function ownerOf(req: HttpIn): string | undefined {
  const principal = principalOf(req);
  return principal === undefined
    ? undefined
    : JSON.stringify([principal.id, principal.clientId ?? null]);
}

/** One session: the dispatcher's record, when it was last used, its GET stream and the events kept for resumption. */
class SessionEntry {
  lastSeen = Date.now();
  private stream: HttpOut | null = null;
  private keepAlive: ReturnType<typeof setInterval> | undefined = undefined;
  /** The last events sent (or meant) for the GET stream, oldest first: bounded, for `Last-Event-ID`. */
  private readonly events: Array<{ id: number; line: string }> = [];
  private nextEvent = 1;

  constructor(
    readonly id: string,
    readonly record: Record<string, unknown>,
    private readonly replay: number,
    /** Who opened it (`ownerOf`); only they reach it. */
    readonly owner: string | undefined,
    /** The client it counts against (`clientOf`). */
    readonly client: string,
  ) {
    (record as Record<symbol, unknown>)[SESSION_SEND] = (message: unknown) => this.send(message);
  }

  /** A server-initiated message: on the GET stream when one is open, and kept for a resuming client. */
  send(message: unknown): void {
    const line = serialize(message);
    if (line === undefined) return;
    const event = { id: this.nextEvent++, line };
    this.events.push(event);
    if (this.events.length > this.replay) this.events.shift();
    if (this.stream && !this.stream.destroyed) this.write(this.stream, event);
  }

  open(res: HttpOut, lastEventId: string | undefined, keepAliveMs: number): void {
    // One stream per session: a new one replaces the old, which is ended.
    this.close();
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    this.stream = res;
    res.on("close", () => {
      if (this.stream === res) this.close();
    });
    if (keepAliveMs > 0) {
      this.keepAlive = setInterval(() => res.write(": keep-alive\n\n"), keepAliveMs);
      unrefTimer(this.keepAlive);
    }
    const after = lastEventId === undefined ? NaN : Number(lastEventId);
    if (Number.isSafeInteger(after))
      for (const event of this.events) if (event.id > after) this.write(res, event);
  }

  private write(res: HttpOut, event: { id: number; line: string }): void {
    res.write(`id: ${event.id}\n`);
    writeEvent(res, event.line);
  }

  close(): void {
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    const stream = this.stream;
    this.stream = null;
    if (stream && !stream.writableEnded) stream.end();
  }
}

/**
 * Sessions of stateful (and dual-era) servers, by id, least recently used first; one past the
 * bound, or idle for too long, is forgotten, so that clients that never come back cannot grow the
 * server without limit (a forgotten client gets 404 and starts over, as the transport document
 * prescribes). One client past its own bound loses its own least recently used session: a client
 * opening sessions in a loop cannot push everyone else's out. Past the server's bound, the session
 * forgotten is the least recently used of the client holding the most (of those holding as many,
 * the one that reached that count first): many clients together cannot push out one that holds a
 * few either. The dispatcher is told of each session that ends.
 */
export class SessionStore {
  private readonly sessions = new Map<string, SessionEntry>();
  /** Each client's session ids, least recently used first. */
  private readonly byClient = new Map<string, Set<string>>();
  /**
   * The clients by how many sessions each holds, and the largest such count: a count changes by one
   * at a time, so the client the server's bound takes from is found without a scan.
   */
  private readonly byCount = new Map<number, Set<string>>();
  private largest = 0;
  /** The session last in `sessions` and in its client's set (most recently used), when `entry` put it there. */
  private newest: SessionEntry | null = null;

  constructor(
    private readonly max: number,
    private readonly maxPerClient: number,
    private readonly idleMs: number,
    private readonly replay: number,
    private readonly ended: (record: Record<string, unknown>) => void,
  ) {}

  /** The session `id` names, when `owner` opened it; another's is as unknown as a missing one. */
  get(id: string, owner: string | undefined): Record<string, unknown> | undefined {
    return this.entry(id, owner)?.record;
  }

  entry(id: string, owner: string | undefined): SessionEntry | undefined {
    this.sweep();
    const entry = this.sessions.get(id);
    // Not even its last use is updated: a stranger's requests must not keep it alive.
    if (!entry || entry.owner !== owner) return undefined;
    entry.lastSeen = Date.now();
    // A session used again and again (a client calling in turn) is already the most recent.
    if (entry === this.newest) return entry;
    // Re-inserted: the maps stay in order of last use, so the idle ones are first.
    this.sessions.delete(id);
    this.sessions.set(id, entry);
    const own = this.byClient.get(entry.client);
    own?.delete(id);
    own?.add(id);
    this.newest = entry;
    return entry;
  }

  add(session: Record<string, unknown>, owner: string | undefined, client: string): string {
    this.sweep();
    const id = randomUUID();
    // Last in `sessions`, but perhaps not in its client's set order relative to `newest`: no shortcut yet.
    this.newest = null;
    this.sessions.set(id, new SessionEntry(id, session, this.replay, owner, client));
    let own = this.byClient.get(client);
    if (own === undefined) this.byClient.set(client, (own = new Set()));
    own.add(id);
    this.counted(client, own.size - 1, own.size);
    if (own.size > this.maxPerClient) this.delete(own.values().next().value!);
    if (this.sessions.size > this.max) {
      const largest = this.byCount.get(this.largest)!.values().next().value!;
      this.delete(this.byClient.get(largest)!.values().next().value!);
    }
    return id;
  }

  delete(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    if (entry === this.newest) this.newest = null;
    this.sessions.delete(id);
    const own = this.byClient.get(entry.client);
    if (own !== undefined && own.delete(id)) {
      if (own.size === 0) this.byClient.delete(entry.client);
      this.counted(entry.client, own.size + 1, own.size);
    }
    entry.close();
    this.ended(entry.record);
  }

  /** Moves `client` from the clients holding `from` sessions to those holding `to` (one more or one less). */
  private counted(client: string, from: number, to: number): void {
    const was = this.byCount.get(from);
    if (was !== undefined && was.delete(client) && was.size === 0) this.byCount.delete(from);
    if (to > 0) {
      let now = this.byCount.get(to);
      if (now === undefined) this.byCount.set(to, (now = new Set()));
      now.add(client);
    }
    if (to > this.largest) this.largest = to;
    else if (from === this.largest && !this.byCount.has(from)) this.largest = to;
  }

  /** Forgets the sessions idle for longer than the limit (the oldest-used come first). */
  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const entry of this.sessions.values()) {
      if (entry.lastSeen >= cutoff) break;
      this.delete(entry.id);
    }
  }
}
