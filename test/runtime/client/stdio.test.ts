/**
 * The stdio client transport: framing, garbage, a dying server, the legacy probe; then end to end
 * against the compiled conformance fixture (`dist/examples/conformance-server.js --stdio`).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  createClient,
  LegacyServerError,
  TransportError,
} from "../../../generated/2026-07-28/client.js";
import { stdioTransport } from "../../../generated/2026-07-28/client-node.js";
import { createClient as createStatefulClient } from "../../../generated/2025-11-25/client.js";
import { INFO, results } from "../../helpers/client-fake.js";
import { stdioScript } from "../../helpers/client-servers.js";
import { ROOT } from "../../helpers/spec.js";

const FIXTURE = join(ROOT, "dist", "examples", "conformance-server.js");

const answer = (result: unknown) =>
  `write({ jsonrpc: "2.0", id: message.id, result: ${JSON.stringify(result)} });`;

describe("stdioTransport", () => {
  it("skips and logs garbage lines, and still gets the response", async () => {
    const log = vi.fn();
    const transport = stdioTransport({
      command: process.execPath,
      args: stdioScript(
        `write("this is not json"); write("[1,2]"); write(""); if (message.method === "server/discover") ${answer(results.discover())} else ${answer(results.tools([]))}`,
      ),
    });
    const client = createClient({ transport, info: INFO, log });
    const tools = await client.listTools();
    expect(tools.tools).toEqual([]);
    expect(
      log.mock.calls.map(([m]) => String(m)).filter((m) => m.includes("skipped")).length,
    ).toBeGreaterThanOrEqual(2);
    await client.close();
  });

  it("answers requests the server sends on the wire: ping with {}, input through its handler, others with -32601", async () => {
    // A 2025-11-25 server: before answering tools/list it asks the client three things and
    // reports the three answers in the tool list.
    const server = stdioScript(`
      if (message.method === "initialize") ${answer({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } })}
      else if (message.method === "tools/list") {
        globalThis.pending = message.id; globalThis.answers = [];
        write({ jsonrpc: "2.0", id: "a", method: "ping" });
        write({ jsonrpc: "2.0", id: "b", method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } });
        write({ jsonrpc: "2.0", id: "c", method: "no/such" });
      } else if (message.id !== undefined && !message.method) {
        globalThis.answers.push(message);
        if (globalThis.answers.length === 3) write({ jsonrpc: "2.0", id: globalThis.pending, result: { tools: [], _meta: { answers: globalThis.answers } } });
      }`);
    const client = createStatefulClient({
      transport: stdioTransport({ command: process.execPath, args: server }),
      info: INFO,
      onElicit: async () => ({ action: "decline" }),
    });
    const listed = await client.listTools();
    const answers = Object.fromEntries(
      (listed._meta as { answers: Array<{ id: string }> }).answers.map((a) => [a.id, a]),
    );
    expect(answers.a).toEqual({ jsonrpc: "2.0", id: "a", result: {} });
    expect(answers.b).toEqual({ jsonrpc: "2.0", id: "b", result: { action: "decline" } });
    expect(answers.c).toMatchObject({ jsonrpc: "2.0", id: "c", error: { code: -32601 } });
    await client.close();
  });

  it("rejects pending requests with TransportError when the server dies mid-request", async () => {
    const stderr: string[] = [];
    const transport = stdioTransport({
      command: process.execPath,
      args: stdioScript(
        `if (message.method === "server/discover") ${answer(results.discover())} else { console.error("dying"); process.exit(3); }`,
      ),
      onStderr: (line) => stderr.push(line),
    });
    const client = createClient({ transport, info: INFO });
    await expect(client.listTools()).rejects.toBeInstanceOf(TransportError);
    expect(stderr).toContain("dying");
    await expect(client.listTools()).rejects.toBeInstanceOf(TransportError);
    await client.close();
  });

  it("tells a client generated without legacy revisions that the server may be legacy", async () => {
    const legacyServer = stdioScript(
      `write({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });`,
    );
    const strict = createClient({
      transport: stdioTransport({ command: process.execPath, args: legacyServer }),
      info: INFO,
    });
    const failure = await strict.listTools().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LegacyServerError);
    expect((failure as Error).message).toMatch(
      /generated with --legacy none; regenerate it without/,
    );
    await strict.close();

    const silent = stdioScript(`/* never answers */`);
    const timedOut = createClient({
      transport: stdioTransport({ command: process.execPath, args: silent }),
      info: INFO,
      probeTimeoutMs: 200,
    });
    await expect(timedOut.connect()).rejects.toBeInstanceOf(LegacyServerError);
    await timedOut.close();
  });

  it("moves to the version a modern server offers on the probe", async () => {
    const server = stdioScript(
      `const v = message.params._meta["io.modelcontextprotocol/protocolVersion"];
       if (v !== "2026-07-28") write({ jsonrpc: "2.0", id: message.id, error: { code: -32022, message: "Unsupported", data: { supported: ["2026-07-28"], requested: v } } });
       else if (message.method === "server/discover") ${answer(results.discover())} else ${answer(results.tools([]))}`,
    );
    const client = createClient({
      transport: stdioTransport({ command: process.execPath, args: server }),
      info: INFO,
      protocolVersion: "2031-01-01",
      supportedVersions: ["2031-01-01", "2026-07-28"],
    });
    await expect(client.connect()).resolves.toMatchObject({
      era: "modern",
      protocolVersion: "2026-07-28",
    });
    await expect(client.listTools()).resolves.toMatchObject({ tools: [] });
    await client.close();
  });
});

describe("end to end against the compiled conformance fixture over stdio", () => {
  beforeAll(() => {
    if (!existsSync(FIXTURE))
      execFileSync("npm", ["run", "build:examples"], { cwd: ROOT, stdio: "pipe" });
  });

  it("discovers, lists, calls, reads, gets prompts, elicits and reports progress", async () => {
    const client = createClient({
      transport: stdioTransport({
        command: process.execPath,
        args: [FIXTURE, "--stdio"],
        onStderr: () => {},
      }),
      info: INFO,
      onElicit: () => ({ action: "accept", content: { name: "Ada" } }),
    });
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toContain("2026-07-28");
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toContain("test_simple_text");
    const all: string[] = [];
    for await (const tool of client.listToolsAll()) all.push(tool.name);
    expect(all).toEqual(listed.tools.map((t) => t.name));
    const simple = await client.callTool({ name: "test_simple_text" });
    expect(simple.content[0]).toMatchObject({ type: "text" });
    const greeted = await client.callTool({ name: "test_input_required_result_elicitation" });
    expect(greeted.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    const progress: unknown[] = [];
    await client.callTool(
      { name: "test_tool_with_progress" },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(progress).toEqual([0, 50, 100]);
    const read = await client.readResource({ uri: "test://static-text" });
    expect(read.contents[0]).toMatchObject({ uri: "test://static-text" });
    const prompt = await client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "a", arg2: "b" },
    });
    expect(prompt.messages[0]!.content).toEqual({ type: "text", text: "First: a; second: b." });
    await client.close();
  });
});
