/**
 * What a request leaves behind. A generated server's resident memory under load stays near that of a
 * bare `JSON.parse`/`JSON.stringify` echo only if nothing a request allocates outlives it: V8 grows
 * its young generation as objects survive scavenges, and the server's memory with it.
 *
 * - The deliveries the transports hand the dispatcher keep their getters on a prototype: an object
 *   literal with a getter gets a hidden class of its own, which V8 allocates in the old generation,
 *   and through it the request's data survived every scavenge until the next full collection (that
 *   one object per request made the young generation grow eightfold under the server benchmark).
 * - Measured in a child process (`--trace-gc-nvp`): the bytes that survive scavenges, per request,
 *   once the server is warm, over stdio (sequential and pipelined) and HTTP. They were 600 to 6000
 *   bytes per request before the transports stopped allocating per-request closures, promises, Map
 *   and Set entries and accessor literals; they are now a few bytes.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp } from "../../../runtime/server/http/index.js";
import { success } from "../../../runtime/shared/jsonrpc.js";
import { serveStdio } from "../../../runtime/server/stdio.js";
import type { Delivery, MessageHandler, Outcome } from "../../../runtime/server/transport.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../../helpers/tsc.js";
import { generatedDir } from "../../helpers/spec.js";

const REVISION = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "memory-test", version: "1.0.0" },
};
const call = (id: number): string =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "hello" }, _meta: META },
  });

// ---------------------------------------------------------------------------
// Deliveries
// ---------------------------------------------------------------------------

/** A handler that keeps the deliveries it is given and answers every request at once. */
function capturing(): MessageHandler & { deliveries: Delivery[] } {
  const deliveries: Delivery[] = [];
  const answer = (message: unknown, delivery: Delivery): Outcome => {
    deliveries.push(delivery);
    const m = message as { id?: number };
    return m.id === undefined
      ? { response: null, httpStatus: 202 }
      : { response: success(m.id, {}), httpStatus: 200 };
  };
  return {
    deliveries,
    handle: async (message, delivery) => answer(message, delivery),
    handleRequest: answer,
  };
}

/** Own accessor properties: each one means a hidden class per object (and per request). */
const ownAccessors = (value: object): string[] =>
  Object.entries(Object.getOwnPropertyDescriptors(value))
    .filter(([, descriptor]) => descriptor.get !== undefined || descriptor.set !== undefined)
    .map(([name]) => name);

describe("deliveries", () => {
  it("stdio: requests and notifications get deliveries with no accessor of their own", async () => {
    const handler = capturing();
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const server = serveStdio(handler, {
      input,
      output,
      errors: new PassThrough(),
      captureConsole: false,
    });
    input.end(`${call(1)}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`);
    await server.closed;
    expect(handler.deliveries).toHaveLength(2);
    for (const delivery of handler.deliveries) {
      expect(ownAccessors(delivery)).toEqual([]);
      expect(delivery.signal).toBeInstanceOf(AbortSignal);
    }
  });

  it("HTTP: requests and notifications get deliveries with no accessor of their own", async () => {
    const handler = capturing();
    const listening = await serveHttp(handler, { port: 0 });
    try {
      for (const body of [call(1), '{"jsonrpc":"2.0","method":"notifications/initialized"}']) {
        const response = await fetch(listening.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body,
        });
        await response.text();
      }
    } finally {
      await listening.close();
    }
    expect(handler.deliveries).toHaveLength(2);
    for (const delivery of handler.deliveries) {
      expect(ownAccessors(delivery)).toEqual([]);
      expect(delivery.signal).toBeInstanceOf(AbortSignal);
    }
  });
});

// ---------------------------------------------------------------------------
// Survivors, measured
// ---------------------------------------------------------------------------

let dir: string;
let serverScript: string;

beforeAll(() => {
  // The generated server, compiled to ESM JavaScript as a user would run it.
  dir = mkdtempSync(join(tmpdir(), "mcp-gen-memory-"));
  const out = join(dir, "js");
  const compiled = tsc(dir, {
    compilerOptions: {
      ...STRICT_OPTIONS,
      ...NODE_TYPES,
      rootDir: generatedDir(REVISION),
      outDir: out,
    },
    include: [join(generatedDir(REVISION), "**/*.ts")],
  });
  if (compiled.status !== 0) throw new Error(`tsc failed:\n${compiled.output}`);
  serverScript = join(dir, "echo.js");
  writeFileSync(
    serverScript,
    `import { createServer } from "./js/server.js";
const server = createServer({
  info: { name: "memory-echo", version: "1.0.0" },
  capabilities: { tools: {} },
  handlers: { "tools/call": (params) => ({ content: [{ type: "text", text: String(params.arguments?.text) }] }) },
});
if (process.argv.includes("--stdio")) server.serveStdio();
else {
  const listening = await server.listen({ port: 0 });
  process.stderr.write("listening on " + listening.url + "\\n");
}
`,
  );
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Survival {
  /** Bytes surviving scavenges (promoted or copied) per request, over the last two thirds of the run. */
  perRequest: number;
  scavenges: number;
}

/** Runs `requests` echo calls against a fresh server process and reports what survived its scavenges. */
async function measure(
  transport: "stdio" | "http",
  requests: number,
  batch = 1,
): Promise<Survival> {
  const child = spawn(
    process.execPath,
    ["--trace-gc-nvp", serverScript, transport === "stdio" ? "--stdio" : "--http"],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  // --trace-gc-nvp writes to stdout, between the responses: one line per collection.
  const scavenges: Array<{ answered: number; survived: number }> = [];
  let answered = 0;
  let wake: (() => void) | undefined;
  let pending = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.startsWith("{")) {
        answered++;
        wake?.();
      } else if (/\bgc=s\b/.test(line)) {
        const field = (name: string): number =>
          Number(new RegExp(`\\b${name}=(\\d+)`).exec(line)?.[1] ?? NaN);
        scavenges.push({ answered, survived: field("promoted") + field("new_space_survived") });
      }
    }
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    if (transport === "stdio") {
      let id = 0;
      while (id < requests) {
        let lines = "";
        for (let i = 0; i < batch; i++) lines += `${call(++id)}\n`;
        const target = id;
        child.stdin.write(lines);
        while (answered < target) {
          if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
          await new Promise<void>((resolve) => (wake = resolve));
        }
      }
    } else {
      const deadline = Date.now() + 20_000;
      while (!/listening on (\S+)/.test(stderr)) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`server did not listen: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const url = new URL(/listening on (\S+)/.exec(stderr)![1]!);
      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      const post = (body: string): Promise<void> =>
        new Promise((resolve, reject) => {
          const req = request(
            url,
            {
              method: "POST",
              agent,
              headers: {
                "content-type": "application/json",
                accept: "application/json, text/event-stream",
                "mcp-protocol-version": REVISION,
                "mcp-method": "tools/call",
                "mcp-name": "echo",
                "content-length": Buffer.byteLength(body),
              },
            },
            (res) => {
              if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
              res.resume();
              res.on("end", () => resolve());
            },
          );
          req.on("error", reject);
          req.end(body);
        });
      let id = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (id < requests) {
            await post(call(++id));
            answered++;
          }
        }),
      );
      agent.destroy();
    }
  } finally {
    child.kill();
    await exited;
  }
  // Start-up (loading the modules, compiling) survives by design; the steady state is what counts.
  const steady = scavenges.filter((s) => s.answered >= requests / 3);
  if (steady.length === 0)
    throw new Error(`no scavenges traced after warm-up (of ${scavenges.length})`);
  const survived = steady.reduce((sum, s) => sum + s.survived, 0);
  return { perRequest: survived / (requests - requests / 3), scavenges: steady.length };
}

describe("bytes that survive scavenges, per request, once warm", () => {
  it("stdio, one request at a time: under 32 (were over 600)", async () => {
    const { perRequest } = await measure("stdio", 20_000);
    expect(perRequest).toBeLessThan(32);
  });

  it("stdio, 50 requests per write: under 32 (were over 700)", async () => {
    const { perRequest } = await measure("stdio", 40_000, 50);
    expect(perRequest).toBeLessThan(32);
  });

  it("HTTP, 4 at a time: under 256 (were over 5000)", async () => {
    const { perRequest } = await measure("http", 8_000);
    expect(perRequest).toBeLessThan(256);
  });
});
