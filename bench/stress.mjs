// `npm run stress` (not part of `npm test`): replays, on loopback with bounded loops, the attacks an
// outside run made on the generated 2026-07-28 server and client, and prints for each whether the
// defence held, the attacked process's resident memory (before, peak, after) and a good request's
// latency while it went on. The server under attack is bench/servers/stress-target.mjs in a process
// of its own; the client under attack runs in bench/stress-client.mjs, against hostile servers this
// process plays. Every line must read "held".
//
//   npm run stress                       # builds, generates and compiles 2026-07-28 first
//   node bench/stress.mjs [attack …]     # only the named attacks (after a build)
import { Agent } from "node:http";
import { connect } from "node:net";
import { prepareRevision } from "./prepare.mjs";
import { dualServerAttacks } from "./stress-server-dual.mjs";
import { sessionAttacks } from "./stress-server-sessions.mjs";
import { clientAttacks } from "./stress-server-clients.mjs";
import { GENERATOR_ATTACKS } from "./stress-generator.mjs";
import {
  META,
  MiB,
  REVISION,
  call,
  median,
  now,
  post,
  report,
  rows,
  sampler,
  sleep,
  startTarget,
  stop,
  whileMeasuring,
} from "./stress-kit.mjs";
import {
  CLIENT_ATTACKS,
  closeGoodServer,
  DUAL_ATTACKS,
  dualOutput,
} from "./stress-client-attacks.mjs";

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
  /**
   * 80 concurrent 4 MiB requests to a tool that takes 3 s, on a 1 GiB heap: a V8 abort before. Each
   * body holds half a million objects, which `maxContainers` (10,000) now refuses unparsed; the
   * target raises it so that this line still tests what the byte budgets hold once bodies are parsed.
   */
  async crash() {
    const target = startTarget(
      ["--port", "0", "--max-containers", "1000000"],
      ["--max-old-space-size=1024"],
    );
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
  dualDir: dualOutput,
});

const SESSION_ATTACKS = sessionAttacks({
  startTarget,
  stop,
  sampler,
  report,
  median,
  whileMeasuring,
  post,
  call,
  now,
  sleep,
  dualDir: dualOutput,
});

const CLIENT_KEY_ATTACKS = clientAttacks({
  startTarget,
  stop,
  sampler,
  report,
  median,
  whileMeasuring,
  post,
  now,
  META,
  dualDir: dualOutput,
});

const ALL = {
  ...SERVER_ATTACKS,
  ...STDIO_ATTACKS,
  ...DUAL_SERVER_ATTACKS,
  ...SESSION_ATTACKS,
  ...CLIENT_KEY_ATTACKS,
  ...CLIENT_ATTACKS,
  ...DUAL_ATTACKS,
  ...GENERATOR_ATTACKS,
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
await closeGoodServer();
const broken = rows.filter((r) => !r.held);
console.log(
  `\n${rows.length - broken.length} of ${rows.length} held in ${((now() - began) / 1000).toFixed(0)} s${broken.length ? `; BROKEN: ${broken.map((r) => r.name).join(", ")}` : ""}`,
);
process.exit(broken.length > 0 ? 1 : 0);
