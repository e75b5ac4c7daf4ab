/**
 * The dual-era client (generated/dual) against servers scripted to misbehave, and the legacy
 * session's HTTP mechanics seen from the server: a process that cannot start or dies (a transport
 * failure, never a legacy verdict), a probe answered with garbage or never, a handshake answered
 * with a version the client does not speak, requests for capabilities the client did not declare,
 * a wire request on a modern session, a session dropped mid-call; `Mcp-Session-Id`, the GET stream,
 * requests on it, DELETE on close, a new session after 404, resumption with `Last-Event-ID`, the era
 * cached per origin. Each ends in a typed error or the spec's answer, with no process left running.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createClient,
  httpTransport,
  LegacyServerError,
  TimeoutError,
  TransportError,
  UnsupportedProtocolVersionError,
  type ClientTransport,
} from "../../../generated/dual/client.js";
import { stdioTransport } from "../../../generated/dual/client-node.js";
import { createClient as createModernClient } from "../../../generated/2026-07-28/client.js";
import { INFO } from "../../helpers/client-fake.js";
import { stdioScript } from "../../helpers/client-servers.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function client(transport: ClientTransport, options: Record<string, unknown> = {}) {
  const made = createClient({
    transport,
    info: INFO,
    log: () => undefined,
    onDeprecated: () => undefined,
    ...options,
  });
  closers.push(() => made.close());
  return made;
}

/**
 * A node program speaking stdio as `body` says; it reports its pid on stderr first. (A program
 * ended before it ran at all never reports one: `pid` then settles as `null` after 10 s.)
 */
function scripted(body: string): { transport: ClientTransport; pid: Promise<number | null> } {
  let found: (pid: number) => void = () => {};
  const pid = Promise.race([
    new Promise<number>((resolve) => (found = resolve)),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000).unref()),
  ]);
  const [flag, program] = stdioScript(body);
  const transport = stdioTransport({
    command: process.execPath,
    args: [flag!, `process.stderr.write("pid " + process.pid + "\\n"); ${program}`],
    onStderr: (line) => {
      const match = /^pid (\d+)$/.exec(line);
      if (match) found(Number(match[1]));
    },
  });
  return { transport, pid };
}

/** Whether a process is still running. */
function alive(pid: number | null): boolean {
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition(), what).toBe(true);
}

async function gone(pid: number | null): Promise<boolean> {
  for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 25));
  return !alive(pid);
}

const INITIALIZED = (version: string) =>
  `write({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "${version}", capabilities: { tools: {} }, serverInfo: { name: "legacy", version: "1" } } });`;
/** Legacy servers answer a request before initialize with an error of their choosing. */
const REFUSE_PROBE = `if (message.method === "server/discover") { write({ jsonrpc: "2.0", id: message.id, error: { code: -32600, message: "not initialized" } }); return; }`;

describe("stdio: diagnostics and bad input", () => {
  it("reports a server that cannot start as a TransportError with its cause, not as a legacy server", async () => {
    const mcp = client(stdioTransport({ command: "/nonexistent/mcp-gen-no-such-server" }));
    const failure = await mcp.connect().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).not.toBeInstanceOf(LegacyServerError);
    expect((failure as Error).cause).toMatchObject({ code: "ENOENT" });
  });

  it("reports a server that dies on the probe as a TransportError, and does not fall back", async () => {
    const { transport } = scripted(`process.exit(7);`);
    const mcp = client(transport);
    const failure = await mcp.connect().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toMatch(/exited \(code 7\)/);
  });

  it("ends a legacy server found by a client generated without legacy revisions", async () => {
    const { transport, pid } = scripted(`${REFUSE_PROBE}`);
    const mcp = createModernClient({ transport, info: INFO });
    closers.push(() => mcp.close());
    // Its own module's class: the name tells it.
    await expect(mcp.connect()).rejects.toMatchObject({ name: "LegacyServerError" });
    expect(await gone(await pid)).toBe(true);
  });

  it("ends a server that answers the probe and the handshake with garbage, and reports it", async () => {
    const { transport, pid } = scripted(
      `write({ jsonrpc: "2.0", id: message.id, result: "garbage" });`,
    );
    const mcp = client(transport);
    const failure = await mcp.listTools().catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: "InvalidResultError", method: "initialize" });
    expect(await gone(await pid)).toBe(true);
  });

  it("falls back when the probe is never answered, and ends a server that never answers the handshake either", async () => {
    const { transport, pid } = scripted(`/* never answers */`);
    const mcp = client(transport, { probeTimeoutMs: 1000, timeoutMs: 1500 });
    const failure = await mcp.connect().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TimeoutError);
    expect(failure).toMatchObject({ method: "initialize" });
    expect(await gone(await pid)).toBe(true);
  });

  it("refuses a handshake answered with a version it does not speak, naming those it does, and ends the server", async () => {
    const { transport, pid } = scripted(`${REFUSE_PROBE} ${INITIALIZED("1999-01-01")}`);
    const mcp = client(transport);
    const failure = await mcp.connect().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((failure as UnsupportedProtocolVersionError).supported).toEqual([
      "2026-07-28",
      "2025-11-25",
      "2025-06-18",
      "2025-03-26",
      "2024-11-05",
    ]);
    expect(await gone(await pid)).toBe(true);
  });

  it("answers a legacy server's requests only for the capabilities the client declared", async () => {
    // Before answering tools/list the server asks for elicitation, sampling and roots, and reports
    // the three answers in the listing's _meta.
    const { transport } = scripted(`${REFUSE_PROBE}
      if (message.method === "initialize") ${INITIALIZED("2025-11-25")}
      else if (message.method === "tools/list") {
        globalThis.pending = message.id; globalThis.answers = [];
        write({ jsonrpc: "2.0", id: "e", method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } });
        write({ jsonrpc: "2.0", id: "s", method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } });
        write({ jsonrpc: "2.0", id: "p", method: "ping" });
      } else if (message.id !== undefined && !message.method) {
        globalThis.answers.push(message);
        if (globalThis.answers.length === 3) write({ jsonrpc: "2.0", id: globalThis.pending, result: { tools: [], _meta: { answers: globalThis.answers } } });
      }`);
    const elicited: unknown[] = [];
    const mcp = client(transport, {
      // Declares elicitation only: sampling is refused although a handler exists.
      capabilities: { elicitation: {} },
      onElicit: (params: unknown) => {
        elicited.push(params);
        return { action: "decline" };
      },
      onSample: () => ({ role: "assistant", content: { type: "text", text: "no" }, model: "m" }),
    });
    const listed = await mcp.listTools();
    const answers = Object.fromEntries(
      (listed._meta as { answers: Array<{ id: string }> }).answers.map((a) => [a.id, a]),
    );
    expect(answers.e).toEqual({ jsonrpc: "2.0", id: "e", result: { action: "decline" } });
    expect(answers.s).toMatchObject({ id: "s", error: { code: -32601 } });
    expect(answers.p).toEqual({ jsonrpc: "2.0", id: "p", result: {} });
    expect(elicited).toHaveLength(1);
  });

  it("stops a handler the server cancels and sends no answer for it", async () => {
    // The server asks for elicitation, cancels it, and after a while lists the answers it got.
    const { transport } = scripted(`${REFUSE_PROBE}
      if (message.method === "initialize") ${INITIALIZED("2025-11-25")}
      else if (message.method === "tools/list") {
        globalThis.answers = [];
        write({ jsonrpc: "2.0", id: "e", method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } });
        setTimeout(() => write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "e", reason: "changed my mind" } }), 50);
        setTimeout(() => write({ jsonrpc: "2.0", id: message.id, result: { tools: [], _meta: { answers: globalThis.answers } } }), 400);
      } else if (message.id !== undefined && !message.method) globalThis.answers.push(message);`);
    const aborted: string[] = [];
    const mcp = client(transport, {
      onElicit: (_params: unknown, { signal }: { signal: AbortSignal }) =>
        new Promise((_, reject) =>
          signal.addEventListener("abort", () => {
            aborted.push(String((signal.reason as Error).message));
            reject(signal.reason);
          }),
        ),
    });
    const listed = await mcp.listTools();
    expect(aborted).toEqual(["the server cancelled its request e"]);
    expect(listed._meta?.answers).toEqual([]);
  });

  it("answers a wire request on a modern session with -32601, without calling the handler", async () => {
    const { transport } = scripted(`
      if (message.method === "server/discover") write({ jsonrpc: "2.0", id: message.id, result: { resultType: "complete", ttlMs: 0, cacheScope: "private", supportedVersions: ["2026-07-28"], capabilities: { tools: {} } } });
      else if (message.method === "tools/list") {
        globalThis.pending = message.id;
        write({ jsonrpc: "2.0", id: "e", method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } });
      } else if (message.id === "e") write({ jsonrpc: "2.0", id: globalThis.pending, result: { resultType: "complete", ttlMs: 0, cacheScope: "private", tools: [], _meta: { answer: message } } });`);
    const elicited: unknown[] = [];
    const mcp = client(transport, {
      onElicit: (params: unknown) => {
        elicited.push(params);
        return { action: "accept", content: {} };
      },
    });
    const listed = await mcp.listTools();
    expect(mcp.era).toBe("modern");
    expect(listed._meta?.answer).toMatchObject({ id: "e", error: { code: -32601 } });
    expect(elicited).toEqual([]);
  });

  it("fails a call whose legacy server drops the session mid-call with a TransportError; close leaves no process", async () => {
    const { transport, pid } = scripted(`${REFUSE_PROBE}
      if (message.method === "initialize") ${INITIALIZED("2025-11-25")}
      else if (message.method === "tools/list") write({ jsonrpc: "2.0", id: message.id, result: { tools: [] } });
      else if (message.method === "tools/call") process.exit(0);`);
    const mcp = client(transport);
    expect((await mcp.listTools()).tools).toEqual([]);
    expect(mcp.era).toBe("legacy");
    expect(alive(await pid)).toBe(true);
    await expect(mcp.callTool({ name: "x" })).rejects.toBeInstanceOf(TransportError);
    await mcp.close();
    expect(await gone(await pid)).toBe(true);
  });

  it("ends the legacy server's process on close", async () => {
    const { transport, pid } = scripted(`${REFUSE_PROBE}
      if (message.method === "initialize") ${INITIALIZED("2025-11-25")}`);
    const mcp = client(transport);
    expect(await mcp.connect()).toMatchObject({ era: "legacy" });
    expect(alive(await pid)).toBe(true);
    await mcp.close();
    expect(await gone(await pid)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// HTTP: a legacy server scripted in-process, seen from its side

interface Seen {
  method: string;
  rpc: string | undefined;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
}

type Handler = (seen: Seen, res: ServerResponse, all: Seen[]) => void;

async function legacyHttp(handle: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      const entry: Seen = {
        method: req.method!,
        rpc: typeof body?.method === "string" ? body.method : undefined,
        headers: req.headers,
        body,
      };
      seen.push(entry);
      handle(entry, res, seen);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(200, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

/** The SDK v1 answer to a request without a session: 400 with a JSON-RPC error of no modern kind. */
const noSession = (res: ServerResponse) => {
  res.writeHead(400, { "Content-Type": "application/json" });
  res.end(
    JSON.stringify({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "Bad Request: No valid session ID provided" },
    }),
  );
};

/** A legacy server: sessions "s1", "s2"…; `extra` handles what it does not. */
function legacyServer(extra: Handler = () => {}): Handler {
  let sessions = 0;
  return (seen, res, all) => {
    if (seen.method === "POST" && seen.rpc === "initialize")
      return json(
        res,
        {
          jsonrpc: "2.0",
          id: seen.body!.id,
          result: {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "scripted", version: "1" },
          },
        },
        { "Mcp-Session-Id": `s${++sessions}` },
      );
    if (seen.method === "POST" && !seen.headers["mcp-session-id"]) return noSession(res);
    if (seen.method === "POST" && seen.body && !("id" in seen.body)) {
      res.writeHead(202);
      return res.end();
    }
    if (seen.method === "DELETE") {
      res.writeHead(200);
      return res.end();
    }
    return extra(seen, res, all);
  };
}

const toolsList = (id: unknown) => ({ jsonrpc: "2.0", id, result: { tools: [] } });

describe("HTTP: the legacy session's mechanics", () => {
  it("falls back on a 400 without a modern error; carries Mcp-Session-Id and the version; opens the GET stream; closes it and DELETEs on close", async () => {
    let streamClosed: Promise<boolean> | undefined;
    const server = await legacyHttp(
      legacyServer((seen, res) => {
        if (seen.method === "GET") {
          streamClosed = new Promise((resolve) => res.on("close", () => resolve(true)));
          res.writeHead(200, { "Content-Type": "text/event-stream" });
          return res.write(": open\n\n");
        }
        if (seen.rpc === "tools/list") return json(res, toolsList(seen.body!.id));
      }),
    );
    const mcp = client(httpTransport(server.url));
    expect((await mcp.listTools()).tools).toEqual([]);
    await mcp.close();
    // The GET stream's connection is gone once close() has resolved.
    expect(await streamClosed).toBe(true);
    const trail = server.seen.map((s) => `${s.method} ${s.rpc ?? ""}`.trim());
    expect(trail).toEqual([
      "POST server/discover",
      "POST initialize",
      "POST notifications/initialized",
      "GET",
      "POST tools/list",
      "DELETE",
    ]);
    const [, initialize, initialized, get, list, del] = server.seen;
    expect(initialize!.headers["mcp-session-id"]).toBeUndefined();
    expect(initialize!.headers["mcp-protocol-version"]).toBeUndefined();
    expect(initialize!.body!.params).toMatchObject({ protocolVersion: "2025-11-25" });
    for (const later of [initialized, get, list, del]) {
      expect(later!.headers["mcp-session-id"]).toBe("s1");
      expect(later!.headers["mcp-protocol-version"]).toBe("2025-11-25");
    }
    expect(list!.body!.params ?? {}).not.toHaveProperty("_meta");
  });

  it("opens a new session after a 404 and sends the request again", async () => {
    const server = await legacyHttp(
      legacyServer((seen, res) => {
        if (seen.method === "GET") {
          res.writeHead(405);
          return res.end();
        }
        if (seen.headers["mcp-session-id"] === "s1" && seen.rpc === "tools/call") {
          res.writeHead(404);
          return res.end();
        }
        if (seen.rpc === "tools/list") return json(res, toolsList(seen.body!.id));
        if (seen.rpc === "tools/call")
          return json(res, {
            jsonrpc: "2.0",
            id: seen.body!.id,
            result: { content: [{ type: "text", text: `on ${seen.headers["mcp-session-id"]}` }] },
          });
      }),
    );
    const mcp = client(httpTransport(server.url));
    await mcp.listTools();
    const called = await mcp.callTool({ name: "x" });
    expect(called.content).toEqual([{ type: "text", text: "on s2" }]);
    expect(server.seen.filter((s) => s.rpc === "initialize")).toHaveLength(2);
  });

  it("resumes a tool call's stream with Last-Event-ID after it closes early, and reads the answer there", async () => {
    let pending: unknown;
    const server = await legacyHttp(
      legacyServer((seen, res) => {
        if (seen.method === "GET" && !seen.headers["last-event-id"]) {
          res.writeHead(405);
          return res.end();
        }
        if (seen.method === "GET") {
          res.writeHead(200, { "Content-Type": "text/event-stream" });
          return res.end(
            `id: e2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: pending, result: { content: [{ type: "text", text: "resumed" }] } })}\n\n`,
          );
        }
        if (seen.rpc === "tools/call") {
          pending = seen.body!.id;
          res.writeHead(200, { "Content-Type": "text/event-stream" });
          return res.end("id: e1\nretry: 20\ndata: \n\n");
        }
      }),
    );
    const mcp = client(httpTransport(server.url));
    const called = await mcp.callTool({ name: "slow" });
    expect(called.content).toEqual([{ type: "text", text: "resumed" }]);
    const resumed = server.seen.filter((s) => s.method === "GET" && s.headers["last-event-id"]);
    expect(resumed.map((s) => s.headers["last-event-id"])).toEqual(["e1"]);
    expect(resumed[0]!.headers["mcp-session-id"]).toBe("s1");
  });

  it("answers a request the server sends on the GET stream with a POST on the session", async () => {
    let stream: ServerResponse | undefined;
    const server = await legacyHttp(
      legacyServer((seen, res) => {
        if (seen.method === "GET") {
          res.writeHead(200, { "Content-Type": "text/event-stream" });
          res.write(": open\n\n");
          stream = res;
          return;
        }
        if (seen.rpc === "tools/list") {
          stream!.write(
            `data: ${JSON.stringify({ jsonrpc: "2.0", id: "r1", method: "roots/list" })}\n\n`,
          );
          return json(res, toolsList(seen.body!.id));
        }
        if (seen.body && "result" in seen.body) {
          res.writeHead(202);
          return res.end();
        }
      }),
    );
    const mcp = client(httpTransport(server.url), {
      onListRoots: () => ({ roots: [{ uri: "file:///r" }] }),
    });
    await mcp.listTools();
    await until(() => server.seen.some((s) => s.body?.id === "r1"), "the answer was posted");
    const answer = server.seen.find((s) => s.body?.id === "r1");
    expect(answer?.body).toEqual({
      jsonrpc: "2.0",
      id: "r1",
      result: { roots: [{ uri: "file:///r" }] },
    });
    expect(answer?.headers["mcp-session-id"]).toBe("s1");
  });

  it("cancels a call on the session with notifications/cancelled (a closed stream is no cancellation there)", async () => {
    const server = await legacyHttp(
      legacyServer((seen, res) => {
        if (seen.method === "GET") {
          res.writeHead(405);
          return res.end();
        }
        // tools/call is never answered: the client gives up.
        if (seen.rpc === "tools/call") res.writeHead(200, { "Content-Type": "text/event-stream" });
      }),
    );
    const mcp = client(httpTransport(server.url));
    await mcp.connect();
    const controller = new AbortController();
    const call = mcp.callTool({ name: "slow" }, { signal: controller.signal });
    await until(() => server.seen.some((s) => s.rpc === "tools/call"), "the call was sent");
    controller.abort(new Error("user gave up"));
    await expect(call).rejects.toThrow("user gave up");
    await until(
      () => server.seen.some((s) => s.rpc === "notifications/cancelled"),
      "the cancellation was sent",
    );
    const sent = server.seen.find((s) => s.rpc === "tools/call")!;
    const cancelled = server.seen.find((s) => s.rpc === "notifications/cancelled")!;
    expect(cancelled.body!.params).toMatchObject({ requestId: sent.body!.id });
    expect(cancelled.headers["mcp-session-id"]).toBe("s1");
  });

  it("caches the era per origin: a second client skips the probe", async () => {
    const server = await legacyHttp(
      legacyServer((seen, res) => {
        if (seen.method === "GET") {
          res.writeHead(405);
          return res.end();
        }
        if (seen.rpc === "tools/list") return json(res, toolsList(seen.body!.id));
      }),
    );
    await client(httpTransport(server.url)).listTools();
    await client(httpTransport(server.url)).listTools();
    expect(server.seen.filter((s) => s.rpc === "server/discover")).toHaveLength(1);
    expect(server.seen.filter((s) => s.rpc === "initialize")).toHaveLength(2);
  });

  it("probes again when the era cached for the origin no longer holds (a modern server replaced by a legacy one)", async () => {
    let legacy = false;
    const modernAnswer = (seen: Seen, res: ServerResponse) => {
      const common = { resultType: "complete", ttlMs: 0, cacheScope: "private" };
      if (seen.rpc === "server/discover")
        return json(res, {
          jsonrpc: "2.0",
          id: seen.body!.id,
          result: { ...common, supportedVersions: ["2026-07-28"], capabilities: { tools: {} } },
        });
      return json(res, { jsonrpc: "2.0", id: seen.body!.id, result: { ...common, tools: [] } });
    };
    const legacyAnswer = legacyServer((seen, res) => {
      if (seen.method === "GET") {
        res.writeHead(405);
        return res.end();
      }
      if (seen.rpc === "tools/list") return json(res, toolsList(seen.body!.id));
    });
    const server = await legacyHttp((seen, res, all) =>
      legacy ? legacyAnswer(seen, res, all) : modernAnswer(seen, res),
    );
    const first = client(httpTransport(server.url));
    await first.listTools();
    expect(first.era).toBe("modern");
    legacy = true;
    const second = client(httpTransport(server.url));
    expect((await second.listTools()).tools).toEqual([]);
    expect(second.era).toBe("legacy");
    const trail = server.seen.map((s) => `${s.method} ${s.rpc ?? ""}`.trim());
    expect(trail.slice(2, 6)).toEqual([
      "POST tools/list",
      "POST server/discover",
      "POST initialize",
      "POST notifications/initialized",
    ]);
  });

  it("stays modern on a recognised modern error: no version in common is an error, not a fallback", async () => {
    const server = await legacyHttp((seen, res) => {
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: seen.body?.id ?? null,
          error: {
            code: -32022,
            message: "Unsupported protocol version",
            data: { supported: ["2099-01-01"], requested: "2026-07-28" },
          },
        }),
      );
    });
    const failure = await client(httpTransport(server.url))
      .connect()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(server.seen.some((s) => s.rpc === "initialize")).toBe(false);
  });

  it("reports a server that cannot be reached as a TransportError, not as a legacy server", async () => {
    const server = await legacyHttp(() => {});
    const url = server.url;
    await closers.pop()!();
    const failure = await client(httpTransport(url))
      .connect()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).not.toBeInstanceOf(LegacyServerError);
  });
});
