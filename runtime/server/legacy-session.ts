/**
 * One initialize-era client's session on a stateless server: what it declared in its handshake,
 * what it asked for since (its log level, its subscriptions), the requests the server sent it and
 * waits on, and its own requests being served (for its cancellations). Where it lives in the
 * transport's session record, and what of it another process needs. Revision-independent; copied
 * verbatim into generated output.
 */
import { ErrorCode, isRecord, RpcError } from "../shared/jsonrpc.js";
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcNotification } from "../shared/jsonrpc.js";
import { LazyAbort, SESSION_SEND, type Delivery } from "./transport.js";
import type { LegacyEra } from "../shared/protocol.js";

/** Where a legacy session lives in the transport's session record. */
export const SESSION_KEY = "legacy";

/** The legacy session a transport's session record holds, if any. */
export function sessionOf(record: Record<string, unknown> | undefined): LegacySession | undefined {
  const session = record?.[SESSION_KEY];
  return session instanceof LegacySession ? session : undefined;
}

/** What another process needs to serve a legacy session: all of it but the requests in flight here. */
export interface LegacySnapshot {
  version: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo: unknown;
  initialized: boolean;
  logLevel: string | null;
  subscriptions: string[];
}

/** Who waits for the client's response to a request of the server's, or for why there is none. */
type Pending = {
  resolve(value: unknown): void;
  reject(error: RpcError): void;
};

/** One legacy client's session: what it declared in its handshake and what it asked for since. */
export class LegacySession {
  initialized = false;
  logLevel: string | null = null;
  readonly subscriptions = new Set<string>();
  /** Bytes of the URIs in `subscriptions` (a subscription is held for the session's life: each is counted). */
  subscriptionBytes = 0;
  /** Requests sent to the client, by id, until answered. */
  readonly pending = new Map<JsonRpcId, Pending>();
  /** The client's requests being served, by id, for its cancellation notifications. */
  readonly inflight = new Map<JsonRpcId, LazyAbort>();
  private nextId = 0;
  ended = false;
  /** When this process last renewed the session's indexes in a shared store (legacy-shared.ts). */
  indexesRenewed = 0;
  /** The snapshot `refresh` last took (a shared session's), so that the same one again is skipped. */
  restoredFrom: LegacySnapshot | undefined = undefined;

  constructor(
    readonly protocol: LegacyEra,
    readonly clientCapabilities: Record<string, unknown>,
    readonly clientInfo: unknown,
    /** The transport's session record (its `SESSION_SEND` reaches the client outside any request). */
    readonly record: Record<string | symbol, unknown>,
  ) {}

  snapshot(): LegacySnapshot {
    return {
      version: this.protocol.protocolVersion,
      clientCapabilities: this.clientCapabilities,
      clientInfo: this.clientInfo,
      initialized: this.initialized,
      logLevel: this.logLevel,
      subscriptions: [...this.subscriptions],
    };
  }

  /** Takes what another process changed (its requests in flight here stay). */
  refresh(snapshot: LegacySnapshot): void {
    this.restoredFrom = snapshot;
    this.initialized = snapshot.initialized;
    this.logLevel = snapshot.logLevel;
    this.subscriptions.clear();
    this.subscriptionBytes = 0;
    for (const uri of snapshot.subscriptions) {
      this.subscriptions.add(uri);
      this.subscriptionBytes += Buffer.byteLength(uri);
    }
  }

  /** Sends a message outside any request (list changes, resource updates); false when there is nowhere to send it. */
  push(message: JsonRpcNotification): boolean {
    const send = this.record[SESSION_SEND];
    if (typeof send !== "function") return false;
    (send as (message: JsonRpcNotification) => void)(message);
    return true;
  }

  /**
   * Sends a request to the client on `delivery` (over HTTP, the stream of the request being
   * answered) and waits for its response, at most `timeoutMs`, or until `signal` aborts.
   */
  request(
    method: string,
    params: Record<string, unknown>,
    delivery: Delivery,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<unknown> {
    if (this.ended)
      return Promise.reject(new RpcError(ErrorCode.InternalError, "The session ended"));
    const id = `mcp-gen-${++this.nextId}`;
    return new Promise<unknown>((resolve, reject) => {
      const stopWaiting = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.pending.delete(id);
      };
      const onAbort = (): void => {
        stopWaiting();
        this.cancel(id, delivery, "The request was cancelled");
        reject(
          new RpcError(
            ErrorCode.InternalError,
            `${method}: the request was cancelled before the client answered`,
          ),
        );
      };
      const timer = setTimeout(() => {
        stopWaiting();
        this.cancel(id, delivery, "Timed out");
        reject(
          new RpcError(
            ErrorCode.InternalError,
            `${method}: the client did not answer within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      timer.unref?.();
      this.pending.set(id, {
        resolve: (value) => {
          stopWaiting();
          resolve(value);
        },
        reject: (error) => {
          stopWaiting();
          reject(error);
        },
      });
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      // A request rides the same channel as the request's notifications (stdout, or its SSE stream).
      delivery.notify({ jsonrpc: "2.0", id, method, params } as unknown as JsonRpcNotification);
    });
  }

  /** Takes the client's response to one of the server's requests; false when none waits for it. */
  takeResponse(message: Record<string, unknown>): boolean {
    const id = message.id as JsonRpcId;
    const pending = this.pending.get(id);
    if (!pending) return false;
    if (isRecord(message.error)) {
      const error = message.error as unknown as JsonRpcErrorObject;
      pending.reject(
        new RpcError(
          typeof error.code === "number" ? error.code : ErrorCode.InternalError,
          `The client answered with an error: ${String(error.message)}`,
          error.data,
        ),
      );
    } else pending.resolve(message.result);
    return true;
  }

  private cancel(id: JsonRpcId, delivery: Delivery, reason: string): void {
    const names = this.protocol.notificationParams.cancelled;
    if (!this.protocol.cancelled || !names) return;
    const params: Record<string, unknown> = { [names.requestId]: id };
    if (names.reason) params[names.reason] = reason;
    delivery.notify({ jsonrpc: "2.0", method: this.protocol.cancelled, params });
  }

  /** Ends the session: requests still waiting for the client fail. */
  end(): void {
    this.ended = true;
    for (const pending of [...this.pending.values()])
      pending.reject(
        new RpcError(ErrorCode.InternalError, "The session ended before the client answered"),
      );
    this.pending.clear();
    this.subscriptions.clear();
    this.subscriptionBytes = 0;
  }
}
