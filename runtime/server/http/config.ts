/**
 * What every part of the Streamable HTTP transport reads: its configuration, made once per
 * handler from `HttpOptions` (options.ts).
 * Revision-independent; copied verbatim into generated output.
 */
import type { Acceptance, HeaderRules } from "../../shared/http-headers.js";
import type { HttpGuard } from "../../auth/http-auth.js";
import type { MessageHandler } from "../transport.js";
import type { Budget, ClientBudgets } from "../admission.js";
import type { SharedSessions } from "./shared.js";
import type { SessionStore } from "./sessions.js";
import type { Cors } from "./cors.js";

export interface Config {
  handler: MessageHandler;
  path: string;
  /** Whether `path` is its own normal form, so that a request URL equal to it is the endpoint. */
  pathIsCanonical: boolean;
  /** `path: "*"`: every path is the endpoint (the host routes to it). */
  anyPath: boolean;
  /** What browsers on allowed origins are told (cors.ts). */
  cors: Cors;
  maxBodyBytes: number;
  maxDepth: number;
  /** Arrays and objects a body may hold (counted before it is parsed). */
  maxContainers: number;
  /** Requests and body bytes this server holds. */
  budget: Budget;
  /** Requests and body bytes each client holds (`clientOf`). */
  clients: ClientBudgets;
  maxRequestsPerConnection: number;
  maxBytesPerConnection: number;
  /** The `Retry-After` value of refusals for load. */
  retryAfter: string;
  /** Which param names a request's target, for `auth.authorize` (the dispatcher checks headers itself). */
  rules: HeaderRules;
  keepAliveMs: number;
  bodyTimeoutMs: number;
  sessions: SessionStore;
  /** The sessions, when the handler shares them with other processes through its store. */
  shared: SharedSessions | undefined;
  /** The guard `HttpOptions.auth` put in front of the endpoint, asked again once a body is read. */
  auth: HttpGuard | undefined;
  log(message: string): void;
  // The checks of header values, each remembering its last value: a client's requests repeat the
  // same headers, and parsing them anew cost every request a dozen objects.
  hostAllowed: LastValue<boolean>;
  originAllowed: LastValue<boolean>;
  acceptance: LastValue<Acceptance>;
  isJsonContentType: LastValue<boolean>;
  /** The client key of a remote address, by `HttpOptions.clientPrefix` (client-key.ts). */
  addressKey: LastValue<string>;
}

/** A pure function of a header value, remembering what it gave for the last value it was given. */
export class LastValue<T> {
  private value: string | undefined = undefined;
  private computed: T | undefined = undefined;

  constructor(private readonly compute: (value: string) => T) {}

  of(value: string): T {
    if (value !== this.value || this.computed === undefined) {
      this.computed = this.compute(value);
      this.value = value;
    }
    return this.computed;
  }
}
