/**
 * An abort controller that is its own signal, for the HTTP transport's requests when nothing but
 * our own `nodeFetch()` reads the signal: making an AbortSignal costs more on Node than the rest
 * of what the transport does for a request, and `nodeFetch()` needs only `aborted`, `reason` and
 * one listener. A `fetch` that says so (`LIGHT_SIGNALS`) is given one; any other `fetch`, and
 * the authorization layer, get a real AbortSignal. Browser-safe. Revision-independent; copied
 * verbatim into generated output.
 */

/** Set (to true) on a `fetch` whose `init.signal` may be a `LightAbort`. */
export const LIGHT_SIGNALS = Symbol.for("mcp-gen.fetch.lightSignals");

/** What closing a transport aborts: an AbortController or a LightAbort. */
export interface Abortable {
  abort(reason?: unknown): void;
}

type Listener = () => void;

export class LightAbort implements Abortable {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Listener[] | null = null;

  /** The signal side, the same object (typed as what `fetch` takes). */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  abort(reason: unknown = new Error("This operation was aborted")): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = null;
    if (listeners) for (const listener of listeners) listener();
  }

  addEventListener(_type: "abort", listener: Listener): void {
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: "abort", listener: Listener): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at >= 0) this.listeners!.splice(at, 1);
  }
}
