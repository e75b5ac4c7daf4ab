/**
 * The wire of the generated 2026-07-28 client (`runtime/client/send.ts`, with the request `_meta`
 * of `rounds.ts`), over a scripted in-memory transport: request metadata and headers, ids, progress,
 * abort, timeouts and cancellation notifications.
 */
import { describe, expect, it } from "vitest";
import { createClient, TimeoutError } from "../../../generated/2026-07-28/client.js";
import {
  CC,
  CI,
  INFO,
  PV,
  fakeTransport,
  results,
  type Answer,
  type Msg,
} from "../../helpers/client-fake.js";

const ok = (result: Msg): Answer => ({ result });

describe("requests", () => {
  it("adds the request _meta and headers, and uses a fresh id for every request", async () => {
    const transport = fakeTransport(() => ok(results.call()));
    const client = createClient({ transport, info: INFO, onElicit: () => ({ action: "cancel" }) });
    await client.callTool({ name: "a" });
    await client.callTool({ name: "a" });
    const [first, second] = transport.sent;
    expect(first!.message.params._meta).toEqual({
      [PV]: "2026-07-28",
      [CC]: { elicitation: {} },
      [CI]: INFO,
    });
    expect(first!.message.id).not.toBe(second!.message.id);
    expect(first!.headers).toEqual({
      "Mcp-Method": "tools/call",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Name": "a",
    });
  });

  it("declares the capabilities given instead of the derived ones", async () => {
    const transport = fakeTransport(() => ok(results.tools([])));
    const client = createClient({ transport, info: INFO, capabilities: { roots: {} } });
    await client.listTools();
    expect(transport.sent[0]!.message.params._meta[CC]).toEqual({ roots: {} });
  });

  it("adds a progress token only when onProgress is given, and delivers matching progress", async () => {
    const seen: Msg[] = [];
    const transport = fakeTransport((message, options) => {
      const token = message.params._meta.progressToken;
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "other", progress: 1 },
      });
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: token, progress: 50, total: 100 },
      });
      return ok(results.call());
    });
    const client = createClient({ transport, info: INFO });
    await client.callTool({ name: "a" });
    expect(transport.sent[0]!.message.params._meta.progressToken).toBeUndefined();
    await client.callTool({ name: "a" }, { onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([
      {
        progressToken: transport.sent[1]!.message.params._meta.progressToken,
        progress: 50,
        total: 100,
      },
    ]);
  });

  it("sends Mcp-Name for resources/read verbatim", async () => {
    const transport = fakeTransport(() => ok({ contents: [], ttlMs: 0, cacheScope: "private" }));
    const client = createClient({ transport, info: INFO });
    await client.readResource({ uri: "file:///path/to/file%20name.txt" });
    expect(transport.sent[0]!.headers["Mcp-Name"]).toBe("file:///path/to/file%20name.txt");
  });
});

describe("cancellation and timeouts", () => {
  it("rejects with the abort reason when the signal aborts", async () => {
    const client = createClient({
      transport: fakeTransport(() => new Promise<Answer>(() => {})),
      info: INFO,
    });
    const controller = new AbortController();
    const call = client.callTool({ name: "a" }, { signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
  });

  it("times out", async () => {
    const client = createClient({
      transport: fakeTransport(() => new Promise<Answer>(() => {})),
      info: INFO,
    });
    await expect(client.callTool({ name: "a" }, { timeoutMs: 20 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
  });

  it("closing the client fails every call still running, through the one listener the caller holds", async () => {
    const client = createClient({
      transport: fakeTransport(() => new Promise<Answer>(() => {})),
      info: INFO,
    });
    const calls = [client.callTool({ name: "a" }), client.callTool({ name: "b" })];
    // Let both reach the transport before the client closes.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await client.close();
    for (const call of calls) await expect(call).rejects.toThrow("the client was closed");
  });

  it("a call made after the client closed fails at once", async () => {
    const client = createClient({ transport: fakeTransport(() => ok(results.call())), info: INFO });
    await client.close();
    await expect(client.callTool({ name: "a" })).rejects.toThrow("closed");
  });

  it("sends a cancellation notification on transports that cancel by message", async () => {
    const transport = fakeTransport(() => new Promise<Answer>(() => {}), {
      cancelsByNotification: true,
    });
    const client = createClient({ transport, info: INFO });
    await expect(client.callTool({ name: "a" }, { timeoutMs: 10 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(transport.notified[0]).toMatchObject({
      method: "notifications/cancelled",
      params: { requestId: transport.sent[0]!.message.id },
    });
  });
});
