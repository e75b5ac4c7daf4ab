// The dual-era client's side of `npm run stress` (issue 25, items 3 and 4): the client generated with
// `--legacy 2025-11-25,2025-06-18 --auth --json-schema ajv` (compiled by bench/prepare.mjs, folder
// in MCP_GEN_DUAL_JS_DIR) against one hostile server, or the JSON Schema adapters against one
// hostile schema and value; in a process of its own, so that its memory and its event loop are its
// own. Prints one JSON line: { held, detail, counts…, beforeMiB, peakMiB, afterMiB }. The counts
// seen from the server's side are the parent's.
//
//   node bench/stress-client-dual.mjs <attack> <url> <good url>
import { INFO, log, logs, runAttack, status } from "./stress-client-kit.mjs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const jsDir = process.env.MCP_GEN_DUAL_JS_DIR;
const load = (file) => import(pathToFileURL(join(jsDir, file)).href);
const { createClient, httpTransport, SessionExpiredError, InvalidResultError } =
  await load("client.js");

const [attack, url, goodUrl] = process.argv.slice(2);
const beforeMiB = status("VmRSS");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.now();

/** The longest the event loop went without a turn while `work` ran, in ms. */
async function stalls(work) {
  let worst = 0;
  let last = now();
  const timer = setInterval(() => {
    const t = now();
    worst = Math.max(worst, t - last - 10);
    last = t;
  }, 10);
  try {
    return { value: await work(), worstStallMs: Math.max(worst, now() - last - 10) };
  } finally {
    clearInterval(timer);
  }
}

const EMAIL = "^\\S+@\\S+\\.\\S+$";
/** Cubic for a backtracking engine: about a second at 2 KB. */
const hostileString = (n) => `${"@".repeat(n / 2)}${".".repeat(n / 2)} `;

async function engines() {
  const { SchemaCache } = await load("runtime/schema/json-schema.js");
  const { ajvEngine } = await load("runtime/schema/json-schema-ajv.js");
  return { SchemaCache, ajvEngine };
}

const ATTACKS = {
  /** Pings on the session's GET stream; the parent counts the sockets. */
  async pings() {
    const client = createClient({ transport: httpTransport(url), info: INFO, log });
    await client.listTools();
    await sleep(3000);
    await client.close();
    const dropped = logs.some((l) => /dropping requests of the server's/.test(l));
    return { held: dropped, detail: dropped ? "drops logged" : "no drop logged" };
  },
  /** 404 after every handshake, calls in a loop for 10 s; the parent counts the handshakes. */
  async reinit() {
    const client = createClient({ transport: httpTransport(url), info: INFO, log });
    let calls = 0;
    let expired = 0;
    const until = now() + 10_000;
    while (now() < until) {
      calls++;
      const error = await client.listTools().then(
        () => null,
        (e) => e,
      );
      if (error instanceof SessionExpiredError) expired++;
      else break;
    }
    await client.close();
    return { held: expired === calls, detail: `${calls} calls, ${expired} SessionExpiredError` };
  },
  /** A GET stream that says `retry: 0` and ends, for 5 s; the parent counts the GETs. */
  async retry0() {
    const client = createClient({ transport: httpTransport(url), info: INFO, log });
    await client.listTools();
    await sleep(5000);
    await client.close();
    return { held: true, detail: "ran 5 s" };
  },
  /** 2,000 elicitations on the session's stream within 8 s; counts the handler's calls. */
  async elicit() {
    let calls = 0;
    const client = createClient({
      transport: httpTransport(url),
      info: INFO,
      log,
      onElicit: () => {
        calls++;
        return { action: "decline" };
      },
    });
    await client.listTools();
    await sleep(8000);
    await client.close();
    return { held: calls <= 40, detail: `onElicit called ${calls} times`, calls };
  },
  /** Endless Protected Resource Metadata behind a 401. */
  async "oauth-metadata"() {
    const { oauthClient, AuthorizationError } = await load("runtime/auth/oauth-client.js");
    const authorization = oauthClient({
      redirectUri: "http://127.0.0.1:1/callback",
      authorize: () => Promise.reject(new Error("not reached")),
    });
    const client = createClient({ transport: httpTransport(url, { authorization }), info: INFO });
    const error = await client.listTools().then(
      () => null,
      (e) => e,
    );
    await client.close();
    return {
      held: error instanceof AuthorizationError,
      detail: error ? `${error.name}: ${error.message}` : "answered",
    };
  },
  /** A tool whose outputSchema has the e-mail pattern, and a 6 KB hostile structuredContent: two calls. */
  async "output-pattern"() {
    const { ajvEngine } = await engines();
    const client = createClient({
      transport: httpTransport(url),
      info: INFO,
      log,
      jsonSchema: ajvEngine(),
    });
    await client.listTools();
    // The first call also compiles the schema (Ajv generates code: a cold cost of its own); the
    // second is the check alone.
    const first = await stalls(() => client.callTool({ name: "mail" }).catch(() => {}));
    const { value: error, worstStallMs } = await stalls(() =>
      client.callTool({ name: "mail" }).then(
        () => null,
        (e) => e,
      ),
    );
    await client.close();
    return {
      held: error instanceof InvalidResultError && worstStallMs < 500,
      detail: `${error ? error.message.slice(0, 60) : "accepted"}…; longest stall ${first.worstStallMs.toFixed(0)} ms (first call, with the compile), ${worstStallMs.toFixed(0)} ms (second)`,
    };
  },
  /** The adapters in-process, as a server checks arguments: pattern, then uniqueItems. */
  async "schema-checks"() {
    const { SchemaCache, ajvEngine } = await engines();
    const cache = new SchemaCache(ajvEngine());
    const pattern = cache.check({ type: "string", pattern: EMAIL });
    const unique = cache.check({ type: "array", uniqueItems: true });
    const items = Array.from({ length: 32_000 }, (_, i) => ({ id: i, tag: "t" }));
    const t0 = now();
    const a = pattern(hostileString(6000));
    const t1 = now();
    const b = unique(items);
    const t2 = now();
    const patternMs = t1 - t0;
    const uniqueMs = t2 - t1;
    return {
      held: !a.ok && b.ok && patternMs < 500 && uniqueMs < 5000,
      detail: `6 KB string: ${patternMs.toFixed(1)} ms; 32,000 objects: ${uniqueMs.toFixed(0)} ms`,
      patternMs,
      uniqueMs,
    };
  },
};

await runAttack(ATTACKS[attack], { createClient, httpTransport }, goodUrl, beforeMiB);
