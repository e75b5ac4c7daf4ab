/**
 * The header checks of the Streamable HTTP transport (http-headers.ts): DNS-rebinding protection
 * (Host and Origin), and the request metadata headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name
 * and its Base64 form) the transport hands over with a request, which the dispatcher's envelope
 * stage checks against the body (here a stand-in dispatcher, by the same `checkHeaders`).
 */
import type { OutgoingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import { decodeHeaderValue, NO_HEADER_RULES } from "../../../runtime/server/http/index.js";
import { ErrorCode, failure, success } from "../../../runtime/shared/jsonrpc.js";
import type { JsonRpcId } from "../../../runtime/shared/jsonrpc.js";
import type { MessageHandler } from "../../../runtime/server/transport.js";
import { httpFixture } from "../../helpers/http-fake-dispatcher.js";
import { checkHeaders } from "../../../runtime/shared/http-headers.js";
import { PV, RULES, errorOf, headersFor, post, raw, rpc } from "../../helpers/http-wire.js";

describe("Streamable HTTP transport", () => {
  const http = httpFixture();

  describe("DNS-rebinding protection", () => {
    const discover = () => {
      const body = rpc("server/discover");
      return { body: JSON.stringify(body), headers: headersFor(body) };
    };

    it("rejects a foreign Host with 403 and a JSON-RPC error without id", async () => {
      const { body, headers } = discover();
      const res = await raw(http.url, {
        headers: { ...headers, Host: "evil.example.com", Origin: "http://evil.example.com" },
        body,
      });
      expect(res.status).toBe(403);
      const parsed = JSON.parse(res.body) as Record<string, unknown>;
      expect(parsed["jsonrpc"]).toBe("2.0");
      expect("id" in parsed).toBe(false);
      expect(typeof errorOf(parsed).code).toBe("number");
    });

    it("rejects a foreign Host even with a loopback port, and a missing or malformed Host", async () => {
      const { body, headers } = discover();
      for (const host of [
        `evil.example.com:${http.server.port}`,
        "localhost.evil.com",
        "127.0.0.1.nip.io",
        "localhost:abc",
        "[::1",
      ]) {
        expect(
          (await raw(http.url, { headers: { ...headers, Host: host }, body })).status,
          host,
        ).toBe(403);
      }
    });

    it("checks Host before anything else (path, method)", async () => {
      const res = await raw(http.url.replace("/mcp", "/elsewhere"), {
        method: "GET",
        headers: { Host: "evil.example.com" },
      });
      expect(res.status).toBe(403);
    });

    it("accepts localhost, 127.0.0.1 and [::1] with any port (or none)", async () => {
      const { body, headers } = discover();
      for (const host of [
        `localhost:${http.server.port}`,
        `127.0.0.1:${http.server.port}`,
        `[::1]:${http.server.port}`,
        "LOCALHOST:3000",
        "localhost",
        "[::1]",
      ]) {
        const res = await raw(http.url, {
          headers: { ...headers, Host: host, Origin: `http://${host}` },
          body,
        });
        expect(res.status, host).toBe(200);
      }
    });

    it("rejects a foreign Origin with a loopback Host, and an opaque Origin", async () => {
      for (const origin of [
        "http://evil.example.com",
        `http://evil.example.com:${http.server.port}`,
        "null",
        "not a http.url",
      ]) {
        const res = await post(http.url, rpc("tools/call", { name: "echo" }), { Origin: origin });
        expect(res.status, origin).toBe(403);
        expect(errorOf(await res.json()).message).toMatch(/Origin/);
      }
    });

    it("accepts loopback Origins over http and https", async () => {
      for (const origin of [
        `http://localhost:${http.server.port}`,
        "https://127.0.0.1",
        "http://[::1]:9999",
      ]) {
        expect(
          (await post(http.url, rpc("tools/call", { name: "echo" }), { Origin: origin })).status,
          origin,
        ).toBe(200);
      }
    });

    it("uses configured allowedHosts (Origins default to them) and allowedOrigins", async () => {
      const custom = await http.start({ allowedHosts: ["mcp.example.com", "127.0.0.1:1"] });
      const body = rpc("tools/call", { name: "echo" });
      const send = (host: string, origin?: string) =>
        raw(custom.url, {
          headers: {
            ...headersFor(body),
            Host: host,
            ...(origin === undefined ? {} : { Origin: origin }),
          },
          body: JSON.stringify(body),
        });
      expect((await send("mcp.example.com:8443")).status).toBe(200);
      expect((await send("mcp.example.com", "https://mcp.example.com")).status).toBe(200);
      expect((await send(`127.0.0.1:1`)).status).toBe(200);
      expect((await send(`127.0.0.1:${custom.port}`)).status).toBe(403); // port pinned by the entry
      expect((await send(`localhost:${custom.port}`)).status).toBe(403); // defaults replaced
      expect((await send("mcp.example.com", "http://localhost")).status).toBe(403);

      const origins = await http.start({ allowedOrigins: ["https://app.example.com"] });
      const send2 = (origin: string) => post(origins.url, body, { Origin: origin });
      expect((await send2("https://app.example.com")).status).toBe(200);
      expect((await send2("https://app.example.com:443")).status).toBe(200);
      expect((await send2("http://app.example.com")).status).toBe(403);
      expect((await send2("http://localhost")).status).toBe(403);
    });

    it('"*" disables a check', async () => {
      const open = await http.start({ allowedHosts: ["*"], allowedOrigins: ["*"] });
      const body = rpc("tools/call", { name: "echo" });
      const res = await raw(open.url, {
        headers: { ...headersFor(body), Host: "anything.example", Origin: "null" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
    });
  });

  describe("request metadata headers (the envelope stage)", () => {
    async function expectMismatch(
      body: Record<string, unknown>,
      headers: Record<string, string | null>,
      pattern: RegExp,
    ) {
      const res = await post(http.url, body, headers);
      expect(res.status).toBe(400);
      const parsed = (await res.json()) as Record<string, unknown>;
      expect(parsed["id"]).toBe(body["id"]);
      expect(errorOf(parsed).code).toBe(-32020);
      expect(errorOf(parsed).message).toMatch(pattern);
    }

    it("MCP-Protocol-Version must equal the body's version", async () => {
      await expectMismatch(
        rpc("tools/list"),
        { "MCP-Protocol-Version": "2025-11-25" },
        /MCP-Protocol-Version.*2025-11-25.*2026-07-28/,
      );
      const body = rpc("tools/list");
      (body["params"] as { _meta: Record<string, unknown> })._meta[PV] = "v999.0.0";
      await expectMismatch(body, {}, /MCP-Protocol-Version/);
    });

    it("a missing MCP-Protocol-Version is a mismatch", async () => {
      await expectMismatch(
        rpc("tools/list"),
        { "MCP-Protocol-Version": null },
        /MCP-Protocol-Version header is missing/,
      );
    });

    it("requests without a version in _meta (initialize era) are checked only on the headers they carry", async () => {
      const envelopeOnly: MessageHandler = {
        async handle(message, delivery) {
          const m = message as { id: JsonRpcId; method: string; params?: Record<string, unknown> };
          const envelope =
            delivery.headers === undefined
              ? null
              : checkHeaders(delivery.headers, { method: m.method, params: m.params ?? {} }, RULES);
          return envelope === null
            ? { response: success(m.id, {}), httpStatus: 200 }
            : { response: failure(m.id, envelope), httpStatus: 400 };
        },
      };
      const legacy = await http.start({}, envelopeOnly);
      const bare = { "MCP-Protocol-Version": null, "Mcp-Method": null, "Mcp-Name": null };
      const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } };
      expect(
        (await post(legacy.url, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} }, bare))
          .status,
      ).toBe(200);
      expect((await post(legacy.url, call, bare)).status).toBe(200);
      expect(
        (await post(legacy.url, call, { ...bare, "MCP-Protocol-Version": "2025-06-18" })).status,
      ).toBe(200);
      expect((await post(legacy.url, call, { ...bare, "Mcp-Method": "tools/list" })).status).toBe(
        400,
      );
      expect((await post(legacy.url, call, { ...bare, "Mcp-Name": "other" })).status).toBe(400);
      // a modern request to the same handler must mirror its headers
      expect((await post(legacy.url, rpc("tools/list"), { "Mcp-Method": null })).status).toBe(400);
    });

    it("the dispatcher's own _meta checks come first (-32602, not -32020)", async () => {
      const body = {
        jsonrpc: "2.0",
        id: 102,
        method: "server/discover",
        params: { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } },
      };
      const res = await post(http.url, body);
      expect(res.status).toBe(400);
      expect(errorOf(await res.json()).code).toBe(ErrorCode.InvalidParams);
    });

    it("an unsupported version with matching headers reaches the dispatcher's version check", async () => {
      const body = rpc("tools/list");
      (body["params"] as { _meta: Record<string, unknown> })._meta[PV] = "v999.0.0";
      const res = await post(http.url, body, { "MCP-Protocol-Version": "v999.0.0" });
      expect(res.status).toBe(400);
      expect(errorOf(await res.json()).code).toBe(-32022);
    });

    it("Mcp-Method must equal the body's method, and is required", async () => {
      await expectMismatch(
        rpc("tools/list"),
        { "Mcp-Method": "tools/call" },
        /Mcp-Method.*tools\/call.*tools\/list/,
      );
      await expectMismatch(rpc("tools/list"), { "Mcp-Method": "Tools/List" }, /Mcp-Method/); // values are case-sensitive
      await expectMismatch(
        rpc("tools/list"),
        { "Mcp-Method": null },
        /Mcp-Method header is missing/,
      );
    });

    it("Mcp-Name must equal params.name for tools/call and prompts/get", async () => {
      await expectMismatch(
        rpc("tools/call", { name: "echo" }),
        { "Mcp-Name": "other" },
        /Mcp-Name.*other.*echo/,
      );
      await expectMismatch(
        rpc("prompts/get", { name: "greet" }),
        { "Mcp-Name": "greeting" },
        /Mcp-Name/,
      );
      await expectMismatch(
        rpc("tools/call", { name: "echo" }),
        { "Mcp-Name": null },
        /Mcp-Name header is missing/,
      );
      expect((await post(http.url, rpc("prompts/get", { name: "greet" }))).status).toBe(200);
    });

    it("Mcp-Name must equal params.uri for resources/read", async () => {
      const uri = "file:///projects/app/config.json";
      expect((await post(http.url, rpc("resources/read", { uri }))).status).toBe(200);
      await expectMismatch(
        rpc("resources/read", { uri }),
        { "Mcp-Name": "file:///etc/passwd" },
        /Mcp-Name/,
      );
      // the name param is `uri`, not `name`
      await expectMismatch(
        rpc("resources/read", { uri, name: "x" }),
        { "Mcp-Name": "x" },
        /Mcp-Name/,
      );
    });

    it("Mcp-Name is decoded from the Base64 sentinel form before comparing", async () => {
      const name = "Hello, 世界";
      const encoded = `=?base64?${Buffer.from(name, "utf8").toString("base64")}?=`;
      expect(
        (await post(http.url, rpc("tools/call", { name }), { "Mcp-Name": encoded })).status,
      ).toBe(200);
      const literal = "=?base64?literal?=";
      const encodedLiteral = `=?base64?${Buffer.from(literal).toString("base64")}?=`;
      expect(
        (await post(http.url, rpc("tools/call", { name: literal }), { "Mcp-Name": encodedLiteral }))
          .status,
      ).toBe(200);
      // A byte order mark the header's bytes begin with is part of the name (issue 33): "\uFEFFecho" is not "echo".
      await expectMismatch(
        rpc("tools/call", { name: "echo" }),
        { "Mcp-Name": `=?base64?${Buffer.from("\uFEFFecho", "utf8").toString("base64")}?=` },
        /Mcp-Name/,
      );
      expect(
        (
          await post(http.url, rpc("tools/call", { name: "\uFEFFecho" }), {
            "Mcp-Name": `=?base64?${Buffer.from("\uFEFFecho", "utf8").toString("base64")}?=`,
          })
        ).status,
      ).toBe(200);
      await expectMismatch(
        rpc("tools/call", { name: "echo" }),
        { "Mcp-Name": "=?base64?not base64!?=" },
        /malformed/,
      );
      await expectMismatch(
        rpc("tools/call", { name: "echo" }),
        { "Mcp-Name": `=?base64?${Buffer.from([0xff, 0xfe]).toString("base64")}?=` },
        /malformed/,
      );
    });

    it("Mcp-Name is not checked for methods outside the table", async () => {
      expect((await post(http.url, rpc("tools/list"), { "Mcp-Name": "whatever" })).status).toBe(
        200,
      );
    });

    it("header names are case-insensitive", async () => {
      const body = rpc("tools/call", { name: "echo" });
      for (const casing of [(h: string) => h.toLowerCase(), (h: string) => h.toUpperCase()]) {
        const headers: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(headersFor(body))) headers[casing(name)] = value;
        expect((await raw(http.url, { headers, body: JSON.stringify(body) })).status).toBe(200);
      }
      const bad = rpc("tools/call", { name: "echo" });
      const res = await raw(http.url, {
        headers: { ...headersFor(bad), "MCP-NAME": "nope" },
        body: JSON.stringify(bad),
      });
      expect(res.status).toBe(400);
      expect(errorOf(JSON.parse(res.body)).code).toBe(-32020);
    });

    it("non-ASCII header values are rejected", async () => {
      const body = rpc("tools/call", { name: "café" });
      const res = await raw(http.url, {
        headers: {
          ...headersFor(body),
          "Mcp-Name": Buffer.from("café", "utf8").toString("latin1"),
        },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect(errorOf(JSON.parse(res.body)).message).toMatch(/malformed/);
    });

    it("the envelope's rules decide which params name a request, and the error code (here the stand-in's, from headerRules)", async () => {
      const custom = await http.start({
        headerRules: { nameParams: { "custom/get": "id" }, mismatchCode: -32099 },
      });
      const body = rpc("custom/get", { id: "thing" });
      expect((await post(custom.url, body, { "Mcp-Name": "thing" })).status).toBe(200);
      const bad = await post(custom.url, rpc("custom/get", { id: "thing" }), {
        "Mcp-Name": "other",
      });
      expect(bad.status).toBe(400);
      expect(errorOf(await bad.json()).code).toBe(-32099);
      // tools/call is no longer in the table
      expect(
        (await post(custom.url, rpc("tools/call", { name: "echo" }), { "Mcp-Name": "other" }))
          .status,
      ).toBe(200);
    });

    it("without a revision's rules (NO_HEADER_RULES) no header is required, none names a param, a mismatch is JSON-RPC's invalid request", async () => {
      const bare = await http.start({ headerRules: NO_HEADER_RULES });
      const body = rpc("tools/call", { name: "echo" });
      const none = { "MCP-Protocol-Version": null, "Mcp-Method": null, "Mcp-Name": "other" };
      expect((await post(bare.url, body, none)).status).toBe(200);
      const bad = await post(bare.url, rpc("tools/call", { name: "echo" }), {
        "Mcp-Method": "x/y",
      });
      expect(bad.status).toBe(400);
      expect(errorOf(await bad.json()).code).toBe(ErrorCode.InvalidRequest);
    });

    it("decodeHeaderValue", () => {
      expect(decodeHeaderValue("us-west1")).toBe("us-west1");
      expect(decodeHeaderValue("=?base64?SGVsbG8sIOS4lueVjA==?=")).toBe("Hello, 世界");
      expect(decodeHeaderValue("=?base64?IHBhZGRlZCA=?=")).toBe(" padded ");
      expect(decodeHeaderValue("=?base64?bGluZTEKbGluZTI=?=")).toBe("line1\nline2");
      expect(decodeHeaderValue("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=")).toBe("=?base64?literal?=");
      expect(decodeHeaderValue("=?BASE64?SGk=?=")).toBe("=?BASE64?SGk=?="); // markers are case-sensitive
      expect(decodeHeaderValue("=?base64??=")).toBe("");
      // Padding is required (the test-case table of SEP-2243, checked by the conformance suite).
      expect(decodeHeaderValue("=?base64?SGk?=")).toBeNull();
      expect(decodeHeaderValue("=?base64?SGVsbG8?=")).toBeNull();
      expect(decodeHeaderValue("=?base64?S=Gk?=")).toBeNull();
      expect(decodeHeaderValue("=?base64?S?=")).toBeNull();
      expect(decodeHeaderValue("caf\u00e9")).toBeNull();
      expect(decodeHeaderValue("a\u0000b")).toBeNull();
    });
  });
});
