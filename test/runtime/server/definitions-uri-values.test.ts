/**
 * #25 item 3 (URI templates) through the definitions layer: a resource template's decoded variables
 * holding `..` segments, a `/` its expansion does not allow, or control characters are refused with
 * invalid params before `read` runs, on the modern era and on a legacy session of a dual-era server
 * alike, unless the operator sets `allowUnsafeUriValues`; a URI over `maxUriLength` matches nothing.
 */
import { describe, expect, it } from "vitest";
import {
  createServer,
  ServerDefinitions,
  type McpServer,
} from "../../../generated/2026-07-28/server.js";
import {
  createServer as createDualServer,
  ServerDefinitions as DualDefinitions,
} from "../../../generated/dual/server.js";
import type { DefinitionsOptions } from "../../../generated/2026-07-28/runtime/server/definitions.js";
import { INFO, rpc } from "../../helpers/server-fixture.js";
import type { Msg } from "../../helpers/server-harness.js";

type Read = { uri: string; variables: Record<string, unknown> };

/** A server with two templates: a reserved expansion (`{+path}`) and a simple one (`{name}`). */
function files(options: DefinitionsOptions = {}): { server: McpServer; reads: Read[] } {
  const reads: Read[] = [];
  const definitions = new ServerDefinitions(options);
  for (const uriTemplate of ["file:///{+path}", "note://{name}"])
    definitions.resourceTemplate({
      uriTemplate,
      name: uriTemplate,
      read: (uri, variables) => {
        reads.push({ uri, variables });
        return { contents: [{ uri, text: "ok" }] };
      },
    });
  const server = createServer({ info: INFO, capabilities: { resources: {} }, definitions });
  return { server, reads };
}

async function send(server: McpServer, message: Msg, session?: Record<string, unknown>) {
  const outcome = await server.dispatcher.handle(message, {
    notify: () => undefined,
    signal: new AbortController().signal,
    ...(session ? { session } : {}),
  });
  return outcome.response as Msg;
}

const read = (uri: string) => rpc("resources/read", { uri });

describe("decoded template values a handler could take as a path", () => {
  it.each([
    ["file:///docs/../../etc/passwd", "path holds a '..' path segment"],
    ["file:///%2E%2E/secret", "path holds a '..' path segment"],
    ["file:///a%00.txt", "path holds a control character"],
    ["note://..%2Fkeys", "name holds a '..' path segment"],
    ["note://a%2Fb", "name holds a '/' its expansion does not allow"],
    ["note://a%0Db", "name holds a control character"],
  ])("%s is refused with invalid params before read runs", async (uri, reason) => {
    const { server, reads } = files();
    const response = await send(server, read(uri));
    expect(response.error).toEqual({
      code: -32602,
      message: `Invalid params: the URI's variable ${reason}`,
      data: { uri },
    });
    expect(reads).toEqual([]);
  });

  it("passes safe values, and unsafe ones when the operator allows them", async () => {
    const { server, reads } = files();
    expect((await send(server, read("file:///docs/a..b/c.txt"))).result).toBeDefined();
    expect(reads.map((r) => r.variables)).toEqual([{ path: "docs/a..b/c.txt" }]);

    const allowed = files({ allowUnsafeUriValues: true });
    expect((await send(allowed.server, read("file:///../a%00"))).result).toBeDefined();
    expect((await send(allowed.server, read("note://a%2F..%2Fb"))).result).toBeDefined();
    expect(allowed.reads.map((r) => r.variables)).toEqual([
      { path: "../a\u0000" },
      { name: "a/../b" },
    ]);
  });

  it("refuses them on a legacy session of a dual-era server too", async () => {
    const reads: Read[] = [];
    const definitions = new DualDefinitions();
    definitions.resourceTemplate({
      uriTemplate: "file:///{+path}",
      name: "files",
      read: (uri, variables) => {
        reads.push({ uri, variables });
        return { contents: [{ uri, text: "ok" }] };
      },
    });
    const server = createDualServer({
      info: INFO,
      capabilities: { resources: {} },
      definitions,
      log: () => undefined,
    });
    const session: Record<string, unknown> = {};
    const legacy = (id: number, method: string, params: Msg) =>
      send(server as unknown as McpServer, { jsonrpc: "2.0", id, method, params }, session);
    const opened = await legacy(1, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "legacy", version: "1" },
    });
    expect(opened.result.protocolVersion).toBe("2025-11-25");
    const refused = await legacy(2, "resources/read", { uri: "file:///../../etc/passwd" });
    expect(refused.error).toMatchObject({
      code: -32602,
      message: "Invalid params: the URI's variable path holds a '..' path segment",
    });
    expect((await legacy(3, "resources/read", { uri: "file:///ok.txt" })).result).toBeDefined();
    expect(reads.map((r) => r.uri)).toEqual(["file:///ok.txt"]);
  });
});

describe("maxUriLength", () => {
  it("finds no resource for a URI longer than the bound (default 65,536)", async () => {
    const { server, reads } = files();
    const at = (length: number) => `file:///${"p".repeat(length - 8)}`;
    expect((await send(server, read(at(65_536)))).result).toBeDefined();
    const over = await send(server, read(at(65_537)));
    expect(over.error).toMatchObject({ code: -32602, message: "Resource not found" });
    expect(reads).toHaveLength(1);

    const small = files({ maxUriLength: 16 });
    expect((await send(small.server, read("file:///12345678"))).result).toBeDefined();
    expect((await send(small.server, read("file:///123456789"))).error).toMatchObject({
      message: "Resource not found",
    });
  });
});
