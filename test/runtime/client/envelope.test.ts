/**
 * The generated client writes and reads the fields of the multi round-trip, the caching hints and
 * the pagination cursor by the revision's names, as the server does (test/runtime/server/envelope): a
 * client and a server generated from a schema that renames all of them still complete an
 * input-required call, cache a cacheable result and walk every page, and the output compiles strict.
 */
import { afterAll, describe, expect, it } from "vitest";
import { serverGenerator, type GeneratedServer } from "../../helpers/generated-server.js";
import { ELICIT_CONFIRM } from "../../helpers/server-fixture.js";
import type { Msg, ServerLike } from "../../helpers/server-harness.js";
import { askingToolCall, RENAMED_ENVELOPE, renamedSchema } from "../../helpers/renamed-envelope.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../../helpers/tsc.js";

const generator = serverGenerator("mcp-gen-client-envelope-");
afterAll(() => generator.dispose());

const INFO = { name: "client-envelope-test", version: "1.0.0" };
const n = RENAMED_ENVELOPE;

let generated: Promise<GeneratedServer> | undefined;
const renamed = () => (generated ??= generator.generate(renamedSchema(), "client-envelope"));

/** A transport handing each request to the server's dispatcher in process, and recording what was sent. */
function inProcess(server: ServerLike) {
  const sent: Msg[] = [];
  return {
    sent,
    async request(
      message: Msg,
      options: { signal: AbortSignal; onNotification: (n: Msg) => void },
    ) {
      sent.push(structuredClone(message));
      const outcome = await server.dispatcher.handle(message, {
        notify: options.onNotification,
        signal: options.signal,
      });
      return outcome.response;
    },
    async notify() {},
    async close() {},
  };
}

type Client = Record<string, (...args: unknown[]) => unknown>;

function clientOf(g: GeneratedServer, transport: unknown, options: Record<string, unknown> = {}) {
  const createClient = g.client["createClient"] as (o: unknown) => Client;
  return createClient({ transport, info: INFO, ...options });
}

function serverOf(g: GeneratedServer, options: Record<string, unknown>): ServerLike {
  const createServer = g.server["createServer"] as (o: unknown) => ServerLike;
  return createServer({ info: INFO, capabilities: { tools: {} }, ...options });
}

describe("a client generated for a revision that renames the runtime's fields", () => {
  it("answers an input-required result and retries under the revision's names", async () => {
    const g = await renamed();
    const server = serverOf(g, {
      handlers: { "tools/call": askingToolCall },
    });
    const transport = inProcess(server);
    const asked: unknown[] = [];
    const client = clientOf(g, transport, {
      onElicit: (params: unknown) => {
        asked.push(params);
        return { action: "accept", content: { ok: true } };
      },
    });
    const result = (await client["callTool"]!({ name: "ask" })) as Msg;
    expect(asked).toEqual([ELICIT_CONFIRM.params]);
    expect(result[n.resultType]).toBe("complete");
    expect(JSON.parse(result.content[0].text)).toEqual({
      state: { round: 1 },
      responses: { confirm: { action: "accept", content: { ok: true } } },
    });
    // The retry carried the responses and the state under the revision's names, and nothing else.
    const retry = transport.sent[1]!.params;
    expect(retry[n.inputResponses]).toEqual({
      confirm: { action: "accept", content: { ok: true } },
    });
    expect(typeof retry[n.requestState]).toBe("string");
    expect(retry).not.toHaveProperty("inputResponses");
    expect(retry).not.toHaveProperty("requestState");
  });

  it("caches a cacheable result by the revision's caching hints", async () => {
    const g = await renamed();
    let listed = 0;
    const server = serverOf(g, {
      cache: { ttlMs: 60_000, cacheScope: "private" },
      handlers: {
        "tools/list": () => {
          listed++;
          return { tools: [] };
        },
      },
    });
    const client = clientOf(g, inProcess(server), { cache: true });
    const first = (await client["listTools"]!({})) as Msg;
    expect(first).toMatchObject({ [n.ttl]: 60_000, [n.scope]: "private" });
    await client["listTools"]!({});
    expect(listed).toBe(1);
  });

  it("walks every page by the revision's cursor fields", async () => {
    const g = await renamed();
    const tool = (name: string) => ({ name, inputSchema: { type: "object" } });
    const server = serverOf(g, {
      handlers: {
        "tools/list": (params: Record<string, unknown>) =>
          params[n.cursorParam] === "2"
            ? { tools: [tool("b")] }
            : { tools: [tool("a")], [n.cursorResult]: "2" },
      },
    });
    const transport = inProcess(server);
    const client = clientOf(g, transport);
    const names: string[] = [];
    for await (const item of client["listToolsAll"]!() as AsyncIterable<{ name: string }>)
      names.push(item.name);
    expect(names).toEqual(["a", "b"]);
    expect(transport.sent[1]!.params[n.cursorParam]).toBe("2");
    expect(transport.sent[1]!.params).not.toHaveProperty("cursor");
  });

  it("compiles under the strictest settings, the handlers and methods typed by the new names", async () => {
    const g = await renamed();
    // Callers never pass the fields the client fills in itself, under their new names.
    expect(g.clientSource).toContain(
      `K extends "_meta" | ${JSON.stringify(n.inputResponses)} | ${JSON.stringify(n.requestState)}`,
    );
    expect(g.clientSource).toContain(
      `Omit<ParamsOf<T.ListToolsRequest>, ${JSON.stringify(n.cursorParam)}>`,
    );
    const checked = tsc(g.dir, {
      compilerOptions: { ...STRICT_OPTIONS, ...NODE_TYPES, noEmit: true },
      include: ["**/*.ts"],
    });
    expect(checked.output).toBe("");
    expect(checked.status).toBe(0);
  });
});
