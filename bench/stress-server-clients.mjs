// Issue 33's per-client attacks for `npm run stress`: many addresses opening sessions past the
// server's global bound (`maxSessions`), and one address sending waves of 4 MiB bodies of empty
// objects. The harness is bench/stress.mjs's, handed in as `kit`. Attackers come from 127.0.1.x
// (sessions) and 127.0.0.2 (bodies); the idle victim from 127.0.0.4; the good request from
// 127.0.0.3 (loopback addresses are distinct clients to the server's per-client quotas).
import { Agent } from "node:http";

const MiB = 1024 * 1024;
const LEGACY = "2025-11-25";
const VICTIM = "127.0.0.4";
const ATTACKER = "127.0.0.2";

const rpc = (id, method, params = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const initialize = (id) =>
  rpc(id, "initialize", {
    protocolVersion: LEGACY,
    capabilities: {},
    clientInfo: { name: "legacy-attacker", version: "1" },
  });
const legacyHeaders = (session) => ({
  "MCP-Protocol-Version": session === undefined ? null : LEGACY,
  "Mcp-Method": null,
  "Mcp-Name": null,
  ...(session === undefined ? {} : { "Mcp-Session-Id": session }),
});

export function clientAttacks(kit) {
  const { startTarget, stop, sampler, report, median, whileMeasuring, post, now } = kit;
  const legacyPost = (url, body, session, from, agent = false) =>
    post(url, body, { headers: legacyHeaders(session), agent, localAddress: from });
  const open = async (url, from, agent = false) =>
    (await legacyPost(url, initialize(1), undefined, from, agent)).headers?.["mcp-session-id"];

  return {
    /** 10 idle sessions of one address, then 1,000 initializes from each of 12 others (12,000 > maxSessions 10,000). */
    async "sessions: 12 addresses × 1,000 initializes"() {
      kit.dualDir();
      const target = startTarget(["--port", "0"], [], "stress-target-dual.mjs");
      const url = await target.url;
      const victims = [];
      for (let i = 0; i < 10; i++) victims.push(await open(url, VICTIM));
      const memory = sampler(target.child.pid);
      let opened = 0;
      const began = now();
      const { latencies } = await whileMeasuring(url, () =>
        Promise.all(
          Array.from({ length: 12 }, async (_, a) => {
            const from = `127.0.1.${a + 1}`;
            const agent = new Agent({ keepAlive: true, maxSockets: 4, localAddress: from });
            await Promise.all(
              Array.from({ length: 4 }, async (_, worker) => {
                for (let i = worker; i < 1_000; i += 4) if (await open(url, from, agent)) opened++;
              }),
            );
            agent.destroy();
          }),
        ),
      );
      const seconds = (now() - began) / 1000;
      let alive = 0;
      for (const session of victims)
        if ((await legacyPost(url, rpc(1, "ping"), session, VICTIM)).status === 200) alive++;
      const figures = await memory.stop();
      report(
        "sessions: 12 addresses × 1,000 initializes",
        target.alive() && alive === victims.length && opened === 12_000,
        figures,
        median(latencies),
        `${opened} opened in ${seconds.toFixed(1)} s; the idle client's sessions on another address: ${alive}/${victims.length} still answer`,
      );
      await stop(target);
    },

    /**
     * Five waves of 80 concurrent 4 MiB bodies of `[{},{},…]` (1.4 million objects each) from one
     * address, a good client on another: its latency, and whether each good request was served.
     */
    async "bodies: 5 waves × 80 × 4 MiB [{},…]"() {
      const target = startTarget(["--port", "0"]);
      const url = await target.url;
      const memory = sampler(target.child.pid);
      const prefix = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":${kit.META},"arguments":{"items":[`;
      const count = Math.floor((4 * MiB - prefix.length - 10) / 3);
      const body = Buffer.from(`${prefix}${"{},".repeat(count - 1)}{}]}}}`);
      const statuses = new Map();
      const began = now();
      const { latencies, failures, refused } = await whileMeasuring(url, async () => {
        for (let wave = 0; wave < 5 && target.alive(); wave++) {
          const answers = await Promise.all(
            Array.from({ length: 80 }, () =>
              post(url, body, {
                headers: { "Mcp-Name": "echo" },
                agent: false,
                localAddress: ATTACKER,
                timeoutMs: 60_000,
              }),
            ),
          );
          for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      });
      const seconds = (now() - began) / 1000;
      const figures = await memory.stop();
      const served = latencies.length;
      const p50 = median(latencies);
      const by = [...statuses].map(([status, n]) => `${n} × ${status || "none"}`).join(", ");
      report(
        "bodies: 5 waves × 80 × 4 MiB [{},…]",
        target.alive() && failures() === 0 && refused() === 0 && p50 < 250 && figures.peak < 512,
        figures,
        p50,
        `attacker (${(body.length / MiB).toFixed(2)} MiB each, ${seconds.toFixed(1)} s): ${by}; good requests: ${served} served, ${refused()} refused for load, ${failures()} failed, slowest ${Math.max(...latencies).toFixed(0)} ms`,
      );
      await stop(target);
    },
  };
}
