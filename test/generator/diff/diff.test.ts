/**
 * The diff report (`generator/diff`) on golden pairs of small made-up schemas, one per rule id
 * (`test/fixtures/diff/base.ts` and `<rule>/edits.json`). The real revisions are diff-revisions,
 * `mcp-gen diff` is diff-cli.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffModels, RULE_IDS, type Change } from "../../../generator/diff/index.js";
import { loadModel } from "../../../generator/load/index.js";
import { ROOT } from "../../helpers/spec.js";
import { DIFF_FIXTURES, diffFixture as diffFixturePath } from "../../helpers/diff-fixtures.js";

const FIXTURES = DIFF_FIXTURES;
const fixture = diffFixturePath;
const diffFixture = (rule: string): Change[] =>
  diffModels(
    loadModel(fixture(rule, "from"), { revision: "from" }),
    loadModel(fixture(rule, "to"), { revision: "to" }),
  );

/** [ruleId, severity, location, from, to] of every change, in report order. */
type Row = [string, string, string, string | null, string | null];
const rows = (changes: Change[]): Row[] =>
  changes.map((c) => [c.ruleId, c.severity, c.location, c.from ?? null, c.to ?? null]);

const GOLDEN: Record<string, Row[]> = {
  "capability-added": [
    [
      "capability-added",
      "non-breaking",
      "ClientCapabilities.sounds",
      null,
      '{ "volume"?: boolean }',
    ],
  ],
  "capability-removed": [
    [
      "capability-removed",
      "breaking-client",
      "ServerCapabilities.gadgets.listChanged",
      "boolean",
      null,
    ],
  ],
  "constant-added": [["constant-added", "non-breaking", "constant MAX_GADGETS", null, "10"]],
  "constant-changed": [
    [
      "constant-changed",
      "breaking-both",
      "constant LATEST_PROTOCOL_VERSION",
      '"2099-01-01"',
      '"2099-06-01"',
    ],
  ],
  "constant-removed": [["constant-removed", "breaking-both", "constant MAX_GADGETS", "10", null]],
  "definition-added": [["definition-added", "non-breaking", "Widget", null, null]],
  "definition-removed": [["definition-removed", "breaking-both", "Widget", null, null]],
  "definition-renamed": [["definition-renamed", "non-breaking", "Gadget", "Gadget", "Widget"]],
  "definition-type-changed": [
    [
      "definition-type-changed",
      "breaking-server",
      "GadgetMode",
      '"fast" | "slow"',
      '"fast" | "slow" | integer',
    ],
  ],
  "deprecation-added": [
    [
      "deprecation-added",
      "non-breaking",
      "Gadget.color",
      null,
      "Deprecated as of protocol version 2099-01-01 (SEP-9001). Use a theme instead.",
    ],
  ],
  "error-code-added": [["error-code-added", "non-breaking", "error GADGET_BUSY", null, "-32051"]],
  "error-code-removed": [
    [
      "property-type-changed",
      "breaking-both",
      "GadgetNotFoundError.code",
      "typeof GADGET_NOT_FOUND",
      "integer",
    ],
    ["error-code-removed", "breaking-both", "error GADGET_NOT_FOUND", "-32050", null],
  ],
  "error-code-renumbered": [
    ["error-code-renumbered", "breaking-both", "error GADGET_NOT_FOUND", "-32050", "-32060"],
  ],
  "lifecycle-changed": [
    ["lifecycle-changed", "breaking-both", "lifecycle", "unknown", "stateful (session/open)"],
    ["method-added", "non-breaking", "session/open", null, "OpenRequest"],
    ["definition-added", "non-breaking", "OpenRequest", null, null],
    ["definition-added", "non-breaking", "OpenResult", null, null],
  ],
  "literal-value-added": [["literal-value-added", "breaking-server", "GadgetMode", null, '"eco"']],
  "literal-value-removed": [
    ["literal-value-removed", "breaking-client", "GadgetMode", '"slow"', null],
  ],
  "method-added": [
    ["method-added", "non-breaking", "gadgets/list", null, "ListGadgetsRequest"],
    ["definition-added", "non-breaking", "ListGadgetsRequest", null, null],
    ["definition-added", "non-breaking", "ListGadgetsResult", null, null],
  ],
  "method-kind-changed": [
    ["method-kind-changed", "breaking-both", "gadgets/ping", "request", "notification"],
  ],
  "method-params-changed": [
    [
      "method-params-changed",
      "breaking-both",
      "gadgets/get",
      "GadgetParams",
      "GadgetMode | GadgetParams",
    ],
  ],
  "method-removed": [
    ["method-removed", "breaking-client", "gadgets/list", "ListGadgetsRequest", null],
    ["definition-removed", "breaking-both", "ListGadgetsRequest", null, null],
    ["definition-removed", "breaking-both", "ListGadgetsResult", null, null],
  ],
  "method-results-changed": [
    [
      "method-results-changed",
      "breaking-client",
      "gadgets/get",
      "GetGadgetResult",
      "GetGadgetResult | GadgetPendingResult",
    ],
    ["definition-added", "non-breaking", "GadgetPendingResult", null, null],
    ["definition-added", "non-breaking", "GetGadgetResultResponse", null, null],
  ],
  "method-sender-changed": [
    ["method-sender-changed", "breaking-server", "notifications/gadgets/changed", "server", "both"],
  ],
  "notification-added": [
    [
      "notification-added",
      "non-breaking",
      "notifications/gadgets/removed",
      null,
      "GadgetRemovedNotification",
    ],
    ["definition-added", "non-breaking", "GadgetRemovedNotification", null, null],
  ],
  "notification-removed": [
    [
      "notification-removed",
      "breaking-server",
      "notifications/gadgets/removed",
      "GadgetRemovedNotification",
      null,
    ],
    ["definition-removed", "breaking-both", "GadgetRemovedNotification", null, null],
  ],
  "property-added-optional": [
    ["property-added-optional", "non-breaking", "Gadget.weight", null, "integer"],
  ],
  "property-added-required": [
    [
      "property-added-required",
      "breaking-client",
      "HelloNotification.params.language",
      null,
      "string",
    ],
  ],
  "property-became-optional": [
    [
      "property-became-optional",
      "breaking-client",
      "GetGadgetResult.gadget",
      "required",
      "optional",
    ],
  ],
  "property-became-required": [
    ["property-became-required", "breaking-client", "GadgetParams.size", "optional", "required"],
  ],
  "property-removed": [["property-removed", "breaking-client", "Gadget.color", "string", null]],
  "property-type-changed": [
    ["property-type-changed", "breaking-both", "Gadget.name", "string", "Array<string>"],
  ],
};

describe("rule catalogue", () => {
  it("has one fixture pair per rule id, and nothing else", () => {
    expect(
      readdirSync(FIXTURES)
        .filter((name) => name !== "base.ts")
        .sort(),
    ).toEqual([...RULE_IDS].sort());
    for (const rule of RULE_IDS) expect(readdirSync(join(FIXTURES, rule))).toEqual(["edits.json"]);
    expect(Object.keys(GOLDEN).sort()).toEqual([...RULE_IDS].sort());
  });

  it("documents every rule id in the table of rules.ts", async () => {
    const { readFileSync } = await import("node:fs");
    const source = readFileSync(join(ROOT, "generator", "diff", "rules.ts"), "utf8");
    for (const rule of RULE_IDS)
      expect(source, rule).toMatch(new RegExp(`^ \\* \\| ${rule} +\\|`, "m"));
  });
});

describe.each(RULE_IDS)("fixture %s", (rule) => {
  it("reports exactly the expected changes, the rule's own among them", () => {
    const changes = diffFixture(rule);
    expect(rows(changes)).toEqual(GOLDEN[rule]);
    expect(changes.map((c) => c.ruleId)).toContain(rule);
  });

  it("reports nothing between a schema and itself", () => {
    const model = loadModel(fixture(rule, "to"), { revision: "to" });
    expect(diffModels(model, structuredClone(model))).toEqual([]);
  });
});
