/**
 * The client of a generated 2026-07-28 output against listed output schemas: `structuredContent`
 * checked against the listed `outputSchema` with each JSON Schema engine (and `$ref`s that must never
 * be fetched), and what happens without an engine.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  createClient,
  httpTransport,
  InvalidResultError,
} from "../../../generated/2026-07-28/client.js";
import { INFO } from "../../helpers/server-fixture.js";
import { rawServer, type RawServer } from "../../helpers/client-servers.js";
import type { Msg } from "../../helpers/server-harness.js";
import { ENGINES, OUTPUT_SCHEMA, refHost } from "../../helpers/definitions-fixture.js";

describe.each(ENGINES)(
  "the client checks structuredContent against the listed outputSchema (%s)",
  (_name, engine) => {
    let server: RawServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    /** A hostile server: lists a tool with an output schema, then answers calls with `structured`. */
    async function hostile(outputSchema: Msg, structured: unknown): Promise<RawServer> {
      return rawServer((body) => {
        const result =
          body.method === "tools/list"
            ? {
                tools: [{ name: "t", inputSchema: { type: "object" }, outputSchema }],
                ttlMs: 0,
                cacheScope: "private",
                resultType: "complete",
              }
            : { content: [], structuredContent: structured, resultType: "complete" };
        return { body: JSON.stringify({ jsonrpc: "2.0", id: body.id, result }) };
      });
    }

    it("rejects a non-conforming structuredContent, naming the pointer", async () => {
      server = await hostile(OUTPUT_SCHEMA, { doubled: "not a number" });
      const client = createClient({
        transport: httpTransport(server.url),
        info: INFO,
        jsonSchema: engine(),
      });
      await client.listTools({});
      const error = await client.callTool({ name: "t", arguments: {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResultError);
      expect((error as InvalidResultError).pointer).toBe("/structuredContent/doubled");
    });

    it("accepts a conforming one, and anything when the check is turned off", async () => {
      server = await hostile(OUTPUT_SCHEMA, { doubled: 2 });
      const client = createClient({
        transport: httpTransport(server.url),
        info: INFO,
        jsonSchema: engine(),
      });
      await client.listTools({});
      expect((await client.callTool({ name: "t", arguments: {} })).structuredContent).toEqual({
        doubled: 2,
      });
      await server.close();
      server = await hostile(OUTPUT_SCHEMA, { doubled: "x" });
      const lenient = createClient({
        transport: httpTransport(server.url),
        info: INFO,
        jsonSchema: engine(),
        checkToolOutput: false,
      });
      await lenient.listTools({});
      expect((await lenient.callTool({ name: "t", arguments: {} })).structuredContent).toEqual({
        doubled: "x",
      });
    });

    it("rejects a result checked against a schema with a remote $ref, and never fetches it", async () => {
      const host = await refHost();
      try {
        server = await hostile(
          { type: "object", properties: { doubled: { $ref: host.url } } },
          { doubled: 2 },
        );
        const client = createClient({
          transport: httpTransport(server.url),
          info: INFO,
          jsonSchema: engine(),
        });
        await client.listTools({});
        await expect(client.callTool({ name: "t", arguments: {} })).rejects.toThrow(
          /cannot be checked/,
        );
        await new Promise((resolve) => setTimeout(resolve, 50)); // room for a fetch, were one started
        expect(host.hits()).toBe(0);
      } finally {
        await host.close();
      }
    });
  },
);

describe("the client without a JSON Schema engine", () => {
  it("does not check structuredContent: silently by default, said once when the check was asked for", async () => {
    const server = await rawServer((body) => ({
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: body.id,
        result:
          body.method === "tools/list"
            ? {
                tools: [
                  { name: "t", inputSchema: { type: "object" }, outputSchema: OUTPUT_SCHEMA },
                ],
                ttlMs: 0,
                cacheScope: "private",
              }
            : { content: [], structuredContent: { doubled: "x" } },
      }),
    }));
    try {
      const logs: string[] = [];
      const client = createClient({
        transport: httpTransport(server.url),
        info: INFO,
        log: (m) => void logs.push(m),
      });
      await client.listTools({});
      expect((await client.callTool({ name: "t", arguments: {} })).structuredContent).toEqual({
        doubled: "x",
      });
      expect(logs).toEqual([]);
      const asked = createClient({
        transport: httpTransport(server.url),
        info: INFO,
        checkToolOutput: true,
        log: (m) => void logs.push(m),
      });
      await asked.listTools({});
      await asked.callTool({ name: "t", arguments: {} });
      await asked.callTool({ name: "t", arguments: {} });
      expect(logs).toEqual([
        "mcp client: checkToolOutput needs a jsonSchema engine: structured results are not checked",
      ]);
    } finally {
      await server.close();
    }
  });
});
