/**
 * Initialize-era sessions shared by several processes through a `Store` (runtime/store.ts): the
 * indexes that say which sessions a notification goes to (every open session of a protocol
 * version for a list change, those subscribed to a resource for its update), so that the process
 * that publishes reaches sessions whose streams other processes hold; and the bus on which a
 * client's answer to a server request (an elicitation), or its cancellation of a request, reaches
 * the process that waits for it, when the load balancer sent it elsewhere. Revision-independent;
 * copied verbatim into generated output.
 */
import type { JsonRpcNotification } from "../shared/jsonrpc.js";
import { STORE_KEYS, type Store } from "./store.js";
import { SESSION_ID } from "./transport.js";
import type { LegacyEra } from "../shared/protocol.js";

/** What the shared layer needs of a session. */
export interface SharedSession {
  readonly protocol: LegacyEra;
  readonly subscriptions: ReadonlySet<string>;
  readonly record: Record<string | symbol, unknown>;
}

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

  constructor(
    private readonly store: Store,
    /** The transport's way to a session by id (its event log, then whichever process holds its stream). */
    private readonly send: (id: string, message: JsonRpcNotification) => Promise<void>,
    private readonly host: SharedHost<S>,
  ) {
    store
      .subscribe(STORE_KEYS.controlChannel, (text) => this.control(text))
      .then((stop) => {
        if (this.closed) stop();
        else this.stop = stop;
      })
      .catch((error: unknown) => host.log(`mcp-gen server: the store's bus: ${String(error)}`));
  }

  /** The session was opened: list changes reach it from now on. */
  async joined(session: S): Promise<void> {
    const id = sharedId(session);
    if (id) await this.store.addMember(STORE_KEYS.sessions(session.protocol.protocolVersion), id);
  }

  /** The session subscribed to (or unsubscribed from) a resource. */
  async subscribed(session: S, uri: string, on: boolean): Promise<void> {
    const id = sharedId(session);
    if (!id) return;
    const key = STORE_KEYS.subscribers(session.protocol.protocolVersion, uri);
    await (on ? this.store.addMember(key, id) : this.store.removeMember(key, id));
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
      const ids = await this.store.members(key);
      // A session that expired (idle) left its id in the index: dropped from it here.
      const alive = await Promise.all(
        ids.map(async (id) => (await this.store.get(STORE_KEYS.session(id))) !== undefined),
      );
      await Promise.all(
        ids.map((id, i) => (alive[i] ? this.send(id, form) : this.store.removeMember(key, id))),
      );
      sent += alive.filter(Boolean).length;
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
