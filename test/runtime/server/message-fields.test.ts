/**
 * The generated server reads the handshake's params and the cancellation's, and writes the progress
 * notification's, by the revision's names (the description's `handshake` and `notificationParams`);
 * the stdio transport names none of them. A server generated from a schema renaming those fields
 * follows the new names.
 */
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { serverGenerator } from "../../helpers/generated-server.js";
import { RENAMED_FIELDS as n, renamedMessageFields } from "../../helpers/renamed-message-fields.js";
import { until, type Msg } from "../../helpers/stdio-harness.js";

const generator = serverGenerator("mcp-gen-server-message-fields-");
afterAll(() => generator.dispose());

const REVISION = "2025-11-25";
const line = (message: Msg): string => `${JSON.stringify(message)}\n`;

describe("a server of an initialize-era revision renaming the handshake's and notifications' fields", () => {
  it("keeps the client's capabilities, sends progress and takes a cancellation under the revision's names", async () => {
    const g = await generator.generate(renamedMessageFields(REVISION), REVISION);
    const seen: { capabilities?: unknown; reason?: unknown } = {};
    const server = (g.server["createServer"] as (o: unknown) => Record<string, unknown>)({
      info: { name: "renamed", version: "1.0.0" },
      capabilities: { tools: {} },
      handlers: {
        "tools/call": async (
          _params: Msg,
          ctx: {
            clientCapabilities: unknown;
            signal: AbortSignal;
            progress(p: number, t?: number, m?: string): void;
          },
        ) => {
          seen.capabilities = ctx.clientCapabilities;
          ctx.progress(1, 2, "half");
          await new Promise<void>((resolve) =>
            ctx.signal.addEventListener("abort", () => resolve(), { once: true }),
          );
          seen.reason = (ctx.signal.reason as Error).message;
          return { content: [] };
        },
      },
      log: () => undefined,
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const messages: Msg[] = [];
    let text = "";
    output.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const lines = text.split("\n");
      text = lines.pop()!;
      for (const l of lines) messages.push(JSON.parse(l) as Msg);
    });
    const stdio = (server["serveStdio"] as (o: unknown) => { closed: Promise<void> })({
      input,
      output,
      errors: new PassThrough(),
      captureConsole: false,
    });
    const abilities = { sampling: {} };
    input.write(
      line({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: REVISION,
          [n.capabilities]: abilities,
          [n.clientInfo]: { name: "c", version: "1" },
        },
      }),
    );
    await until(() => messages.length === 1, "the handshake's answer");
    expect(messages[0]!["result"]).toMatchObject({ protocolVersion: REVISION });
    input.write(
      line({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "a", _meta: { progressToken: "t" } },
      }),
    );
    await until(() => messages.length === 2, "the progress");
    expect(messages[1]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { [n.progressToken]: "t", progress: 1, total: 2, message: "half" },
    });
    expect(seen.capabilities).toEqual(abilities);
    input.write(
      line({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { [n.requestId]: 2, [n.reason]: "enough" },
      }),
    );
    await until(() => seen.reason !== undefined, "the cancellation");
    expect(seen.reason).toBe("enough");
    input.end();
    await stdio.closed;
    // A cancelled request gets no answer.
    expect(messages.some((m) => m["id"] === 2)).toBe(false);
  });
});
