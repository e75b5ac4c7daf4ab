/**
 * The generated client reports a deprecated feature once, the first time it is used on the wire:
 * a deprecated input request answered with a deprecated capability, a deprecated `_meta` key sent,
 * a deprecated notification received. Declaring a deprecated capability alone reports nothing.
 */
import { describe, expect, it } from "vitest";
import { createClient } from "../../../generated/2026-07-28/client.js";
import { INFO, fakeTransport, results, type Answer, type Msg } from "../../helpers/client-fake.js";
import { Deprecations } from "../../../generated/2026-07-28/runtime/client/deprecations.js";

const ok = (result: Msg): Answer => ({ result });
const sample = { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } };
const sampled = { role: "assistant", content: { type: "text", text: "hi" }, model: "m" };

describe("deprecation reports of the generated client", () => {
  it("reports a deprecated input request and the deprecated capability it uses, once", async () => {
    const notices: string[] = [];
    const transport = fakeTransport((message) =>
      message.params.inputResponses
        ? ok(results.call())
        : ok({ resultType: "input_required", inputRequests: { s: sample } }),
    );
    const client = createClient({
      transport,
      info: INFO,
      onSample: () => sampled as never,
      onDeprecated: (n) => notices.push(n),
    });
    await client.callTool({ name: "a" });
    await client.callTool({ name: "b" });
    expect(notices.map((n) => n.split(" ")[0])).toEqual([
      "CreateMessageRequest",
      "ClientCapabilities.sampling",
    ]);
  });

  it("reports nothing when a deprecated capability is only declared", async () => {
    const notices: string[] = [];
    const client = createClient({
      transport: fakeTransport(() => ok(results.call())),
      info: INFO,
      onSample: () => sampled as never,
      onDeprecated: (n) => notices.push(n),
    });
    await client.callTool({ name: "a" });
    expect(notices).toEqual([]);
  });

  it("reports a deprecated _meta key it sends", async () => {
    const notices: string[] = [];
    const client = createClient({
      transport: fakeTransport(() => ok(results.call())),
      info: INFO,
      onDeprecated: (n) => notices.push(n),
    });
    await client.callTool({
      name: "a",
      _meta: { "io.modelcontextprotocol/logLevel": "info" },
    } as never);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^RequestMetaObject\.io\.modelcontextprotocol\/logLevel is deprecated \(as of 2026-07-28, SEP-2577\)/,
    );
  });

  it("reports a deprecated notification it receives, through the log when no hook is given", async () => {
    const lines: string[] = [];
    const transport = fakeTransport((_message, options) => {
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "x" },
      });
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "y" },
      });
      return ok(results.call());
    });
    const client = createClient({ transport, info: INFO, log: (line) => lines.push(line) });
    await client.callTool({ name: "a" });
    expect(
      lines.filter((l) =>
        l.startsWith("mcp client: deprecated feature used: LoggingMessageNotification"),
      ),
    ).toHaveLength(1);
  });
});

describe("notices follow the era of the connection", () => {
  it("reports nothing while the connection is on a legacy session, and reports it once the server is modern", () => {
    const notices: string[] = [];
    let legacy = true;
    const deprecations = new Deprecations(
      (n) => notices.push(n),
      () => undefined,
      () => legacy,
    );
    deprecations.report("X is deprecated");
    expect(notices).toEqual([]);
    legacy = false;
    deprecations.report("X is deprecated");
    deprecations.report("X is deprecated");
    expect(notices).toEqual(["X is deprecated"]);
  });
});
