/**
 * The stdio server's requests in flight: each request from the moment it is read until its
 * response is written, found by id for cancellation whatever the number in flight, held against
 * the connection's admission budget, and the outcomes given at once queued until the chunk that
 * carried them has been read. Revision-independent; copied verbatim into generated output.
 */
import type { Budget } from "./admission.js";
import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification } from "../shared/jsonrpc.js";
import { LazyAbort, type Delivery, type Outcome } from "./transport.js";

/** The connection a request belongs to: its session, and how to write to and report on it. */
export interface Connection {
  readonly session: Record<string, unknown>;
  send(message: JsonRpcMessage): boolean;
  log(message: string): void;
}

/**
 * One request: the handler's view of the transport (a `Delivery`), its abort signal, and its place
 * among the requests in flight with its id. One object per request, its behaviour on the prototype.
 */
export class InFlight extends LazyAbort implements Delivery {
  readonly session: Record<string, unknown>;
  /** The peer cancelled it: nothing more may be sent for it. */
  cancelled = false;
  /** Its response has been written (or suppressed). */
  done = false;
  /** An outcome given at once, delivered when the chunk that carried the request has been read. */
  outcome: Outcome | null = null;
  /** The other requests in flight with the same id (a peer's mistake, or an attack). */
  previous: InFlight | null = null;
  next: InFlight | null = null;
  /** The next outcome waiting to be delivered. */
  nextReady: InFlight | null = null;

  constructor(
    readonly id: JsonRpcId,
    /** The length of its line, held against the budget until it is answered. */
    readonly bytes: number,
    private readonly connection: Connection,
  ) {
    super();
    this.session = connection.session;
  }

  notify(notification: JsonRpcNotification): void {
    if (this.cancelled) return;
    if (this.done) {
      this.connection.log(
        `dropped a notification sent after request ${JSON.stringify(this.id)} completed`,
      );
      return;
    }
    this.connection.send(notification);
  }
}

/** The requests in flight, by id, and the outcomes given at once that wait to be delivered. */
export class InFlightRequests {
  // Each id's entry heads a list of the requests sharing it, threaded through the requests
  // themselves (a Set per id cost objects per request that outlived it in the old generation).
  // Map keys compare as `===` does: 1 and "1" differ, 0 and -0 do not.
  private readonly byId = new Map<JsonRpcId, InFlight>();
  // Answers given at once, oldest first, waiting for the end of the chunk.
  private firstReady: InFlight | null = null;
  private lastReady: InFlight | null = null;

  constructor(
    private readonly budget: Budget,
    /** Writes an outcome's response, if it has one. */
    private readonly write: (outcome: Outcome) => void,
  ) {}

  /** Holds a request that has just been read. */
  track(entry: InFlight): void {
    const head = this.byId.get(entry.id);
    if (head) {
      entry.next = head;
      head.previous = entry;
    }
    this.byId.set(entry.id, entry);
    this.budget.requests++;
    this.budget.bytes += entry.bytes;
  }

  /** Delivers a request's outcome: marks it done, forgets it and writes its response, unless the peer cancelled it. */
  deliver(entry: InFlight, outcome: Outcome): void {
    entry.done = true;
    this.untrack(entry);
    // A cancelled request gets no response: the peer has stopped waiting for it.
    if (!entry.cancelled) this.write(outcome);
  }

  /** Aborts every request in flight with `id` that is not done, as the peer's cancellation asks. */
  cancel(id: JsonRpcId, reason: unknown): void {
    for (let entry = this.byId.get(id) ?? null; entry; entry = entry.next) {
      if (entry.cancelled || entry.done) continue;
      entry.cancelled = true;
      entry.abort(abortReason(typeof reason === "string" ? reason : "The request was cancelled"));
    }
  }

  /** Aborts every request in flight (the connection is closing). */
  abortAll(reason: Error): void {
    for (const head of [...this.byId.values()]) {
      for (let entry: InFlight | null = head; entry; entry = entry.next) entry.abort(reason);
    }
  }

  /** Queues an outcome given at once, to be delivered by `deliverReady`. */
  ready(entry: InFlight, outcome: Outcome): void {
    entry.outcome = outcome;
    if (this.lastReady) this.lastReady.nextReady = entry;
    else this.firstReady = entry;
    this.lastReady = entry;
  }

  /**
   * Delivers the outcomes given at once. They wait until the chunk that carried their requests has
   * been read, as an outcome that takes a promise does, so that a cancellation later in the same
   * chunk still suppresses them.
   */
  deliverReady(): void {
    while (this.firstReady) {
      const entry = this.firstReady;
      this.firstReady = entry.nextReady;
      if (!this.firstReady) this.lastReady = null;
      entry.nextReady = null;
      const outcome = entry.outcome!;
      entry.outcome = null;
      this.deliver(entry, outcome);
    }
  }

  private untrack(entry: InFlight): void {
    if (entry.previous) entry.previous.next = entry.next;
    else if (entry.next) this.byId.set(entry.id, entry.next);
    else this.byId.delete(entry.id);
    if (entry.next) entry.next.previous = entry.previous;
    entry.previous = null;
    entry.next = null;
    this.budget.requests--;
    this.budget.bytes -= entry.bytes;
  }
}

/** The reason a request's signal is aborted with, as `AbortController.abort()` gives one. */
export function abortReason(message: string): Error {
  return new DOMException(message, "AbortError");
}
