/**
 * The harness of the real-peer tests: servers nobody here wrote (the official reference servers,
 * fastmcp, the SDK v2), each reached through one client, the 2026-07-28 client generated with its
 * legacy revisions (`npm run generate:dual`), told nothing about the server's era.
 *
 * A stdio peer is spawned by the client's own `stdioTransport`; an HTTP peer is started here on
 * loopback, on a port the system picks, and stopped by `close()`. `close()` also checks that no
 * process of the peer is left: a client that leaves its server running beside it fails there.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import {
  createClient,
  httpTransport,
  type ClientOptions,
  type McpClient,
} from "../../generated/dual/client.js";
import { stdioTransport } from "../../generated/dual/client-node.js";
import { validators } from "../../generated/dual/validators.js";
import { startListening, stopProcess, validIn } from "./interop.js";
import { ROOT } from "./spec.js";

/** Checks a result against the 2026-07-28 validators: the typed API's results are modern, whatever the server's era. */
export const expectValid = validIn(validators);

export const PEERS_DIR = join(ROOT, "test", "peers");

/** Preloaded into a server that picks its own address, to keep it on loopback and port 0. */
const LOOPBACK = pathToFileURL(join(PEERS_DIR, "loopback.mjs")).href;

/** The script an installed package runs as its (first) bin. */
export function binOf(name: string): string {
  const dir = join(ROOT, "node_modules", name);
  const { bin } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    bin: string | Record<string, string>;
  };
  return join(dir, typeof bin === "string" ? bin : Object.values(bin)[0]!);
}

/** How to start a peer: `node args…`, over stdio or HTTP. */
export interface PeerSpec {
  transport: "stdio" | "http";
  /** Node's arguments: the server's script and its own arguments. */
  args: string[];
  env?: Record<string, string>;
  /** HTTP: the server picks its own address; it is kept on loopback and port 0 (test/peers/loopback.mjs). */
  preload?: boolean;
  /** HTTP: the endpoint's path, when the line the server prints names only its origin. */
  path?: string;
}

export interface PeerSession {
  client: McpClient;
  /** The client's diagnostics and, prefixed `stderr: `, the server's stderr (stdio). */
  logs: string[];
  notifications: Array<{ method: string; params?: Record<string, unknown> }>;
  /** The deprecated features the client reported using (once each). */
  deprecations: string[];
  /** Closes the client, stops an HTTP peer, and expects no process of the peer to be left. */
  close(): Promise<void>;
  /** The same without the check, for `afterAll` (a failed test may have left the peer running). */
  dispose(): Promise<void>;
}

/** Starts the peer and makes the client; nothing is sent until the first call. */
export async function openPeer(
  spec: PeerSpec,
  options: Partial<ClientOptions> = {},
): Promise<PeerSession> {
  const logs: string[] = [];
  const notifications: PeerSession["notifications"] = [];
  const deprecations: string[] = [];
  let child: ChildProcess | undefined;
  let transport;
  if (spec.transport === "stdio") {
    transport = stdioTransport({
      command: process.execPath,
      args: spec.args,
      cwd: ROOT,
      ...(spec.env ? { env: spec.env } : {}),
      onStderr: (line) => logs.push(`stderr: ${line}`),
    });
  } else {
    const args = spec.preload ? ["--import", LOOPBACK, ...spec.args] : spec.args;
    const started = await startListening(args, spec.args[0]!);
    child = started.child;
    transport = httpTransport(`${started.url}${spec.path ?? ""}`);
  }
  const client = createClient({
    transport,
    info: { name: "mcp-gen-peers", version: "0.0.1" },
    log: (message) => logs.push(message),
    onNotification: (notification) => notifications.push(notification as never),
    onDeprecated: (notice) => deprecations.push(notice),
    // A peer can take longer than the default probe wait to start on a loaded machine; its late
    // answer to a probe given up on would then be logged as a response to no pending request.
    probeTimeoutMs: 60_000,
    ...options,
  });
  const script = spec.args.find((arg) => !arg.startsWith("-"))!;
  const dispose = () => client.close().finally(() => stopProcess(child));
  return {
    client,
    logs,
    notifications,
    deprecations,
    async close() {
      await dispose();
      expect(await processesLeft(script)).toEqual([]);
    },
    dispose,
  };
}

/**
 * This process's children still running `script`, after waiting up to 5 s for them to go (a
 * closed client may end its server with a signal it answers a moment later).
 */
export async function processesLeft(script: string): Promise<string[]> {
  for (let waited = 0; ; waited += 50) {
    const left = childrenRunning(script);
    if (left.length === 0 || waited >= 5000) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function childrenRunning(script: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      if (!new RegExp(`^PPid:\\s+${process.pid}$`, "m").test(status)) continue;
      if (/^State:\s+Z/m.test(status)) continue; // exited; only its exit status is left to collect
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
      if (command.includes(script)) found.push(`${pid}: ${command.trim()}`);
    } catch {
      // gone between the listing and the read
    }
  }
  return found;
}

/** The text of a result's text content blocks, joined by newlines. */
export function textOf(result: { content?: Array<{ type: string; text?: string }> }): string {
  return (result.content ?? [])
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/** The installed version of a package (the tests name the versions they were written against). */
export function versionOf(name: string): string {
  return (
    JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
}

/**
 * The last test of a peer's suite: the client logged nothing of its own (the server's stderr aside)
 * and, closed, leaves no process of the peer behind.
 */
export function itEndsCleanly(peer: () => PeerSession): void {
  it("logged no diagnostics, and close() leaves no process behind", async () => {
    expect(peer().logs.filter((line) => !line.startsWith("stderr: "))).toEqual([]);
    await peer().close();
  });
}
