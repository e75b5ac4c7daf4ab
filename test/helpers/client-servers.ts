/**
 * Small loopback servers for the client transport tests: a raw `node:http` server answering each
 * POST with a scripted body (JSON or SSE), and a node script speaking stdio however a test wants.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface RawServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export type Reply = { status?: number; contentType?: string; body: string; hold?: boolean };

/** Answers every request with `reply(body, index)`; records method, url, headers and body. */
export async function rawServer(
  reply: (body: Record<string, unknown>, index: number) => Reply,
): Promise<RawServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      const answer = reply(body, requests.length - 1);
      res.writeHead(answer.status ?? 200, {
        "Content-Type": answer.contentType ?? "application/json",
      });
      if (answer.hold) res.write(answer.body);
      else res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const sse = (...messages: unknown[]): string =>
  messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join("");

/** A node program (for `node -e`) that answers stdio lines with `script(message, write)`. */
export function stdioScript(body: string): string[] {
  return [
    "-e",
    `const rl = require("node:readline").createInterface({ input: process.stdin });
     const write = (m) => process.stdout.write((typeof m === "string" ? m : JSON.stringify(m)) + "\\n");
     rl.on("line", (line) => { const message = JSON.parse(line); ${body} });`,
  ];
}
