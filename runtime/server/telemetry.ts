/**
 * The dispatcher's telemetry hook (`DispatcherOptions.telemetry`): each request and notification a
 * transport hands the dispatcher is one operation, started with what the request and its delivery
 * say (read by the protocol description's names) and ended with its outcome. Transports need
 * nothing of it: stdio, Streamable HTTP and legacy sessions all pass the dispatcher. Only a
 * dispatcher given a `Telemetry` makes one of these. Revision-independent; copied verbatim into
 * generated output.
 */
import { isRecord, own, type JsonRpcNotification, type JsonRpcRequest } from "../shared/jsonrpc.js";
import type { NetworkFacts, Operation, OperationFacts, Telemetry } from "../shared/telemetry.js";
import { endOperation } from "../shared/telemetry-outcome.js";
import { LegacySessions } from "./legacy.js";
import type { Protocol } from "./protocol.js";
import { isThenable, SESSION_ID, type Delivery, type Outcome } from "./transport.js";

export type { Telemetry } from "../shared/telemetry.js";

const PIPE: NetworkFacts = { transport: "pipe" };
const HTTP: NetworkFacts = { transport: "tcp", protocol: "http" };

/**
 * A method name a peer sent that the server does not know is recorded as this: a peer must not
 * choose the names (and the metric series) the server records.
 */
const UNKNOWN_METHOD = "_OTHER";

/**
 * The request header naming the HTTP session a request belongs to (the Streamable HTTP transport's
 * `Mcp-Session-Id`; the schema does not name it), read when the transport did not put the
 * session's id in its record (`SESSION_ID`, which a transport sharing its sessions does).
 */
const SESSION_HEADER = "mcp-session-id";

/** The event a request bridged to an initialize-era client is recorded as, with its method. */
export const BRIDGED_EVENT = "mcp.bridged_request";

export class ServerTelemetry {
  /** Every method name of the description and its eras, requests and notifications alike. */
  private readonly known: ReadonlySet<string>;
  /** The operation of each request being served, by its delivery: what a bridged request belongs to. */
  private readonly serving = new WeakMap<Delivery, Operation>();

  constructor(
    private readonly protocol: Protocol,
    private readonly telemetry: Telemetry,
  ) {
    this.known = knownMethods(protocol);
  }

  /**
   * Runs `serve` as the request's operation: the handler runs in its context (what it calls out is
   * its child), and it ends with the outcome, at once or when the promise settles.
   */
  request(
    request: JsonRpcRequest,
    delivery: Delivery,
    serve: () => Outcome | Promise<Outcome>,
  ): Outcome | Promise<Outcome> {
    const operation = this.start(request, delivery);
    // Known before the handler runs: it may bridge a request before its first await.
    this.serving.set(delivery, operation);
    const outcome = operation.run(serve);
    if (!isThenable(outcome)) {
      this.serving.delete(delivery);
      return this.ended(operation, outcome);
    }
    return outcome.then((settled) => {
      this.serving.delete(delivery);
      return this.ended(operation, settled);
    });
  }

  /** A request bridged to the client of an initialize-era session, while `delivery`'s request is served. */
  bridged(delivery: Delivery, method: string): void {
    this.serving.get(delivery)?.event(BRIDGED_EVENT, { "mcp.method.name": method });
  }

  /** A notification from the client: an operation that ends when the dispatcher has taken it. */
  notification(message: JsonRpcNotification, delivery: Delivery): Operation {
    return this.start(message as JsonRpcRequest, delivery);
  }

  /** The session ended (the transport forgot it): its duration is recorded. */
  sessionEnded(session: Record<string, unknown>): void {
    this.telemetry.sessionEnded(session);
  }

  private start(request: JsonRpcRequest, delivery: Delivery): Operation {
    const { protocol } = this;
    const params = isRecord(request.params) ? request.params : {};
    const sent = params[protocol.envelope.meta];
    const method = this.known.has(request.method) ? request.method : UNKNOWN_METHOD;
    const session = delivery.session;
    const id = session
      ? ((session as Record<symbol, unknown>)[SESSION_ID] ?? delivery.header?.(SESSION_HEADER))
      : undefined;
    const facts: OperationFacts = {
      method,
      params,
      target: own(protocol.methods, method)?.target ?? null,
      toolCall: protocol.tools !== null && method === protocol.tools.call,
      network: delivery.headers === undefined ? PIPE : HTTP,
    };
    if ("id" in request) facts.id = request.id;
    if (isRecord(sent)) facts.meta = sent;
    const version = this.versionOf(params, isRecord(sent) ? sent : undefined, session);
    if (version !== undefined) facts.protocolVersion = version;
    if (typeof id === "string") facts.sessionId = id;
    if (session) this.telemetry.sessionSeen(session, facts);
    return this.telemetry.operation(facts);
  }

  /**
   * The version the request is served under: the one its `_meta` names (stateless), its legacy
   * session's, the one its handshake asks for, or the revision's own (stateful).
   */
  private versionOf(
    params: Record<string, unknown>,
    meta: Record<string, unknown> | undefined,
    session: Record<string, unknown> | undefined,
  ): string | undefined {
    const { protocol } = this;
    const { lifecycle } = protocol;
    if (lifecycle.kind === "stateless") {
      const named = meta?.[lifecycle.protocolVersionKey];
      if (typeof named === "string") return named;
    }
    const legacy = LegacySessions.of(session);
    if (legacy) return legacy.protocol.protocolVersion;
    const asked = params[protocol.handshakeVersionParam];
    if (typeof asked === "string" && protocol.eras.length > 0) return asked;
    return lifecycle.kind === "stateful" ? protocol.protocolVersion : undefined;
  }

  /** Ends the operation with what its response says; returns the outcome untouched. */
  private ended(operation: Operation, outcome: Outcome): Outcome {
    endOperation(operation, this.protocol, outcome.response);
    return outcome;
  }
}

/** The method names a server of this description may be sent, in any era it speaks. */
function knownMethods(protocol: Protocol): ReadonlySet<string> {
  const names = new Set<string>(Object.keys(protocol.methods));
  const { lifecycle } = protocol;
  if (lifecycle.kind === "stateless") names.add(lifecycle.discover);
  else {
    names.add(lifecycle.initialize);
    if (lifecycle.initialized) names.add(lifecycle.initialized);
  }
  if (protocol.ping) names.add(protocol.ping);
  for (const name of Object.values(protocol.notifications)) if (name) names.add(name);
  if (protocol.listen) names.add(protocol.listen.method);
  for (const era of protocol.eras) {
    names.add(era.initialize);
    for (const name of Object.keys(era.methods)) names.add(name);
    for (const name of [era.initialized, era.ping, era.cancelled, era.progress])
      if (name) names.add(name);
    if (era.setLevel) names.add(era.setLevel.method);
    if (era.subscribe) names.add(era.subscribe.method).add(era.subscribe.unsubscribe);
    if (era.discover) names.add(era.discover.method);
  }
  return names;
}
