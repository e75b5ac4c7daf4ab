/**
 * One call while it runs, as the pieces under it see it: whether it was given up (and why), when
 * it times out, and the request it has on the wire now. It stands in for the call's AbortSignal:
 * making an AbortSignal, and adding and removing listeners on it, was the largest cost of a call
 * on the client's side that no call needs unless something aborts it. So the signal is made only
 * when something asks for one (a transport of the user's, an input handler, a fetch of the
 * user's), and giving up tells the request on the wire directly. Revision-independent; copied
 * verbatim into generated output.
 */

/** The request a call has on the wire: told first when the call is given up. */
export interface WireAbort {
  abort(reason: unknown): void;
}

export class RunningCall {
  aborted = false;
  /** Why the call was given up (`TimeoutError`, the caller's reason, the client's close). */
  reason: unknown = undefined;
  /** The request on the wire now, if any (a call sends its rounds one after the other). */
  wire: WireAbort | null = null;
  /** Links in the client's list of running calls with the same timeout (`deadlines.ts`). */
  prev: RunningCall | null = null;
  next: RunningCall | null = null;
  /** Whether the call is in that list. */
  listed = false;
  private controller: AbortController | null = null;

  constructor(
    readonly method: string,
    /** 0: the call waits for ever. */
    readonly timeoutMs: number,
    /** When it times out, on `performance.now()`'s clock; `Infinity`: never. */
    readonly deadline: number,
  ) {}

  /** An AbortSignal that aborts with the call, made on first use. */
  get signal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Gives the call up: the request on the wire first, then whoever holds the signal. Once. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.wire?.abort(reason);
    this.controller?.abort(reason);
  }

  /** Aborts the call when `signal` does; returns what stops following it. */
  follow(signal: AbortSignal): () => void {
    if (signal.aborted) {
      this.abort(signal.reason);
      return noop;
    }
    const listener = () => this.abort(signal.reason);
    signal.addEventListener("abort", listener, { once: true });
    return () => signal.removeEventListener("abort", listener);
  }
}

const noop = (): void => {};
