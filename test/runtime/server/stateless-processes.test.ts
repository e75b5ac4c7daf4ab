/**
 * Statelessness across processes: the compiled conformance fixture runs as separate processes, A
 * and B sharing MCP_SERVER_SECRET and C with another. A multi round-trip call begun on one process
 * completes on another that shares the secret (all it needs travels in the sealed requestState),
 * and C, with a different secret, rejects that state (-32602): it can neither read nor resume it.
 * Over HTTP (`--port 0`) and over stdio (`--stdio`), and across the two.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CC,
  CI,
  PV,
  defaultHeaders,
  parseSse,
  until,
  type Msg,
} from "../../helpers/server-harness.js";
import { ROOT, SPEC_DIR } from "../../helpers/spec.js";

const REVISION = "2026-07-28";
const FIXTURE = join(ROOT, "dist", "examples", "conformance-server.js");
const SHARED_SECRET = "shared-secret-of-a-and-b-0123456789";
const OTHER_SECRET = "a-different-secret-for-c-9876543210";

/** Newest modification time of the files under `dir` (recursively) ending in one of `extensions`. */
function newest(dir: string, extensions: readonly string[]): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path, extensions));
    else if (extensions.some((ext) => entry.name.endsWith(ext)))
      latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

/** Builds dist/examples/conformance-server.js when it is missing or older than what it is built from. */
function ensureBuilt(): void {
  const sources = Math.max(
    statSync(join(ROOT, "examples", "conformance-server.ts")).mtimeMs,
    newest(join(ROOT, "templates"), [".ts", ".hbs"]),
    newest(join(ROOT, "generator"), [".ts"]),
  );
  if (existsSync(FIXTURE) && statSync(FIXTURE).mtimeMs >= sources) return;
  // The generator's own dist first, so build:examples generates with the current sources.
  for (const [command, args] of [
    ["npx", ["tsc", "-p", "tsconfig.json"]],
    ["npm", ["run", "build:examples"]],
  ] as const) {
    // The spec material is read in place, as the test run's own generation does (no network).
    const result = spawnSync(command, [...args], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 240_000,
      env: { ...process.env, MCP_SPEC_DIR: SPEC_DIR },
    });
    if (result.status !== 0)
      throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
}

const children: ChildProcess[] = [];

function start(args: string[], secret: string): ChildProcess {
  const child = spawn(process.execPath, [FIXTURE, ...args], {
    cwd: ROOT,
    env: { ...process.env, MCP_SERVER_SECRET: secret },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  return child;
}

// ---------------------------------------------------------------------------
// Clients for one process
// ---------------------------------------------------------------------------

interface Server {
  name: string;
  /** Sends one request and resolves with its response. */
  request(message: Msg): Promise<Msg>;
}

async function httpServer(name: string, secret: string): Promise<Server> {
  const child = start(["--port", "0"], secret);
  let stderr = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => (stderr += chunk));
  await until(
    () => /listening on (\S+)/.test(stderr) || child.exitCode !== null,
    `${name} to listen`,
    20_000,
  );
  const url = /listening on (\S+)/.exec(stderr)?.[1];
  if (!url) throw new Error(`${name} did not start: ${stderr}`);
  return {
    name,
    async request(message) {
      const response = await fetch(url, {
        method: "POST",
        headers: defaultHeaders(message, REVISION),
        body: JSON.stringify(message),
      });
      const text = await response.text();
      const messages = response.headers.get("content-type")?.includes("text/event-stream")
        ? parseSse(text)
        : [JSON.parse(text) as Msg];
      const answer = messages.find((m) => m.id === message.id);
      if (!answer) throw new Error(`${name}: no response to ${String(message.id)} in ${text}`);
      return { ...answer, httpStatus: response.status };
    },
  };
}

function stdioServer(name: string, secret: string): Server {
  const child = start(["--stdio"], secret);
  const received: Msg[] = [];
  let buffer = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") received.push(JSON.parse(line) as Msg);
  });
  return {
    name,
    async request(message) {
      child.stdin!.write(`${JSON.stringify(message)}\n`);
      await until(
        () => received.some((m) => m.id === message.id && ("result" in m || "error" in m)),
        `${name} to answer ${String(message.id)}`,
        20_000,
      );
      return received.find((m) => m.id === message.id)!;
    },
  };
}

// ---------------------------------------------------------------------------

const CAPABILITIES = { sampling: {}, elicitation: {}, roots: {} };
let nextId = 1;
function toolCall(name: string, extra: Msg = {}): Msg {
  return {
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: {
      _meta: { [PV]: REVISION, [CI]: { name: "process-test", version: "1" }, [CC]: CAPABILITIES },
      name,
      arguments: {},
      ...extra,
    },
  };
}
const accept = (content: Msg) => ({ action: "accept", content });

describe("statelessness across processes", () => {
  const http: Record<"A" | "B" | "C", Server> = {} as never;
  const stdio: Record<"A" | "B" | "C", Server> = {} as never;

  beforeAll(async () => {
    ensureBuilt();
    [http.A, http.B, http.C] = await Promise.all([
      httpServer("http A", SHARED_SECRET),
      httpServer("http B", SHARED_SECRET),
      httpServer("http C", OTHER_SECRET),
    ]);
    stdio.A = stdioServer("stdio A", SHARED_SECRET);
    stdio.B = stdioServer("stdio B", SHARED_SECRET);
    stdio.C = stdioServer("stdio C", OTHER_SECRET);
  });

  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await until(
      () => children.every((c) => c.exitCode !== null || c.signalCode !== null),
      "the fixtures to exit",
      5000,
    ).catch(() => {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
  });

  async function inputRequired(
    server: Server,
    message: Msg,
  ): Promise<{ state: string; inputRequests: Msg }> {
    const answer = await server.request(message);
    expect(answer.error, `${server.name}: ${JSON.stringify(answer.error)}`).toBeUndefined();
    expect(answer.result.resultType).toBe("input_required");
    expect(typeof answer.result.requestState).toBe("string");
    return {
      state: answer.result.requestState as string,
      inputRequests: answer.result.inputRequests as Msg,
    };
  }

  async function rejected(server: Server, message: Msg): Promise<void> {
    const answer = await server.request(message);
    expect(answer.result).toBeUndefined();
    expect(answer.error).toEqual({
      code: -32602,
      message: "Invalid params: requestState integrity check failed (tampered)",
    });
    if ("httpStatus" in answer) expect(answer.httpStatus).toBe(400);
  }

  for (const kind of ["http", "stdio"] as const) {
    describe(`over ${kind}`, () => {
      const servers = () => (kind === "http" ? http : stdio);

      it("the processes are separate and answer on their own", async () => {
        const { A, B, C } = servers();
        for (const server of [A, B, C]) {
          const answer = await server.request(toolCall("test_simple_text"));
          expect(answer.result?.content).toEqual([
            { type: "text", text: "A plain text answer from the mcp-gen fixture." },
          ]);
        }
        expect(new Set(children.map((c) => c.pid)).size).toBe(children.length);
      });

      it("request_state: round 1 on A completes on B; C rejects A's state", async () => {
        const { A, B, C } = servers();
        const { state, inputRequests } = await inputRequired(
          A,
          toolCall("test_input_required_result_request_state"),
        );
        expect(Object.keys(inputRequests)).toEqual(["confirm"]);
        const retry = () =>
          toolCall("test_input_required_result_request_state", {
            requestState: state,
            inputResponses: { confirm: accept({ ok: true }) },
          });

        const done = await B.request(retry());
        expect(done.error).toBeUndefined();
        expect(done.result).toMatchObject({
          resultType: "complete",
          content: [{ type: "text", text: "state-ok: confirmed=true" }],
        });

        await rejected(C, retry());
        // A itself still accepts it: nothing was consumed or stored anywhere.
        expect((await A.request(retry())).result?.content?.[0]?.text).toBe(
          "state-ok: confirmed=true",
        );
      });

      it("multi_round: A → B → A, each round's state verified by the next process; C rejects every round's state", async () => {
        const { A, B, C } = servers();
        const tool = "test_input_required_result_multi_round";
        const first = await inputRequired(A, toolCall(tool));
        expect(Object.keys(first.inputRequests)).toEqual(["name"]);

        const round2 = (state: string) =>
          toolCall(tool, {
            requestState: state,
            inputResponses: { name: accept({ name: "Alice" }) },
          });
        await rejected(C, round2(first.state));
        const second = await inputRequired(B, round2(first.state));
        expect(Object.keys(second.inputRequests)).toEqual(["colour"]);
        expect(second.state).not.toBe(first.state);

        const round3 = (state: string) =>
          toolCall(tool, {
            requestState: state,
            inputResponses: { colour: accept({ colour: "teal" }) },
          });
        await rejected(C, round3(second.state));
        const done = await A.request(round3(second.state));
        expect(done.result).toMatchObject({
          resultType: "complete",
          content: [{ type: "text", text: "Alice likes teal." }],
        });
      });

      it("C's own state works on C and is rejected by A and B", async () => {
        const { A, B, C } = servers();
        const { state } = await inputRequired(
          C,
          toolCall("test_input_required_result_request_state"),
        );
        const retry = () =>
          toolCall("test_input_required_result_request_state", {
            requestState: state,
            inputResponses: { confirm: accept({ ok: false }) },
          });
        await rejected(A, retry());
        await rejected(B, retry());
        expect((await C.request(retry())).result?.content?.[0]?.text).toBe(
          "state-ok: confirmed=false",
        );
      });
    });
  }

  it("a state sealed by the HTTP process A completes on the stdio process B (same secret), not on stdio C", async () => {
    const { state } = await inputRequired(
      http.A,
      toolCall("test_input_required_result_request_state"),
    );
    const retry = () =>
      toolCall("test_input_required_result_request_state", {
        requestState: state,
        inputResponses: { confirm: accept({ ok: true }) },
      });
    expect((await stdio.B.request(retry())).result?.content?.[0]?.text).toBe(
      "state-ok: confirmed=true",
    );
    await rejected(stdio.C, retry());
  });
});
