// Telemetry's cost on the server's hot path: one `tools/call` of an echo tool answered in-process
// (the dispatcher's handleRequest, message in, response out: no transport to hide the cost) by
//   without            the server generated without --telemetry (the dispatcher holds no hook)
//   adapter, no SDK    generated with --telemetry otel, no tracer or meter provider registered
//                      (the API's no-op implementations take every span and measurement)
//   adapter + SDK      the same, after registering a BasicTracerProvider exporting to an
//                      InMemorySpanExporter through a BatchSpanProcessor (the production choice;
//                      the exporter reset every 10,000 calls) and a MeterProvider with an
//                      InMemoryMetricExporter, as an application would
// ns per call (mitata). Each measurement runs in a process of its own: in one process the server
// measured second ran 0.53× as fast as the same server measured first (V8's feedback from the first
// one's calls), so contestants alternate over fresh processes, each one's best kept; `without, A/A`
// (the same server as `without`) shows what is left of the noise. Ratios as throughput against
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
import { fileURLToPath, pathToFileURL } from "node:url";
import { execFileSync } from "node:child_process";
import { measure } from "mitata";
import { prepareRevision } from "./prepare.mjs";

const REVISION = "2026-07-28";
const ROUNDS = Number(process.env.BENCH_TELEMETRY_ROUNDS ?? 5);

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

/** With the SDK registered, as an application would before making its server; spans bounded. */
async function registerSdk() {
  const spans = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] }),
  );
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 3_600_000,
  });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return spans;
}

/** One contestant in this process: its best of two measurements, in ns per call. */
async function contestant(name, dirs) {
  let spans = null;
  if (name === "adapter + SDK") spans = await registerSdk();
  const call = await server(name.startsWith("without") ? dirs.plain : dirs.traced);
  let calls = 0;
  const measured = spans
    ? async () => {
        // Bounded memory: the exporter keeps every span until reset.
        if (++calls % 10_000 === 0) spans.reset();
        await call();
      }
    : call;
  let best = Infinity;
  for (let i = 0; i < 2; i++)
    best = Math.min(best, (await measure(measured, { min_cpu_time: 2e8 })).avg);
  if (spans) {
    await trace.getTracerProvider().getDelegate().forceFlush();
    if (spans.getFinishedSpans().length === 0 && calls % 10_000 !== 0)
      throw new Error("the SDK recorded no span");
  }
  return best;
}

const CONTESTANTS = ["without", "without, A/A", "adapter, no SDK", "adapter + SDK"];

if (process.argv[2] === "--contestant") {
  const dirs = JSON.parse(process.argv[4]);
  process.stdout.write(`${await contestant(process.argv[3], dirs)}\n`);
} else {
  const dirs = {
    plain: prepareRevision(REVISION),
    traced: prepareRevision(REVISION, [], ["--telemetry", "otel"]),
  };
  const self = fileURLToPath(import.meta.url);
  const best = {};
  for (let i = 0; i < ROUNDS; i++)
    for (let j = 0; j < CONTESTANTS.length; j++) {
      // Each round in an order rotated by one: no one is always first.
      const name = CONTESTANTS[(i + j) % CONTESTANTS.length];
      const ns = Number(
        execFileSync(process.execPath, [self, "--contestant", name, JSON.stringify(dirs)], {
          encoding: "utf8",
        }),
      );
      best[name] = Math.min(best[name] ?? Infinity, ns);
    }
  const base = best.without;
  console.log(
    `\ntelemetry, in-process tools/call (best of ${ROUNDS} processes each), Node ${process.version}`,
  );
  console.log("| contestant | ns/call | throughput ÷ without |");
  console.log("| --- | --- | --- |");
  for (const name of CONTESTANTS)
    console.log(`| ${name} | ${best[name].toFixed(0)} | ${(base / best[name]).toFixed(3)} |`);
}
