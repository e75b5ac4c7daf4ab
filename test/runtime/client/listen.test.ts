/**
 * Listen streams of the generated 2026-07-28 client (`runtime/client/listen.ts`), over a scripted
 * in-memory transport.
 */
import { describe, expect, it } from "vitest";
import { createClient } from "../../../generated/2026-07-28/client.js";
import { INFO, fakeTransport, type Answer, type Msg } from "../../helpers/client-fake.js";

const ok = (result: Msg): Answer => ({ result });

describe("listen", () => {
  it("iterates the notifications of a subscription, acknowledgement apart", async () => {
    const transport = fakeTransport((message, options) => {
      const tag = { _meta: { "io.modelcontextprotocol/subscriptionId": message.id } };
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { notifications: { toolsListChanged: true }, ...tag },
      });
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: tag,
      });
      options.onNotification({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "not for the stream" },
      });
      return ok(tag);
    });
    const other: Msg[] = [];
    const client = createClient({ transport, info: INFO, onNotification: (n) => other.push(n) });
    const stream = client.listen({ toolsListChanged: true });
    const got: string[] = [];
    for await (const notification of stream) got.push(notification.method);
    expect(got).toEqual(["notifications/tools/list_changed"]);
    expect(await stream.acknowledged).toMatchObject({ notifications: { toolsListChanged: true } });
    expect(other.map((n) => n.method)).toEqual(["notifications/message"]);
    expect(transport.sent[0]!.message.params.notifications).toEqual({ toolsListChanged: true });
  });
});
