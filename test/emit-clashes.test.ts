/**
 * Output that would not compile is a generation error, not a silent exit 0: two schema messages that
 * would become one member of the generated code are reported, both named, at the second's line.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderRevision } from "../generator/emit/index.js";
import { GeneratorError } from "../generator/errors.js";
import { GOLDEN_VERSION, loadSchemaText } from "./helpers/golden.js";
import { emitFacts, schemaFile } from "./helpers/spec.js";

const BASE = readFileSync(schemaFile("2026-07-28"), "utf8");
const UNION = "export type InputRequest =\n  CreateMessageRequest | ListRootsRequest | ElicitRequest;\n";

describe("members the generated code would hold twice", () => {
  it("two input requests the client would handle with one option are refused, naming both", async () => {
    expect(BASE).toContain(UNION);
    const extra = "export interface SummarizeRequest extends JSONRPCRequest {\n  method: \"sampling/summarize\";\n  params: CreateMessageRequestParams;\n}\n";
    const schema = BASE.replace(UNION, `${UNION.replace("ElicitRequest;", "ElicitRequest | SummarizeRequest;")}\n${extra}`);
    const model = loadSchemaText(schema, "clash");
    // Methods are in source order: the new request stands first, so the clash is at the old one.
    const line = schema.split("\n").findIndex((l) => l.startsWith("export interface CreateMessageRequest ")) + 1;
    const rendering = renderRevision(model, GOLDEN_VERSION, emitFacts(model));
    await expect(rendering).rejects.toBeInstanceOf(GeneratorError);
    await expect(rendering).rejects.toMatchObject({
      message: "`SummarizeRequest` and `CreateMessageRequest` would both be the client option `onSample`",
      line,
    });
  });

  it("the same schema without the clash renders", async () => {
    await expect(renderRevision(loadSchemaText(BASE, "no-clash"), GOLDEN_VERSION, { releases: {} })).resolves.toBeDefined();
  });
});
