// Issue 25's server attacks for `npm run stress`, against the dual-era server
// (bench/servers/stress-target-dual.mjs): a 250 KiB URI against adjacent template captures, `../`
// and NUL in decoded template values, 1,000 subscribes of 3 MiB URIs, subscriptions over many
// sessions, 10,000 initializes from one client, one client holding every in-flight slot, and
// bodies sent a byte a second. The harness (targets, memory, the good request, the report) is
// bench/stress.mjs's, handed in as `kit`. Attacks come from 127.0.0.2, the clients they must not
// hurt from 127.0.0.1 and 127.0.0.3 (the good request).
import { Agent } from "node:http";
import { connect } from "node:net";

const MiB = 1024 * 1024;
const ATTACKER = "127.0.0.2";
const VICTIM = "127.0.0.1";
const LEGACY = "2025-11-25";
const SCRIPT = "stress-target-dual.mjs";
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "mcp-gen-stress", version: "1.0.0" },
};

const rpc = (id, method, params = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const initialize = (id) =>
  rpc(id, "initialize", {
    protocolVersion: LEGACY,
    capabilities: { elicitation: {} },
    clientInfo: { name: "legacy-attacker", version: "1" },
  });
/** Headers of a legacy request (the harness's modern ones left out: a 2025 client sends none), its session's. */
const legacyHeaders = (session) => ({
  "MCP-Protocol-Version": session === undefined ? null : LEGACY,
  "Mcp-Method": null,
  "Mcp-Name": null,
  ...(session === undefined ? {} : { "Mcp-Session-Id": session }),
});
const errorOf = (answer) => {
  try {
    return JSON.parse(answer.body).error ?? null;
  } catch {
    return null;
  }
};

export function dualServerAttacks(kit) {
  const { startTarget, stop, stdioTarget, sampler, report, median, whileMeasuring, post } = kit;
  const { now, sleep } = kit;
  const httpTarget = (args = [], nodeArgs = []) => {
    kit.dualDir();
    return startTarget(["--port", "0", ...args], nodeArgs, SCRIPT);
  };
  /** Posts a legacy request (stripping the harness's modern headers), from `from`. */
  const legacyPost = (url, body, session, from = ATTACKER, agent = false) =>
    post(url, body, { headers: legacyHeaders(session), agent, localAddress: from });
  /** Opens a legacy session from `from`: its id, or undefined when refused. */
  const open = async (url, from = ATTACKER, agent = false) =>
    (await legacyPost(url, initialize(1), undefined, from, agent)).headers?.["mcp-session-id"];

  /** A legacy stdio session on the dual target: the handshake done. */
  async function stdioSession() {
    kit.dualDir();
    const stdio = stdioTarget([], SCRIPT);
    await stdio.ready();
    await stdio.write(`${initialize("init")}\n`);
    await stdio.until((all) => all.some((m) => m.id === "init"));
    await stdio.write(`{"jsonrpc":"2.0","method":"notifications/initialized"}\n`);
    return stdio;
  }

  return {
    /** One resources/read of a 250 KiB URI against `file:///{a}{b}`, then a ping, on stdio. */
    async "uri template: 250 KiB URI"() {
      const { target, answers, write, until } = await stdioSession();
      const memory = sampler(target.child.pid);
      const began = now();
      await write(
        `${rpc("long", "resources/read", { uri: `file:///${"x".repeat(250 * 1024)}/` })}\n`,
      );
      await write(`${rpc("good", "ping")}\n`);
      const answered = await until((all) => all.some((m) => m.id === "good"), 120_000);
      const latency = now() - began;
      await until((all) => all.some((m) => m.id === "long"), 120_000);
      // At the bound, the template's program runs over the whole URI: linear time.
      const atBound = now();
      await write(
        `${rpc("bound", "resources/read", { uri: `file:///${"x".repeat(65_536 - 9)}/` })}\n`,
      );
      await until((all) => all.some((m) => m.id === "bound"), 120_000);
      const boundMs = now() - atBound;
      const figures = await memory.stop();
      const long = answers.find((m) => m.id === "long");
      const held = answered && latency < 1000 && long?.error?.code === -32602;
      report(
        "uri template: 250 KiB URI, {a}{b}",
        held,
        figures,
        latency,
        `the ping after it answered in ${latency.toFixed(0)} ms; the read: ${long?.error?.message ?? "no answer"}; a 64 KiB URI (at maxUriLength) answered in ${boundMs.toFixed(0)} ms`,
      );
      target.child.stdin.end();
      await stop(target);
    },

    /** Template values that decode to `../`, NUL, or a `/` a simple expansion cannot hold. */
    async "uri template: ../ and NUL values"() {
      const { target, answers, write, until } = await stdioSession();
      const memory = sampler(target.child.pid);
      const uris = [
        "files:///..%2F..%2Fetc%2Fpasswd",
        "files:///docs/../../etc/passwd",
        "files:///notes%00.txt",
        "file:///..%2Fsecret",
      ];
      const began = now();
      for (const [i, uri] of uris.entries())
        await write(`${rpc(`read-${i}`, "resources/read", { uri })}\n`);
      await until((all) => uris.every((_, i) => all.some((m) => m.id === `read-${i}`)));
      const latency = now() - began;
      const figures = await memory.stop();
      const got = uris.map((_, i) => answers.find((m) => m.id === `read-${i}`));
      const refused = got.filter((m) => m?.error?.code === -32602).length;
      const handed = got.filter((m) => m?.result).map((m) => m.result.contents[0].text);
      report(
        "uri template: ../ and NUL values",
        refused === uris.length,
        figures,
        latency,
        `${refused}/${uris.length} refused (-32602)${handed.length ? `; the handler got ${handed.join(", ")}` : ""}`,
      );
      target.child.stdin.end();
      await stop(target);
    },

    /** 1,000 subscribes of 3 MiB URIs on one legacy session, four at a time, on a 512 MiB heap. */
    async "subscriptions: 1,000 × 3 MiB"() {
      const target = httpTarget([], ["--max-old-space-size=512"]);
      const url = await target.url;
      const session = await open(url);
      const memory = sampler(target.child.pid);
      const statuses = { refused: 0, accepted: 0, failed: 0 };
      let next = 0;
      const { latencies, failures } = await whileMeasuring(url, () =>
        Promise.all(
          Array.from({ length: 4 }, async () => {
            while (next < 1000 && target.alive()) {
              const i = next++;
              const uri = `file:///${i}/${"x".repeat(3 * MiB)}`;
              const answer = await legacyPost(url, rpc(i, "resources/subscribe", { uri }), session);
              if (answer.status === 0) statuses.failed++;
              else if (errorOf(answer)) statuses.refused++;
              else statuses.accepted++;
            }
          }),
        ),
      );
      const figures = await memory.stop();
      const held =
        target.alive() && statuses.failed === 0 && figures.peak < 512 && failures() === 0;
      report(
        "subscriptions: 1,000 × 3 MiB URIs",
        held && latencies.length > 0,
        figures,
        median(latencies),
        `${statuses.accepted} held, ${statuses.refused} refused, ${statuses.failed} unanswered; server ${target.alive() ? "alive" : "DEAD"}`,
      );
      await stop(target);
    },

    /** 200 sessions subscribing to one 900 KiB URI each: the server-wide bound. */
    async "subscriptions: 200 sessions × 900 KiB"() {
      const target = httpTarget();
      const url = await target.url;
      const memory = sampler(target.child.pid);
      let accepted = 0;
      let busy = 0;
      const { latencies } = await whileMeasuring(url, async () => {
        for (let i = 0; i < 200; i++) {
          const session = await open(url);
          const uri = `file:///${i}/${"x".repeat(900 * 1024)}`;
          const error = errorOf(
            await legacyPost(url, rpc(i, "resources/subscribe", { uri }), session),
          );
          if (error === null) accepted++;
          else if (error.code === -32000) busy++;
        }
      });
      const figures = await memory.stop();
      const heldMiB = (accepted * 900) / 1024;
      report(
        "subscriptions: 200 sessions × 900 KiB",
        target.alive() && heldMiB <= 64 && accepted + busy === 200,
        figures,
        median(latencies),
        `${accepted} held (${heldMiB.toFixed(0)} MiB of URIs), ${busy} refused (-32000)`,
      );
      await stop(target);
    },

    /** 100 idle sessions of one client, then 10,000 initializes from another. */
    async "sessions: 10,000 initializes"() {
      const target = httpTarget();
      const url = await target.url;
      const victims = [];
      for (let i = 0; i < 100; i++) victims.push(await open(url, VICTIM));
      const memory = sampler(target.child.pid);
      const agent = new Agent({ keepAlive: true, maxSockets: 32, localAddress: ATTACKER });
      let opened = 0;
      const began = now();
      const { latencies } = await whileMeasuring(url, () =>
        Promise.all(
          Array.from({ length: 32 }, async (_, worker) => {
            for (let i = worker; i < 10_000; i += 32)
              if (await open(url, ATTACKER, agent)) opened++;
          }),
        ),
      );
      const seconds = (now() - began) / 1000;
      agent.destroy();
      let alive = 0;
      for (const session of victims)
        if ((await legacyPost(url, rpc(1, "ping"), session, VICTIM)).status === 200) alive++;
      const figures = await memory.stop();
      report(
        "sessions: 10,000 initializes, 1 client",
        target.alive() && alive === victims.length,
        figures,
        median(latencies),
        `${opened} opened in ${seconds.toFixed(1)} s; the other client's idle sessions: ${alive}/${victims.length} still answer`,
      );
      await stop(target);
    },

    /** 400 slow bodies, 400 listen streams and 400 unanswered elicitations from one client. */
    async "in flight: 1,200 held by one client"() {
      const target = httpTarget();
      const url = new URL(await target.url);
      const sessions = [];
      for (let i = 0; i < 400; i++) sessions.push(await open(url.href));
      const memory = sampler(target.child.pid);
      const head = (headers) =>
        [
          `POST ${url.pathname} HTTP/1.1`,
          `Host: ${url.host}`,
          "Content-Type: application/json",
          "Accept: application/json, text/event-stream",
          ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
          "",
          "",
        ].join("\r\n");
      const listen = rpc(1, "subscriptions/listen", {
        notifications: { toolsListChanged: true },
        _meta: MODERN_META,
      });
      const ask = rpc(2, "tools/call", { name: "ask", arguments: {} });
      const requests = [
        ...Array.from({ length: 400 }, () => head({ "Content-Length": 1000 }) + "{"),
        ...Array.from(
          { length: 400 },
          () =>
            head({
              "Content-Length": Buffer.byteLength(listen),
              "MCP-Protocol-Version": "2026-07-28",
              "Mcp-Method": "subscriptions/listen",
            }) + listen,
        ),
        ...sessions.map(
          (session) =>
            head({
              "Content-Length": Buffer.byteLength(ask),
              "Mcp-Session-Id": session,
              "MCP-Protocol-Version": LEGACY,
            }) + ask,
        ),
      ];
      const sockets = requests.map((text) => {
        const socket = connect({
          host: url.hostname,
          port: Number(url.port),
          localAddress: ATTACKER,
        });
        const held = { socket, first: "" };
        socket.setEncoding("utf8");
        socket.on("data", (chunk) => (held.first ||= chunk.slice(0, 20)));
        socket.on("error", () => {});
        socket.write(text);
        return held;
      });
      await sleep(2000);
      const { latencies, refused, failures } = await whileMeasuring(url.href, () => sleep(3000));
      const figures = await memory.stop();
      const tooMany = sockets.filter((s) => s.first.startsWith("HTTP/1.1 429")).length;
      const full = sockets.filter((s) => s.first.startsWith("HTTP/1.1 503")).length;
      for (const { socket } of sockets) socket.destroy();
      report(
        "in flight: 1,200 held by 1 client",
        target.alive() && latencies.length > 0 && refused() === 0 && failures() === 0,
        figures,
        median(latencies),
        `the client got ${tooMany} × 429 and ${full} × 503; good requests: ${latencies.length} served, ${refused()} refused for load`,
      );
      await stop(target);
    },

    /** 20 bodies sent a byte a second, the target's bodyTimeoutMs set to 2 s (default 60 s). */
    async "body timeout: 1 byte/s"() {
      const target = httpTarget(["--body-timeout", "2000"]);
      const url = new URL(await target.url);
      const memory = sampler(target.child.pid);
      const began = now();
      const { result: results, latencies } = await whileMeasuring(url.href, () =>
        Promise.all(
          Array.from(
            { length: 20 },
            () =>
              new Promise((resolve) => {
                const socket = connect({
                  host: url.hostname,
                  port: Number(url.port),
                  localAddress: ATTACKER,
                });
                let first = "";
                let answeredMs = NaN;
                socket.setEncoding("utf8");
                socket.on("data", (chunk) => {
                  if (!first) answeredMs = now() - began;
                  first ||= chunk.slice(0, 12);
                });
                const timer = setInterval(() => socket.write("x"), 1000);
                const done = (closed) => {
                  clearInterval(timer);
                  socket.destroy();
                  resolve({ first, answeredMs, closed });
                };
                socket.on("close", () => done(true));
                socket.on("error", () => {});
                setTimeout(() => done(false), 10_000);
                socket.write(
                  `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
                );
              }),
          ),
        ),
      );
      const figures = await memory.stop();
      const timedOut = results.filter((r) => r.first.startsWith("HTTP/1.1 408") && r.closed);
      const slowest = Math.max(...timedOut.map((r) => r.answeredMs));
      report(
        "body timeout: 20 bodies at 1 byte/s",
        timedOut.length === 20 && latencies.length > 0,
        figures,
        median(latencies),
        `${timedOut.length}/20 answered 408 and closed (the last after ${Number.isFinite(slowest) ? (slowest / 1000).toFixed(1) : "-"} s; the run sets 2 s); the rest still open after 10 s`,
      );
      await stop(target);
    },
  };
}
