/**
 * Publishing a server notification (a list change, a resource update) to every stream that opted
 * into it: this process's `subscriptions/listen` streams and legacy sessions at once, and, with a
 * shared `Store`, the other processes' through the store's bus (each process hands what it hears
 * there to its own streams). Revision-independent; copied verbatim into generated output.
 */
import { isRecord } from "../shared/jsonrpc.js";
import type { LegacySessions } from "./legacy.js";
import { randomNonce } from "./state.js";
import { STORE_KEYS, type Store } from "./store.js";
import type { Published, Subscriptions } from "./subscriptions.js";

export class Publisher {
  /** Tells this process's notifications apart from the others' on the store's bus. */
  private readonly origin: string | undefined;
  private unlisten: (() => void) | null = null;
  private closed = false;

  constructor(
    private readonly store: Store | undefined,
    private readonly subscriptions: Subscriptions,
    private readonly legacy: LegacySessions | null,
    private readonly log: (message: string) => void,
  ) {
    if (store) {
      this.origin = randomNonce();
      // Notifications other processes publish reach this process's listen streams.
      store
        .subscribe(STORE_KEYS.publishChannel, (text) => this.published(text))
        .then((stop) => {
          if (this.closed) stop();
          else this.unlisten = stop;
        })
        .catch((error: unknown) => this.log(`mcp-gen server: the store's bus: ${String(error)}`));
    }
  }

  /** Sends a notification to every open stream that opted into it; how many this process holds. */
  publish(notification: Published): number {
    let sent = 0;
    // The other processes' listen streams get it through the bus (this one's, below, at once).
    if (this.store)
      this.store
        .publish(STORE_KEYS.publishChannel, JSON.stringify({ from: this.origin, notification }))
        .catch((error: unknown) =>
          this.log(`mcp-gen server: publishing ${notification.method}: ${String(error)}`),
        );
    if (this.legacy && this.subscriptions.declaredFor(notification.method))
      sent += this.legacy.publish(notification);
    return sent + this.subscriptions.publish(notification);
  }

  /** Stops hearing the bus. */
  close(): void {
    this.closed = true;
    this.unlisten?.();
  }

  /** A notification another process published: to this process's listen streams. */
  private published(text: string): void {
    let message: { from?: unknown; notification?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    const { from, notification } = message;
    if (from === this.origin || !isRecord(notification) || typeof notification.method !== "string")
      return;
    this.subscriptions.publish(notification as unknown as Published);
  }
}
