/**
 * The client's budgets against a server that floods it: how fast the server may ask for input
 * (each input request reaches a person or a model), and how often it may end the legacy session and
 * have the client open a new one. Revision-independent; copied verbatim into generated output.
 */

/** A token bucket: `burst` at once, refilled at `perSecond`. */
export class RateLimit {
  private tokens: number;
  private last: number;

  constructor(
    readonly burst: number,
    readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Takes `count` tokens if there are that many; otherwise takes none. */
  take(count = 1): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < count) return false;
    this.tokens -= count;
    return true;
  }
}

/**
 * Legacy sessions a server ended (HTTP 404) one after another, each reopened by the client. A
 * reopened session that then serves a request resets the count; after `max` in a row the client
 * stops reopening for `cooldownMs`, and calls fail with the session's end instead.
 */
export class ReopenBudget {
  private inARow = 0;
  private blockedUntil = 0;

  constructor(
    readonly max: number,
    readonly cooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether one more session may be opened now; counts it if so. */
  take(): boolean {
    const now = this.now();
    if (this.inARow >= this.max) {
      if (now < this.blockedUntil) return false;
      this.inARow = 0;
    }
    if (++this.inARow >= this.max) this.blockedUntil = now + this.cooldownMs;
    return true;
  }

  /** A request was served on the session: the server is not ending sessions in a loop. */
  served(): void {
    this.inARow = 0;
  }

  /** Seconds until reopening is allowed again (0 when it is). */
  waitSeconds(): number {
    return this.inARow >= this.max
      ? Math.max(0, Math.ceil((this.blockedUntil - this.now()) / 1000))
      : 0;
  }
}
