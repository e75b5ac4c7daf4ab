/**
 * Cancellation and long-lived streams over Streamable HTTP: the request's signal aborts when the
 * client goes away, subscriptions/listen streams receive later notifications, keep-alive comments,
 * many streams at once.
 */
import { describe, expect, it } from "vitest";
import { isRecord, success } from "../../../runtime/shared/jsonrpc.js";
import type { JsonRpcNotification } from "../../../runtime/shared/jsonrpc.js";
import { FakeDispatcher, httpFixture, sleep } from "../../helpers/http-fake-dispatcher.js";
import { parseSse, post, rpc, sseReader } from "../../helpers/http-wire.js";
import { until } from "../../helpers/server-harness.js";

describe("Streamable HTTP transport", () => {
  const http = httpFixture();

  describe("cancellation and long-lived streams", () => {
    it("aborts the request's signal when the client disconnects before the response", async () => {
      const controller = new AbortController();
      const pending = post(
        http.url,
        rpc("tools/call", { name: "slow" }),
        {},
        { signal: controller.signal },
      );
      await until(
        () =>
          http.dispatcher.received.some(
            (m) =>
              isRecord(m) &&
              (m["params"] as Record<string, unknown> | undefined)?.["name"] === "slow",
          ),
        "the slow call",
      );
      const before = http.dispatcher.aborted.length;
      controller.abort();
      await expect(pending).rejects.toThrow();
      await until(() => http.dispatcher.aborted.length > before, "the signal to abort");
      expect(http.dispatcher.aborted.at(-1)).toMatch(/^slow:.*disconnected/);
    });

    it("aborts the signal when the client closes an SSE stream; later notifies and the response are dropped", async () => {
      const res = await post(http.url, rpc("tools/call", { name: "slow-progress" }));
      const reader = sseReader(res);
      expect((await reader.next())?.["method"]).toBe("notifications/progress");
      await reader.cancel();
      await until(
        () => http.dispatcher.aborted.includes("slow-progress"),
        "the stream's signal to abort",
      );
      // the server is unaffected
      expect((await post(http.url, rpc("tools/call", { name: "echo" }))).status).toBe(200);
    });

    it("a subscriptions/listen stream receives notifications pushed later and ends when the outcome resolves", async () => {
      const body = rpc("subscriptions/listen", { notifications: { toolsListChanged: true } });
      const res = await post(http.url, body);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const reader = sseReader(res);
      expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");

      await until(
        () => http.dispatcher.listens.some((l) => l.id === body["id"]),
        "the listen to register",
      );
      const listen = http.dispatcher.listens.find((l) => l.id === body["id"])!;
      const changed: JsonRpcNotification = {
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { "io.modelcontextprotocol/subscriptionId": listen.id } },
      };
      setTimeout(() => listen.delivery.notify(changed), 100);
      expect(await reader.next()).toEqual(changed);
      setTimeout(
        () => listen.delivery.notify({ ...changed, method: "notifications/prompts/list_changed" }),
        50,
      );
      expect((await reader.next())?.["method"]).toBe("notifications/prompts/list_changed");

      // graceful closure: the final response, then the end of the stream
      listen.end(success(listen.id, { resultType: "complete" }));
      expect(await reader.next()).toEqual({
        jsonrpc: "2.0",
        id: listen.id,
        result: { resultType: "complete" },
      });
      expect(await reader.next()).toBeUndefined();
    });

    it("a null outcome ends a stream without a final message", async () => {
      const body = rpc("subscriptions/listen");
      const res = await post(http.url, body);
      const reader = sseReader(res);
      expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");
      await until(
        () => http.dispatcher.listens.some((l) => l.id === body["id"]),
        "the listen to register",
      );
      http.dispatcher.listens.find((l) => l.id === body["id"])!.end(null);
      expect(await reader.next()).toBeUndefined();
    });

    it("closing a listen stream from the client aborts it", async () => {
      const body = rpc("subscriptions/listen");
      const res = await post(http.url, body);
      const reader = sseReader(res);
      expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");
      await reader.cancel();
      await until(
        () => http.dispatcher.aborted.includes(`listen:${String(body["id"])}`),
        "the listen to abort",
      );
    });

    it("sends keep-alive comments on quiet streams", async () => {
      const fake = new FakeDispatcher();
      const chatty = await http.start({ keepAliveMs: 30 }, fake);
      const body = rpc("subscriptions/listen");
      const res = await post(chatty.url, body);
      await until(() => fake.listens.length === 1, "the listen to register");
      await sleep(150);
      fake.listens[0]!.end(null);
      const { messages, comments } = parseSse(await res.text());
      expect(messages).toHaveLength(1);
      expect(comments).toBeGreaterThanOrEqual(2);
    });

    it("serves many concurrent long-lived streams alongside ordinary requests", async () => {
      const fake = new FakeDispatcher();
      const busy = await http.start({}, fake);
      const readers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) =>
          sseReader(await post(busy.url, rpc("subscriptions/listen", {}, `s${i}`))),
        ),
      );
      for (const reader of readers)
        expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => post(busy.url, rpc("tools/call", { name: "echo" }))),
      );
      expect(responses.every((r) => r.status === 200)).toBe(true);
      for (const listen of fake.listens)
        listen.delivery.notify({
          jsonrpc: "2.0",
          method: "notifications/tools/list_changed",
          params: { _meta: { "io.modelcontextprotocol/subscriptionId": listen.id } },
        });
      for (const [i, reader] of readers.entries()) {
        const message = await reader.next();
        expect(
          (message?.["params"] as { _meta: Record<string, unknown> })._meta[
            "io.modelcontextprotocol/subscriptionId"
          ],
        ).toBe(`s${i}`);
      }
      for (const listen of fake.listens) listen.end(null);
      for (const reader of readers) expect(await reader.next()).toBeUndefined();
    });
  });
});
