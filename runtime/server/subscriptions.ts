/**
 * The server's open `subscriptions/listen` streams: opening one (acknowledge the filter that will be
 * honoured, then hold the request open), publishing a notification to the streams that opted into
 * it, ending them all on close. The revision's listen method, filter keys and field names come from
 * the generated `Protocol`. Revision-independent; copied verbatim into generated output.
 */
import {
  isRecord,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from "../shared/jsonrpc.js";
import type { Delivery, Outcome } from "./transport.js";
import type { Protocol } from "./protocol.js";

/** What a server publishes: a notification without its JSON-RPC frame. */
export interface Published {
  method: string;
  params?: Record<string, unknown>;
}

type Filter = NonNullable<Protocol["listen"]>["filter"];

interface Subscription {
  id: JsonRpcId;
  filter: Record<string, unknown>;
  delivery: Delivery;
  end: (outcome: Outcome) => void;
}

export class Subscriptions {
  private readonly open = new Set<Subscription>();
  /** Set by `close()`: a later listen is ended as soon as it is acknowledged. */
  private closed = false;

  /**
   * @param declares whether the server declared a capability flag (`["resources", "subscribe"]`)
   * @param ended the outcome that ends a subscription gracefully: its result, tagged with its id
   */
  constructor(
    private readonly protocol: Protocol,
    private readonly declares: (capability: string, flag: string) => boolean,
    private readonly ended: (id: JsonRpcId) => Outcome,
  ) {}

  /** Whether `method` opens a subscription here: it is the revision's listen method and the server declared something to listen to. */
  opens(method: string): boolean {
    const listen = this.protocol.listen;
    if (!listen || method !== listen.method) return false;
    return Object.values(listen.filter).some(({ capability: [name, flag] }) =>
      this.declares(name, flag),
    );
  }

  /** Whether the server declared the capability flag a subscribable notification needs. */
  declaredFor(method: string): boolean {
    const listen = this.protocol.listen;
    if (!listen) return false;
    for (const entry of Object.values(listen.filter))
      if (entry.notification === method && this.declares(entry.capability[0], entry.capability[1]))
        return true;
    return false;
  }

  /** Sends `notification` to every open stream that opted into it; how many it went to. */
  publish(notification: Published): number {
    const listen = this.protocol.listen;
    if (!listen) return 0;
    let sent = 0;
    for (const subscription of this.open) {
      if (!wants(subscription.filter, notification, listen.filter)) continue;
      subscription.delivery.notify(this.tagged(notification, subscription.id));
      sent++;
    }
    return sent;
  }

  /** Opens a listen stream (its params already checked): acknowledge what will be honoured, then hold the request open. */
  listen(
    request: JsonRpcRequest,
    params: Record<string, unknown>,
    delivery: Delivery,
  ): Promise<Outcome> {
    const listen = this.protocol.listen!;
    const filter = params[listen.filterParam];
    const asked = isRecord(filter) ? filter : {};
    const honoured: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(listen.filter)) {
      const value = asked[key];
      if (
        value === undefined ||
        value === false ||
        !this.declares(entry.capability[0], entry.capability[1])
      )
        continue;
      honoured[key] = value;
    }
    const { acknowledged } = this.protocol.notifications;
    const filterField = this.protocol.envelope.acknowledgedFilter;
    if (acknowledged && filterField !== null) {
      delivery.notify(
        this.tagged({ method: acknowledged, params: { [filterField]: honoured } }, request.id),
      );
    }
    if (this.closed) return Promise.resolve(this.ended(request.id));
    return new Promise<Outcome>((resolve) => {
      const subscription: Subscription = {
        id: request.id,
        filter: honoured,
        delivery,
        end: (outcome) => {
          this.open.delete(subscription);
          resolve(outcome);
        },
      };
      this.open.add(subscription);
      // An abrupt close carries no response.
      delivery.signal.addEventListener(
        "abort",
        () => subscription.end({ response: null, httpStatus: 200 }),
        { once: true },
      );
    });
  }

  /** Ends every open subscription gracefully (each gets its result) and stops accepting new ones. */
  close(): void {
    this.closed = true;
    for (const subscription of [...this.open]) subscription.end(this.ended(subscription.id));
  }

  /** The notification as sent on one subscription's stream: its `_meta` names the subscription. */
  private tagged(notification: Published, id: JsonRpcId): JsonRpcNotification {
    const params: Record<string, unknown> = Object.assign({}, notification.params);
    const key = this.protocol.meta.subscriptionId;
    if (key) {
      const field = this.protocol.envelope.meta;
      const meta = params[field];
      params[field] = { ...(isRecord(meta) ? meta : {}), [key]: id };
    }
    return { jsonrpc: "2.0", method: notification.method, params };
  }
}

/** Whether a subscription's filter opts into `notification`. */
function wants(filter: Record<string, unknown>, notification: Published, table: Filter): boolean {
  for (const [key, entry] of Object.entries(table)) {
    if (entry.notification !== notification.method) continue;
    const wanted = filter[key];
    if (wanted === true) return true;
    // A list-valued filter (resource URIs) names the targets it wants, by the notification's target param.
    const target = entry.target === null ? undefined : notification.params?.[entry.target];
    if (Array.isArray(wanted) && typeof target === "string") return wanted.includes(target);
  }
  return false;
}
