/**
 * The Streamable HTTP transport under load and abuse: admission control (requests and bytes in
 * flight, per server and per connection), rejected requests that close instead of reading an
 * unbounded body, and the Origin check independent of `allowedHosts`. Loopback, port 0, bounded.
 */
import { afterEach, describe, expect, it } from "vitest";
import { connect as netConnect, type Socket } from "node:net";
import { request as httpRequest } from "node:http";
import type { HttpServerHandle, ServeHttpOptions } from "../../../runtime/server/http/index.js";
import { httpPath, serveOn } from "../../helpers/http-paths.js";
import { success } from "../../../runtime/shared/jsonrpc.js";
import type { JsonRpcRequest } from "../../../runtime/shared/jsonrpc.js";
import type { MessageHandler, Outcome } from "../../../runtime/server/transport.js";
import { RULES } from "../../helpers/http-wire.js";

const MiB = 1024 * 1024;

/** Answers `hold` once released, anything else at once. */
class GatedHandler implements MessageHandler {
  seen = 0;
  logs: string[] = [];
  private waiting: Array<() => void> = [];
  log(message: string): void {
    this.logs.push(message);
  }
  release(): void {
    for (const wake of this.waiting.splice(0)) wake();
  }
  async handle(message: unknown): Promise<Outcome> {
    const request = message as JsonRpcRequest;
    this.seen++;
    if (request.method === "hold") await new Promise<void>((resolve) => this.waiting.push(resolve));
    return { response: success(request.id, { method: request.method }), httpStatus: 200 };
  }
}

let handle: HttpServerHandle | undefined;
afterEach(async () => {
  await handle?.close(0);
  handle = undefined;
});

async function serve(
  handler: MessageHandler,
  options: Omit<ServeHttpOptions, "port"> = {},
): Promise<HttpServerHandle> {
  handle = await serveOn(handler, { port: 0, headerRules: RULES, ...options });
  return handle;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
  agent?: boolean,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        agent: agent === false ? false : undefined,
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const message = (id: number, method = "ping", pad = 0) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params: pad > 0 ? { pad: "x".repeat(pad) } : {} });

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++)
    await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

describe("HTTP admission control", () => {
  it("past maxRequestsInFlight: 503 with Retry-After at once; what was admitted is served", async () => {
    const handler = new GatedHandler();
    const { url } = await serve(handler, { maxRequestsInFlight: 2, retryAfterSeconds: 7 });
    const held = [post(url, message(1, "hold")), post(url, message(2, "hold"))];
    await until(() => handler.seen === 2, "two held requests");
    const refused = await post(url, message(3));
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("7");
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: "Server busy: the server has too many requests in flight; retry later",
      },
    });
    expect(handler.seen).toBe(2);
    handler.release();
    for (const answer of await Promise.all(held)) expect(answer.status).toBe(200);
    // Their slots are given back once they are answered.
    expect((await post(url, message(4))).status).toBe(200);
  });

  it("past maxBytesInFlight: a declared body that does not fit is refused (503) before it is read", async () => {
    const handler = new GatedHandler();
    const { url } = await serve(handler, { maxBytesInFlight: 1000 });
    const held = post(url, message(1, "hold", 500));
    await until(() => handler.seen === 1, "the held request");
    const refused = await post(url, message(2, "ping", 600));
    expect(refused.status).toBe(503);
    // Closing the connection is `node:http`'s to do: a fetch handler has no connection (its host
    // decides what becomes of the unread body).
    if (httpPath() === "node") expect(refused.headers["connection"]).toBe("close");
    // A small one still fits.
    expect((await post(url, message(3))).status).toBe(200);
    handler.release();
    expect((await held).status).toBe(200);
    expect((await post(url, message(4, "ping", 600))).status).toBe(200);
  });

  it("per connection: 429 with Retry-After when one connection holds too many bytes", async () => {
    const handler = new GatedHandler();
    const { url } = await serve(handler, { maxBytesPerConnection: 300 });
    const refused = await post(url, message(1, "ping", 400));
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(JSON.parse(refused.body).error.code).toBe(-32000);
    expect((await post(url, message(2))).status).toBe(200);
  });

  it("a chunked body is admitted as it arrives: past the budget it is refused mid-stream", async () => {
    const handler = new GatedHandler();
    const { url } = await serve(handler, { maxBytesInFlight: 4096 });
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: "POST",
          headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
          );
        },
      );
      req.on("error", reject);
      req.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`);
      for (let i = 0; i < 4; i++) req.write("x".repeat(2048));
      req.end(`"}}`);
    });
    expect(answer.status).toBe(503);
    expect(handler.seen).toBe(0);
    expect((await post(url, message(2))).status).toBe(200);
  });

  it("rejects limits that are not positive integers", async () => {
    await expect(serve(new GatedHandler(), { maxBytesInFlight: -1 })).rejects.toThrow(
      /maxBytesInFlight must be a positive integer/,
    );
  });
});

// What becomes of a refused request's connection is `node:http`'s: a fetch handler has none.
describe.runIf(httpPath() === "node")("rejected requests do not read their bodies", () => {
  /**
   * Sends headers announcing a 256 MiB body, then writes it in 1 MiB chunks for as long as the
   * server reads; resolves with the status line and how many MiB were written before the server
   * closed the connection (the loop stops at 64 MiB).
   */
  function upload(
    port: number,
    head: string,
  ): Promise<{ statusLine: string; closedAfterMiB: number }> {
    return new Promise((resolve) => {
      const socket: Socket = netConnect(port, "127.0.0.1");
      let received = "";
      let written = 0;
      let closed = false;
      const chunk = Buffer.alloc(MiB, 0x20);
      socket.on("data", (data) => (received += data.toString("latin1")));
      const finish = () => {
        if (closed) return;
        closed = true;
        resolve({ statusLine: received.split("\r\n")[0] ?? "", closedAfterMiB: written });
      };
      socket.on("close", finish);
      socket.on("error", finish);
      socket.write(`${head}Content-Length: ${256 * MiB}\r\n\r\n`);
      const pump = () => {
        while (!closed && written < 64) {
          written++;
          if (!socket.write(chunk)) return void socket.once("drain", pump);
        }
        if (!closed) {
          // Never closed: the server read 64 MiB of a body it had refused.
          resolve({ statusLine: received.split("\r\n")[0] ?? "", closedAfterMiB: written });
          socket.destroy();
        }
      };
      pump();
    });
  }

  const cases = [
    {
      status: 403,
      head: (port: number) =>
        `POST /mcp HTTP/1.1\r\nHost: evil.example:${port}\r\nContent-Type: application/json\r\n`,
    },
    {
      status: 404,
      head: (port: number) =>
        `POST /elsewhere HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\n`,
    },
    {
      status: 415,
      head: (port: number) =>
        `POST /mcp HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: text/plain\r\n`,
    },
    {
      status: 413,
      head: (port: number) =>
        `POST /mcp HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\n`,
    },
  ];
  for (const { status, head } of cases) {
    it(`${status}: answered at once with Connection: close, and the connection closes long before 64 MiB`, async () => {
      const { port } = await serve(new GatedHandler());
      const result = await upload(port, head(port));
      expect(result.statusLine).toBe(
        `HTTP/1.1 ${status} ${{ 403: "Forbidden", 404: "Not Found", 415: "Unsupported Media Type", 413: "Payload Too Large" }[status]}`,
      );
      expect(result.closedAfterMiB).toBeLessThan(64);
    });
  }

  it("a rejected request without a body keeps its connection", async () => {
    const { url } = await serve(new GatedHandler());
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(url, { method: "GET" }, (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: "" }),
        );
      });
      req.on("error", reject);
      req.end();
    });
    expect(answer.status).toBe(405);
    expect(answer.headers["connection"]).not.toBe("close");
  });
});

describe("Origin checking is independent of allowedHosts", () => {
  it('allowedHosts ["*"] accepts any Host, but a foreign Origin is still refused', async () => {
    const { url, port } = await serve(new GatedHandler(), { allowedHosts: ["*"] });
    expect((await post(url, message(1), { Host: `anything.example:${port}` })).status).toBe(200);
    const foreign = await post(url, message(2), {
      Host: `anything.example:${port}`,
      Origin: "https://evil.example",
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toBe("Forbidden: Origin header not allowed");
    expect((await post(url, message(3), { Origin: `http://localhost:${port}` })).status).toBe(200);
  });

  it('named hosts are the default origins; allowedOrigins ["*"] opens them explicitly', async () => {
    const named = await serve(new GatedHandler(), { allowedHosts: ["app.example"] });
    expect(
      (await post(named.url, message(1), { Host: "app.example", Origin: "https://app.example" }))
        .status,
    ).toBe(200);
    expect(
      (await post(named.url, message(2), { Host: "app.example", Origin: "https://evil.example" }))
        .status,
    ).toBe(403);
    await named.close(0);
    const open = await serve(new GatedHandler(), { allowedHosts: ["*"], allowedOrigins: ["*"] });
    expect(
      (await post(open.url, message(3), { Host: "x.example", Origin: "https://evil.example" }))
        .status,
    ).toBe(200);
  });
});
