// Issue 33's session and Redis attacks for `npm run stress`, against the dual-era server
// (bench/servers/stress-target-dual.mjs), with its state in a redis-server started here where the
// attack is on the store: legacy initializes carrying 3 MiB of capabilities, the keys a store leaves
// without a time to live once every session expired and the process restarted, one publish over
// 200,000 dead ids, Redis stalled and then killed under legacy requests and initializes, and a
// `Mcp-Param` value whose Base64 bytes begin with a byte order mark. The harness is bench/stress.mjs's,
// handed in as `kit`. Attacks come from 127.0.0.2; the good request from 127.0.0.3. Without
// redis-server the Redis lines say so and count as broken.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { findBinary, startRedis } from "./scale-world.mjs";

const MiB = 1024 * 1024;
const ATTACKER = "127.0.0.2";
const LEGACY = "2025-11-25";
const SCRIPT = "stress-target-dual.mjs";
const PREFIX = "stress:";

const rpc = (id, method, params = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const initialize = (id, capabilities = {}) =>
  rpc(id, "initialize", {
    protocolVersion: LEGACY,
    capabilities,
    clientInfo: { name: "legacy-attacker", version: "1" },
  });
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

export function sessionAttacks(kit) {
  const { startTarget, stop, sampler, report, median, whileMeasuring, post, now, sleep } = kit;
  const httpTarget = (args = [], nodeArgs = []) => {
    kit.dualDir();
    return startTarget(["--port", "0", ...args], nodeArgs, SCRIPT);
  };
  const legacyPost = (url, body, session, timeoutMs = 20_000) =>
    post(url, body, {
      headers: legacyHeaders(session),
      agent: false,
      localAddress: ATTACKER,
      timeoutMs,
    });
  const open = async (url) => (await legacyPost(url, initialize(1))).headers?.["mcp-session-id"];

  /** A redis-server of the attack's own, an inspecting connection, and how to end both. */
  async function withRedis(name, attack) {
    if (!findBinary("redis-server"))
      return report(name, false, null, null, "redis-server not installed");
    const dir = mkdtempSync(join(tmpdir(), "mcp-gen-stress-redis-"));
    const redis = await startRedis(dir);
    const inspect = new Redis(redis.url, { lazyConnect: false });
    inspect.on("error", () => undefined);
    try {
      await attack(redis, inspect);
    } finally {
      inspect.disconnect();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  return {
    /** 200 legacy initializes carrying 3 MiB in capabilities.experimental, 4 at a time, 512 MiB heap. */
    async "sessions: 200 × 3 MiB capabilities"() {
      const target = httpTarget([], ["--max-old-space-size=512"]);
      const url = await target.url;
      const memory = sampler(target.child.pid);
      const body = initialize(1, { experimental: { pad: { data: "x".repeat(3 * MiB) } } });
      const counts = { opened: 0, refused: 0, failed: 0 };
      let next = 0;
      const { latencies, failures } = await whileMeasuring(url, () =>
        Promise.all(
          Array.from({ length: 4 }, async () => {
            while (next < 200 && target.alive()) {
              next++;
              const answer = await legacyPost(url, body);
              if (answer.headers?.["mcp-session-id"]) counts.opened++;
              else if (errorOf(answer)?.code === -32602) counts.refused++;
              else counts.failed++;
            }
          }),
        ),
      );
      const figures = await memory.stop();
      report(
        "sessions: 200 × 3 MiB capabilities",
        target.alive() && counts.opened === 0 && counts.refused === 200 && failures() === 0,
        figures,
        median(latencies),
        `${counts.opened} sessions kept, ${counts.refused} refused (-32602), ${counts.failed} failed; server ${target.alive() ? "alive" : "DEAD"}`,
      );
      await stop(target);
    },

    /** 20 sessions × 10 subscriptions, every session left to expire, the server restarted: keys without a TTL. */
    async "redis: keys left without a TTL"() {
      await withRedis("redis: keys left without a TTL", async (redis, inspect) => {
        const idle = ["--redis", redis.url, "--idle", "2000"];
        let target = httpTarget(idle);
        const url = await target.url;
        for (let s = 0; s < 20; s++) {
          const session = await open(url);
          for (let i = 0; i < 10; i++)
            await legacyPost(
              url,
              rpc(i, "resources/subscribe", { uri: `test://${s}/${i}` }),
              session,
            );
        }
        await stop(target);
        // Every session expires while no process runs; then one comes back, and is given time to clean up.
        await sleep(3_000);
        target = httpTarget(idle);
        await target.url;
        await sleep(3_000);
        const keys = await inspect.keys(`${PREFIX}*`);
        const ttls = await Promise.all(keys.map((key) => inspect.pttl(key)));
        const forever = keys.filter((_, i) => ttls[i] === -1);
        const subscribers = forever.filter((key) => key.includes(":subscribers:")).length;
        const listed = await inspect.scard(`${PREFIX}sessions:${LEGACY}`);
        report(
          "redis: keys left without a TTL",
          forever.length === 0 && listed === 0,
          null,
          NaN,
          `${forever.length} keys without a TTL (${subscribers} subscribers sets), the sessions set lists ${listed} dead ids; ${keys.length} keys in all`,
        );
        await stop(target);
      });
    },

    /** One list change published over a session index of 200,000 expired ids and one live session. */
    async "redis: publish over 200k dead ids"() {
      await withRedis("redis: publish over 200k dead ids", async (redis, inspect) => {
        const target = httpTarget(["--redis", redis.url]);
        const url = await target.url;
        const live = await open(url);
        const index = `${PREFIX}sessions:${LEGACY}`;
        for (let i = 0; i < 200_000; i += 10_000)
          await inspect.sadd(index, ...Array.from({ length: 10_000 }, (_, j) => `dead-${i + j}`));
        const memory = sampler(target.child.pid);
        const began = now();
        let cleared = false;
        const { latencies } = await whileMeasuring(url, async () => {
          await post(url, kit.call("touch", "touch", "{}"), { headers: { "Mcp-Name": "touch" } });
          for (let i = 0; i < 600 && !cleared; i++) {
            cleared = (await inspect.scard(index)) === 1;
            if (!cleared) await sleep(100);
          }
        });
        const took = now() - began;
        const figures = await memory.stop();
        const delivered = await inspect.xlen(`${PREFIX}events:${live}`);
        const slowest = Math.max(...latencies);
        report(
          "redis: publish over 200k dead ids",
          cleared && delivered === 1 && slowest < 1_000 && figures.peak - figures.before < 100,
          figures,
          median(latencies),
          `dead ids ${cleared ? `dropped in ${(took / 1000).toFixed(1)} s` : "NOT dropped in 60 s"}; the live session got ${delivered} notification; the slowest good request ${slowest.toFixed(0)} ms`,
        );
        await stop(target);
      });
    },

    /** Redis stalled (SIGSTOP), then killed, under 20 legacy requests and 20 initializes each time. */
    async "redis: stalled, then killed"() {
      await withRedis("redis: stalled, then killed", async (redis) => {
        const target = httpTarget(["--redis", redis.url]);
        const url = await target.url;
        const session = await open(url);
        /** 20 requests on the session and 20 initializes at once, each given 10 s. */
        const wave = async () => {
          const began = now();
          const answers = await Promise.all([
            ...Array.from({ length: 20 }, (_, i) =>
              legacyPost(url, rpc(i, "tools/list"), session, 10_000),
            ),
            ...Array.from({ length: 20 }, () => legacyPost(url, initialize(1), undefined, 10_000)),
          ]);
          const busy = answers.filter((a) => a.status === 503).length;
          const hung = answers.filter((a) => a.status === 0).length;
          return { busy, hung, slowest: Math.max(...answers.map((a) => a.ms)), ms: now() - began };
        };
        redis.child.kill("SIGSTOP");
        const stalled = await wave();
        redis.child.kill("SIGCONT");
        let back = false;
        for (let i = 0; i < 100 && !back; i++) {
          back = (await legacyPost(url, initialize(1))).status === 200;
          if (!back) await sleep(100);
        }
        await redis.stop();
        await sleep(500);
        const killed = await wave();
        await sleep(1_000);
        const stacks = (target.stderr().match(/Unhandled error event/g) ?? []).length;
        const held =
          stalled.busy === 40 &&
          killed.busy === 40 &&
          back &&
          stacks === 0 &&
          stalled.slowest < 5_000;
        report(
          "redis: stalled, then killed",
          held,
          null,
          NaN,
          `stalled: ${stalled.busy}/40 answered 503, ${stalled.hung} unanswered after 10 s (slowest ${stalled.slowest.toFixed(0)} ms); served again once back: ${back ? "yes" : "NO"}; killed: ${killed.busy}/40 answered 503, ${killed.hung} unanswered (slowest ${killed.slowest.toFixed(0)} ms); ${stacks} "Unhandled error event" stacks`,
        );
        await stop(target);
      });
    },

    /** `Mcp-Param-Region` in Base64 whose bytes begin with a byte order mark, for a body value without one. */
    async "headers: BOM in Mcp-Param"() {
      const target = httpTarget();
      const url = await target.url;
      const bom = `=?base64?${Buffer.from("\uFEFFx", "utf8").toString("base64")}?=`;
      const answer = await post(url, kit.call("bom", "region", '{"region":"x"}'), {
        headers: { "Mcp-Name": "region", "Mcp-Param-Region": bom },
      });
      const error = errorOf(answer);
      report(
        "headers: BOM in Mcp-Param",
        answer.status === 400 && error?.code === -32020,
        null,
        NaN,
        `Mcp-Param-Region ${bom} for region "x": HTTP ${answer.status}${error ? ` ${error.code} ${error.message}` : ", accepted"}`,
      );
      await stop(target);
    },
  };
}
