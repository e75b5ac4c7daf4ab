/**
 * The shared store (runtime/store.ts) on Redis, through `ioredis`, for several server processes
 * behind one load balancer: values and single-use marks are strings with a time to live (`SET NX
 * PX`), indexes are sets, a session's event log is a capped Redis Stream (its ids are the SSE event
 * ids a client resumes from), the bus is pub/sub on a connection of its own (a subscribed
 * connection takes no other command). Emitted only with `--store redis`: output generated without
 * it does not import `ioredis`. Revision-independent; copied verbatim into generated output.
 */
import { Redis, type RedisOptions } from "ioredis";
import type { Store, StoredEvent } from "./store.js";

export interface RedisStoreOptions {
  /** `redis://host:port/db`; default `redis://127.0.0.1:6379`. */
  url?: string;
  /** Options handed to ioredis as they are (TLS, password, retry strategy…). */
  redis?: RedisOptions;
  /** Put before every key and channel, so that several servers can share one Redis; default `mcp:`. */
  prefix?: string;
}

export class RedisStore implements Store {
  private readonly commands: Redis;
  private subscriber: Redis | null = null;
  private readonly listeners = new Map<string, Set<(message: string) => void>>();
  private readonly prefix: string;
  private readonly options: RedisOptions;
  private readonly url: string;

  constructor(options: RedisStoreOptions = {}) {
    this.url = options.url ?? "redis://127.0.0.1:6379";
    this.options = options.redis ?? {};
    this.prefix = options.prefix ?? "mcp:";
    this.commands = connect(this.url, this.options);
  }

  private key(name: string): string {
    return this.prefix + name;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.commands.set(this.key(key), value, "PX", Math.max(1, Math.ceil(ttlMs)));
  }

  async get(key: string, ttlMs?: number): Promise<string | undefined> {
    const name = this.key(key);
    const value =
      ttlMs === undefined
        ? await this.commands.get(name)
        : await this.commands.getex(name, "PX", Math.max(1, Math.ceil(ttlMs)));
    return value ?? undefined;
  }

  async delete(key: string): Promise<void> {
    await this.commands.del(this.key(key));
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const set = await this.commands.set(
      this.key(key),
      "1",
      "PX",
      Math.max(1, Math.ceil(ttlMs)),
      "NX",
    );
    return set === "OK";
  }

  async ttl(key: string): Promise<number | undefined> {
    const left = await this.commands.pttl(this.key(key));
    return left > 0 ? left : undefined;
  }

  async addMember(key: string, member: string): Promise<void> {
    await this.commands.sadd(this.key(key), member);
  }

  async join(key: string, member: string, ttlMs: number): Promise<string[]> {
    const name = this.key(key);
    // One round trip, atomic: processes adding to one set at once each see the others' members.
    const results = await this.commands
      .multi()
      .sadd(name, member)
      .pexpire(name, Math.max(1, Math.ceil(ttlMs)))
      .smembers(name)
      .exec();
    const [error, members] = results?.[2] ?? [new Error("the transaction was discarded"), null];
    if (error) throw error;
    return members as string[];
  }

  async removeMember(key: string, member: string): Promise<void> {
    await this.commands.srem(this.key(key), member);
  }

  async members(key: string): Promise<string[]> {
    return this.commands.smembers(this.key(key));
  }

  async append(log: string, line: string, max: number, ttlMs: number): Promise<string> {
    const key = this.key(log);
    // One round trip: the event, the cap (exact, so that what a client may resume is what was promised), the expiry.
    const results = await this.commands
      .multi()
      .xadd(key, "MAXLEN", String(max), "*", "m", line)
      .pexpire(key, Math.max(1, Math.ceil(ttlMs)))
      .exec();
    const [error, id] = results?.[0] ?? [new Error("the transaction was discarded"), null];
    if (error) throw error;
    return id as string;
  }

  async read(log: string, after: string | undefined): Promise<StoredEvent[]> {
    const entries = await this.commands.xrange(
      this.key(log),
      after === undefined ? "-" : `(${after}`,
      "+",
    );
    return entries.map(([id, fields]) => ({ id, line: fields[1] ?? "" }));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.commands.publish(this.key(channel), message);
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => void> {
    const name = this.key(channel);
    let set = this.listeners.get(name);
    if (!set) {
      this.listeners.set(name, (set = new Set()));
      await this.bus().subscribe(name);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size > 0 || this.listeners.get(name) !== set) return;
      this.listeners.delete(name);
      void this.subscriber?.unsubscribe(name).catch(() => undefined);
    };
  }

  /** The subscriber connection, made on first use. */
  private bus(): Redis {
    if (this.subscriber) return this.subscriber;
    const subscriber = connect(this.url, this.options);
    subscriber.on("message", (channel: string, message: string) => {
      for (const listener of [...(this.listeners.get(channel) ?? [])]) listener(message);
    });
    return (this.subscriber = subscriber);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.all([
      this.commands.quit().catch(() => undefined),
      this.subscriber?.quit().catch(() => undefined),
    ]);
  }
}

/**
 * A connection. Through a constructor type of its own: ioredis's overloads, read with
 * `exactOptionalPropertyTypes`, take no `RedisOptions` variable.
 */
function connect(url: string, options: RedisOptions): Redis {
  const Connection = Redis as unknown as new (url: string, options: RedisOptions) => Redis;
  return new Connection(url, options);
}
