/**
 * OpenTelemetry for a generated server or client (`--telemetry otel`): spans and duration metrics
 * as the OpenTelemetry semantic conventions for MCP define them, recorded through the globally
 * registered tracer, meter and propagator (`@opentelemetry/api`), the way instrumentation libraries
 * do. The dispatcher and the client core call it through the hooks of shared/telemetry.ts, so it
 * knows no revision.
 *
 * Trace context travels in the request's metadata (`_meta`, by the name the protocol description
 * gives it): through the registered propagator, or, when none is registered, as W3C `traceparent`
 * and `tracestate` written and read here, so that a generated client and server make one trace
 * with no setup beyond a tracer provider. Optional adapter: imports `@opentelemetry/api`.
 *
 * Whether anything records is settled when the server or client is made, as the metrics API
 * settles it (it has no proxy: a meter taken before an SDK is registered stays a no-op): with
 * neither a tracer nor a meter provider registered by then, the factories give no hook at all, and
 * the dispatcher and the client core run exactly as without the adapter.
 */
import {
  context,
  createNoopMeter,
  createTraceState,
  isSpanContextValid,
  metrics,
  propagation,
  ProxyTracerProvider,
  trace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Histogram,
  type Link,
  type Meter,
  type Span,
  type SpanContext,
  type Tracer,
} from "@opentelemetry/api";
import type { Operation, OperationEnd, OperationFacts, Telemetry } from "../shared/telemetry.js";

export type { Telemetry } from "../shared/telemetry.js";

export interface OtelTelemetryOptions {
  /** The instrumentation scope's name; default `mcp-gen`. */
  name?: string;
  /** Its version; default none. */
  version?: string;
  /**
   * The longest string recorded from what a peer sent (a tool name, a URI, a session or request id,
   * an error message); longer ones are cut. Default 256.
   */
  maxAttributeLength?: number;
}

/**
 * Where a request's target is recorded, by the param naming it (the protocol description's
 * `target`): the conventions name the attribute, the schema only the param. A named target is low
 * in cardinality and also names the span; a URI never does (the conventions' default).
 */
const TARGET_ATTRIBUTES: Readonly<Record<string, string>> = {
  uri: "mcp.resource.uri",
  name: "gen_ai.prompt.name",
};
/** A tool call's target, and the GenAI operation it is (the conventions' `execute_tool`). */
const TOOL_TARGET = "gen_ai.tool.name";
const TOOL_OPERATION = "execute_tool";

/** The bucket boundaries (seconds) the conventions advise for every MCP duration histogram. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The W3C Trace Context keys in `_meta`, written unprefixed (SEP-414). */
const TRACEPARENT = "traceparent";
const TRACESTATE = "tracestate";

/**
 * The server's side: SERVER spans, `mcp.server.*` metrics; `undefined` (no hook at all) while
 * neither a tracer nor a meter provider is registered.
 */
export function otelServerTelemetry(options: OtelTelemetryOptions = {}): Telemetry | undefined {
  return recording("server", options);
}

/** The client's side: CLIENT spans, `mcp.client.*` metrics; `undefined` as for the server. */
export function otelClientTelemetry(options: OtelTelemetryOptions = {}): Telemetry | undefined {
  return recording("client", options);
}

type Side = "server" | "client";

/** The API's own no-op tracer provider: what its proxy delegates to while no SDK is registered. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
/** A no-op meter, to tell the API's no-op meters by. */
const NOOP_METER = createNoopMeter();

/** The side's telemetry, recording what has a provider registered now; `undefined` for neither. */
function recording(side: Side, options: OtelTelemetryOptions): Telemetry | undefined {
  const name = options.name ?? "mcp-gen";
  const provider = trace.getTracerProvider();
  const tracing = !(
    provider instanceof ProxyTracerProvider && provider.getDelegate() === NOOP_TRACER_PROVIDER
  );
  const meter = metrics.getMeter(name, options.version);
  const metering = meter.constructor !== NOOP_METER.constructor;
  if (!tracing && !metering) return undefined;
  return new OtelTelemetry(
    side,
    options,
    tracing ? trace.getTracer(name, options.version) : null,
    metering ? meter : null,
  );
}

/** A session's start and the attributes its duration is recorded with. */
interface SessionStart {
  at: number;
  attributes: Attributes;
}

class OtelTelemetry implements Telemetry {
  readonly kind: SpanKind;
  /** The duration histograms; `null` when no meter provider was registered. */
  readonly operationDuration: Histogram | null = null;
  readonly sessionDuration: Histogram | null = null;
  readonly max: number;
  private readonly sessions = new WeakMap<object, SessionStart>();

  constructor(
    readonly side: Side,
    options: OtelTelemetryOptions,
    /** `null` when no tracer provider was registered: no spans, no trace context. */
    readonly tracer: Tracer | null,
    meter: Meter | null,
  ) {
    this.kind = side === "server" ? SpanKind.SERVER : SpanKind.CLIENT;
    this.max = options.maxAttributeLength ?? 256;
    if (meter === null) return;
    const advice = { advice: { explicitBucketBoundaries: DURATION_BUCKETS }, unit: "s" };
    this.operationDuration = meter.createHistogram(`mcp.${side}.operation.duration`, {
      ...advice,
      description:
        side === "server"
          ? "MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent."
          : "The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received.",
    });
    this.sessionDuration = meter.createHistogram(`mcp.${side}.session.duration`, {
      ...advice,
      description: `The duration of the MCP session as observed on the MCP ${side}.`,
    });
  }

  operation(facts: OperationFacts): Operation {
    return new OtelOperation(this, facts);
  }

  sessionSeen(session: object, facts: OperationFacts): void {
    if (this.sessionDuration === null || this.sessions.has(session)) return;
    const attributes: Attributes = {};
    putNetwork(attributes, facts, this.side);
    if (facts.protocolVersion !== undefined)
      attributes["mcp.protocol.version"] = this.bounded(facts.protocolVersion);
    this.sessions.set(session, { at: performance.now(), attributes });
  }

  sessionEnded(session: object): void {
    const start = this.sessions.get(session);
    if (!start) return;
    this.sessions.delete(session);
    this.sessionDuration?.record((performance.now() - start.at) / 1000, start.attributes);
  }

  /** A string a peer controls, cut to the configured length. */
  bounded(value: string): string {
    return value.length <= this.max ? value : value.slice(0, this.max);
  }
}

/** One request or notification: its span, and its duration recorded when it ends. */
class OtelOperation implements Operation {
  /** `null` without a tracer provider. */
  private readonly span: Span | null = null;
  private readonly context: Context | null = null;
  private readonly started: number;
  /** The attributes the duration metric is recorded with (the span's, less the high-cardinality ones). */
  private readonly metric: Attributes = {};
  private ended = false;

  constructor(
    private readonly telemetry: OtelTelemetry,
    facts: OperationFacts,
  ) {
    const { metric } = this;
    const attributes: Attributes = { "mcp.method.name": facts.method };
    let name = facts.method;
    const target = facts.target === null ? undefined : facts.params[facts.target];
    if (typeof target === "string" && facts.target !== null) {
      const key = facts.toolCall ? TOOL_TARGET : TARGET_ATTRIBUTES[facts.target];
      if (key !== undefined) {
        const value = telemetry.bounded(target);
        attributes[key] = value;
        if (key !== TARGET_ATTRIBUTES.uri) {
          name = `${facts.method} ${value}`;
          metric[key] = value;
        }
      }
    }
    if (facts.toolCall)
      attributes["gen_ai.operation.name"] = metric["gen_ai.operation.name"] = TOOL_OPERATION;
    if (facts.id !== undefined && facts.id !== null)
      attributes["jsonrpc.request.id"] = telemetry.bounded(String(facts.id));
    if (facts.sessionId !== undefined)
      attributes["mcp.session.id"] = telemetry.bounded(facts.sessionId);
    if (facts.protocolVersion !== undefined)
      attributes["mcp.protocol.version"] = metric["mcp.protocol.version"] = telemetry.bounded(
        facts.protocolVersion,
      );
    putNetwork(attributes, facts, telemetry.side);
    putNetwork(metric, facts, telemetry.side);
    metric["mcp.method.name"] = facts.method;
    this.started = telemetry.operationDuration === null ? 0 : performance.now();
    if (telemetry.tracer === null) return;

    // The server's parent is the context the client sent; the ambient one (an HTTP server span,
    // say) becomes a link. The client's parent is whatever is active where it was called.
    const active = context.active();
    let parent = active;
    const links: Link[] = [];
    if (facts.meta !== undefined) {
      const sent = extract(active, facts.meta);
      if (sent !== null) {
        parent = sent;
        const ambient = trace.getSpanContext(active);
        if (ambient && isSpanContextValid(ambient)) links.push({ context: ambient });
      }
    }
    this.span = telemetry.tracer.startSpan(
      name,
      { kind: telemetry.kind, attributes, links },
      parent,
    );
    this.context = trace.setSpan(parent, this.span);
  }

  run<T>(fn: () => T): T {
    return this.context === null ? fn() : context.with(this.context, fn);
  }

  inject(meta: Record<string, unknown>): void {
    if (this.context !== null) inject(this.context, meta);
  }

  event(name: string, attributes: Record<string, string | number>): void {
    if (this.span?.isRecording()) this.span.addEvent(name, attributes);
  }

  end(outcome: OperationEnd): void {
    if (this.ended) return;
    this.ended = true;
    const { span, metric, telemetry } = this;
    let errorType: string | undefined;
    if (outcome.error !== undefined) {
      errorType = String(outcome.error.code);
      span?.setAttribute("rpc.response.status_code", errorType);
      metric["rpc.response.status_code"] = errorType;
      span?.setStatus({
        code: SpanStatusCode.ERROR,
        message: telemetry.bounded(String(outcome.error.message)),
      });
    } else if (outcome.toolError) {
      errorType = "tool_error";
      span?.setStatus({ code: SpanStatusCode.ERROR });
    } else if (outcome.failure !== undefined) {
      errorType = outcome.failure;
      span?.setStatus({ code: SpanStatusCode.ERROR, message: outcome.failure });
    }
    if (errorType !== undefined) {
      span?.setAttribute("error.type", errorType);
      metric["error.type"] = errorType;
    }
    span?.end();
    telemetry.operationDuration?.record((performance.now() - this.started) / 1000, metric);
  }
}

/** `network.*` (both sides) and `server.*` (the client's, when it has an address). */
function putNetwork(attributes: Attributes, facts: OperationFacts, side: Side): void {
  const { network } = facts;
  if (network === undefined) return;
  attributes["network.transport"] = network.transport;
  if (network.protocol !== undefined) attributes["network.protocol.name"] = network.protocol;
  if (side === "client" && network.address !== undefined) {
    attributes["server.address"] = network.address;
    if (network.port !== undefined) attributes["server.port"] = network.port;
  }
}

/** Whether a propagator is registered: the API's no-op one names no fields. */
function propagatorRegistered(): boolean {
  return propagation.fields().length > 0;
}

/** The context the peer sent in `meta`, or `null` when it sent none (or none that parses). */
function extract(active: Context, meta: Record<string, unknown>): Context | null {
  if (propagatorRegistered()) {
    const extracted = propagation.extract(active, meta, META_GETTER);
    const sent = trace.getSpanContext(extracted);
    return sent && sent.isRemote && isSpanContextValid(sent) ? extracted : null;
  }
  const sent = parseTraceparent(meta[TRACEPARENT], meta[TRACESTATE]);
  return sent ? trace.setSpanContext(active, sent) : null;
}

/** Writes `ctx`'s trace context into `meta`. */
function inject(ctx: Context, meta: Record<string, unknown>): void {
  if (propagatorRegistered()) {
    propagation.inject(ctx, meta, META_SETTER);
    return;
  }
  const span = trace.getSpanContext(ctx);
  if (!span || !isSpanContextValid(span)) return;
  const flags = (span.traceFlags & 0xff).toString(16).padStart(2, "0");
  meta[TRACEPARENT] = `00-${span.traceId}-${span.spanId}-${flags}`;
  const state = span.traceState?.serialize();
  if (state) meta[TRACESTATE] = state;
}

/** `_meta` as a propagator's carrier: string values only, anything else is absent. */
const META_GETTER = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string) => {
    const value = Object.prototype.hasOwnProperty.call(carrier, key) ? carrier[key] : undefined;
    return typeof value === "string" ? value : undefined;
  },
};
const META_SETTER = {
  set: (carrier: Record<string, unknown>, key: string, value: string) => {
    carrier[key] = value;
  },
};

/** W3C `traceparent` (version 00 and, read as 00, later ones): what the peer sent, bounded. */
const TRACEPARENT_FORMAT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
/** A `tracestate` longer than this is dropped (the W3C limit is 32 entries of at most 256 chars). */
const MAX_TRACESTATE = 8192;

function parseTraceparent(header: unknown, state: unknown): SpanContext | null {
  if (typeof header !== "string" || header.length > 512) return null;
  const match = TRACEPARENT_FORMAT.exec(header.trim());
  if (!match || match[1] === "ff" || (match[1] === "00" && match[5] !== undefined)) return null;
  const sent: SpanContext = {
    traceId: match[2]!,
    spanId: match[3]!,
    traceFlags: parseInt(match[4]!, 16) & 1,
    isRemote: true,
  };
  if (!isSpanContextValid(sent)) return null;
  if (typeof state === "string" && state.length <= MAX_TRACESTATE)
    sent.traceState = createTraceState(state);
  return sent;
}
