/**
 * Listen streams: a long-lived listen request as an async iterable of the notifications it
 * delivers, and on a legacy session (which has no listen request) the same stream made of the
 * legacy per-resource subscribes and the session's notifications. Revision-independent; copied
 * verbatim into generated output.
 */
import type { Connection } from "./connection.js";
import { MethodNotFoundError } from "./errors.js";
import { legacyListen, type LegacySession } from "./legacy.js";
import type { LegacyCalls } from "./legacy-call.js";
import type { CallOptions, InternalCallOptions } from "./options.js";
import type { ClientProtocol } from "./protocol.js";
import type { ActiveListen, Router } from "./routing.js";
import { ErrorCode, isRecord, type JsonRpcNotification } from "../shared/jsonrpc.js";

/** A listen call: iterate it for notifications; `acknowledged` resolves with what the server honours. */
export interface ListenStream extends AsyncIterableIterator<JsonRpcNotification> {
  acknowledged: Promise<Record<string, unknown>>;
  /** Settles when the subscription has ended. */
  finished: Promise<void>;
}

export class Listens {
  /** Per open listen on a legacy session: sends its legacy unsubscribes (once). */
  private readonly unsubscribes = new Set<() => Promise<void>>();

  constructor(
    private readonly protocol: ClientProtocol,
    private readonly connection: Connection,
    private readonly router: Router,
    private readonly legacy: LegacyCalls,
    /** The core's request (which connects first where it must). */
    private readonly request: (
      method: string,
      params: Record<string, unknown> | undefined,
      options: CallOptions,
    ) => Promise<Record<string, unknown>>,
    /** Aborts when the client closes: every listen ends. */
    private readonly closing: AbortSignal,
    private readonly log: (message: string) => void,
  ) {}

  /** Listens on a legacy session end their subscriptions while the session is still there. */
  async unsubscribeAll(): Promise<void> {
    await Promise.allSettled([...this.unsubscribes].map((unsubscribe) => unsubscribe()));
  }

  /**
   * A long-lived listen request as an async iterable of the notifications it delivers (the
   * acknowledgement excluded: see `acknowledged`). Ends when the server ends the subscription;
   * leaving the loop early cancels it.
   */
  listen(params: Record<string, unknown>, options: CallOptions = {}): ListenStream {
    const listen = this.protocol.listen;
    if (!listen)
      throw new MethodNotFoundError(ErrorCode.MethodNotFound, "this revision has no subscriptions");
    const queue: JsonRpcNotification[] = [];
    let wake: (() => void) | null = null;
    let done = false;
    let failure: { error: unknown } | null = null;
    let acknowledge: (value: Record<string, unknown>) => void = () => {};
    const acknowledged = new Promise<Record<string, unknown>>((resolve) => (acknowledge = resolve));
    const controller = new AbortController();
    const entry: ActiveListen = { id: null, onNotification: () => {} };
    const push = (notification: JsonRpcNotification) => {
      if (notification.method === this.protocol.notifications.acknowledged) {
        acknowledge(isRecord(notification.params) ? notification.params : {});
        return;
      }
      queue.push(notification);
      wake?.();
    };
    entry.onNotification = push;
    // Over HTTP the events arrive on the request's own stream and go through the routing of
    // `send`, which hands tagged notifications to the router, which finds this entry.
    this.router.listens.add(entry);
    const signal = options.signal
      ? AbortSignal.any([options.signal, controller.signal])
      : controller.signal;
    const internal: InternalCallOptions = {
      timeoutMs: 0,
      ...options,
      signal,
      onId: (id) => (entry.id = id),
    };
    const run = async (): Promise<void> => {
      // A dual-era client learns the era first: a legacy session has no listen request.
      if (this.connection.eras.length > 0) await this.connection.connect();
      const session = this.connection.session;
      if (session) return this.legacyListen(session, listen, params, push, acknowledge, signal);
      await this.request(listen.method, params, internal);
    };
    const finished = run()
      .then(
        () => {},
        (error: unknown) => {
          if (!controller.signal.aborted) failure = { error };
        },
      )
      .finally(() => {
        done = true;
        this.router.listens.delete(entry);
        wake?.();
      });
    const iterator: AsyncIterableIterator<JsonRpcNotification> = {
      next: async (): Promise<IteratorResult<JsonRpcNotification>> => {
        for (;;) {
          if (queue.length > 0) return { value: queue.shift()!, done: false };
          if (failure) throw failure.error;
          if (done) return { value: undefined, done: true };
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
      },
      return: async (): Promise<IteratorResult<JsonRpcNotification>> => {
        controller.abort(new Error("listen ended by the client"));
        await finished;
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return Object.assign(iterator, { acknowledged, finished });
  }

  /**
   * A listen on a legacy session, which has no listen request: the legacy subscribe for each
   * resource the filter names, then the session's notifications the filter asks for, until the
   * stream is left or the client closes; then the legacy unsubscribe for each. The acknowledgement
   * reports what the session honours, as a modern server's does.
   */
  private async legacyListen(
    session: LegacySession,
    listen: NonNullable<ClientProtocol["listen"]>,
    params: Record<string, unknown>,
    push: (notification: JsonRpcNotification) => void,
    acknowledge: (value: Record<string, unknown>) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const given = params[listen.filterParam];
    const plan = legacyListen(session, listen, isRecord(given) ? given : {});
    const subscribe = session.era.subscribe;
    const remove = this.router.onNotification((notification) => {
      if (plan.wants(notification)) push(notification);
    });
    const subscribed: string[] = [];
    const unsubscribe = async (): Promise<void> => {
      for (const uri of subscribed.splice(0))
        await this.legacy
          .request(subscribe!.unsubscribe, { [subscribe!.param]: uri })
          .catch((error: unknown) =>
            this.log(
              `mcp client: ${subscribe!.unsubscribe} ${uri} failed: ${error instanceof Error ? error.message : String(error)}`,
            ),
          );
    };
    this.unsubscribes.add(unsubscribe);
    try {
      const ended = AbortSignal.any([signal, this.closing]);
      for (const uri of plan.resources) {
        await this.legacy.request(subscribe!.method, { [subscribe!.param]: uri }, ended);
        subscribed.push(uri);
      }
      acknowledge({ [listen.filterParam]: plan.honoured });
      if (!ended.aborted)
        await new Promise<void>((resolve) =>
          ended.addEventListener("abort", () => resolve(), { once: true }),
        );
    } finally {
      remove();
      await unsubscribe();
      this.unsubscribes.delete(unsubscribe);
    }
  }
}
