/**
 * The fields the runtime writes itself around handlers' results (the result type, the
 * input-required result's requests and state, the retried params that bring them back, the listen
 * acknowledgement's filter) are named by the revision's types, not by the runtime. A revision that
 * renames them is served under its own names; one whose input-required result, listen result or
 * acknowledgement requires a field the runtime cannot fill is a generation error at that line.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { GeneratorError } from "../../../generator/errors.js";
import { loadSchemaText } from "../../helpers/golden.js";
import { serverGenerator } from "../../helpers/generated-server.js";
import { schemaFile } from "../../helpers/spec.js";
import { ELICIT_CONFIRM } from "../../helpers/server-fixture.js";
import { CC, PV, type Msg, type ServerLike } from "../../helpers/server-harness.js";
import { askingToolCall, RENAMED_ENVELOPE, renamedSchema } from "../../helpers/renamed-envelope.js";

const BASE = readFileSync(schemaFile("2026-07-28"), "utf8");

/** The 2026-07-28 schema with each `from` (which must occur exactly `count` times) replaced. */
function edited(...edits: Array<[from: string, to: string, count: number]>): string {
  let text = BASE;
  for (const [from, to, count] of edits) {
    expect(text.split(from).length - 1, from).toBe(count);
    text = text.replaceAll(from, to);
  }
  return text;
}

const generator = serverGenerator("mcp-gen-envelope-");
afterAll(() => generator.dispose());
const generate = generator.generate;

function generationError(schema: string, marker: string): { error: GeneratorError; line: number } {
  const line = schema.slice(0, schema.indexOf(marker)).split("\n").length;
  let error: unknown;
  try {
    loadSchemaText(schema, "envelope-unfillable");
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(GeneratorError);
  return { error: error as GeneratorError, line };
}

const INFO = { name: "envelope-test", version: "1.0.0" };
const META = { [PV]: "2026-07-28", [CC]: { elicitation: {} } };

/** A tool that asks for confirmation, then answers with what it got back. */
function askingServer(generated: { server: Record<string, unknown> }): ServerLike {
  const createServer = generated.server["createServer"] as (o: unknown) => ServerLike;
  return createServer({
    info: INFO,
    capabilities: { tools: {} },
    handlers: { "tools/call": askingToolCall },
  });
}

async function call(server: ServerLike, id: number, params: Msg): Promise<Msg> {
  const request = {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "ask", ...params, _meta: META },
  };
  const outcome = await server.dispatcher.handle(request, {
    notify: () => {},
    signal: new AbortController().signal,
  });
  return outcome.response!;
}

describe("the runtime's own fields follow the revision's types", () => {
  it("a revision renaming the input-required result's fields and the retry's params is served under its names, both rounds", async () => {
    const n = RENAMED_ENVELOPE;
    const generated = await generate(renamedSchema(), "envelope-renamed");
    const server = askingServer(generated);
    const first = await call(server, 1, {});
    expect(first.error).toBeUndefined();
    expect(Object.keys(first.result).sort()).toEqual(
      ["_meta", n.inputRequests, n.requestState, n.resultType].sort(),
    );
    expect(first.result[n.resultType]).toBe("input_required");
    expect(first.result[n.inputRequests]).toEqual({ confirm: ELICIT_CONFIRM });
    const validate = generated.validators["validateInputRequiredResult"] as (v: unknown) => {
      ok: boolean;
    };
    expect(validate(first.result).ok).toBe(true);

    const answer = { action: "accept", content: { ok: true } };
    const second = await call(server, 2, {
      [n.requestState]: first.result[n.requestState],
      [n.inputResponses]: { confirm: answer },
    });
    expect(second.error).toBeUndefined();
    expect(second.result[n.resultType]).toBe("complete");
    expect(JSON.parse(second.result.content[0].text)).toEqual({
      state: { round: 1 },
      responses: { confirm: answer },
    });

    // A tampered state under the revision's name is refused, and the error names that field.
    const tampered = await call(server, 3, { [n.requestState]: "not-a-state" });
    expect(tampered.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid params: continuation integrity check failed/),
    });
  });

  it("a revision renaming the caching hints gets them under its names, on cacheable results and in discovery, and its handlers may leave them out", async () => {
    const n = RENAMED_ENVELOPE;
    const generated = await generate(renamedSchema(), "envelope-renamed-cache");
    const createServer = generated.server["createServer"] as (o: unknown) => ServerLike;
    const serverWith = (cache?: { ttlMs: number; cacheScope: string }) =>
      createServer({
        info: INFO,
        capabilities: { tools: {} },
        ...(cache ? { cache } : {}),
        handlers: { "tools/list": () => ({ tools: [] }) },
      });
    let server = serverWith({ ttlMs: 5000, cacheScope: n.sharedScope });
    const ask = async (id: number, method: string) =>
      (
        await server.dispatcher.handle(
          { jsonrpc: "2.0", id, method, params: { _meta: META } },
          { notify: () => {}, signal: new AbortController().signal },
        )
      ).response!;
    const listed = await ask(1, "tools/list");
    expect(listed.error).toBeUndefined();
    expect(listed.result).toMatchObject({
      [n.resultType]: "complete",
      [n.ttl]: 5000,
      [n.scope]: n.sharedScope,
      tools: [],
    });
    expect(listed.result).not.toHaveProperty("ttlMs");
    expect(listed.result).not.toHaveProperty("cacheScope");
    const validate = generated.validators["validateListToolsResult"] as (v: unknown) => {
      ok: boolean;
    };
    expect(validate(listed.result).ok).toBe(true);
    const discovered = await ask(2, "server/discover");
    expect(discovered.result).toMatchObject({ [n.ttl]: 5000, [n.scope]: n.sharedScope });
    expect(
      (generated.validators["validateDiscoverResult"] as (v: unknown) => { ok: boolean })(
        discovered.result,
      ).ok,
    ).toBe(true);
    // Unconfigured: a result is not cacheable (the conventions' values), the server's description is
    // shared (the scope's other choice in the schema, under its name there).
    server = serverWith();
    expect((await ask(3, "tools/list")).result).toMatchObject({ [n.ttl]: 0, [n.scope]: "private" });
    expect((await ask(4, "server/discover")).result).toMatchObject({
      [n.ttl]: 0,
      [n.scope]: n.sharedScope,
    });
    // The handler types leave out exactly the fields the runtime fills in, by their new names.
    expect(generated.serverSource).toContain(
      `type Filled = ${[n.resultType, n.ttl, n.scope].map((name) => JSON.stringify(name)).join(" | ")};`,
    );
  });

  it("the listen acknowledgement is written by the revision's filter param", async () => {
    const generated = await generate(BASE, "envelope-listen");
    const createServer = generated.server["createServer"] as (o: unknown) => ServerLike;
    const server = createServer({
      info: INFO,
      capabilities: { tools: { listChanged: true } },
      handlers: {},
    });
    const notes: Msg[] = [];
    const controller = new AbortController();
    const listening = server.dispatcher.handle(
      {
        jsonrpc: "2.0",
        id: 9,
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true }, _meta: META },
      },
      { notify: (n: Msg) => notes.push(n), signal: controller.signal },
    );
    await Promise.resolve();
    controller.abort();
    await listening;
    expect(notes[0]?.method).toBe("notifications/subscriptions/acknowledged");
    expect(notes[0]?.params.notifications).toEqual({ toolsListChanged: true });
  });

  it("refuses to generate a revision whose input-required result requires a field the runtime cannot fill, naming its line", () => {
    const marker = "  reason: string;\n";
    const schema = edited([
      "export interface InputRequiredResult extends Result {\n",
      `export interface InputRequiredResult extends Result {\n${marker}`,
      1,
    ]);
    const { error, line } = generationError(schema, marker);
    expect(error.line).toBe(line);
    expect(error.message).toMatch(
      /`InputRequiredResult` requires `reason`, which the generated server writes itself/,
    );
  });

  it("an input-required result whose state becomes required is still generated: the runtime always fills it", async () => {
    const schema = edited([
      "  requestState?: string;\n}\n\n/* Request parameter type",
      "  requestState: string;\n}\n\n/* Request parameter type",
      1,
    ]);
    const generated = await generate(schema, "envelope-state-required");
    const first = await call(askingServer(generated), 1, {});
    expect(typeof first.result.requestState).toBe("string");
    const validate = generated.validators["validateInputRequiredResult"] as (v: unknown) => {
      ok: boolean;
    };
    expect(validate(first.result).ok).toBe(true);
  });

  it("refuses a listen result or acknowledgement with a required field the runtime has no value for", () => {
    const listenMarker = "  closedBy: string;\n";
    const listen = edited([
      "export interface SubscriptionsListenResult extends Result {\n",
      `export interface SubscriptionsListenResult extends Result {\n${listenMarker}`,
      1,
    ]);
    const closed = generationError(listen, listenMarker);
    expect(closed.error.line).toBe(closed.line);
    expect(closed.error.message).toMatch(/`SubscriptionsListenResult` requires `closedBy`/);

    const ackMarker = "  honouredAt: string;\n";
    const ack = edited([
      "export interface SubscriptionsAcknowledgedNotificationParams extends NotificationParams {\n",
      `export interface SubscriptionsAcknowledgedNotificationParams extends NotificationParams {\n${ackMarker}`,
      1,
    ]);
    const acked = generationError(ack, ackMarker);
    expect(acked.error.line).toBe(acked.line);
    expect(acked.error.message).toMatch(
      /`SubscriptionsAcknowledgedNotificationParams` requires `honouredAt`/,
    );
  });
});
