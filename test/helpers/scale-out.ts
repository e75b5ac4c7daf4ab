/**
 * The scale-out world of the Redis tests: Debian's `redis-server` and `haproxy` (started by
 * bench/scale-world.mjs, which the bench shares), and server processes of a server generated with
 * `--store redis` (the dual-era server: modern and 2025-11-25), bundled by esbuild.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, stopper, waitForLine, type Started } from "../../bench/scale-world.mjs";
import { ROOT, SPEC_DIR } from "./spec.js";
import { bundleProgram } from "./legacy-servers.js";

export {
  findBinary,
  missingBinaries,
  startHaproxy,
  startRedis,
  type Started,
} from "../../bench/scale-world.mjs";

/**
 * The server program: the dual-era server generated with `--store redis`, its store Redis when
 * REDIS_URL is set (else in memory, one process), mounted on a node:http server of its own that
 * also answers `GET /streams` (how many GET streams of the MCP endpoint this process holds, which
 * tells the process to kill, and how many of them came with `Last-Event-ID`). Tools: `whoami` (the process id), `ask` (an elicitation, then the answer and
 * the process that finished the call), `touch` (publishes `resources/updated` for its `uri`).
 */
const PROGRAM = (generated: string) => `
import { createServer as httpServer } from "node:http";
import { createServer } from ${JSON.stringify(join(generated, "server.js"))};
import { RedisStore } from ${JSON.stringify(join(generated, "runtime", "server", "store-redis.js"))};

const store = process.env.REDIS_URL ? new RedisStore({ url: process.env.REDIS_URL, prefix: process.env.REDIS_PREFIX ?? "mcp:" }) : undefined;
const elicit = {
  method: "elicitation/create",
  params: { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
};
const text = (value) => ({ content: [{ type: "text", text: value }] });
const server = createServer({
  info: { name: "scale-out", version: "1.0.0" },
  capabilities: { tools: {}, resources: { subscribe: true } },
  secret: "a secret every process of the test shares",
  requestStateSingleUse: true,
  store,
  log: (line) => process.stderr.write(line + "\\n"),
  handlers: {
    "tools/list": () => ({ tools: ["whoami", "ask", "touch"].map((name) => ({ name, inputSchema: { type: "object" } })) }),
    "tools/call": (params, ctx) => {
      if (params.name === "whoami") return text(String(process.pid));
      if (params.name === "touch") {
        server.publish({ method: "notifications/resources/updated", params: { uri: params.arguments.uri } });
        return text(String(process.pid));
      }
      const answer = ctx.inputResponses.name;
      if (!answer) return ctx.inputRequired({ name: elicit }, { asked: process.pid });
      return text("hello " + answer.content.name + " asked by " + ctx.state.asked + " answered to " + process.pid);
    },
    "resources/list": () => ({ resources: [{ uri: "test://note", name: "note" }] }),
    "resources/read": (params) => ({ contents: [{ uri: params.uri, text: "note" }] }),
  },
});
const mcp = server.httpHandler();
let streams = 0;
let resumed = 0;
const http = httpServer((req, res) => {
  if (req.url === "/streams") return res.end(JSON.stringify({ streams, resumed }));
  if (req.method === "GET") {
    streams++;
    if (req.headers["last-event-id"] !== undefined) resumed++;
    res.on("close", () => streams--);
  }
  mcp(req, res);
});
http.keepAliveTimeout = 60_000;
http.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  process.stderr.write("listening on http://127.0.0.1:" + http.address().port + "/mcp\\n");
});
`;

/** Generates the dual-era server with `--store redis` and bundles the program: its entry, and a remover. */
export function scaleOutProgram(): { entry: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-scale-out-"));
  const generated = join(dir, "generated");
  execFileSync(
    process.execPath,
    [
      join(ROOT, "dist", "generator", "cli", "main.js"),
      "--revision",
      "2026-07-28",
      "--legacy",
      "2025-11-25",
      "--store",
      "redis",
      "--offline",
      "--out",
      generated,
    ],
    { cwd: dir, stdio: "pipe", env: { ...process.env, MCP_SPEC_DIR: SPEC_DIR } },
  );
  const source = join(dir, "server.ts");
  writeFileSync(source, PROGRAM(generated));
  // ioredis is CommonJS requiring node built-ins: a require for them in the ESM bundle.
  const entry = bundleProgram(
    source,
    join(dir, "server.mjs"),
    "import { createRequire as mcpGenRequire } from 'node:module'; const require = mcpGenRequire(import.meta.url);",
  );
  return { entry, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One server process of `entry`, on a free port: its URL once it listens. */
export async function startServer(
  entry: string,
  env: Record<string, string>,
): Promise<Started & { url: string; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [, url] = await waitForLine(child, /listening on (\S+)/);
  return { child, port, url: url!, base: `http://127.0.0.1:${port}`, stop: stopper(child) };
}

/** A temporary folder for a world's files. */
export function worldDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-world-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
