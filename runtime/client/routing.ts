/**
 * Where a server notification that arrives outside any call's own stream goes: a cancellation of
 * a request the server sent ends its handler; one tagged with a listen's subscription id goes to
 * that listen; anything else to the client's notification listeners. Revision-independent; copied
 * verbatim into generated output.
 */
import type { Connection } from "./connection.js";
import type { Deprecations } from "./deprecations.js";
import type { InputRequests } from "./input.js";
import type { ClientProtocol } from "./protocol.js";
import { isRecord, own, type JsonRpcId, type JsonRpcNotification } from "../shared/jsonrpc.js";

/** An open listen call, as routing finds it. */
export interface ActiveListen {
  /** The listen request's id, once sent. */
  id: JsonRpcId | null;
  onNotification: (notification: JsonRpcNotification) => void;
}

export class Router {
  private readonly listeners = new Set<(notification: JsonRpcNotification) => void>();
  /** The open listen calls. */
  readonly listens = new Set<ActiveListen>();

  constructor(
    private readonly protocol: ClientProtocol,
    private readonly connection: Connection,
    private readonly inputs: InputRequests,
    private readonly deprecations: Deprecations,
  ) {}

  /** Adds a listener for server notifications that belong to no call; returns its remover. */
  onNotification(listener: (notification: JsonRpcNotification) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Routes a notification outside any call's own stream: to the listen call it is tagged for, else to the listeners. */
  route(notification: JsonRpcNotification): void {
    const { protocol } = this;
    this.deprecations.report(own(protocol.deprecated.methods, notification.method));
    const session = this.connection.session;
    const cancelled =
      session?.era.cancelled ??
      (protocol.lifecycle.kind === "stateful" ? protocol.notifications.cancelled : null);
    const requestId = (session?.era.notificationParams ?? protocol.notificationParams).cancelled
      ?.requestId;
    if (cancelled !== null && requestId !== undefined && notification.method === cancelled)
      this.inputs.cancel(notification.params?.[requestId]);
    const key = protocol.meta.subscriptionId;
    const meta = notification.params?.[protocol.envelope.meta];
    if (key && isRecord(meta) && meta[key] !== undefined) {
      for (const listen of this.listens) {
        if (listen.id === meta[key]) {
          listen.onNotification(notification);
          return;
        }
      }
    }
    for (const listener of this.listeners) listener(notification);
  }
}
