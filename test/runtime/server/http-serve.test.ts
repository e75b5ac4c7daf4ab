/**
 * serveHttp (listening, its path, close() and its grace period) and the HTTP-level rules of the
 * Streamable HTTP transport: paths, methods, Accept, Content-Type and encoding, the body limit.
 */
import { describe, expect, it } from "vitest";
import { serveOn } from "../../helpers/http-paths.js";
import { ErrorCode, success } from "../../../runtime/shared/jsonrpc.js";
import { FakeDispatcher, httpFixture } from "../../helpers/http-fake-dispatcher.js";
import { errorOf, headersFor, post, raw, rpc, sseReader } from "../../helpers/http-wire.js";
import { until } from "../../helpers/server-harness.js";

describe("Streamable HTTP transport", () => {
  const http = httpFixture();

  describe("serveHttp", () => {
    it("binds loopback on a free port and reports the endpoint URL", () => {
      expect(http.server.port).toBeGreaterThan(0);
      expect(http.url).toBe(`http://127.0.0.1:${http.server.port}/mcp`);
    });

    it("honours a custom path", async () => {
      const custom = await http.start({ path: "/custom" });
      expect(custom.url.endsWith("/custom")).toBe(true);
      expect((await post(custom.url, rpc("tools/call", { name: "echo" }))).status).toBe(200);
      expect(
        (await post(custom.url.replace("/custom", "/mcp"), rpc("tools/call", { name: "echo" })))
          .status,
      ).toBe(404);
    });

    it("close() drops a stream still open after the grace period, aborting it", async () => {
      const fake = new FakeDispatcher();
      const handle = await serveOn(fake, { port: 0 });
      const response = await post(handle.url, rpc("subscriptions/listen"));
      const reader = sseReader(response);
      expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");
      const started = Date.now();
      await handle.close(100);
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
      await until(() => fake.aborted.length === 1, "the listen to be aborted");
      await expect(reader.next()).rejects.toThrow();
      await handle.close(); // idempotent
      await expect(fetch(handle.url, { method: "POST" })).rejects.toThrow();
    });

    it("close() lets streams the dispatcher is ending deliver their final response", async () => {
      const fake = new FakeDispatcher();
      const handle = await serveOn(fake, { port: 0 });
      const readers = await Promise.all(
        [1, 2].map(async (id) =>
          sseReader(await post(handle.url, rpc("subscriptions/listen", {}, id))),
        ),
      );
      for (const reader of readers)
        expect((await reader.next())?.["method"]).toBe("notifications/subscriptions/acknowledged");
      await until(() => fake.listens.length === 2, "both listens to register");
      const started = Date.now();
      for (const listen of fake.listens) listen.end(success(listen.id, { resultType: "complete" }));
      const closed = handle.close();
      for (const [i, reader] of readers.entries()) {
        expect(await reader.next()).toEqual({
          jsonrpc: "2.0",
          id: i + 1,
          result: { resultType: "complete" },
        });
        expect(await reader.next()).toBeUndefined();
      }
      await closed;
      expect(Date.now() - started).toBeLessThan(900); // did not wait out the grace period
      expect(fake.aborted).toEqual([]);
    });
  });

  describe("HTTP-level rules", () => {
    it("404 for other paths; the query string is ignored", async () => {
      const res = await post(
        http.url.replace("/mcp", "/other"),
        rpc("tools/call", { name: "echo" }),
      );
      expect(res.status).toBe(404);
      expect(
        (await post(http.url.replace("/mcp", "/mcp/"), rpc("tools/call", { name: "echo" }))).status,
      ).toBe(404);
      expect((await post(`${http.url}?x=1`, rpc("tools/call", { name: "echo" }))).status).toBe(200);
    });

    it("405 with Allow: POST for every other method, GET included (no GET stream)", async () => {
      for (const method of ["GET", "DELETE", "PUT", "PATCH", "OPTIONS"]) {
        const res = await fetch(http.url, { method, headers: { Accept: "text/event-stream" } });
        expect(res.status, method).toBe(405);
        expect(res.headers.get("allow")).toBe("POST");
        expect(errorOf(await res.json()).code).toBe(ErrorCode.InvalidRequest);
      }
      const head = await fetch(http.url, { method: "HEAD" });
      expect(head.status).toBe(405);
    });

    it("406 when Accept allows neither JSON nor SSE", async () => {
      for (const accept of [
        "text/html",
        "application/xml, text/plain",
        "application/json;q=0, text/event-stream;q=0",
        "application/*;q=0, text/*;q=0, */*",
        "",
      ]) {
        const res = await post(http.url, rpc("tools/call", { name: "echo" }), { Accept: accept });
        expect(res.status, accept).toBe(406);
        expect(res.headers.get("content-type")).toBe("application/json");
      }
    });

    it("Accept wildcards, and a missing Accept, allow JSON", async () => {
      for (const accept of [
        "*/*",
        "application/*",
        "application/json",
        "Application/JSON; charset=utf-8",
        null,
      ]) {
        const res = await raw(http.url, {
          headers: {
            ...headersFor(rpc("tools/call", { name: "echo" })),
            ...(accept === null ? {} : { Accept: accept }),
          },
          body: JSON.stringify(rpc("tools/call", { name: "echo" })),
        });
        expect(res.status, String(accept)).toBe(200);
        expect(res.headers["content-type"]).toBe("application/json");
      }
    });

    it("415 unless the body is application/json (UTF-8, not encoded)", async () => {
      for (const headers of [
        { "Content-Type": "text/plain" },
        { "Content-Type": "application/json; charset=latin1" },
        { "Content-Type": null },
        { "Content-Encoding": "gzip" },
      ]) {
        const res = await post(http.url, rpc("tools/call", { name: "echo" }), headers);
        expect(res.status, JSON.stringify(headers)).toBe(415);
        expect(errorOf(await res.json()).code).toBe(ErrorCode.InvalidRequest);
      }
      for (const type of [
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        'application/json;charset="UTF-8"',
      ]) {
        expect(
          (await post(http.url, rpc("tools/call", { name: "echo" }), { "Content-Type": type }))
            .status,
          type,
        ).toBe(200);
      }
    });

    it("413 for a body over the limit (declared or chunked), and the server keeps serving", async () => {
      const big = { ...rpc("tools/call", { name: "echo" }), padding: "x".repeat(70 * 1024) };
      const declared = await post(http.url, big);
      expect(declared.status).toBe(413);
      expect(errorOf(await declared.json()).code).toBe(ErrorCode.InvalidRequest);

      const bytes = new TextEncoder().encode(JSON.stringify(big));
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192));
          controller.close();
        },
      });
      const chunked = await fetch(http.url, {
        method: "POST",
        headers: headersFor(big),
        body: stream,
        duplex: "half",
      } as RequestInit);
      expect(chunked.status).toBe(413);

      const underLimit = { ...rpc("tools/call", { name: "echo" }), padding: "x".repeat(60 * 1024) };
      expect((await post(http.url, underLimit)).status).toBe(200);
    });

    it("413 with the default limit of 4 MiB", async () => {
      const fresh = await http.start();
      const big = { ...rpc("tools/call", { name: "echo" }), padding: "x".repeat(4 * 1024 * 1024) };
      expect((await post(fresh.url, big)).status).toBe(413);
      const fits = {
        ...rpc("tools/call", { name: "echo" }),
        padding: "x".repeat(4 * 1024 * 1024 - 500),
      };
      expect((await post(fresh.url, fits)).status).toBe(200);
    });
  });
});
