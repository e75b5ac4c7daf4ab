// Tool calls, checked: one `tools/call` of `search-flights` (examples/tools.ts: a 10-property argument
// object, a structured result with an output schema) answered in-process, message in, response out,
// by servers that differ only in how they check arguments and structured results:
//   ours, compiled       the definitions layer with `mcp-gen tools`' compiled validators (no engine)
//   ours, Ajv            the same tool from its JSON Schemas, checked by the Ajv 8 adapter
//   ours, cfworker       … by the @cfworker/json-schema adapter
//   ours, unchecked      the same server with checks that accept everything (the anchor: dispatch alone)
//   SDK v1               @modelcontextprotocol/sdk 1.32.2 `McpServer.registerTool` with zod shapes of
//                        the same types (its own check), fed through an in-memory transport
// µs per call, each contestant's best of alternating rounds (mitata); ratios against the SDK and the
// unchecked anchor. Bounded loops, no timing assertions.
//
//   node bench/tools.mjs          # standalone (builds what it needs)
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measure } from "mitata";
import * as z from "zod";
import { ROOT, TMP, prepareRevision } from "./prepare.mjs";

const REVISION = "2026-07-28";
const TOOL = "search-flights";
const ARGUMENTS = {
  from: "AMS",
  to: "LIS",
  date: "2026-09-01",
  passengers: 2,
  cabin: "economy",
  maxStops: 1,
  maxPrice: 450.5,
  currency: "EUR",
  flexibleDates: true,
  airlines: ["KL", "TP"],
};
const STRUCTURED = { flights: [{ number: "KL1693", price: 189.9, stops: 0 }] };
const ROUNDS = Number(process.env.BENCH_TOOLS_ROUNDS ?? 3);

/** `mcp-gen tools examples/tools.ts`, compiled to JavaScript beside the revision's. */
function prepareTools() {
  const out = join(TMP, "src", "tools");
  execFileSync(
    process.execPath,
    [
      join(ROOT, "dist", "generator", "cli", "main.js"),
      "tools",
      join(ROOT, "examples", "tools.ts"),
      "--out",
      out,
    ],
    { stdio: "inherit" },
  );
  const tsconfig = join(TMP, "tsconfig.tools.json");
  mkdirSync(TMP, { recursive: true });
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        rootDir: out,
        outDir: join(TMP, "js", "tools"),
        skipLibCheck: true,
        types: [],
      },
      include: [join(out, "**/*.ts")],
    }),
  );
  execFileSync(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", tsconfig], { stdio: "inherit" });
  return join(TMP, "js", "tools");
}

const META = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "mcp-gen-bench", version: "1.0.0" },
};
const answer = () => ({
  content: [{ type: "text", text: "1 flight" }],
  structuredContent: STRUCTURED,
});

/** One of our servers: `define(definitions)` adds the tool; returns a function answering one call. */
async function ours(jsDir, options, define) {
  const { createServer, ServerDefinitions } = await import(join(jsDir, "index.js"));
  const definitions = new ServerDefinitions({ ...options, log: () => {} });
  define(definitions);
  const server = createServer({
    info: { name: "bench", version: "1.0.0" },
    capabilities: { tools: {} },
    definitions,
  });
  const delivery = { notify() {}, signal: new AbortController().signal };
  let id = 0;
  return async (args = ARGUMENTS) => {
    const outcome = await server.dispatcher.handle(
      {
        jsonrpc: "2.0",
        id: ++id,
        method: "tools/call",
        params: { name: TOOL, arguments: args, _meta: META },
      },
      delivery,
    );
    return outcome.response;
  };
}

/** The SDK v1 server with the tool registered from zod shapes of the same types, over an in-memory transport. */
async function sdkV1() {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  const flight = z.object({
    number: z.string(),
    price: z.number().min(0),
    stops: z.number().int().min(0),
  });
  server.registerTool(
    TOOL,
    {
      description: "Searches flights between two airports.",
      inputSchema: {
        from: z.string(),
        to: z.string(),
        date: z.string(),
        passengers: z.number().int().min(1).max(9),
        cabin: z.enum(["economy", "premium", "business", "first"]),
        maxStops: z.number().int().min(0).max(3),
        maxPrice: z.number().min(0),
        currency: z.enum(["EUR", "USD", "GBP"]),
        flexibleDates: z.boolean(),
        airlines: z.array(z.string()),
      },
      outputSchema: { flights: z.array(flight) },
    },
    async () => answer(),
  );
  const waiting = new Map();
  const transport = {
    async start() {},
    async close() {},
    async send(message) {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    },
  };
  await server.connect(transport);
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      const at = ++id;
      waiting.set(at, resolve);
      transport.onmessage({ jsonrpc: "2.0", id: at, method, params });
    });
  await request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "bench", version: "1.0.0" },
  });
  transport.onmessage({ jsonrpc: "2.0", method: "notifications/initialized" });
  return (args = ARGUMENTS) => request("tools/call", { name: TOOL, arguments: args });
}

export async function benchTools(revision, jsDir) {
  if (revision !== REVISION) {
    console.log(`\nTool-call benchmark skipped: it speaks ${REVISION}, not ${revision}`);
    return null;
  }
  const toolsDir = prepareTools();
  const { defineTool, TOOLS } = await import(join(toolsDir, "index.js"));
  const { ajvEngine } = await import(join(ROOT, "dist", "runtime", "schema", "json-schema-ajv.js"));
  const { cfworkerEngine } = await import(
    join(ROOT, "dist", "runtime", "schema", "json-schema-cfworker.js")
  );
  const fromSchemas = (definitions) => definitions.tool({ ...TOOLS[TOOL], handler: answer });
  const accept = () => ({ ok: true });
  const contestants = {
    "ours, compiled": await ours(jsDir, {}, (d) => d.tool(defineTool(TOOL, answer))),
    "ours, Ajv": await ours(jsDir, { engine: ajvEngine() }, fromSchemas),
    "ours, cfworker": await ours(jsDir, { engine: cfworkerEngine() }, fromSchemas),
    "ours, unchecked": await ours(jsDir, {}, (d) =>
      d.tool({ ...TOOLS[TOOL], validate: { input: accept, output: accept }, handler: answer }),
    ),
    "SDK v1": await sdkV1(),
  };
  // Every contestant answers the call with the structured result, and refuses a wrong argument.
  for (const [name, call] of Object.entries(contestants)) {
    const response = await call();
    if (JSON.stringify(response.result?.structuredContent) !== JSON.stringify(STRUCTURED))
      throw new Error(`${name}: unexpected answer ${JSON.stringify(response)}`);
    if (name === "ours, unchecked") continue;
    const refused = await call({ ...ARGUMENTS, passengers: "two" });
    if (refused.result?.isError !== true && refused.error === undefined)
      throw new Error(`${name}: accepted a wrong argument ${JSON.stringify(refused)}`);
  }
  const best = {};
  for (let round = 0; round < ROUNDS; round++) {
    const order =
      round % 2 === 0 ? Object.entries(contestants) : Object.entries(contestants).reverse();
    for (const [name, call] of order) {
      const ns = (await measure(call, { min_cpu_time: 3e8 })).avg;
      best[name] = Math.min(best[name] ?? Infinity, ns);
    }
  }
  const sdkVersion = JSON.parse(
    readFileSync(
      join(ROOT, "node_modules", "@modelcontextprotocol", "sdk", "package.json"),
      "utf8",
    ),
  ).version;
  console.log(
    `\nTool call with a 10-property argument object and an output schema (${TOOL} of examples/tools.ts; in-process, message in → response out; µs per call, best of ${ROUNDS} rounds; SDK v1 = @modelcontextprotocol/sdk ${sdkVersion}, zod shapes, protocol 2025-11-25)`,
  );
  console.table(
    Object.fromEntries(
      Object.entries(best).map(([name, ns]) => [
        name,
        {
          "µs/call": (ns / 1000).toFixed(2),
          "÷ SDK v1": (ns / best["SDK v1"]).toFixed(3),
          "÷ unchecked": (ns / best["ours, unchecked"]).toFixed(2),
        },
      ]),
    ),
  );
  const checkUs = (name) => ((best[name] - best["ours, unchecked"]) / 1000).toFixed(2);
  console.log(
    `the checks alone (÷ unchecked subtracted): compiled ${checkUs("ours, compiled")} µs, Ajv ${checkUs("ours, Ajv")} µs, cfworker ${checkUs("ours, cfworker")} µs per call`,
  );
  return best;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchTools(REVISION, prepareRevision(REVISION));
}
