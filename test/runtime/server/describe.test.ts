/**
 * The result describing the server (discovery, or the stateful handshake) is written by the runtime,
 * not a handler; its fields come from the revision's result type. A revision whose description
 * requires a field the server's options fill (a draft's `DiscoverResult` required `serverInfo`) is
 * served with it; one requiring a field nothing can fill is a generation error at that line.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { GeneratorError } from "../../../generator/errors.js";
import { loadSchemaText } from "../../helpers/golden.js";
import { serverGenerator } from "../../helpers/generated-server.js";
import { schemaFile } from "../../helpers/spec.js";
import { CC, PV, type Msg, type ServerLike } from "../../helpers/server-harness.js";

const BASE = readFileSync(schemaFile("2026-07-28"), "utf8");
const DISCOVER_RESULT = "export interface DiscoverResult extends CacheableResult {\n";

/** The 2026-07-28 schema with lines added at the top of `DiscoverResult`'s body. */
function withDiscoverFields(fields: string): string {
  expect(BASE).toContain(DISCOVER_RESULT);
  return BASE.replace(DISCOVER_RESULT, `${DISCOVER_RESULT}${fields}`);
}

const generator = serverGenerator("mcp-gen-describe-");
afterAll(() => generator.dispose());
const generate = generator.generate;

const INFO = { name: "describe-test", version: "1.2.3" };
const discover = {
  jsonrpc: "2.0",
  id: 1,
  method: "server/discover",
  params: { _meta: { [PV]: "2026-07-28", [CC]: {} } },
};

async function discoverWith(
  generated: { server: Record<string, unknown> },
  options: Record<string, unknown> = {},
): Promise<Msg> {
  const createServer = generated.server["createServer"] as (o: unknown) => ServerLike;
  const server = createServer({
    info: INFO,
    capabilities: { tools: {} },
    handlers: {},
    ...options,
  });
  const outcome = await server.dispatcher.handle(discover, {
    notify: () => {},
    signal: new AbortController().signal,
  });
  return outcome.response!;
}

describe("the server's description follows the revision's result type", () => {
  it("fills a required serverInfo from the server's info, and the result passes the revision's own validator", async () => {
    const generated = await generate(
      withDiscoverFields("  serverInfo: Implementation;\n"),
      "discover-with-server-info",
    );
    const response = await discoverWith(generated, { instructions: "Be kind." });
    expect(response.error).toBeUndefined();
    expect(response.result.serverInfo).toEqual(INFO);
    expect(response.result.instructions).toBe("Be kind.");
    const validate = generated.validators["validateDiscoverResult"] as (v: unknown) => {
      ok: boolean;
    };
    expect(validate(response.result)).toEqual({ ok: true, value: response.result });
  });

  it("writes no serverInfo where the revision's result has none", async () => {
    const generated = await generate(BASE, "discover-plain");
    const response = await discoverWith(generated);
    expect(Object.keys(response.result).sort()).toEqual([
      "_meta",
      "cacheScope",
      "capabilities",
      "resultType",
      "supportedVersions",
      "ttlMs",
    ]);
  });

  it("leaves an optional field it has no source for out", async () => {
    const generated = await generate(
      withDiscoverFields("  motto?: string;\n"),
      "discover-optional-extra",
    );
    const response = await discoverWith(generated);
    expect(response.result).not.toHaveProperty("motto");
    const validate = generated.validators["validateDiscoverResult"] as (v: unknown) => {
      ok: boolean;
    };
    expect(validate(response.result).ok).toBe(true);
  });

  it("refuses to generate a revision whose description requires a field nothing fills, naming its line", () => {
    const schema = withDiscoverFields("  motto: string;\n");
    const line = schema.slice(0, schema.indexOf("  motto: string;")).split("\n").length;
    let error: unknown;
    try {
      loadSchemaText(schema, "discover-unfillable");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GeneratorError);
    expect((error as GeneratorError).line).toBe(line);
    expect((error as Error).message).toMatch(
      /`DiscoverResult` requires `motto`, which the generated server writes itself/,
    );
  });
});
