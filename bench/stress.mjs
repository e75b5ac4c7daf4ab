// `npm run stress` (not part of `npm test`): replays, on loopback with bounded loops, the attacks an
// outside run made on the generated 2026-07-28 server and client, and prints for each whether the
// defence held, the attacked process's resident memory (before, peak, after) and a good request's
// latency while it went on. The server under attack is bench/servers/stress-target.mjs in a process
// of its own; the client under attack runs in bench/stress-client.mjs, against hostile servers this
// process plays. Every line must read "held".
//
//   npm run stress                       # builds, generates and compiles 2026-07-28 first
//   node bench/stress.mjs [attack …]     # only the named attacks (after a build)
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { ROOT, prepareRevision } from "./prepare.mjs";
import { dualServerAttacks } from "./stress-server-dual.mjs";

const REVISION = "2026-07-28";
const MiB = 1024 * 1024;
const META = JSON.stringify({
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "mcp-gen-stress", version: "1.0.0" },
});
const HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": REVISION,
  "Mcp-Method": "tools/call",
};
const call = (id, name, argsText) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"${name}","arguments":${argsText},"_meta":${META}}}`;

const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMiB(pid) {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Samples a process's RSS every 20 ms: before, peak, and after (`stop`, after a short settle). */
function sampler(pid) {
  const before = rssMiB(pid);
  let peak = before;
  const timer = setInterval(() => {
    const value = rssMiB(pid);
    if (value > peak) peak = value;
  }, 20);
  return {
    async stop() {
      await sleep(300);
      clearInterval(timer);
      const after = rssMiB(pid);
      return { before, peak: Number.isNaN(after) ? peak : Math.max(peak, after), after };
    },
  };
}

function startTarget(args, nodeArgs = [], script = "stress-target.mjs") {
  const child = spawn(
    process.execPath,
    [...nodeArgs, join(ROOT, "bench", "servers", script), ...args],
    {
      stdio: ["pipe", "pipe", "pipe"],
      env: process.env,
    },
  );
  const exited = new Promise((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  let stderr = "";
  const url = new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const match = /listening on (\S+)/.exec(stderr);
      if (match) resolve(match[1]);
    });
    if (args.includes("--stdio")) resolve(null);
    child.on("exit", () => reject(new Error(`the target exited: ${stderr.slice(-500)}`)));
  });
  url.catch(() => {});
  let alive = true;
  child.on("exit", () => (alive = false));
  return { child, url, exited, stderr: () => stderr, alive: () => alive };
}

async function stop(target) {
  if (target.alive()) target.child.kill("SIGKILL");
  await target.exited;
}

/**
 * The address good requests come from: another client than the attacks (which come from 127.0.0.1
 * or 127.0.0.2), as the server's per-client quotas see clients.
 */
const GOOD_CLIENT = "127.0.0.3";

/**
 * One POST; resolves with status, headers, body text and time taken (a status of 0: no answer,
 * with `error`). A header given as `null` is left out.
 */
function post(url, body, { headers = {}, agent, timeoutMs = 20_000, localAddress } = {}) {
  const began = now();
  const sent = { ...HEADERS, ...headers };
  for (const name of Object.keys(sent)) if (sent[name] === null) delete sent[name];
  return new Promise((resolve) => {
    const req = request(url, { method: "POST", agent, localAddress, headers: sent }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          ms: now() - began,
        }),
      );
      res.on("error", (error) => resolve({ status: 0, error: error.message, ms: now() - began }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error("timed out")));
    req.on("error", (error) => resolve({ status: 0, error: error.message, ms: now() - began }));
    req.end(body);
  });
}

/**
 * A good request's latency, sampled every 100 ms while `work` runs (each one waits up to 20 s). A
 * good request refused for load (503/429, at once) is counted apart: it was answered, not served.
 */
async function whileMeasuring(url, work) {
  const latencies = [];
  let failures = 0;
  let refused = 0;
  let running = true;
  const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: GOOD_CLIENT });
  const probe = (async () => {
    for (let i = 0; running || i === 0; i++) {
      const answer = await post(url, call(`good-${i}`, "echo", `{"text":"good"}`), {
        headers: { "Mcp-Name": "echo" },
        agent,
      });
      if (answer.status === 200 && answer.body.includes('"text":"good"')) latencies.push(answer.ms);
      else if (answer.status === 503 || answer.status === 429) refused++;
      else failures++;
      await sleep(100);
    }
  })();
  try {
    return { result: await work(), latencies, failures: () => failures, refused: () => refused };
  } finally {
    running = false;
    await probe;
    agent.destroy();
  }
}

const median = (values) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const rows = [];
function report(name, held, memory, latency, detail) {
  const mem = memory
    ? `RSS ${memory.before.toFixed(0)} → peak ${memory.peak.toFixed(0)} → ${memory.after.toFixed(0)} MiB`
    : "";
  const lat =
    typeof latency === "number" && !Number.isNaN(latency)
      ? `good request ${latency.toFixed(1)} ms`
      : "good request: NONE";
  const line = `${held ? "held  " : "BROKEN"} ${name.padEnd(34)} ${mem.padEnd(36)} ${lat.padEnd(28)} ${detail}`;
  rows.push({ name, held, line });
  console.log(line);
}

// ---------------------------------------------------------------------------------------------
// Server attacks (HTTP)
// ---------------------------------------------------------------------------------------------

/** A 4 MiB array of small objects: about 20 times its size in heap once parsed. */
function bigArguments() {
  const item = '{"a":1},';
  const count = Math.floor((4 * MiB - 200 - META.length) / item.length);
  return `{"ms":3000,"items":[${item.repeat(count - 1)}{"a":1}]}`;
}

const SERVER_ATTACKS = {
  /** 80 concurrent 4 MiB requests to a tool that takes 3 s, on a 1 GiB heap: a V8 abort before. */
  async crash() {
    const target = startTarget(["--port", "0"], ["--max-old-space-size=1024"]);
    const url = await target.url;
    const memory = sampler(target.child.pid);
    const body = Buffer.from(call(1, "slow", bigArguments()));
    const { result, latencies, failures } = await whileMeasuring(url, async () => {
      const answers = await Promise.all(
        Array.from({ length: 80 }, () =>
          post(url, body, { headers: { "Mcp-Name": "slow" }, agent: false }),
        ),
      );
      return answers;
    });
    const figures = await memory.stop();
    const ok = result.filter((a) => a.status === 200).length;
    const busy = result.filter((a) => a.status === 503 || a.status === 429).length;
    const held =
      target.alive() && ok + busy === 80 && ok > 0 && failures() === 0 && figures.peak < 1024;
    report(
      "crash: 80 × 4 MiB concurrent",
      held,
      figures,
      median(latencies),
      `${ok} served, ${busy} refused (503/429), server ${target.alive() ? "alive" : "DEAD"}`,
    );
    await stop(target);
  },

  /** Four clients sending 4 MiB of nested arrays, five times each, beside a good client. */
  async stall() {
    const target = startTarget(["--port", "0"]);
    const url = await target.url;
    const memory = sampler(target.child.pid);
    const half = 2 * MiB;
    const deep = Buffer.from(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"x":${"[".repeat(half - 1000)}${"]".repeat(half - 1000)}},"_meta":${META}}}`,
    );
    const { result, latencies, failures } = await whileMeasuring(url, () =>
      Promise.all(
        Array.from({ length: 4 }, async () => {
          const statuses = [];
          for (let i = 0; i < 5; i++)
            statuses.push(
              (await post(url, deep, { headers: { "Mcp-Name": "echo" }, agent: false })).status,
            );
          return statuses;
        }),
      ),
    );
    const figures = await memory.stop();
    const refused = result.flat().filter((status) => status === 400).length;
    const held = target.alive() && refused === 20 && failures() === 0 && latencies.length > 0;
    report(
      "stall: 4 × 4 MiB deep nesting",
      held,
      figures,
      median(latencies),
      `${refused}/20 refused (400, nesting; ${(deep.length / MiB).toFixed(2)} MiB each), ${failures()} good requests unanswered`,
    );
    await stop(target);
  },

  /** 3,000 requests of 64 KiB to a slow tool on 1,500 connections: past the limits, refused at once. */
  async "request flood"() {
    const target = startTarget(["--port", "0"]);
    const url = await target.url;
    const memory = sampler(target.child.pid);
    const agent = new Agent({ keepAlive: true, maxSockets: 1500 });
    const body = call(1, "slow", `{"ms":1500,"pad":"${"p".repeat(64 * 1024)}"}`);
    const { result, latencies, failures, refused } = await whileMeasuring(url, () =>
      Promise.all(
        Array.from({ length: 3000 }, () =>
          post(url, body, { headers: { "Mcp-Name": "slow" }, agent }),
        ),
      ),
    );
    agent.destroy();
    const figures = await memory.stop();
    const ok = result.filter((a) => a.status === 200).length;
    const busy = result.filter((a) => a.status === 503 || a.status === 429);
    const held =
      target.alive() &&
      ok + busy.length === 3000 &&
      busy.length > 0 &&
      failures() === 0 &&
      latencies.length > 0;
    report(
      "flood: 3,000 slow 64 KiB requests",
      held,
      figures,
      median(latencies),
      `${ok} served, ${busy.length} refused (503/429); good requests: ${latencies.length} served, ${refused()} refused for load, ${failures()} unanswered`,
    );
    await stop(target);
  },

  /** Refused requests (403, 404, 415) with 1 GiB bodies on one connection each: 16 at once. */
  async "rejected-body flood"() {
    const target = startTarget(["--port", "0"]);
    const url = await target.url;
    const { port } = new URL(url);
    const memory = sampler(target.child.pid);
    const heads = [
      `POST /mcp HTTP/1.1\r\nHost: evil.example:${port}\r\nContent-Type: application/json\r\n`,
      `POST /elsewhere HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\n`,
      `POST /mcp HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: text/plain\r\n`,
    ];
    const { result, latencies, failures } = await whileMeasuring(url, () =>
      Promise.all(
        Array.from({ length: 16 }, (_, i) => upload(Number(port), heads[i % heads.length], 1024)),
      ),
    );
    const figures = await memory.stop();
    const most = Math.max(...result);
    const held = target.alive() && most < 64 && failures() === 0;
    report(
      "rejected bodies: 16 × 1 GiB",
      held,
      figures,
      median(latencies),
      `at most ${most} MiB written before the server closed (of 1024)`,
    );
    await stop(target);
  },
};

/** Writes a body of `mib` MiB after `head` until the server closes; resolves with the MiB written. */
function upload(port, head, mib) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunk = Buffer.alloc(MiB, 0x20);
    let written = 0;
    let closed = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      socket.destroy();
      resolve(written);
    };
    socket.on("data", () => {});
    socket.on("close", finish);
    socket.on("error", finish);
    socket.write(`${head}Content-Length: ${mib * MiB}\r\n\r\n`);
    const pump = () => {
      while (!closed && written < mib) {
        written++;
        if (!socket.write(chunk)) return void socket.once("drain", pump);
      }
      finish();
    };
    pump();
  });
}

// ---------------------------------------------------------------------------------------------
// Server attacks (stdio)
// ---------------------------------------------------------------------------------------------

/** Runs the target on stdio; `send` writes lines, `until` waits for a number of answers. */
function stdioTarget(args = [], script = undefined) {
  const target = startTarget(["--stdio", ...args], [], script);
  const answers = [];
  let text = "";
  const waiters = [];
  target.child.stdout.setEncoding("utf8");
  target.child.stdout.on("data", (chunk) => {
    text += chunk;
    let newline;
    while ((newline = text.indexOf("\n")) >= 0) {
      answers.push(JSON.parse(text.slice(0, newline)));
      text = text.slice(newline + 1);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const write = (data) =>
    new Promise((resolve) =>
      target.child.stdin.write(data) ? resolve() : target.child.stdin.once("drain", resolve),
    );
  const until = async (predicate, ms = 30_000) => {
    const deadline = now() + ms;
    while (!predicate(answers) && now() < deadline)
      await new Promise((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    return predicate(answers);
  };
  /** Resolves once the target has answered a first request: then its memory is worth measuring. */
  const ready = async () => {
    await write(`${call("ready", "echo", `{"text":"ready"}`)}\n`);
    await until((all) => all.some((m) => m.id === "ready"));
  };
  return { target, answers, write, until, ready };
}

const STDIO_ATTACKS = {
  /** 5,000 requests in flight, then 50,000 cancellations of ids that are not in flight. */
  async "stdio cancel flood"() {
    const { target, answers, write, until, ready } = stdioTarget(["--max-requests", "10000"]);
    await ready();
    const memory = sampler(target.child.pid);
    let lines = "";
    for (let i = 0; i < 5000; i++) lines += `${call(`slow-${i}`, "slow", `{"ms":60000}`)}\n`;
    await write(lines);
    const began = now();
    const cancels = [];
    for (let i = 0; i < 50_000; i++)
      cancels.push(
        `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"unknown-${i}"}}\n`,
      );
    await write(cancels.join(""));
    await write(`${call("good", "echo", `{"text":"good"}`)}\n`);
    const served = await until((all) => all.some((m) => m.id === "good"));
    const latency = now() - began;
    // Then every slow request is cancelled by its id, which must find it.
    const real = [];
    for (let i = 0; i < 5000; i++)
      real.push(
        `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow-${i}"}}\n`,
      );
    await write(real.join(""));
    await write(`${call("good-2", "echo", `{"text":"good"}`)}\n`);
    await until((all) => all.some((m) => m.id === "good-2"));
    const figures = await memory.stop();
    const leaked = answers.filter((m) => String(m.id).startsWith("slow-")).length;
    const held = served && target.alive() && leaked === 0;
    report(
      "stdio: 50,000 cancels, 5,000 in flight",
      held,
      figures,
      latency,
      `good request answered after the cancels; ${leaked} cancelled requests answered`,
    );
    target.child.stdin.end();
    await stop(target);
  },

  /** More requests than the default limit (1024) at once, then 20 over-long and 20 deep lines. */
  async "stdio flood"() {
    const { target, answers, write, until, ready } = stdioTarget();
    await ready();
    const memory = sampler(target.child.pid);
    let lines = "";
    for (let i = 0; i < 3000; i++) lines += `${call(`slow-${i}`, "slow", `{"ms":1000}`)}\n`;
    await write(lines);
    for (let i = 0; i < 20; i++) await write(`${"x".repeat(5 * MiB)}\n`);
    for (let i = 0; i < 20; i++) await write(`${"[".repeat(MiB)}${"]".repeat(MiB)}\n`);
    const began = now();
    await write(`${call("good", "echo", `{"text":"good"}`)}\n`);
    const served = await until((all) => all.some((m) => m.id === "good"));
    const latency = now() - began;
    await until((all) => all.filter((m) => String(m.id).startsWith("slow-")).length === 3000);
    await write(`${call("good-2", "echo", `{"text":"good"}`)}\n`);
    const servedAfter = await until((all) => all.some((m) => m.id === "good-2" && m.result));
    const figures = await memory.stop();
    const busy = answers.filter(
      (m) => String(m.id).startsWith("slow-") && m.error?.code === -32000,
    ).length;
    const ok = answers.filter((m) => String(m.id).startsWith("slow-") && m.result).length;
    const goodAnswer = answers.find((m) => m.id === "good");
    const long = answers.filter((m) => /maximum line length/.test(m.error?.message ?? "")).length;
    const deep = answers.filter((m) => /nested more than/.test(m.error?.message ?? "")).length;
    const held =
      served && servedAfter && target.alive() && ok + busy === 3000 && long === 20 && deep === 20;
    report(
      "stdio: 3,000 slow + 40 bad lines",
      held,
      figures,
      latency,
      `${ok} served, ${busy} refused (-32000), ${long} long and ${deep} deep lines refused; the good request during it was ${goodAnswer?.result ? "served" : "refused at once (-32000)"}, the one after served`,
    );
    target.child.stdin.end();
    await stop(target);
  },
};

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

const CLIENT_ATTACKS = {
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

const LEGACY = ["2025-11-25", "2025-06-18"];
let dualDir;
/** The dual-era client with `--auth --json-schema ajv`, built on first use. */
function dualClient(attack, url) {
  dualDir ??= prepareRevision(REVISION, LEGACY, ["--auth", "--json-schema", "ajv"]);
  process.env.MCP_GEN_DUAL_JS_DIR = process.env.STRESS_DUAL_JS_DIR ?? dualDir;
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

const DUAL_ATTACKS = {
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

const DUAL_SERVER_ATTACKS = dualServerAttacks({
  startTarget,
  stop,
  stdioTarget,
  sampler,
  report,
  median,
  whileMeasuring,
  post,
  now,
  sleep,
  /** The dual-era output (the one the dual client attacks use), built on first use. */
  dualDir: () => {
    dualDir ??= prepareRevision(REVISION, LEGACY, ["--auth", "--json-schema", "ajv"]);
    process.env.MCP_GEN_DUAL_JS_DIR = process.env.STRESS_DUAL_JS_DIR ?? dualDir;
    return process.env.MCP_GEN_DUAL_JS_DIR;
  },
});

const ALL = {
  ...SERVER_ATTACKS,
  ...STDIO_ATTACKS,
  ...DUAL_SERVER_ATTACKS,
  ...CLIENT_ATTACKS,
  ...DUAL_ATTACKS,
};
const chosen = process.argv.slice(2);
const jsDir = prepareRevision(REVISION);
process.env.MCP_GEN_JS_DIR = jsDir;
console.log(
  `\nStress (${REVISION}, node ${process.version}): ${chosen.length > 0 ? chosen.join(", ") : "every attack"}\n`,
);
const began = now();
for (const [name, attack] of Object.entries(ALL)) {
  if (chosen.length > 0 && !chosen.some((c) => name.includes(c))) continue;
  try {
    await attack();
  } catch (error) {
    report(
      name,
      false,
      null,
      null,
      `the attack itself failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
await good?.close();
const broken = rows.filter((r) => !r.held);
console.log(
  `\n${rows.length - broken.length} of ${rows.length} held in ${((now() - began) / 1000).toFixed(0)} s${broken.length ? `; BROKEN: ${broken.map((r) => r.name).join(", ")}` : ""}`,
);
process.exit(broken.length > 0 ? 1 : 0);
