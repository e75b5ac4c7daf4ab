// Telemetry's cost on the server's hot path: one `tools/call` of an echo tool answered in-process
// (the dispatcher's handleRequest, message in, response out: no transport to hide the cost) by
//   without            the server generated without --telemetry (the dispatcher holds no hook)
//   adapter, no SDK    generated with --telemetry otel, no tracer or meter provider registered
//                      (the API's no-op implementations take every span and measurement)
//   adapter + SDK      the same, after registering a BasicTracerProvider exporting to an
//                      InMemorySpanExporter through a BatchSpanProcessor (the production choice;
//                      the exporter reset every 10,000 calls) and a MeterProvider with an
//                      InMemoryMetricExporter, as an application would
// ns per call, each contestant's best of alternating rounds (mitata); ratios as throughput against
// `without`. Bounded loops, no timing assertions.
//
//   node bench/telemetry.mjs      # standalone (builds what it needs)
import { metrics, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  BatchSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { measure } from "mitata";
import { prepareRevision } from "./prepare.mjs";

const REVISION = "2026-07-28";
const ROUNDS = Number(process.env.BENCH_TELEMETRY_ROUNDS ?? 3);

const plain = prepareRevision(REVISION);
const traced = prepareRevision(REVISION, [], ["--telemetry", "otel"]);

const META = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": {},
};
const REQUEST = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "echo", arguments: { text: "hi" }, _meta: META },
};

/** A delivery as a transport makes one (stdio's: no headers, one session record). */
class Delivery {
  constructor() {
    this.session = {};
    this.controller = new AbortController();
  }
  notify() {}
  get signal() {
    return this.controller.signal;
  }
}

async function server(dir) {
  const { createServer } = await import(pathToFileURL(join(dir, "server.js")).href);
  const made = createServer({
    info: { name: "bench", version: "1.0.0" },
    capabilities: { tools: {} },
    handlers: {
      "tools/call": (params) => ({
        content: [{ type: "text", text: String(params.arguments?.text) }],
      }),
    },
  });
  const delivery = new Delivery();
  const dispatcher = made.dispatcher;
  // Sanity: the answer is the echo, not an error.
  const first = await dispatcher.handleRequest(REQUEST, delivery);
  if (first.response?.result?.content?.[0]?.text !== "hi")
    throw new Error(`bench server answered ${JSON.stringify(first.response)}`);
  return async () => {
    const outcome = dispatcher.handleRequest(REQUEST, delivery);
    if (typeof outcome.then === "function") await outcome;
  };
}

const without = await server(plain);
const adapter = await server(traced);

async function round(best, name, call) {
  const ns = (await measure(call, { min_cpu_time: 5e8 })).avg;
  best[name] = Math.min(best[name] ?? Infinity, ns);
}

// Without a provider: the two alternate.
const best = {};
for (let i = 0; i < ROUNDS; i++) {
  await round(best, "without", without);
  await round(best, "adapter, no SDK", adapter);
}

// With the SDK registered (globally: from here on every traced server records).
const spans = new InMemorySpanExporter();
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] }),
);
const reader = new PeriodicExportingMetricReader({
  exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
  exportIntervalMillis: 3_600_000,
});
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
// The meter and histograms are made when the server is: a server made after registration.
const recording = await server(traced);
let calls = 0;
const recorded = async () => {
  // Bounded memory: the exporter keeps every span until reset.
  if (++calls % 10_000 === 0) spans.reset();
  await recording();
};
for (let i = 0; i < ROUNDS; i++) {
  await round(best, "without", without);
  await round(best, "adapter + SDK", recorded);
}
await trace.getTracerProvider().getDelegate?.().forceFlush?.();
if (spans.getFinishedSpans().length === 0 && calls % 10_000 !== 0)
  throw new Error("the SDK recorded no span");

const base = best.without;
console.log(
  `\ntelemetry, in-process tools/call (best of ${ROUNDS} rounds), Node ${process.version}`,
);
console.log("| contestant | ns/call | throughput ÷ without |");
console.log("| --- | --- | --- |");
for (const [name, ns] of Object.entries(best))
  console.log(`| ${name} | ${ns.toFixed(0)} | ${(base / ns).toFixed(3)} |`);
