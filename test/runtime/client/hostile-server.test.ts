/**
 * #25 item 4: the dual-era client (generated/dual) against a hostile initialize-era server over
 * HTTP, on loopback: a flood of pings on the session's stream, a 404 after every handshake, a
 * `retry: 0` stream, a flood of elicitations, and (the OAuth client) metadata without end. Each is
 * answered within the client's budgets, counted from the server's side.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createClient,
  httpTransport as baseHttpTransport,
  SessionExpiredError,
  type ClientTransport,
} from "../../../generated/dual/client.js";
import { AuthorizationError, oauthClient } from "../../../runtime/auth/oauth-client.js";
import { INFO } from "../../helpers/client-fake.js";
import { withClientFetch } from "../../helpers/client-fetch.js";

/** The transport with the fetch the test file chose (test/helpers/client-fetch.ts). */
const httpTransport: typeof baseHttpTransport = (url, options) =>
  baseHttpTransport(url, withClientFetch(options));

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

interface Seen {
  method: string;
  body: Record<string, unknown> | undefined;
}

/** An HTTP server on loopback; counts the connections open at once (`peakSockets`). */
async function hostile(handle: (seen: Seen, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  let peakSockets = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const entry = {
        method: req.method!,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
      };
      seen.push(entry);
      handle(entry, res);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    peakSockets = Math.max(peakSockets, sockets.size);
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
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/mcp`, seen, peakSockets: () => peakSockets };
}

const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(200, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

/**
 * An initialize-era server (sessions "s1", "s2"…): refuses the modern probe, accepts notifications
 * and answers; `rest` handles everything else.
 */
function legacy(rest: (seen: Seen, res: ServerResponse) => void) {
  let sessions = 0;
  return (seen: Seen, res: ServerResponse) => {
    const rpc = seen.body?.method;
    if (rpc === "server/discover") {
      res.writeHead(400, { "Content-Type": "application/json" });
      return res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32000, message: "no session" },
        }),
      );
    }
    if (rpc === "initialize")
      return json(
        res,
        {
          jsonrpc: "2.0",
          id: seen.body!.id,
          result: {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "hostile", version: "1" },
          },
        },
        { "Mcp-Session-Id": `s${++sessions}` },
      );
    if (seen.method === "POST" && seen.body && !("method" in seen.body && "id" in seen.body)) {
      res.writeHead(202);
      return res.end();
    }
    if (seen.method === "DELETE") {
      res.writeHead(200);
      return res.end();
    }
    rest(seen, res);
  };
}

function client(transport: ClientTransport, options: Record<string, unknown> = {}) {
  const logs: string[] = [];
  const made = createClient({
    transport,
    info: INFO,
    log: (line: string) => logs.push(line),
    onDeprecated: () => undefined,
    ...options,
  });
  closers.push(() => made.close());
  return { mcp: made, logs };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition(), what).toBe(true);
}

const sse = (messages: unknown[], extra = "") =>
  extra + messages.map((m) => `data: ${JSON.stringify(m)}\n\n`).join("");

describe("a hostile initialize-era server", () => {
  it("answers at most maxServerRequests of a flood of pings at once: 2,000 pings do not open 2,000 sockets", async () => {
    const pings = Array.from({ length: 2000 }, (_, i) => ({
      jsonrpc: "2.0",
      id: `ping-${i}`,
      method: "ping",
    }));
    const server = await hostile(
      legacy((seen, res) => {
        if (seen.method === "GET") {
          res.writeHead(200, { "Content-Type": "text/event-stream" });
          return res.write(sse(pings));
        }
        if (seen.body?.method === "tools/list")
          return json(res, { jsonrpc: "2.0", id: seen.body.id, result: { tools: [] } });
        // The answers to the pings, held a while as a slow server would.
        setTimeout(() => (res.writeHead(202), res.end()), 200);
      }),
    );
    const { mcp, logs } = client(httpTransport(server.url, { maxServerRequests: 4 }));
    await mcp.listTools();
    await until(
      () => logs.some((l) => /dropping requests of the server's \(ping\): 4/.test(l)),
      "drops logged",
    );
    await until(() => server.seen.some((s) => String(s.body?.id).startsWith("ping-")), "answers");
    const answers = server.seen.filter((s) => String(s.body?.id).startsWith("ping-"));
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.length).toBeLessThan(2000);
    // The GET stream, the calls' connection, and the four answers.
    expect(server.peakSockets()).toBeLessThanOrEqual(4 + 3);
  });

  it("reopens a session the server ended once per call, and stops after sessionReopens in a row", async () => {
    const server = await hostile(
      legacy((seen, res) => {
        if (seen.method === "GET") {
          res.writeHead(405);
          return res.end();
        }
        res.writeHead(404);
        res.end();
      }),
    );
    const { mcp } = client(httpTransport(server.url), { sessionReopens: { max: 3 } });
    const failures: unknown[] = [];
    for (let i = 0; i < 10; i++) failures.push(await mcp.listTools().catch((e: unknown) => e));
    for (const failure of failures) expect(failure).toBeInstanceOf(SessionExpiredError);
    expect((failures.at(-1) as Error).message).toMatch(/ended 3 sessions in a row/);
    // The first session, then three reopened: not one per 404.
    expect(server.seen.filter((s) => s.body?.method === "initialize")).toHaveLength(1 + 3);
  });

  it("reconnects a stream that says `retry: 0` no sooner than the floor", async () => {
    let firstClosed = false;
    const server = await hostile(
      legacy((seen, res) => {
        if (seen.method === "GET") {
          res.on("close", () => (firstClosed = true));
          res.writeHead(200, { "Content-Type": "text/event-stream" });
          return res.end(
            sse(
              [{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }],
              "retry: 0\nid: 1\n",
            ),
          );
        }
        if (seen.body?.method === "tools/list")
          return json(res, { jsonrpc: "2.0", id: seen.body.id, result: { tools: [] } });
      }),
    );
    const { mcp } = client(httpTransport(server.url, { reconnect: { minDelayMs: 60_000 } }));
    await mcp.listTools();
    await until(() => firstClosed, "the stream was closed");
    await new Promise((r) => setTimeout(r, 300));
    expect(server.seen.filter((s) => s.method === "GET")).toHaveLength(1);
  });

  it("hands the input handler no more elicitations than inputRate allows, and answers the rest with an error", async () => {
    const asks = Array.from({ length: 200 }, (_, i) => ({
      jsonrpc: "2.0",
      id: `ask-${i}`,
      method: "elicitation/create",
      params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } },
    }));
    const server = await hostile(
      legacy((seen, res) => {
        if (seen.method === "GET") {
          res.writeHead(200, { "Content-Type": "text/event-stream" });
          return res.write(sse(asks));
        }
        if (seen.body?.method === "tools/list")
          return json(res, { jsonrpc: "2.0", id: seen.body.id, result: { tools: [] } });
        res.writeHead(202);
        res.end();
      }),
    );
    let calls = 0;
    const { mcp, logs } = client(httpTransport(server.url, { maxServerRequests: 1000 }), {
      onElicit: () => {
        calls++;
        return { action: "decline" };
      },
      inputRate: { burst: 5, perSecond: 0.001 },
    });
    await mcp.listTools();
    const answered = () => server.seen.filter((s) => String(s.body?.id).startsWith("ask-"));
    await until(() => answered().length === 200, "every elicitation answered");
    expect(calls).toBe(5);
    const refused = answered().filter((s) => s.body?.error);
    expect(refused).toHaveLength(195);
    expect(refused[0]!.body!.error).toMatchObject({ code: -32603 });
    expect(logs.filter((l) => /refusing input requests/.test(l))).toHaveLength(1);
  });
});

describe("the OAuth client against endless metadata", () => {
  it("stops reading a metadata body at maxResponseBytes and fails the step", async () => {
    let written = 0;
    const server = await hostile((_seen, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const piece = `{"pad":"${"x".repeat(64 * 1024)}",`;
      let stopped = false;
      res.on("close", () => (stopped = true));
      const pump = () => {
        // At most 300 MiB, the attack's size; the client should stop it long before.
        while (!stopped && written < 300 * 1024 * 1024) {
          written += piece.length;
          if (!res.write(piece)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    });
    const origin = new URL(server.url).origin;
    const authorization = oauthClient({
      redirectUri: "http://127.0.0.1:1/callback",
      authorize: () => Promise.reject(new Error("not reached")),
      maxResponseBytes: 256 * 1024,
    });
    const failure = await authorization
      .refused(
        {
          url: server.url,
          status: 401,
          challenge: `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          attempt: 1,
          sent: undefined,
        },
        new AbortController().signal,
      )
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AuthorizationError);
    expect((failure as AuthorizationError).reason).toBe("resource_metadata");
    expect((failure as Error).message).toMatch(/answered more than 262144 bytes/);
    // What the server managed to write before the client hung up: socket buffers, not 300 MiB.
    await until(() => written > 0, "the server wrote");
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });

  it("refuses a declared Content-Length over the cap without reading the body", async () => {
    const server = await hostile((_seen, res) => {
      res.writeHead(200, {
        "Content-Type": "application/json",
        "Content-Length": String(10 * 1024 * 1024),
      });
      res.write("{");
    });
    const origin = new URL(server.url).origin;
    const authorization = oauthClient({
      redirectUri: "http://127.0.0.1:1/callback",
      authorize: () => Promise.reject(new Error("not reached")),
    });
    const failure = await authorization
      .refused(
        {
          url: server.url,
          status: 401,
          challenge: `Bearer resource_metadata="${origin}/prm"`,
          attempt: 1,
          sent: undefined,
        },
        new AbortController().signal,
      )
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AuthorizationError);
    expect((failure as Error).message).toMatch(/answered more than 1048576 bytes/);
  });
});
