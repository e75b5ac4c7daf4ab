// The scale-out world of bench/scale.mjs and test/runtime/server/scale-out-redis.test.ts: Debian's redis-server
// and haproxy, each started on an ephemeral loopback port with its config in a temporary folder,
// stopped with SIGKILL. Types in scale-world.d.mts.
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { delimiter, join } from "node:path";

/** Where Debian puts the two programs (haproxy in sbin, which a non-root PATH may lack). */
const SEARCH = [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/usr/local/sbin"];

export function findBinary(name) {
  for (const dir of SEARCH) {
    const path = join(dir, name);
    if (dir && existsSync(path)) return path;
  }
  return undefined;
}

/** Why the world cannot start here (a missing program), or undefined. */
export function missingBinaries() {
  const missing = ["redis-server", "haproxy"].filter((name) => !findBinary(name));
  return missing.length === 0
    ? undefined
    : `${missing.join(" and ")} not installed (apt-get install -y redis-server haproxy)`;
}

/** A free loopback port, as the system hands one out. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves with the first match of `pattern` in `child`'s output; rejects when it exits first or after `ms`. */
export function waitForLine(child, pattern, ms = 20_000) {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => done(new Error(`no ${pattern} within ${ms} ms:\n${text}`)), ms);
    const onData = (chunk) => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match) done(undefined, match);
    };
    const onExit = (code) => done(new Error(`exited (${code}) before ${pattern}:\n${text}`));
    const done = (error, match) => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve(match);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
  });
}

/** Stops a child with SIGKILL and waits for it. */
export function stopper(child) {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
}

/** redis-server on a free loopback port (or `port`: one restarted where it was): no persistence, its files in `dir`. */
export async function startRedis(dir, port) {
  port ??= await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  const child = spawn(findBinary("redis-server"), [...args, "--dir", dir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  await waitForLine(child, /Ready to accept connections/);
  return { child, port, url: `redis://127.0.0.1:${port}`, stop: stopper(child) };
}

/**
 * haproxy in front of `backends` (ports), round-robin per request, no stickiness: a server that
 * stops answering is taken out by its health check, and a request that finds it gone is sent to
 * another (`option redispatch`).
 */
export async function startHaproxy(dir, backends) {
  const port = await freePort();
  const config = join(dir, "haproxy.cfg");
  const servers = backends.map(
    (backend, i) => `  server s${i} 127.0.0.1:${backend} check inter 200ms fall 1 rise 2`,
  );
  writeFileSync(
    config,
    [
      "global",
      "  maxconn 2048",
      // One thread: on two cores shared with the servers, the client and redis-server, a second
      // haproxy thread only contends with them.
      "  nbthread 1",
      "defaults",
      "  mode http",
      // Connections to the servers are kept open and shared: round-robin sends each request to
      // another server, and without reuse haproxy opened (and each server accepted, and set up a
      // parser for) a new connection for most requests.
      "  option http-keep-alive",
      "  http-reuse always",
      "  timeout connect 1s",
      "  timeout client 60s",
      "  timeout server 60s",
      "  timeout http-keep-alive 60s",
      "  option redispatch",
      "  retries 3",
      "frontend mcp",
      `  bind 127.0.0.1:${port}`,
      "  default_backend servers",
      "backend servers",
      "  balance roundrobin",
      ...servers,
      "",
    ].join("\n"),
  );
  const child = spawn(findBinary("haproxy"), ["-f", config, "-db", "-q"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode})`);
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      break;
    } catch (error) {
      if (i >= 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { child, port, url: `http://127.0.0.1:${port}/mcp`, stop: stopper(child) };
}
