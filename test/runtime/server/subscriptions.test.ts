/**
 * subscriptions/listen over every transport: the acknowledgement with the honoured filter, tagged
 * notifications, several subscriptions, close() ending them, invalid params, and the method
 * missing without a listChanged/subscribe capability.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SERVER_INFO,
  SUBSCRIPTION_ID,
  TRANSPORTS,
  connect,
  until,
  type Msg,
  type Peer,
} from "../../helpers/server-harness.js";
import {
  INFO,
  REVISION,
  call,
  makeFixture,
  meta,
  rpc,
  type Fixture,
} from "../../helpers/server-fixture.js";

// ---------------------------------------------------------------------------
// subscriptions/listen
// ---------------------------------------------------------------------------

const ACK = "notifications/subscriptions/acknowledged";

for (const transport of TRANSPORTS) {
  describe(`subscriptions/listen over ${transport}`, () => {
    let fixture: Fixture;
    let peer: Peer;
    beforeAll(async () => {
      fixture = makeFixture();
      peer = await connect(transport, fixture.server, { protocolVersion: REVISION });
    });
    afterAll(async () => {
      fixture.server.close();
      await peer.close();
    });

    const listen = (id: string | number, notifications: Msg): Msg =>
      rpc("subscriptions/listen", { notifications }, id);
    const published = (method: string, params?: Msg): number =>
      fixture.server.publish(params ? { method, params } : { method });

    it("acks first with the honoured filter, tags every notification, honours the filter, ends when the client goes away", async () => {
      const stream = await peer.open(
        listen("sub-1", {
          toolsListChanged: true,
          promptsListChanged: false,
          resourcesListChanged: true,
          resourceSubscriptions: ["test://a"],
        }),
      );
      if (transport === "http") {
        expect(stream.status).toBe(200);
        expect(stream.contentType).toBe("text/event-stream");
      }
      // resourcesListChanged is not honoured: resources.listChanged is not declared.
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        method: ACK,
        params: {
          notifications: { toolsListChanged: true, resourceSubscriptions: ["test://a"] },
          _meta: { [SUBSCRIPTION_ID]: "sub-1" },
        },
      });

      expect(published("notifications/prompts/list_changed")).toBe(0);
      expect(published("notifications/resources/list_changed")).toBe(0);
      expect(published("notifications/resources/updated", { uri: "test://b" })).toBe(0);
      expect(published("notifications/tools/list_changed")).toBe(1);
      expect(published("notifications/resources/updated", { uri: "test://a" })).toBe(1);
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { [SUBSCRIPTION_ID]: "sub-1" } },
      });
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri: "test://a", _meta: { [SUBSCRIPTION_ID]: "sub-1" } },
      });
      // Nothing unrequested slipped in, and the request is still open.
      expect(await stream.drain(50)).toEqual([]);

      // A request-scoped notification on another request does not reach the stream.
      const progress = await peer.send(
        call("progress", { _meta: meta(undefined, { progressToken: "p" }) }),
      );
      expect(progress.notifications).toHaveLength(3);
      expect(await stream.drain(20)).toEqual([]);

      await stream.cancel();
      expect(await stream.ended()).toBe(true);
      await until(
        () => published("notifications/tools/list_changed") === 0,
        "the subscription to be dropped",
      );
      if (transport === "stdio") {
        // An abrupt end carries no response.
        const after = await peer.send(rpc("server/discover"));
        expect(after.response?.result).toBeDefined();
        expect(after.messages.filter((m) => m.id === "sub-1")).toEqual([]);
      }
    });

    it("two subscriptions get their own ids; each only what it asked for", async () => {
      const tools = await peer.open(listen(101, { toolsListChanged: true }));
      const prompts = await peer.open(listen(102, { promptsListChanged: true }));
      expect((await tools.next())?.params).toEqual({
        notifications: { toolsListChanged: true },
        _meta: { [SUBSCRIPTION_ID]: 101 },
      });
      expect((await prompts.next())?.params).toEqual({
        notifications: { promptsListChanged: true },
        _meta: { [SUBSCRIPTION_ID]: 102 },
      });
      expect(published("notifications/prompts/list_changed")).toBe(1);
      expect(published("notifications/tools/list_changed")).toBe(1);
      expect(await prompts.next()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/prompts/list_changed",
        params: { _meta: { [SUBSCRIPTION_ID]: 102 } },
      });
      expect(await tools.next()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { [SUBSCRIPTION_ID]: 101 } },
      });
      expect(await tools.drain(30)).toEqual([]);
      expect(await prompts.drain(0)).toEqual([]);
      await tools.cancel();
      await prompts.cancel();
      await until(
        () =>
          published("notifications/tools/list_changed") +
            published("notifications/prompts/list_changed") ===
          0,
        "both to end",
      );
    });

    it("close() ends open subscriptions gracefully: a complete result tagged with the subscription id", async () => {
      const stream = await peer.open(listen("sub-close", { toolsListChanged: true }));
      expect((await stream.next())?.method).toBe(ACK);
      fixture.server.close();
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        id: "sub-close",
        result: {
          resultType: "complete",
          _meta: { [SERVER_INFO]: INFO, [SUBSCRIPTION_ID]: "sub-close" },
        },
      });
      expect(await stream.next()).toBeUndefined();
      expect(await stream.ended()).toBe(true);
      expect(published("notifications/tools/list_changed")).toBe(0);
      // The server goes on serving other requests.
      expect((await peer.send(rpc("server/discover"))).response?.result?.resultType).toBe(
        "complete",
      );
    });

    it("after close(), a new listen is acknowledged and ended at once (close stops accepting new ones)", async () => {
      fixture.server.close();
      const stream = await peer.open(listen("sub-late", { promptsListChanged: true }));
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        method: ACK,
        params: {
          notifications: { promptsListChanged: true },
          _meta: { [SUBSCRIPTION_ID]: "sub-late" },
        },
      });
      expect(await stream.next()).toEqual({
        jsonrpc: "2.0",
        id: "sub-late",
        result: {
          resultType: "complete",
          _meta: { [SERVER_INFO]: INFO, [SUBSCRIPTION_ID]: "sub-late" },
        },
      });
      expect(await stream.ended()).toBe(true);
      expect(published("notifications/prompts/list_changed")).toBe(0);
    });

    it("invalid listen params → -32602", async () => {
      const bad = await peer.send(
        rpc("subscriptions/listen", { notifications: { toolsListChanged: "yes" } }),
      );
      expect(bad.response?.error).toEqual({
        code: -32602,
        message: "Invalid params: /notifications/toolsListChanged must be boolean",
        data: { path: "/notifications/toolsListChanged" },
      });
      if (transport !== "stdio") expect(bad.status).toBe(400);
    });

    it("without a listChanged/subscribe capability, subscriptions/listen → -32601", async () => {
      const plain = makeFixture({ capabilities: { tools: {}, prompts: {}, resources: {} } });
      const other = await connect(transport, plain.server, { protocolVersion: REVISION });
      try {
        const answer = await other.send(
          rpc("subscriptions/listen", { notifications: { toolsListChanged: true } }),
        );
        expect(answer.response?.error).toEqual({
          code: -32601,
          message: "Method not found: subscriptions/listen",
        });
        if (transport !== "stdio") expect(answer.status).toBe(404);
      } finally {
        await other.close();
      }
    });
  });
}
