/**
 * The definitions layer of a generated server (2026-07-28): listings and pagination from
 * definitions, tool arguments checked before the handler and structured results before they leave
 * (with each JSON Schema engine), completions, and `list_changed` when definitions change at run
 * time; the same layer on a stateful revision. Resources and prompts are definitions-resources, the
 * client's check of structured results (and `$ref`s that must never be fetched) definitions-client.
 */
import { describe, expect, it } from "vitest";
import { createServer, ServerDefinitions } from "../../../generated/2026-07-28/server.js";
import {
  createServer as createStatefulServer,
  ServerDefinitions as StatefulDefinitions,
} from "../../../generated/2025-11-25/server.js";
import type { JsonSchemaEngine } from "../../../generated/2026-07-28/runtime/schema/json-schema.js";
import { ajvEngine } from "../../../runtime/schema/json-schema-ajv.js";
import { INFO, rpc } from "../../helpers/server-fixture.js";
import { connect, type Msg } from "../../helpers/server-harness.js";
import {
  COUNT_SCHEMA,
  ENGINES,
  OUTPUT_SCHEMA,
  refHost,
  send,
  serverWith,
} from "../../helpers/definitions-fixture.js";

describe.each(ENGINES)("tools on the server, checked by %s", (_name, engine) => {
  function doubling(
    logs: string[],
    answer: (n: number) => unknown = (n) => ({
      content: [],
      structuredContent: { doubled: n * 2 },
    }),
  ) {
    const calls: unknown[] = [];
    const definitions = new ServerDefinitions({ engine: engine(), log: (m) => void logs.push(m) });
    definitions.tool<{ n: number; label?: string }>({
      name: "double",
      description: "Doubles n.",
      inputSchema: COUNT_SCHEMA as never,
      outputSchema: OUTPUT_SCHEMA,
      annotations: { readOnlyHint: true },
      handler: (args) => {
        calls.push(args);
        return answer(args.n) as never;
      },
    });
    return { definitions, calls };
  }

  it("lists the tool as defined, without the handler", async () => {
    const { definitions } = doubling([]);
    const response = await send(serverWith(definitions), rpc("tools/list"));
    expect(response.result.tools).toEqual([
      {
        name: "double",
        description: "Doubles n.",
        inputSchema: COUNT_SCHEMA,
        outputSchema: OUTPUT_SCHEMA,
        annotations: { readOnlyHint: true },
      },
    ]);
  });

  it("calls the handler with valid arguments and sends its conforming result", async () => {
    const { definitions, calls } = doubling([]);
    const response = await send(
      serverWith(definitions),
      rpc("tools/call", { name: "double", arguments: { n: 21 } }),
    );
    expect(response.result.structuredContent).toEqual({ doubled: 42 });
    expect(calls).toEqual([{ n: 21 }]);
  });

  it.each([
    ["a wrong type", { n: "wrong type" }, "/n"],
    // Ajv points at the object holding the extra property, cfworker at the property itself.
    ["an extra property", { n: 1, extra: 1 }, "(/|/extra)"],
    ["a missing required property", {}, "/"],
    ["a nested constraint", { n: 1, label: "" }, "/label"],
  ])(
    "never lets %s reach the handler: a tool-execution error with the pointer",
    async (_case, args, pointer) => {
      const { definitions, calls } = doubling([]);
      const response = await send(
        serverWith(definitions),
        rpc("tools/call", { name: "double", arguments: args }),
      );
      expect(calls).toEqual([]);
      expect(response.error).toBeUndefined();
      expect(response.result.isError).toBe(true);
      expect(response.result.content).toEqual([
        {
          type: "text",
          text: expect.stringMatching(new RegExp(`^Invalid arguments: ${pointer} `)),
        },
      ]);
    },
  );

  it("never sends a structuredContent that does not conform: an internal error, logged with the pointer", async () => {
    const logs: string[] = [];
    const { definitions } = doubling(logs, () => ({
      content: [],
      structuredContent: { doubled: "not a number" },
    }));
    const response = await send(
      serverWith(definitions),
      rpc("tools/call", { name: "double", arguments: { n: 1 } }),
    );
    expect(response.result).toBeUndefined();
    expect(response.error.code).toBe(-32603);
    expect(JSON.stringify(response)).not.toContain("not a number");
    expect(logs.join("\n")).toMatch(
      /tool "double" returned structuredContent that does not conform to its outputSchema: \/doubled /,
    );
  });

  it("treats a missing structuredContent as non-conforming, and leaves tool-execution errors alone", async () => {
    const missing = doubling([], () => ({ content: [] }));
    expect(
      (
        await send(
          serverWith(missing.definitions),
          rpc("tools/call", { name: "double", arguments: { n: 1 } }),
        )
      ).error.code,
    ).toBe(-32603);
    const failed = doubling([], () => ({ content: [{ type: "text", text: "no" }], isError: true }));
    expect(
      (
        await send(
          serverWith(failed.definitions),
          rpc("tools/call", { name: "double", arguments: { n: 1 } }),
        )
      ).result.isError,
    ).toBe(true);
  });

  it("refuses a tool whose input schema has a remote $ref, without fetching it", async () => {
    const host = await refHost();
    try {
      const calls: unknown[] = [];
      const definitions = new ServerDefinitions({ engine: engine(), log: () => {} });
      definitions.tool({
        name: "remote",
        inputSchema: { type: "object", properties: { n: { $ref: host.url } } },
        handler: (args) => (calls.push(args), { content: [] }),
      });
      const response = await send(
        serverWith(definitions),
        rpc("tools/call", { name: "remote", arguments: { n: 1 } }),
      );
      expect(response.result.isError).toBe(true);
      expect(response.result.content[0].text).toMatch(/cannot be checked/);
      expect(calls).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 50)); // room for a fetch, were one started
      expect(host.hits()).toBe(0);
    } finally {
      await host.close();
    }
  });
});

describe("the definitions layer", () => {
  it("compiles each schema once, however many calls", async () => {
    let compiled = 0;
    const base = ajvEngine();
    const counting: JsonSchemaEngine = { compile: (schema) => (compiled++, base.compile(schema)) };
    const definitions = new ServerDefinitions({ engine: counting });
    definitions.tool({
      name: "t",
      inputSchema: COUNT_SCHEMA as never,
      outputSchema: OUTPUT_SCHEMA,
      handler: () => ({ content: [], structuredContent: { doubled: 1 } }),
    });
    const server = serverWith(definitions);
    for (let i = 0; i < 5; i++)
      await send(server, rpc("tools/call", { name: "t", arguments: { n: i } }));
    expect(compiled).toBe(2);
  });

  it("uses a definition's own compiled checks instead of an engine", async () => {
    const definitions = new ServerDefinitions({ log: () => {} });
    const calls: unknown[] = [];
    definitions.tool({
      name: "t",
      inputSchema: { type: "object" },
      validate: {
        input: (v) =>
          (v as Msg).ok === true
            ? { ok: true }
            : { ok: false, errors: [{ path: "/ok", message: "must be true" }] },
      },
      handler: (args) => (calls.push(args), { content: [] }),
    });
    const response = await send(
      serverWith(definitions),
      rpc("tools/call", { name: "t", arguments: { ok: false } }),
    );
    expect(response.result.content[0].text).toBe("Invalid arguments: /ok must be true");
    expect(calls).toEqual([]);
  });

  it("without engine or compiled checks, says so once and still refuses arguments that are not an object", async () => {
    const logs: string[] = [];
    const definitions = new ServerDefinitions({ log: (m) => void logs.push(m) });
    definitions.tool({
      name: "t",
      inputSchema: { type: "object" },
      handler: () => ({ content: [] }),
    });
    expect(logs).toEqual([
      expect.stringContaining(
        'tool "t" has schemas but neither compiled validators nor a JSON Schema engine',
      ),
    ]);
    const response = await send(
      serverWith(definitions),
      rpc("tools/call", { name: "t", arguments: [1] }),
    );
    // The params' own validator rejects a non-object `arguments` before any handler.
    expect(response.error?.code ?? response.result?.isError).toBeTruthy();
  });

  it("answers an unknown tool or prompt with invalid params", async () => {
    const server = createServer({
      info: INFO,
      capabilities: { tools: {}, prompts: {} },
      definitions: new ServerDefinitions(),
    });
    expect(
      (await send(server, rpc("tools/call", { name: "nope", arguments: {} }))).error.code,
    ).toBe(-32602);
    expect((await send(server, rpc("prompts/get", { name: "nope" }))).error.code).toBe(-32602);
  });

  it("pages every list; a cursor it did not make is invalid params", async () => {
    const definitions = new ServerDefinitions({ pageSize: 2 });
    for (const name of ["a", "b", "c", "d", "e"])
      definitions.tool({
        name,
        inputSchema: { type: "object" },
        validate: { input: () => ({ ok: true }) },
        handler: () => ({ content: [] }),
      });
    const server = serverWith(definitions);
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await send(
        server,
        rpc("tools/list", cursor === undefined ? {} : { cursor }),
      );
      names.push(...response.result.tools.map((t: Msg) => t.name));
      cursor = response.result.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(names).toEqual(["a", "b", "c", "d", "e"]);
    expect(pages).toBe(3);
    expect((await send(server, rpc("tools/list", { cursor: "bogus" }))).error.code).toBe(-32602);
  });

  it("raw handlers stay available and take precedence", async () => {
    const definitions = new ServerDefinitions();
    definitions.tool({
      name: "t",
      inputSchema: { type: "object" },
      validate: { input: () => ({ ok: true }) },
      handler: () => ({ content: [] }),
    });
    const server = serverWith(definitions, {
      "tools/list": () => ({ tools: [{ name: "raw", inputSchema: { type: "object" } }] }),
    });
    expect((await send(server, rpc("tools/list"))).result.tools.map((t: Msg) => t.name)).toEqual([
      "raw",
    ]);
  });

  it("declares the capability of a feature that has definitions", async () => {
    const definitions = new ServerDefinitions();
    definitions.prompt({ name: "p", get: () => ({ messages: [] }) });
    const server = createServer({ info: INFO, capabilities: {}, definitions });
    expect((await send(server, rpc("prompts/list"))).result.prompts).toEqual([{ name: "p" }]);
  });

  it("sends list_changed to listeners when a definition is added, replaced or removed at run time", async () => {
    const definitions = new ServerDefinitions();
    const server = serverWith(definitions);
    const notified: Msg[] = [];
    const listening = send(
      server,
      rpc("subscriptions/listen", { notifications: { toolsListChanged: true } }),
      notified,
    );
    const remove = definitions.tool({
      name: "late",
      inputSchema: { type: "object" },
      validate: { input: () => ({ ok: true }) },
      handler: () => ({ content: [] }),
    });
    expect((await send(server, rpc("tools/list"))).result.tools.map((t: Msg) => t.name)).toEqual([
      "late",
    ]);
    remove();
    remove(); // a second removal changes nothing and announces nothing
    expect((await send(server, rpc("tools/list"))).result.tools).toEqual([]);
    server.close();
    await listening;
    const changed = notified.filter((n) => n.method === "notifications/tools/list_changed");
    expect(changed).toHaveLength(2);
  });
});

describe("the same layer on a stateful revision (2025-11-25)", () => {
  it("serves the listing and checked calls after the initialize handshake", async () => {
    const calls: unknown[] = [];
    const definitions = new StatefulDefinitions({ engine: ajvEngine() });
    definitions.tool<{ n: number }>({
      name: "double",
      inputSchema: COUNT_SCHEMA as never,
      outputSchema: OUTPUT_SCHEMA as never,
      handler: (args) => (
        calls.push(args),
        { content: [], structuredContent: { doubled: args.n * 2 } }
      ),
    });
    const changes: string[] = [];
    definitions.onChange((n) => void changes.push(n.method));
    const server = createStatefulServer({ info: INFO, capabilities: {}, definitions });
    const peer = await connect("direct", server as never, { protocolVersion: "2025-11-25" });
    try {
      const plain = (id: string, method: string, params: Msg) => ({
        jsonrpc: "2.0",
        id,
        method,
        params,
      });
      await peer.send(
        plain("init", "initialize", {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "c", version: "1" },
        }),
      );
      expect(
        (await peer.send(plain("list", "tools/list", {}))).response!.result.tools.map(
          (t: Msg) => t.name,
        ),
      ).toEqual(["double"]);
      expect(
        (await peer.send(plain("ok", "tools/call", { name: "double", arguments: { n: 2 } })))
          .response!.result.structuredContent,
      ).toEqual({ doubled: 4 });
      const wrong = await peer.send(
        plain("bad", "tools/call", { name: "double", arguments: { n: "2" } }),
      );
      expect(wrong.response!.result).toMatchObject({
        isError: true,
        content: [{ type: "text", text: expect.stringMatching(/^Invalid arguments: \/n /) }],
      });
      expect(calls).toEqual([{ n: 2 }]);
      definitions.tool({
        name: "late",
        inputSchema: { type: "object" },
        handler: () => ({ content: [] }),
      });
      expect(changes).toEqual(["notifications/tools/list_changed"]);
    } finally {
      await peer.close();
    }
  });
});
