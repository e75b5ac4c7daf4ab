/**
 * An OpenTelemetry SDK registered globally for the telemetry tests, as an application would: a
 * tracer provider exporting to memory, a meter provider whose metrics are read on demand, and the
 * async-hooks context manager. What the tests read back: finished spans and histogram points by
 * metric name.
 */
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
} from "@opentelemetry/sdk-metrics";

export interface OtelWorld {
  spans: InMemorySpanExporter;
  /** Every histogram point recorded so far, by metric name, with its attributes and count. */
  histograms(): Promise<Map<string, Array<{ attributes: Record<string, unknown>; count: number }>>>;
  /** Forgets the spans and metrics recorded so far. */
  reset(): void;
  /** Unregisters everything (the API's globals), for the next file. */
  shutdown(): Promise<void>;
}

export function registerOtel(): OtelWorld {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spans)],
  });
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Read on demand (forceFlush): the interval is never reached within a test.
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  let meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  context.setGlobalContextManager(contextManager);
  return {
    spans,
    async histograms() {
      await reader.forceFlush();
      const points = new Map<
        string,
        Array<{ attributes: Record<string, unknown>; count: number }>
      >();
      const last = exporter.getMetrics().at(-1);
      for (const scope of last?.scopeMetrics ?? [])
        for (const metric of scope.metrics) {
          const list = points.get(metric.descriptor.name) ?? [];
          for (const point of (metric as HistogramMetricData).dataPoints)
            list.push({ attributes: { ...point.attributes }, count: point.value.count });
          points.set(metric.descriptor.name, list);
        }
      return points;
    },
    reset() {
      spans.reset();
      exporter.reset();
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      meterProvider = undefined as never;
      trace.disable();
      metrics.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** The spans of one trace, by kind and name. */
export function spansNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}
