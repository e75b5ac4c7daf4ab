/**
 * The stdio transport in a real child process speaking over its own stdin and stdout: console
 * output kept off stdout, exit codes on stdin end and on signals, close() with stdin still open,
 * a closed stdout.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../../helpers/tsc.js";
import { type Msg, byId, line, req } from "../../helpers/stdio-harness.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

// ---------------------------------------------------------------------------
// A real child process speaking over its own stdin/stdout
// ---------------------------------------------------------------------------

describe("stdio in a child process", { timeout: 30_000 }, () => {
  let dir: string;
  let script: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "mcp-gen-stdio-"));
    const compiled = tsc(dir, {
      compilerOptions: {
        ...STRICT_OPTIONS,
        ...NODE_TYPES,
        rootDir: join(ROOT, "runtime"),
        outDir: join(dir, "runtime"),
      },
      files: ["server/stdio.ts", "shared/jsonrpc.ts", "server/transport.ts"].map((f) =>
        join(ROOT, "runtime", f),
      ),
    });
    expect(compiled.output).toBe("");
    expect(compiled.status).toBe(0);
    script = join(dir, "server.mjs");
    writeFileSync(
      script,
      `import { serveStdio } from "./runtime/server/stdio.js";
const ok = (id, result) => ({ response: { jsonrpc: "2.0", id, result }, httpStatus: 200 });
serveStdio({
  async handle(m, delivery) {
    if (!("id" in m) || !("method" in m)) return { response: null, httpStatus: 202 };
    if (m.method === "noisy") {
      console.log("noise: log");
      console.info("noise: info");
      console.debug("noise: debug");
      console.dir({ noise: "dir" });
      console.table([{ noise: "table" }]);
      console.group("noise: group");
      console.count();
      console.groupEnd();
      process.stdout.write("noise: raw stdout write\\n");
      return ok(m.id, { noisy: true });
    }
    if (m.method === "slow") {
      console.error("slow started " + m.id);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(ok(m.id, { aborted: false })), 60_000);
        delivery.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve(ok(m.id, { aborted: true }));
        });
      });
    }
    return ok(m.id, { method: m.method });
  },
});
`,
    );
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  interface Run {
    child: ChildProcess;
    stdout: () => string;
    stderr: () => string;
    exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
    waitForStderr: (text: string) => Promise<void>;
  }

  function run(): Run {
    const child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const watchers: Array<() => void> = [];
    child.stdout!.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString("utf8");
      for (const w of watchers.splice(0)) w();
    });
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("close", (code, signal) => resolve({ code, signal })),
    );
    const waitForStderr = async (text: string): Promise<void> => {
      while (!err.includes(text)) await new Promise<void>((resolve) => watchers.push(resolve));
    };
    return { child, stdout: () => out, stderr: () => err, exit, waitForStderr };
  }

  const jsonLines = (text: string): Msg[] => {
    expect(text === "" || text.endsWith("\n")).toBe(true);
    return text
      .split("\n")
      .slice(0, -1)
      .map((l) => {
        const value = JSON.parse(l) as Msg;
        expect(value["jsonrpc"]).toBe("2.0");
        return value;
      });
  };

  it("keeps console output off stdout and exits 0 when stdin ends", async () => {
    const r = run();
    r.child.stdin!.end(line(req(1, "noisy")) + line(req(2, "tools/list")));
    const { code, signal } = await r.exit;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    const out = jsonLines(r.stdout());
    expect(byId(out)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { noisy: true } },
      { jsonrpc: "2.0", id: 2, result: { method: "tools/list" } },
    ]);
    for (const noise of [
      "noise: log",
      "noise: info",
      "noise: debug",
      "dir",
      "table",
      "noise: group",
      "default: 1",
      "noise: raw stdout write",
    ]) {
      expect(r.stderr()).toContain(noise);
    }
  });

  it("on stdin end aborts an in-flight request, answers it, and exits 0", async () => {
    const r = run();
    r.child.stdin!.write(line(req(1, "slow")));
    await r.waitForStderr("slow started 1");
    r.child.stdin!.end();
    const { code } = await r.exit;
    expect(code).toBe(0);
    expect(jsonLines(r.stdout())).toEqual([{ jsonrpc: "2.0", id: 1, result: { aborted: true } }]);
  });

  it("exits 0 on SIGTERM after finishing in-flight requests", async () => {
    const r = run();
    r.child.stdin!.write(line(req(1, "slow")));
    await r.waitForStderr("slow started 1");
    r.child.kill("SIGTERM");
    const { code, signal } = await r.exit;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(jsonLines(r.stdout())).toEqual([{ jsonrpc: "2.0", id: 1, result: { aborted: true } }]);
  });

  it("exits 0 on SIGINT while idle with stdin still open", async () => {
    const r = run();
    r.child.stdin!.write(line(req(1)));
    await new Promise<void>((resolve) => r.child.stdout!.once("data", () => resolve()));
    r.child.kill("SIGINT");
    const { code, signal } = await r.exit;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(jsonLines(r.stdout())).toEqual([{ jsonrpc: "2.0", id: 1, result: { method: "ping" } }]);
  });

  it("lets the process exit after close() although stdin is still open", async () => {
    const closer = join(dir, "closer.mjs");
    writeFileSync(
      closer,
      `import { serveStdio } from "./runtime/server/stdio.js";
const server = serveStdio({ handle: async (m) => ({ response: { jsonrpc: "2.0", id: m.id, result: {} }, httpStatus: 200 }) });
process.stdin.once("data", () => setTimeout(() => server.close(), 10));
server.closed.then(() => console.error("closed"));
`,
    );
    const child = spawn(process.execPath, [closer], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
    child.stdin.write(line(req(1)));
    const code = await new Promise<number | null>((resolve) =>
      child.on("close", (c) => resolve(c)),
    );
    expect(code).toBe(0);
    expect(err).toBe("closed\n");
    expect(jsonLines(out)).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    child.stdin.destroy();
  });

  it("does not crash when its stdout is closed (EPIPE)", async () => {
    const r = run();
    r.child.stdin!.write(line(req(1, "slow")));
    await r.waitForStderr("slow started 1");
    r.child.stdout!.destroy();
    r.child.stdin!.write(line(req(2)));
    r.child.stdin!.end();
    const { code, signal } = await r.exit;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(r.stderr()).not.toMatch(/Unhandled|Error: write EPIPE\n\s+at/);
    expect(r.stderr()).toContain("output failed (write EPIPE)");
  });
});
