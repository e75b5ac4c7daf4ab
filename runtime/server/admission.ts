/**
 * Admission control: how many requests, and how many bytes of them, a server holds at once. A
 * parsed request lives (and costs up to twenty times its size in heap, for a body of small objects)
 * until its handler answers, so without a bound enough slow concurrent requests end the process.
 * Transports count each request from the moment they start reading it until its answer is gone,
 * against the server's budget and, over HTTP, the client's and the connection's. Over any, the
 * request is refused at once, and what was admitted goes on being served. The client's budget
 * (every connection of one principal, or of one address) keeps one client's slow bodies, open
 * streams or unanswered requests from taking every slot of the server. Revision-independent;
 * copied verbatim into generated output.
 */

export interface AdmissionLimits {
  /** Requests one server holds at once (read, handled or answering). */
  maxRequestsInFlight?: number | undefined;
  /** Bytes of request bodies one server holds at once. */
  maxBytesInFlight?: number | undefined;
  /** Requests one connection holds at once (HTTP: pipelined requests on one socket). */
  maxRequestsPerConnection?: number | undefined;
  /** Bytes of request bodies one connection holds at once. */
  maxBytesPerConnection?: number | undefined;
  /** Requests one HTTP client holds at once over all its connections (a client: its principal when authenticated, else its address's network, `HttpOptions.clientPrefix`). */
  maxRequestsPerClient?: number | undefined;
  /** Bytes of request bodies one HTTP client holds at once. */
  maxBytesPerClient?: number | undefined;
}

/** The limits, each set. */
export type Limits = { readonly [K in keyof AdmissionLimits]-?: number };

const MiB = 1024 * 1024;

/**
 * The defaults: room for eight largest (4 MiB) bodies at once per server, which bounds the heap
 * their parsed form can take well under Node's default limit, and for many small requests.
 */
export const DEFAULT_ADMISSION: Limits = Object.freeze({
  maxRequestsInFlight: 1024,
  maxBytesInFlight: 32 * MiB,
  maxRequestsPerConnection: 64,
  maxBytesPerConnection: 16 * MiB,
  maxRequestsPerClient: 256,
  maxBytesPerClient: 16 * MiB,
});

/** The limits with defaults filled in, each checked to be a positive whole number. */
export function admissionLimits(options: AdmissionLimits): Limits {
  const limits: { -readonly [K in keyof Limits]: number } = { ...DEFAULT_ADMISSION };
  for (const key of Object.keys(DEFAULT_ADMISSION) as Array<keyof AdmissionLimits>) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${key} must be a positive integer, not ${String(value)}`);
    limits[key] = value;
  }
  return limits;
}

/** One budget: requests and bytes held, against their limits. */
export class Budget {
  requests = 0;
  bytes = 0;

  constructor(
    readonly maxRequests: number,
    readonly maxBytes: number,
  ) {}

  /** Whether one more request of `bytes` fits. */
  admits(bytes: number): boolean {
    return this.requests < this.maxRequests && this.bytes + bytes <= this.maxBytes;
  }

  /** Whether `bytes` more of a request already admitted fit. */
  fits(bytes: number): boolean {
    return this.bytes + bytes <= this.maxBytes;
  }
}

/**
 * The budgets of the clients that hold requests, by client: made with a client's first request and
 * dropped once it holds none, so that clients passing by leave nothing behind.
 */
export class ClientBudgets {
  private readonly budgets = new Map<string, Budget>();

  constructor(
    readonly maxRequests: number,
    readonly maxBytes: number,
  ) {}

  of(client: string): Budget {
    let budget = this.budgets.get(client);
    if (budget === undefined) {
      budget = new Budget(this.maxRequests, this.maxBytes);
      this.budgets.set(client, budget);
    }
    return budget;
  }

  /** Drops `client`'s budget when it holds nothing any more. */
  settle(client: string, budget: Budget): void {
    if (budget.requests === 0 && budget.bytes <= 0 && this.budgets.get(client) === budget)
      this.budgets.delete(client);
  }
}
