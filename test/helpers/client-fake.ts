/**
 * A scripted in-memory `ClientTransport` for the client tests: each request is answered by a
 * function of the message (a result, an error, or a thrown error), and everything sent is recorded.
 */
import type {
  ClientTransport,
  TransportRequestOptions,
} from "../../generated/2026-07-28/client.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Msg = Record<string, any>;

export interface Sent {
  message: Msg;
  headers: Record<string, string>;
  progressToken: string | number | undefined;
}

export type Answer = { result: Msg } | { error: { code: number; message: string; data?: unknown } };

export interface FakeTransport extends ClientTransport {
  sent: Sent[];
  notified: Msg[];
  closed: boolean;
}

export function fakeTransport(
  answer: (
    message: Msg,
    options: TransportRequestOptions,
    index: number,
  ) => Answer | Promise<Answer>,
  flags: { mirrorsHeaders?: boolean; probes?: boolean; cancelsByNotification?: boolean } = {},
): FakeTransport {
  const transport: FakeTransport = {
    ...flags,
    sent: [],
    notified: [],
    closed: false,
    async request(message, options) {
      transport.sent.push({
        message: structuredClone(message) as Msg,
        headers: { ...options.headers },
        progressToken: options.progressToken,
      });
      const answered = await answer(message as Msg, options, transport.sent.length - 1);
      return { jsonrpc: "2.0", id: message.id, ...answered } as never;
    },
    async notify(message) {
      transport.notified.push(message as Msg);
    },
    async close() {
      transport.closed = true;
    },
  };
  return transport;
}

/** Valid 2026-07-28 results, as a server would send them (resultType left out: the client fills it). */
export const results = {
  tools: (tools: Msg[], nextCursor?: string): Msg => ({
    tools,
    ttlMs: 0,
    cacheScope: "private",
    ...(nextCursor ? { nextCursor } : {}),
  }),
  tool: (name: string, properties: Msg = {}): Msg => ({
    name,
    inputSchema: { type: "object", properties },
  }),
  call: (text = "ok"): Msg => ({ content: [{ type: "text", text }] }),
  discover: (supportedVersions = ["2026-07-28"]): Msg => ({
    supportedVersions,
    capabilities: {},
    ttlMs: 0,
    cacheScope: "public",
  }),
};

export const INFO = { name: "client-test", version: "1.0.0" };
export const PV = "io.modelcontextprotocol/protocolVersion";
export const CC = "io.modelcontextprotocol/clientCapabilities";
export const CI = "io.modelcontextprotocol/clientInfo";
