/**
 * The generated client writes the handshake's params, reads the version the server chose and the
 * versions discovery lists, and writes and reads the cancellation's and progress notifications'
 * params by the revision's names (the description's `handshake`, `supportedVersionsField`,
 * `notificationParams`): a client generated from a schema renaming all of them still connects,
 * follows progress and cancels, under the new names.
 */
import { afterAll, describe, expect, it } from "vitest";
import { serverGenerator, type GeneratedServer } from "../../helpers/generated-server.js";
import { fakeTransport, INFO, results, type Answer, type Msg } from "../../helpers/client-fake.js";
import { RENAMED_FIELDS as n, renamedMessageFields } from "../../helpers/renamed-message-fields.js";

const generator = serverGenerator("mcp-gen-client-message-fields-");
afterAll(() => generator.dispose());

const generated = new Map<string, Promise<GeneratedServer>>();
function renamed(revision: "2025-11-25" | "2026-07-28"): Promise<GeneratedServer> {
  let found = generated.get(revision);
  if (!found) {
    found = generator.generate(renamedMessageFields(revision), revision);
    generated.set(revision, found);
  }
  return found;
}

type Client = Record<string, (...args: unknown[]) => Promise<unknown>>;
const clientOf = (g: GeneratedServer, options: Record<string, unknown>): Client =>
  (g.client["createClient"] as (o: unknown) => Client)({ info: INFO, ...options });

const ok = (result: Msg): Answer => ({ result });
const HANDSHAKE = { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: INFO };

describe("a client of an initialize-era revision renaming the handshake's and notifications' fields", () => {
  it("sends the handshake under the revision's names and reads the version the server chose", async () => {
    const g = await renamed("2025-11-25");
    const transport = fakeTransport((message) =>
      ok(message.method === "initialize" ? HANDSHAKE : results.call()),
    );
    await clientOf(g, { transport }).callTool!({ name: "a" });
    expect(transport.sent[0]!.message.params).toEqual({
      protocolVersion: "2025-11-25",
      [n.capabilities]: expect.any(Object),
      [n.clientInfo]: INFO,
    });
    expect(transport.sent[1]!.message.method).toBe("tools/call");
  });

  it("cancels with the request id and reason under the revision's names", async () => {
    const g = await renamed("2025-11-25");
    const transport = fakeTransport(
      (message) =>
        message.method === "initialize" ? ok(HANDSHAKE) : new Promise<Answer>(() => {}),
      { cancelsByNotification: true },
    );
    const call = clientOf(g, { transport }).callTool!({ name: "a" }, { timeoutMs: 10 });
    await expect(call).rejects.toThrow();
    const cancelled = transport.notified.find((m) => m.method === "notifications/cancelled");
    expect(cancelled?.params).toEqual({
      [n.requestId]: transport.sent[1]!.message.id,
      [n.reason]: expect.any(String),
    });
  });

  it("hands the call the progress naming its token under the revision's name", async () => {
    const g = await renamed("2025-11-25");
    const seen: Msg[] = [];
    const transport = fakeTransport((message, options) => {
      if (message.method === "initialize") return ok(HANDSHAKE);
      const token = message.params._meta.progressToken;
      for (const [ticket, progress] of [
        ["other", 1],
        [token, 2],
      ])
        options.onNotification({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { [n.progressToken]: ticket, progress },
        });
      return ok(results.call());
    });
    await clientOf(g, { transport }).callTool!(
      { name: "a" },
      { onProgress: (p: Msg) => seen.push(p) },
    );
    expect(seen.map((p) => p.progress)).toEqual([2]);
  });
});

describe("a client of a stateless revision renaming the discovery result's versions", () => {
  it("picks its version from the list under the revision's name", async () => {
    const g = await renamed("2026-07-28");
    const transport = fakeTransport(
      (message) => {
        if (message.method !== "server/discover") return ok(results.tools([]));
        const { supportedVersions, ...rest } = results.discover(["2099-01-01", "2026-07-28"]);
        return ok({ ...rest, [n.supportedVersions]: supportedVersions });
      },
      { probes: true },
    );
    await clientOf(g, { transport }).listTools!();
    expect(transport.sent.map((s) => s.message.method)).toEqual(["server/discover", "tools/list"]);
  });
});
