/**
 * Telemetry costs nothing unless asked for: without `--telemetry` the output has nothing of
 * OpenTelemetry, and with it, while no tracer or meter provider is registered, the generated server
 * and client hold no hook at all (the adapter's factories give none) and answer as before.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createServer as createPlainServer } from "../../../generated/dual/index.js";
import { createClient, createServer } from "../../../generated/otel/index.js";
import {
  otelClientTelemetry,
  otelServerTelemetry,
} from "../../../generated/otel/runtime/telemetry/otel.js";
import { CC, PV } from "../../helpers/server-harness.js";
import { ROOT } from "../../helpers/spec.js";

const INFO = { name: "no-provider", version: "1.0.0" };
const handlers = {
  "tools/call": (params: { name: string }) => ({
    content: [{ type: "text" as const, text: `hello ${params.name}` }],
  }),
};
const CALL = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "greet", arguments: {}, _meta: { [PV]: "2026-07-28", [CC]: {} } },
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe("with no provider registered", () => {
  it("the adapter's factories give no hook", () => {
    expect(otelServerTelemetry()).toBeUndefined();
    expect(otelClientTelemetry()).toBeUndefined();
  });

  it("the generated server's dispatcher holds none, and answers as the server generated without the flag", async () => {
    const traced = createServer({ info: INFO, capabilities: { tools: {} }, handlers });
    const plain = createPlainServer({ info: INFO, capabilities: { tools: {} }, handlers });
    expect((traced.dispatcher as unknown as { telemetry: unknown }).telemetry).toBeUndefined();
    const delivery = () => ({ notify() {}, signal: new AbortController().signal });
    const [a, b] = await Promise.all([
      traced.dispatcher.handle(CALL, delivery()),
      plain.dispatcher.handle(CALL, delivery()),
    ]);
    expect(a).toEqual(b);
    expect(a.response).toMatchObject({ result: { content: [{ text: "hello greet" }] } });
  });

  it("the generated client's core holds none", () => {
    const client = createClient({
      transport: {
        request: () => Promise.reject(new Error("unused")),
        notify: async () => {},
        close: async () => {},
      },
      info: INFO,
    });
    const options = (client.core as unknown as { options: { telemetry?: unknown } }).options;
    expect(options.telemetry).toBeUndefined();
  });
});

describe("without --telemetry", () => {
  it("no generated file names OpenTelemetry; with it, only the adapter imports the API", () => {
    const plain = files(join(ROOT, "generated", "dual")).filter((f) => f.endsWith(".ts"));
    expect(plain.filter((f) => readFileSync(f, "utf8").includes("@opentelemetry"))).toEqual([]);
    const traced = files(join(ROOT, "generated", "otel")).filter((f) => f.endsWith(".ts"));
    const importing = traced.filter((f) =>
      readFileSync(f, "utf8").includes('from "@opentelemetry/'),
    );
    expect(importing.map((f) => f.slice(join(ROOT, "generated", "otel").length + 1))).toEqual([
      join("runtime", "telemetry", "otel.ts"),
    ]);
  });
});
