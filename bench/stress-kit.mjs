// What every attack of `npm run stress` (bench/stress.mjs) shares: the target server's process and
// its resident memory, requests from a good client beside the attack, and the report, one row an
// attack.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { ROOT } from "./prepare.mjs";

export const REVISION = "2026-07-28";
export const MiB = 1024 * 1024;
export const META = JSON.stringify({
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "mcp-gen-stress", version: "1.0.0" },
});
export const HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": REVISION,
  "Mcp-Method": "tools/call",
};
export const call = (id, name, argsText) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"${name}","arguments":${argsText},"_meta":${META}}}`;

export const now = () => Number(process.hrtime.bigint()) / 1e6;
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function rssMiB(pid) {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Samples a process's RSS every 20 ms: before, peak, and after (`stop`, after a short settle). */
export function sampler(pid) {
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

export function startTarget(args, nodeArgs = [], script = "stress-target.mjs") {
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

export async function stop(target) {
  if (target.alive()) target.child.kill("SIGKILL");
  await target.exited;
}

/**
 * The address good requests come from: another client than the attacks (which come from 127.0.0.1
 * or 127.0.0.2), as the server's per-client quotas see clients.
 */
export const GOOD_CLIENT = "127.0.0.3";

/**
 * One POST; resolves with status, headers, body text and time taken (a status of 0: no answer,
 * with `error`). A header given as `null` is left out.
 */
export function post(url, body, { headers = {}, agent, timeoutMs = 20_000, localAddress } = {}) {
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
export async function whileMeasuring(url, work) {
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

export const median = (values) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

export const rows = [];
export function report(name, held, memory, latency, detail) {
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
