/**
 * The shared store (runtime/store.ts) on Redis, through `ioredis`, for several server processes
 * behind one load balancer: values and single-use marks are strings with a time to live (`SET NX
 * PX`), indexes are sets, a session's event log is a capped Redis Stream (its ids are the SSE event
 * ids a client resumes from), the bus is pub/sub on a connection of its own (a subscribed
 * connection takes no other command). Every call fails fast while Redis is away: a command
 * timeout bounds a stalled server, a lost connection fails calls at once with
 * `StoreUnavailableError` (the server answers 503) until it is back, and the loss is said once, on
 * `log`, never as ioredis's "Unhandled error event" stacks. Emitted only with `--store redis`:
 * output generated without it does not import `ioredis`. Revision-independent; copied verbatim
 * into generated output.
 */
import { Redis, type RedisOptions } from "ioredis";
import { StoreUnavailableError, type Store, type StoredEvent } from "./store.js";

export interface RedisStoreOptions {
  /** `redis://host:port/db`; default `redis://127.0.0.1:6379`. */
  url?: string;
  /** Options handed to ioredis as they are (TLS, password, retry strategy…); they win over the store's own. */
  redis?: RedisOptions;
  /** Put before every key and channel, so that several servers can share one Redis; default `mcp:`. */
  prefix?: string;
  /**
   * How long one store call may wait for Redis, in ms: past it the call fails
   * (`StoreUnavailableError`, a 503 to the client) instead of holding the request. Default 2,000.
   */
  commandTimeoutMs?: number;
  /** Where the store says Redis went away and came back (once each); default stderr. */
  log?: (message: string) => void;
}

/** The store's defaults under the caller's ioredis options. */
const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

export class RedisStore implements Store {
  private readonly commands: Redis;
  private subscriber: Redis | null = null;
  private readonly listeners = new Map<string, Set<(message: string) => void>>();
  private readonly troubleListeners = new Set<() => void>();
  private readonly prefix: string;
  private readonly options: RedisOptions;
  private readonly url: string;
  private readonly log: (message: string) => void;
  /** The command connection was lost and is not back: calls fail at once instead of queueing. */
  private away = false;
  /** `close()` was called: the connections' ends are no loss. */
  private closing = false;

  constructor(options: RedisStoreOptions = {}) {
    this.url = options.url ?? "redis://127.0.0.1:6379";
    this.options = {
      // A lost connection's commands are retried once, then failed: never queued for an outage's length.
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
      ...options.redis,
    };
    this.prefix = options.prefix ?? "mcp:";
    this.log = options.log ?? ((message) => process.stderr.write(`${message}\n`));
    this.commands = this.connection("commands", (away) => (this.away = away));
  }

  /**
   * A connection whose losses are said once each on `log` (an `error` listener: without one
   * ioredis prints every reconnection failure's stack), and `onState` told when it goes and comes back.
   */
  private connection(name: string, onState: (away: boolean) => void): Redis {
    const redis = connect(this.url, this.options);
    let lost = false;
    const down = (reason: string): void => {
      onState(true);
      this.trouble();
      if (lost || this.closing) return;
      lost = true;
      this.log(
        `mcp-gen redis store: the ${name} connection to ${redactedUrl(this.url)} is lost (${reason}); store calls fail until it is back`,
      );
    };
    redis.on("error", (error: unknown) =>
      down(error instanceof Error ? error.message : String(error)),
    );
    redis.on("close", () => down("connection closed"));
    redis.on("ready", () => {
      onState(false);
      this.trouble();
      if (!lost) return;
      lost = false;
      this.log(`mcp-gen redis store: the ${name} connection is back`);
    });
    return redis;
  }

  /**
   * Runs one store call: at once refused while the connection is away, and whatever keeps Redis
   * from answering (timeout, lost connection) turned into `StoreUnavailableError`. Redis's own
   * error replies (a wrong type: a bug) stay what they are.
   */
  private async run<T>(call: (redis: Redis) => Promise<T>): Promise<T> {
    if (this.away) {
      this.trouble();
      throw new StoreUnavailableError("the Redis store is unreachable");
    }
    try {
      return await call(this.commands);
    } catch (error) {
      if (error instanceof Error && error.name === "ReplyError") throw error;
      this.trouble();
      throw new StoreUnavailableError(
        `the Redis store did not answer: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }

  private key(name: string): string {
    return this.prefix + name;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.run((redis) => redis.set(this.key(key), value, "PX", ms(ttlMs)));
  }

  async get(key: string, ttlMs?: number): Promise<string | undefined> {
    const name = this.key(key);
    const value = await this.run((redis) =>
      ttlMs === undefined ? redis.get(name) : redis.getex(name, "PX", ms(ttlMs)),
    );
    return value ?? undefined;
  }

  async delete(key: string): Promise<void> {
    await this.run((redis) => redis.del(this.key(key)));
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const set = await this.run((redis) => redis.set(this.key(key), "1", "PX", ms(ttlMs), "NX"));
    return set === "OK";
  }

  async ttl(key: string): Promise<number | undefined> {
    const left = await this.run((redis) => redis.pttl(this.key(key)));
    return left > 0 ? left : undefined;
  }

  async addMember(key: string, member: string, ttlMs?: number): Promise<void> {
    const name = this.key(key);
    if (ttlMs === undefined) await this.run((redis) => redis.sadd(name, member));
    // One round trip, atomic: the set never exists without its time to live.
    else
      await this.run((redis) => redis.multi().sadd(name, member).pexpire(name, ms(ttlMs)).exec());
  }

  async join(key: string, member: string, ttlMs: number): Promise<string[]> {
    const name = this.key(key);
    // One round trip, atomic: processes adding to one set at once each see the others' members.
    const results = await this.run((redis) =>
      redis.multi().sadd(name, member).pexpire(name, ms(ttlMs)).smembers(name).exec(),
    );
    const [error, members] = results?.[2] ?? [new Error("the transaction was discarded"), null];
    if (error) throw error;
    return members as string[];
  }

  async removeMember(key: string, member: string): Promise<void> {
    await this.run((redis) => redis.srem(this.key(key), member));
  }

  async members(key: string): Promise<string[]> {
    return this.run((redis) => redis.smembers(this.key(key)));
  }

  async scan(
    key: string,
    cursor: string,
    count: number,
  ): Promise<{ cursor: string; members: string[] }> {
    const [next, members] = await this.run((redis) =>
      redis.sscan(this.key(key), cursor, "COUNT", count),
    );
    return { cursor: next, members };
  }

  async append(log: string, line: string, max: number, ttlMs: number): Promise<string> {
    const key = this.key(log);
    // One round trip: the event, the cap (exact, so that what a client may resume is what was promised), the expiry.
    const results = await this.run((redis) =>
      redis.multi().xadd(key, "MAXLEN", String(max), "*", "m", line).pexpire(key, ms(ttlMs)).exec(),
    );
    const [error, id] = results?.[0] ?? [new Error("the transaction was discarded"), null];
    if (error) throw error;
    return id as string;
  }

  async read(log: string, after: string | undefined): Promise<StoredEvent[]> {
    const entries = await this.run((redis) =>
      redis.xrange(this.key(log), after === undefined ? "-" : `(${after}`, "+"),
    );
    return entries.map(([id, fields]) => ({ id, line: fields[1] ?? "" }));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.run((redis) => redis.publish(this.key(channel), message));
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => void> {
    const name = this.key(channel);
    let set = this.listeners.get(name);
    if (!set) {
      this.listeners.set(name, (set = new Set()));
      try {
        await this.bus().subscribe(name);
      } catch (error) {
        // Not listening after all: a later subscribe tries again.
        this.listeners.delete(name);
        throw new StoreUnavailableError(
          `the Redis store did not take a subscription: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size > 0 || this.listeners.get(name) !== set) return;
      this.listeners.delete(name);
      void this.subscriber?.unsubscribe(name).catch(() => undefined);
    };
  }

  onTrouble(listener: () => void): () => void {
    this.troubleListeners.add(listener);
    return () => this.troubleListeners.delete(listener);
  }

  private trouble(): void {
    for (const listener of this.troubleListeners) listener();
  }

  /** The subscriber connection, made on first use. */
  private bus(): Redis {
    if (this.subscriber) return this.subscriber;
    // Its state is its own: calls go on the command connection (ioredis subscribes again once it is back).
    const subscriber = this.connection("bus", () => undefined);
    subscriber.on("message", (channel: string, message: string) => {
      for (const listener of [...(this.listeners.get(channel) ?? [])]) listener(message);
    });
    return (this.subscriber = subscriber);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.listeners.clear();
    await Promise.all([
      this.commands.quit().catch(() => undefined),
      this.subscriber?.quit().catch(() => undefined),
    ]);
  }
}

/** A time to live as Redis takes it: whole milliseconds, at least one. */
function ms(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}

/** The URL without its password, for a log line. */
function redactedUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, "//***@");
}

/**
 * A connection. Through a constructor type of its own: ioredis's overloads, read with
 * `exactOptionalPropertyTypes`, take no `RedisOptions` variable.
 */
function connect(url: string, options: RedisOptions): Redis {
  const Connection = Redis as unknown as new (url: string, options: RedisOptions) => Redis;
  return new Connection(url, options);
}
