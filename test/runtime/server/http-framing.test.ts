/**
 * How the Streamable HTTP transport frames messages: bodies into messages (bad JSON, byte order
 * marks, non-JSON-RPC values, notifications and responses), and answers into one JSON body or an
 * SSE stream (progress first, JSON-only and SSE-only clients, concurrency, handler failures).
 */
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { ErrorCode, failure, success } from "../../../runtime/shared/jsonrpc.js";
import type { JsonRpcId } from "../../../runtime/shared/jsonrpc.js";
import type { MessageHandler } from "../../../runtime/server/transport.js";
import { FakeDispatcher, httpFixture } from "../../helpers/http-fake-dispatcher.js";
import { PV, VERSION, errorOf, headersFor, parseSse, post, rpc } from "../../helpers/http-wire.js";
import type { RawResponse } from "../../helpers/http-wire.js";
import { until } from "../../helpers/server-harness.js";

describe("Streamable HTTP transport", () => {
  const http = httpFixture();

  describe("framing incoming messages", () => {
    it("400 with -32700 and no id for bad JSON, then a good request is still served", async () => {
      for (const body of [
        "{not json",
        "",
        '{"jsonrpc":"2.0","id":1,"method":"tools/call"',
        "\u00ff",
      ]) {
        const res = await fetch(http.url, { method: "POST", headers: headersFor({}), body });
        expect(res.status, body).toBe(400);
        const parsed = (await res.json()) as Record<string, unknown>;
        expect(errorOf(parsed).code).toBe(ErrorCode.ParseError);
        expect("id" in parsed).toBe(false);
      }
      const invalidUtf8 = await fetch(http.url, {
        method: "POST",
        headers: headersFor({}),
        body: new Uint8Array([0x7b, 0xff, 0x7d]),
      });
      expect(invalidUtf8.status).toBe(400);
      expect(errorOf(await invalidUtf8.json()).code).toBe(ErrorCode.ParseError);

      const good = await post(http.url, rpc("tools/call", { name: "echo" }));
      expect(good.status).toBe(200);
    });

    it("reads a body with a leading byte order mark, and U+FFFD written as valid UTF-8, in one chunk or many", async () => {
      const message = rpc("resources/read", { uri: "test://a\uFFFDb" });
      const bytes = Buffer.concat([
        Buffer.of(0xef, 0xbb, 0xbf),
        Buffer.from(JSON.stringify(message)),
      ]);
      // The header mirrors the URI in its Base64 form: U+FFFD cannot travel in a header as is.
      const headers = {
        ...headersFor({}),
        "Mcp-Method": "resources/read",
        "Mcp-Name": `=?base64?${Buffer.from("test://a\uFFFDb").toString("base64")}?=`,
      };
      const whole = await fetch(http.url, { method: "POST", headers, body: bytes });
      expect(whole.status).toBe(200);
      expect(
        ((await whole.json()) as { result: { contents: Array<{ uri: string }> } }).result
          .contents[0]!.uri,
      ).toBe("test://a\uFFFDb");
      // The same bytes in three chunks (a chunked upload), split inside a multi-byte character.
      const split = await new Promise<RawResponse>((resolve, reject) => {
        const req = httpRequest(http.url, { method: "POST", headers }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on("error", reject);
        const at = bytes.indexOf(0xbd) - 1;
        req.write(bytes.subarray(0, 2));
        req.write(bytes.subarray(2, at));
        req.end(bytes.subarray(at));
      });
      expect(split.status).toBe(200);
      expect(split.body).toContain("test://a\uFFFDb");
    });

    it("answers at once a handler that answers through handleRequest, and waits for one that returns a promise", async () => {
      const calls: string[] = [];
      const handler: MessageHandler = {
        handle: async () => ({ response: null, httpStatus: 202 }),
        handleRequest(request, delivery) {
          calls.push(request.method);
          if (request.method === "later")
            return Promise.resolve({
              response: success(request.id, { later: true }),
              httpStatus: 200,
            });
          // The delivery hands over the headers the request came with.
          expect(delivery.headers?.["content-type"]).toBe("application/json");
          return { response: success(request.id, { now: true }), httpStatus: 200 };
        },
      };
      const other = await http.start({}, handler);
      const now = await post(other.url, { jsonrpc: "2.0", id: 1, method: "now", params: {} });
      expect(await now.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { now: true } });
      const later = await post(other.url, { jsonrpc: "2.0", id: 2, method: "later", params: {} });
      expect(await later.json()).toEqual({ jsonrpc: "2.0", id: 2, result: { later: true } });
      expect(calls).toEqual(["now", "later"]);
    });

    it("streams a long notification and a long response (over 64 KiB) as whole events", async () => {
      const big = "z".repeat(200_000);
      const handler: MessageHandler = {
        handle: async () => ({ response: null, httpStatus: 202 }),
        handleRequest(request, delivery) {
          delivery.notify({
            jsonrpc: "2.0",
            method: "notifications/message",
            params: { level: "info", data: big },
          });
          return { response: success(request.id, { big }), httpStatus: 200 };
        },
      };
      const other = await http.start({}, handler);
      const res = await post(other.url, { jsonrpc: "2.0", id: 1, method: "long", params: {} });
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const { messages, events } = parseSse(await res.text());
      expect(events).toEqual(["message", "message"]);
      expect(messages).toEqual([
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: big } },
        { jsonrpc: "2.0", id: 1, result: { big } },
      ]);
    });

    it("400 with the classifier's error for JSON that is not a JSON-RPC message", async () => {
      const cases: Array<[unknown, JsonRpcId | undefined]> = [
        [{ jsonrpc: "2.0", id: 7 }, 7],
        [{ jsonrpc: "1.0", id: "a", method: "x" }, "a"],
        [[rpc("tools/list")], undefined],
        [42, undefined],
      ];
      for (const [body, id] of cases) {
        const res = await fetch(http.url, {
          method: "POST",
          headers: headersFor({}),
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(400);
        const parsed = (await res.json()) as Record<string, unknown>;
        expect(errorOf(parsed).code).toBe(ErrorCode.InvalidRequest);
        expect(parsed["id"]).toBe(id);
      }
    });

    it("hands notifications and responses to the dispatcher and answers 202 with no body", async () => {
      const cancelled = {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 3 },
      };
      const res = await post(http.url, cancelled);
      expect(res.status).toBe(202);
      expect(await res.text()).toBe("");
      expect(http.dispatcher.received).toContainEqual(cancelled);

      const response = { jsonrpc: "2.0", id: 99, result: {} };
      const res2 = await post(http.url, response);
      expect(res2.status).toBe(202);
      expect(await res2.text()).toBe("");
      expect(http.dispatcher.received).toContainEqual(response);
    });

    it("passes a notification rejected by the dispatcher through with its status", async () => {
      const rejecting: MessageHandler = {
        handle: async () => ({
          response: failure(undefined, { code: ErrorCode.InvalidRequest, message: "no" }),
          httpStatus: 400,
        }),
      };
      const other = await http.start({}, rejecting);
      const res = await post(other.url, { jsonrpc: "2.0", method: "notifications/whatever" });
      expect(res.status).toBe(400);
      expect(errorOf(await res.json()).message).toBe("no");
    });
  });

  describe("response framing", () => {
    it("answers with one line of JSON and the dispatcher's status when nothing is notified", async () => {
      const body = rpc("tools/call", { name: "echo" });
      const res = await post(http.url, body);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json");
      const text = await res.text();
      expect(text).not.toContain("\n");
      expect(JSON.parse(text)).toEqual({
        jsonrpc: "2.0",
        id: body["id"],
        result: { resultType: "complete", content: [{ type: "text", text: "echo" }] },
      });

      const missing = await post(http.url, rpc("nope/nope"));
      expect(missing.status).toBe(404);
      expect(errorOf(await missing.json()).code).toBe(ErrorCode.MethodNotFound);
    });

    it("switches to SSE when the dispatcher notifies first: progress events, then the response", async () => {
      const body = rpc("tools/call", {
        name: "progress",
        _meta: { [PV]: VERSION, progressToken: "abc" },
      });
      const res = await post(http.url, body);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.headers.get("x-accel-buffering")).toBe("no");
      const { messages, events } = parseSse(await res.text());
      expect(events).toEqual(["message", "message", "message", "message"]);
      expect(messages.map((m) => m["method"] ?? "response")).toEqual([
        "notifications/progress",
        "notifications/progress",
        "notifications/progress",
        "response",
      ]);
      expect(
        messages.slice(0, 3).map((m) => (m["params"] as Record<string, unknown>)["progress"]),
      ).toEqual([1, 2, 3]);
      expect((messages[0]!["params"] as Record<string, unknown>)["progressToken"]).toBe("abc");
      expect((messages[0]!["params"] as Record<string, unknown>)["message"]).toBe("step 1\nof 3");
      expect(messages[3]).toMatchObject({
        id: body["id"],
        result: { content: [{ text: "done" }] },
      });
      // a notify after the response is dropped without error
      await until(() => http.dispatcher.lateNotifies > 0, "the late notify");
    });

    it("keeps JSON (dropping notifications, logging once) when the client accepts only JSON", async () => {
      const fake = new FakeDispatcher();
      const jsonOnly = await http.start({}, fake);
      const body = rpc("tools/call", { name: "progress" });
      const res = await post(jsonOnly.url, body, { Accept: "application/json" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(await res.json()).toMatchObject({
        id: body["id"],
        result: { content: [{ text: "done" }] },
      });
      expect(fake.logs.filter((l) => l.includes("dropped"))).toHaveLength(1);
    });

    it("uses SSE for a client that accepts only SSE, even without notifications; errors stay JSON", async () => {
      const body = rpc("tools/call", { name: "echo" });
      const res = await post(http.url, body, { Accept: "text/event-stream" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      expect(parseSse(await res.text()).messages).toEqual([
        {
          jsonrpc: "2.0",
          id: body["id"],
          result: { resultType: "complete", content: [{ type: "text", text: "echo" }] },
        },
      ]);

      const failing = await post(http.url, rpc("tools/call", { name: "fails" }), {
        Accept: "text/event-stream",
      });
      expect(failing.status).toBe(400);
      expect(failing.headers.get("content-type")).toBe("application/json");
    });

    it("serves concurrent requests: three tools/list in parallel all get 200", async () => {
      const fake = new FakeDispatcher();
      fake.barrier = 3; // each request waits until all three are being handled at once
      const parallel = await http.start({}, fake);
      const bodies = [1000, 1001, 1002].map((id) => rpc("tools/list", {}, id));
      const responses = await Promise.all(
        bodies.map((b) => post(parallel.url, b, { Accept: "text/event-stream, application/json" })),
      );
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
      const ids = await Promise.all(
        responses.map(async (r) => ((await r.json()) as { id: number }).id),
      );
      expect(ids).toEqual([1000, 1001, 1002]);
      expect(fake.maxInFlight).toBe(3);
    });

    it("keeps concurrent SSE streams apart", async () => {
      const tokens = ["a", "b", "c", "d", "e"];
      const results = await Promise.all(
        tokens.map(async (token) => {
          const res = await post(
            http.url,
            rpc("tools/call", { name: "progress", _meta: { [PV]: VERSION, progressToken: token } }),
          );
          return parseSse(await res.text()).messages;
        }),
      );
      results.forEach((messages, i) => {
        expect(messages).toHaveLength(4);
        for (const m of messages.slice(0, 3))
          expect((m["params"] as Record<string, unknown>)["progressToken"]).toBe(tokens[i]);
      });
    });

    it("answers 500 with the id when the handler throws or its response cannot be serialized", async () => {
      for (const name of ["throws", "bigint"]) {
        const body = rpc("tools/call", { name });
        const res = await post(http.url, body);
        expect(res.status, name).toBe(500);
        const parsed = (await res.json()) as Record<string, unknown>;
        expect(parsed["id"]).toBe(body["id"]);
        expect(errorOf(parsed).code).toBe(ErrorCode.InternalError);
      }
      expect((await post(http.url, rpc("tools/call", { name: "echo" }))).status).toBe(200);
    });
  });
});
