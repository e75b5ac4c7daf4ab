/*
 * What the definitions-layer tests (test/runtime/server/definitions*.test.ts) share: the JSON Schema
 * engines they run with, two schemas, a generated 2026-07-28 server built from definitions, one
 * request through its dispatcher, and a host for remote `$ref`s that counts how often it is asked.
 */
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createServer,
  ServerDefinitions,
  type McpServer,
} from "../../generated/2026-07-28/server.js";
import type { JsonSchemaEngine } from "../../generated/2026-07-28/runtime/schema/json-schema.js";
import { ajvEngine } from "../../runtime/schema/json-schema-ajv.js";
import { cfworkerEngine } from "../../runtime/schema/json-schema-cfworker.js";
import { INFO } from "./server-fixture.js";
import type { Msg } from "./server-harness.js";

export const ENGINES: ReadonlyArray<[string, () => JsonSchemaEngine]> = [
  ["ajv", ajvEngine],
  ["cfworker", cfworkerEngine],
];

export const COUNT_SCHEMA = {
  type: "object",
  properties: { n: { type: "number" }, label: { type: "string", minLength: 1 } },
  required: ["n"],
  additionalProperties: false,
};
export const OUTPUT_SCHEMA = {
  type: "object",
  properties: { doubled: { type: "number" } },
  required: ["doubled"],
};

/** Sends one request through the dispatcher, as a transport would; notifications land in `notified`. */
export async function send(server: McpServer, message: Msg, notified: Msg[] = []): Promise<Msg> {
  const outcome = await server.dispatcher.handle(message, {
    notify: (n) => void notified.push(n),
    signal: new AbortController().signal,
  });
  return outcome.response as Msg;
}

export function serverWith(definitions: ServerDefinitions, handlers = {}): McpServer {
  return createServer({
    info: INFO,
    capabilities: { tools: { listChanged: true } },
    definitions,
    handlers,
  });
}

/** A loopback HTTP server that counts every request: the host a remote `$ref` points at. */
export async function refHost(): Promise<{
  url: string;
  hits: () => number;
  close(): Promise<void>;
}> {
  let hits = 0;
  const server = createHttpServer((_req, res) => {
    hits++;
    res
      .writeHead(200, { "Content-Type": "application/json" })
      .end(JSON.stringify({ type: "number" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.json`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
