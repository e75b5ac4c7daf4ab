// The client attacks of `npm run stress`: hostile servers played here, the generated client (plain
// and dual-era) in a process of its own (bench/stress-client.mjs, bench/stress-client-dual.mjs).
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { join } from "node:path";
import { ROOT, prepareRevision } from "./prepare.mjs";
import { MiB, REVISION, now, report, sampler } from "./stress-kit.mjs";

// ---------------------------------------------------------------------------------------------
// Client attacks: hostile servers here, the client in bench/stress-client.mjs
// ---------------------------------------------------------------------------------------------

/** A hostile HTTP server: `handler(req, res, body)`; returns its URL and a close. */
async function hostile(handler) {
  let hits = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      hits++;
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        // not JSON: the handler sees an empty body
      }
      handler(req, res, body);
    });
  });
  let open = 0;
  let peakSockets = 0;
  server.on("connection", (socket) => {
    peakSockets = Math.max(peakSockets, ++open);
    socket.on("close", () => open--);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    hits: () => hits,
    peakSockets: () => peakSockets,
    close: () =>
      new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Writes `piece` until the client goes away or `limit` bytes went out. */
function flood(res, piece, limit) {
  let written = 0;
  let done = false;
  res.on("close", () => (done = true));
  const pump = () => {
    while (!done && written < limit) {
      written += piece.length;
      if (!res.write(piece)) return void res.once("drain", pump);
    }
    if (!done) res.end();
  };
  pump();
}

/** Ends `res` with the JSON-RPC answer `result` to request `id`. */
const answer = (res, id, result) => res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
/** A modern server's uncached discovery result. */
const discovered = (capabilities, cacheScope) => ({
  supportedVersions: [REVISION],
  capabilities,
  ttlMs: 0,
  cacheScope,
});

let good;
/** A well-behaved server: after its attack, the client's good request goes here. */
async function goodServer() {
  good ??= await hostile((_req, res, body) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    // The dual-era client asks first which era the server speaks.
    if (body.method === "server/discover") return answer(res, body.id, discovered({}, "public"));
    answer(res, body.id, { content: [{ type: "text", text: "good" }] });
  });
  return good;
}

/** Runs one client attack in its own process; resolves with its verdict line and the RSS figures. */
async function runClient(attack, url, script = "stress-client.mjs") {
  const child = spawn(
    process.execPath,
    [join(ROOT, "bench", script), attack, url ?? "", (await goodServer()).url],
    { stdio: ["ignore", "pipe", "pipe"], env: process.env },
  );
  const memory = sampler(child.pid);
  let out = "";
  let err = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (err += c));
  const began = now();
  // A client that freezes or loops for ever is killed: its verdict is then missing (broken).
  const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise((resolve) =>
    child.on("exit", (c, signal) => resolve(signal ?? c)),
  );
  clearTimeout(killer);
  const ms = now() - began;
  const figures = await memory.stop();
  // The child reports its own peak (VmHWM): the sampler may miss a short burst.
  const verdict = (() => {
    try {
      return JSON.parse(out.trim().split("\n").pop());
    } catch {
      return { held: false, detail: `no verdict (exit ${code}): ${err.slice(-300)}` };
    }
  })();
  // The child's own figures (VmHWM is its true peak); the sampler's only where it has none.
  if (verdict.peakMiB)
    figures.peak = Number.isNaN(figures.peak)
      ? verdict.peakMiB
      : Math.max(figures.peak, verdict.peakMiB);
  if (verdict.beforeMiB) figures.before = verdict.beforeMiB;
  if (verdict.afterMiB) figures.after = verdict.afterMiB;
  return { verdict, figures, ms };
}

export const CLIENT_ATTACKS = {
  async "client: server that never answers"() {
    const server = await hostile(() => {});
    const { verdict, figures } = await runClient("timeout", server.url);
    report("client: hanging server", verdict.held, figures, verdict.goodMs, verdict.detail);
    await server.close();
  },
  async "client: 1 byte per second"() {
    const server = await hostile((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const timer = setInterval(() => res.write(" "), 1000);
      res.on("close", () => clearInterval(timer));
    });
    const { verdict, figures } = await runClient("timeout", server.url);
    report("client: 1 byte/s server", verdict.held, figures, verdict.goodMs, verdict.detail);
    await server.close();
  },
  async "client: 600 MB JSON body"() {
    const server = await hostile((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      flood(res, `{"pad":"${"x".repeat(MiB)}",`, 600 * 1e6);
    });
    const { verdict, figures } = await runClient("big-json", server.url);
    report(
      "client: 600 MB JSON answer",
      verdict.held && figures.peak < 256,
      figures,
      verdict.goodMs,
      verdict.detail,
    );
    await server.close();
  },
  async "client: endless SSE data"() {
    const server = await hostile((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      flood(res, `data: ${"y".repeat(64 * 1024)}\n`, 2000 * MiB);
    });
    const { verdict, figures } = await runClient("sse", server.url);
    report(
      "client: endless SSE data lines",
      verdict.held && figures.peak < 256,
      figures,
      verdict.goodMs,
      verdict.detail,
    );
    await server.close();
  },
  async "client: 300 MB stdio line"() {
    const { verdict, figures } = await runClient("stdio-line");
    report(
      "client: 300 MB stdio line",
      verdict.held && figures.peak < 256,
      figures,
      verdict.goodMs,
      verdict.detail,
    );
  },
  async "client: redirect to another origin"() {
    const elsewhere = await hostile((_req, res, body) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      answer(res, body.id, { content: [] });
    });
    const server = await hostile((_req, res) => {
      res.writeHead(307, { Location: elsewhere.url });
      res.end();
    });
    const { verdict, figures } = await runClient("redirect", server.url);
    const held = verdict.held && elsewhere.hits() === 0;
    report(
      "client: 307 to another origin",
      held,
      figures,
      verdict.goodMs,
      `${verdict.detail}; the other origin got ${elsewhere.hits()} requests`,
    );
    await server.close();
    await elsewhere.close();
  },
  async "client: endless cursors"() {
    let page = 0;
    const server = await hostile((_req, res, body) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      answer(res, body.id, {
        tools: [{ name: `t${page}`, inputSchema: { type: "object" } }],
        nextCursor: `c${++page}`,
        ttlMs: 0,
        cacheScope: "private",
      });
    });
    const { verdict, figures } = await runClient("cursors", server.url);
    report(
      "client: fresh cursors for ever",
      verdict.held && page <= 1000,
      figures,
      verdict.goodMs,
      `${verdict.detail}; ${page} pages served`,
    );
    await server.close();
  },
  async "client: wrong response id"() {
    const server = await hostile((_req, res, body) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: `${body.id}-other`, result: { content: [] } }));
    });
    const { verdict, figures } = await runClient("wrong-id", server.url);
    report(
      "client: response with another id",
      verdict.held,
      figures,
      verdict.goodMs,
      verdict.detail,
    );
    await server.close();
  },
  async "client: hostile tool in the list"() {
    // Written as text: JSON.stringify itself recurses.
    const deep = `${'{"anyOf":['.repeat(20_000)}{"type":"string"}${"]}".repeat(20_000)}`;
    const tools = `[{"name":"deep","inputSchema":{"type":"object","properties":{"d":${deep}}}},{"name":"hostile","inputSchema":{"type":"object","properties":{"a":{"items":[{"x-mcp-header":"X"}]}}}},{"name":"fine","inputSchema":{"type":"object"}}]`;
    const server = await hostile((_req, res, body) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        `{"jsonrpc":"2.0","id":${JSON.stringify(body.id)},"result":{"tools":${tools},"ttlMs":0,"cacheScope":"private"}}`,
      );
    });
    const { verdict, figures } = await runClient("tools", server.url);
    report(
      "client: 20,000-deep and hostile tools",
      verdict.held,
      figures,
      verdict.goodMs,
      verdict.detail,
    );
    await server.close();
  },
};

// ---------------------------------------------------------------------------------------------
// The dual-era client against hostile initialize-era servers, and JSON Schema checks (issue 25)
// ---------------------------------------------------------------------------------------------

export const LEGACY = ["2025-11-25", "2025-06-18"];
let dualDir;
/** The dual-era output with `--auth --json-schema ajv` (the one the dual client attacks use), built on first use. */
export function dualOutput() {
  // With the Redis store's module too (issue 33's Redis attacks): imported only by a target given `--redis`.
  dualDir ??= prepareRevision(REVISION, LEGACY, [
    "--auth",
    "--json-schema",
    "ajv",
    "--store",
    "redis",
  ]);
  process.env.MCP_GEN_DUAL_JS_DIR = process.env.STRESS_DUAL_JS_DIR ?? dualDir;
  return process.env.MCP_GEN_DUAL_JS_DIR;
}

/** The dual-era client, run against `url` for `attack`. */
function dualClient(attack, url) {
  dualOutput();
  return runClient(attack, url, "stress-client-dual.mjs");
}

/**
 * An initialize-era server: refuses the modern probe, opens sessions "s1", "s2"…, accepts
 * notifications and answers (counted in `answers`); `rest(req, res, body)` handles the rest.
 */
async function legacyHostile(rest) {
  const counts = { initialize: 0, get: 0, answers: 0 };
  const server = await hostile((req, res, body) => {
    if (body.method === "server/discover") {
      res.writeHead(400, { "Content-Type": "application/json" });
      return res.end(`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no session"}}`);
    }
    if (body.method === "initialize") {
      counts.initialize++;
      res.writeHead(200, {
        "Content-Type": "application/json",
        "Mcp-Session-Id": `s${counts.initialize}`,
      });
      return answer(res, body.id, {
        protocolVersion: LEGACY[0],
        capabilities: { tools: {} },
        serverInfo: { name: "hostile", version: "1" },
      });
    }
    if (req.method === "POST" && !("method" in body && "id" in body)) {
      if ("result" in body || "error" in body) counts.answers++;
      res.writeHead(202);
      return res.end();
    }
    if (req.method === "DELETE") return void res.writeHead(200).end();
    if (req.method === "GET") counts.get++;
    rest(req, res, body);
  });
  return { ...server, counts };
}

const toolsList = (res, body, tools = []) => {
  res.writeHead(200, { "Content-Type": "application/json" });
  answer(res, body.id, { tools });
};
const events = (messages) => messages.map((m) => `data: ${JSON.stringify(m)}\n\n`).join("");

export const DUAL_ATTACKS = {
  async "client: 20,000 server pings"() {
    const pings = Array.from({ length: 20_000 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "ping",
    }));
    const server = await legacyHostile((req, res, body) => {
      if (req.method === "GET") {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        return void res.write(events(pings));
      }
      toolsList(res, body);
    });
    const { verdict, figures } = await dualClient("pings", server.url);
    report(
      "client: 20,000 pings on its stream",
      verdict.held && server.peakSockets() <= 24,
      figures,
      verdict.goodMs,
      `${server.peakSockets()} sockets open at once at most, ${server.counts.answers} pings answered`,
    );
    await server.close();
  },
  async "client: 404 after every handshake"() {
    const server = await legacyHostile((req, res) => {
      res.writeHead(req.method === "GET" ? 405 : 404);
      res.end();
    });
    const { verdict, figures } = await dualClient("reinit", server.url);
    report(
      "client: 404 after every initialize",
      verdict.held && server.counts.initialize <= 10,
      figures,
      verdict.goodMs,
      `${server.counts.initialize} initializes in 10 s; ${verdict.detail}`,
    );
    await server.close();
  },
  async "client: retry 0 stream"() {
    const server = await legacyHostile((req, res, body) => {
      if (req.method === "GET") {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        return void res.end(
          `retry: 0\nid: ${server.counts?.get ?? 0}\n${events([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }])}`,
        );
      }
      toolsList(res, body);
    });
    const { verdict, figures } = await dualClient("retry0", server.url);
    report(
      "client: SSE retry 0 (5 s)",
      verdict.held && server.counts.get <= 15,
      figures,
      verdict.goodMs,
      `${server.counts.get} GETs of the stream in 5 s`,
    );
    await server.close();
  },
  async "client: 2,000 elicitations"() {
    let stream;
    const server = await legacyHostile((req, res, body) => {
      if (req.method === "GET") {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        stream = res;
        let sent = 0;
        // 250 a second for 8 s.
        const timer = setInterval(() => {
          for (let i = 0; i < 25 && sent < 2000; i++, sent++)
            stream.write(
              events([
                {
                  jsonrpc: "2.0",
                  id: `ask-${sent}`,
                  method: "elicitation/create",
                  params: {
                    mode: "form",
                    message: "?",
                    requestedSchema: { type: "object", properties: {} },
                  },
                },
              ]),
            );
          if (sent >= 2000) clearInterval(timer);
        }, 100);
        res.on("close", () => clearInterval(timer));
        return;
      }
      toolsList(res, body);
    });
    const { verdict, figures } = await dualClient("elicit", server.url);
    report(
      "client: 2,000 elicitations in 8 s",
      verdict.held,
      figures,
      verdict.goodMs,
      `${verdict.detail}; ${server.counts.answers} answered`,
    );
    await server.close();
  },
  async "client: 300 MiB OAuth metadata"() {
    let written = 0;
    const server = await hostile((req, res) => {
      if (req.url.startsWith("/.well-known/")) {
        res.writeHead(200, { "Content-Type": "application/json" });
        const piece = `{"pad":"${"x".repeat(MiB)}",`;
        const pump = () => {
          while (!res.destroyed && written < 300 * MiB) {
            written += piece.length;
            if (!res.write(piece)) return void res.once("drain", pump);
          }
          res.end();
        };
        res.on("close", () => res.destroy());
        return pump();
      }
      const origin = `http://${req.headers.host}`;
      res.writeHead(401, {
        "WWW-Authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      });
      res.end();
    });
    const { verdict, figures } = await dualClient("oauth-metadata", server.url);
    report(
      "client: 300 MiB OAuth metadata",
      verdict.held && written < 64 * MiB && figures.peak < 256,
      figures,
      verdict.goodMs,
      `${(written / MiB).toFixed(1)} MiB written before the client hung up; ${verdict.detail}`,
    );
    await server.close();
  },
  async "client: hostile output pattern"() {
    const server = await hostile((_req, res, body) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      if (body.method === "server/discover")
        return answer(res, body.id, discovered({ tools: {} }, "private"));
      if (body.method === "tools/list")
        return answer(res, body.id, {
          tools: [
            {
              name: "mail",
              inputSchema: { type: "object" },
              outputSchema: {
                type: "object",
                properties: { to: { type: "string", pattern: "^\\S+@\\S+\\.\\S+$" } },
              },
            },
          ],
          ttlMs: 0,
          cacheScope: "private",
        });
      answer(res, body.id, {
        content: [],
        structuredContent: { to: `${"@".repeat(3000)}${".".repeat(3000)} ` },
        resultType: "complete",
        ttlMs: 0,
        cacheScope: "private",
      });
    });
    const { verdict, figures } = await dualClient("output-pattern", server.url);
    report(
      "client: 6 KB output vs e-mail pattern",
      verdict.held,
      figures,
      verdict.goodMs,
      verdict.detail,
    );
    await server.close();
  },
  async "json schema: pattern and uniqueItems"() {
    const { verdict, figures } = await dualClient("schema-checks", null);
    report(
      "schema: 6 KB pattern, 32k uniqueItems",
      verdict.held,
      figures,
      verdict.goodMs,
      verdict.detail,
    );
  },
};

// ---------------------------------------------------------------------------------------------

/** Closes the well-behaved server the client attacks shared, if one was started. */
export async function closeGoodServer() {
  await good?.close();
}
