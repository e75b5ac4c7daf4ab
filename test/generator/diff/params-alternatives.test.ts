/**
 * Params that become a union of alternatives, on the real revisions: in 2025-06-18 → 2025-11-25
 * elicitation/create's inline params became `ElicitRequestFormParams | ElicitRequestURLParams`. The
 * diff names the alternative added (clients, which receive the request, must handle it) and which
 * alternative continues the old params, then shows what changed inside that one, property by property.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { diffModels, type Change } from "../../../generator/diff/index.js";
import { loadModel } from "../../../generator/load/index.js";
import { schemaFile } from "../../helpers/spec.js";

type Row = [string, string, string, string | null, string | null];

describe("2025-06-18 → 2025-11-25: elicitation/create's params became two alternatives", () => {
  let changes: Change[] = [];
  let rows: Row[] = [];
  beforeAll(() => {
    const model = (revision: string) => loadModel(schemaFile(revision), { revision });
    changes = diffModels(model("2025-06-18"), model("2025-11-25"));
    rows = changes.map((c) => [c.ruleId, c.severity, c.location, c.from ?? null, c.to ?? null]);
  });

  it("one entry for the alternative added, breaking the receiver (the client) only", () => {
    const entries = rows.filter((r) => r[2] === "elicitation/create");
    expect(entries).toEqual([
      [
        "method-params-changed",
        "breaking-client",
        "elicitation/create",
        '{ "message": string; "requestedSchema": { "properties": { [key: string]: PrimitiveSchemaDefinition }; "required"?: Array<string>; "type": "object" } }',
        "ElicitRequestFormParams | ElicitRequestURLParams",
      ],
    ]);
    expect(changes.find((c) => c.location === "elicitation/create")?.message).toBe(
      "elicitation/create params alternatives changed: added ElicitRequestURLParams; the old inline params continued by ElicitRequestFormParams",
    );
  });

  it("what changed inside the alternative that continues the old params, each with its severity", () => {
    const inside = rows.filter((r) => r[2].startsWith("ElicitRequest.params."));
    expect(inside).toEqual([
      [
        "property-added-optional",
        "non-breaking",
        "ElicitRequest.params._meta",
        null,
        '{ "progressToken"?: ProgressToken; [key: string]: unknown }',
      ],
      [
        "property-added-optional",
        "non-breaking",
        "ElicitRequest.params.task",
        null,
        "TaskMetadata",
      ],
      ["property-added-optional", "non-breaking", "ElicitRequest.params.mode", null, '"form"'],
      [
        "property-added-optional",
        "non-breaking",
        "ElicitRequest.params.requestedSchema.$schema",
        null,
        "string",
      ],
    ]);
  });
});
