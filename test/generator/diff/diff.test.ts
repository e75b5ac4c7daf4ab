/**
 * The diff report (`generator/diff`): golden pairs of small made-up schemas, one per rule id
 * (`test/fixtures/diff/base.ts` and `<rule>/edits.json`), the real revisions, and `mcp-gen diff`.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../generator/cli/main.js";
import {
  diffModels,
  isBreaking,
  RULE_IDS,
  SEVERITIES,
  summarize,
  type Change,
} from "../../../generator/diff/index.js";
import { diffMarkdown } from "../../../generator/diff/report.js";
import { typeText } from "../../../generator/diff/types.js";
import type { ProtocolModel } from "../../../generator/ir/model.js";
import { methodRoles } from "../../../generator/ir/query.js";
import { loadModel } from "../../../generator/load/index.js";
import { REVISIONS, ROOT, SPEC_DIR, schemaFile } from "../../helpers/spec.js";
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

describe("real revisions", () => {
  const models = new Map<string, ProtocolModel>();
  const model = (revision: string): ProtocolModel => {
    let m = models.get(revision);
    if (!m) models.set(revision, (m = loadModel(schemaFile(revision), { revision })));
    return m;
  };

  it.each(REVISIONS.slice(1).map((to, i) => [REVISIONS[i]!, to] as const))(
    "diffs %s → %s with valid, unique changes",
    (from, to) => {
      const changes = diffModels(model(from), model(to));
      for (const change of changes) {
        expect(RULE_IDS).toContain(change.ruleId);
        expect(SEVERITIES).toContain(change.severity);
        expect(change.message.length).toBeGreaterThan(0);
      }
      const keys = changes.map((c) => `${c.ruleId} ${c.location}`);
      expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
      expect(diffMarkdown(from, to, changes)).toContain(`${summarize(changes).total}`);
    },
  );

  describe("the released pairs, by structure", () => {
    const rows = (from: string, to: string) =>
      diffModels(model(from), model(to)).map((c) => [
        c.ruleId,
        c.severity,
        c.location,
        c.from ?? null,
        c.to ?? null,
      ]);

    it("2024-11-05 → 2025-03-26: audio content widens the content unions, which breaks their readers only", () => {
      const changes = rows("2024-11-05", "2025-03-26");
      expect(changes).toContainEqual([
        "property-type-changed",
        "breaking-client",
        "PromptMessage.content",
        "EmbeddedResource | ImageContent | TextContent",
        "AudioContent | EmbeddedResource | ImageContent | TextContent",
      ]);
      expect(changes).toContainEqual([
        "property-type-changed",
        "breaking-client",
        "CallToolResult.content",
        "Array<EmbeddedResource | ImageContent | TextContent>",
        "Array<AudioContent | EmbeddedResource | ImageContent | TextContent>",
      ]);
      expect(changes).toContainEqual([
        "definition-added",
        "non-breaking",
        "AudioContent",
        null,
        null,
      ]);
      expect(changes).toContainEqual([
        "property-added-optional",
        "non-breaking",
        "ProgressNotification.params.message",
        null,
        "string",
      ]);
      expect(changes).toContainEqual([
        "property-added-optional",
        "non-breaking",
        "Tool.annotations",
        null,
        "ToolAnnotations",
      ]);
    });

    it("2025-03-26 → 2025-06-18: a renamed reference is a rename; resource links widen content for readers", () => {
      const changes = rows("2025-03-26", "2025-06-18");
      expect(changes).toContainEqual([
        "definition-renamed",
        "non-breaking",
        "ResourceReference",
        "ResourceReference",
        "ResourceTemplateReference",
      ]);
      expect(changes).toContainEqual([
        "property-type-changed",
        "breaking-client",
        "PromptMessage.content",
        "AudioContent | EmbeddedResource | ImageContent | TextContent",
        "ContentBlock",
      ]);
      expect(changes).toContainEqual([
        "property-added-optional",
        "non-breaking",
        "CallToolResult.structuredContent",
        null,
        "{ [key: string]: unknown }",
      ]);
      expect(changes).toContainEqual([
        "method-added",
        "non-breaking",
        "elicitation/create",
        null,
        "ElicitRequest",
      ]);
      expect(changes.filter((c) => c[0] === "definition-removed").map((c) => c[2])).not.toContain(
        "ResourceReference",
      );
    });

    it("2025-06-18 → 2025-11-25: params moved into named types are looked through to what changed inside", () => {
      const changes = rows("2025-06-18", "2025-11-25");
      expect(changes).toContainEqual([
        "property-became-optional",
        "breaking-both",
        "CancelledNotification.params.requestId",
        "required",
        "optional",
      ]);
      expect(changes).toContainEqual([
        "property-added-optional",
        "non-breaking",
        "CreateMessageRequest.params.tools",
        null,
        "Array<Tool>",
      ]);
      expect(changes).toContainEqual([
        "property-added-optional",
        "non-breaking",
        "CreateMessageRequest.params.toolChoice",
        null,
        "ToolChoice",
      ]);
      // Capabilities that took any object now have optional fields: only their writer, the client, can break.
      expect(changes).toContainEqual([
        "property-type-changed",
        "breaking-client",
        "ClientCapabilities.sampling",
        "object",
        '{ "context"?: object; "tools"?: object }',
      ]);
      expect(changes).toContainEqual([
        "property-type-changed",
        "breaking-client",
        "ClientCapabilities.elicitation",
        "object",
        '{ "form"?: object; "url"?: object }',
      ]);
      // Only elicitation's params, which became a union of two forms, have an entry of their own:
      // the form added (what changed inside the other shows too: diff-params-alternatives.test.ts).
      expect(changes.filter((c) => c[0] === "method-params-changed").map((c) => c[2])).toEqual([
        "elicitation/create",
      ]);
    });

    it("no entry has equal before and after", () => {
      for (const [from, to] of REVISIONS.slice(1).map((r, i) => [REVISIONS[i]!, r] as const)) {
        for (const change of diffModels(model(from), model(to)))
          if (change.from !== undefined)
            expect(change.from, `${from} → ${to} ${change.location}`).not.toBe(change.to);
      }
    });
  });

  describe("2025-11-25 → 2026-07-28 reports the changelog's schema-visible changes", () => {
    let changes: Change[] = [];
    const has = (ruleId: string, location: string): Change | undefined =>
      changes.find((c) => c.ruleId === ruleId && c.location === location);
    beforeAll(() => {
      changes = diffModels(model("2025-11-25"), model("2026-07-28"));
    });

    it("the stateless lifecycle replaces the handshake", () => {
      expect(has("lifecycle-changed", "lifecycle")).toMatchObject({
        severity: "breaking-both",
        from: expect.stringContaining("stateful"),
        to: expect.stringContaining("stateless"),
      });
    });
    it("initialize is removed", () =>
      expect(has("method-removed", "initialize")?.severity).toBe("breaking-client"));
    it("notifications/initialized is removed", () =>
      expect(has("notification-removed", "notifications/initialized")?.severity).toBe(
        "breaking-client",
      ));
    it("ping is removed", () =>
      expect(has("method-removed", "ping")?.severity).toBe("breaking-both"));
    it("logging/setLevel is removed", () =>
      expect(has("method-removed", "logging/setLevel")?.severity).toBe("breaking-client"));
    it("resources/subscribe is removed", () =>
      expect(has("method-removed", "resources/subscribe")).toBeDefined());
    it("resources/unsubscribe is removed", () =>
      expect(has("method-removed", "resources/unsubscribe")).toBeDefined());
    it.each(["tasks/get", "tasks/result", "tasks/cancel", "tasks/list"])(
      "%s is removed",
      (method) => expect(has("method-removed", method)).toBeDefined(),
    );
    it("notifications/tasks/status is removed", () =>
      expect(has("notification-removed", "notifications/tasks/status")).toBeDefined());
    it("notifications/roots/list_changed is removed", () =>
      expect(has("notification-removed", "notifications/roots/list_changed")).toBeDefined());
    it("the elicitation completion notification is removed", () =>
      expect(has("notification-removed", "notifications/elicitation/complete")?.severity).toBe(
        "breaking-server",
      ));
    it("the URL elicitation's elicitationId is removed", () =>
      expect(has("property-removed", "ElicitRequestURLParams.elicitationId")).toBeDefined());
    it("server/discover is added", () =>
      expect(has("method-added", "server/discover")?.severity).toBe("non-breaking"));
    it("subscriptions/listen is added", () =>
      expect(has("method-added", "subscriptions/listen")).toBeDefined());
    it("its acknowledgement notification is added", () =>
      expect(has("notification-added", "notifications/subscriptions/acknowledged")).toBeDefined());

    it("resultType becomes required on every result, reported once at the base that declares it", () => {
      expect(has("property-added-required", "Result.resultType")).toMatchObject({
        to: "ResultType",
      });
      expect(
        changes.filter((c) => c.location.endsWith(".resultType")).map((c) => c.location),
      ).toEqual(["Result.resultType"]);
    });

    it.each([
      "ListToolsResult",
      "ListPromptsResult",
      "ListResourcesResult",
      "ListResourceTemplatesResult",
      "ReadResourceResult",
    ])("%s gains required ttlMs and cacheScope through CacheableResult", (result) => {
      expect(has("property-added-required", `${result}.ttlMs`)?.severity).toBe("breaking-server");
      expect(has("property-added-required", `${result}.cacheScope`)?.severity).toBe(
        "breaking-server",
      );
    });
    it("CacheableResult is a new definition", () =>
      expect(has("definition-added", "CacheableResult")).toBeDefined());
    it("ttlMs is added to exactly the cacheable results", () => {
      expect(
        changes
          .filter((c) => c.location.endsWith(".ttlMs"))
          .map((c) => c.location.split(".")[0])
          .sort(),
      ).toEqual([
        "ListPromptsResult",
        "ListResourceTemplatesResult",
        "ListResourcesResult",
        "ListToolsResult",
        "ReadResourceResult",
      ]);
    });

    it.each([
      ["HEADER_MISMATCH", "-32020"],
      ["MISSING_REQUIRED_CLIENT_CAPABILITY", "-32021"],
      ["UNSUPPORTED_PROTOCOL_VERSION", "-32022"],
    ])("error code %s (%s) is added", (constant, code) =>
      expect(has("error-code-added", `error ${constant}`)?.to).toBe(code),
    );
    it("error code -32042 is removed", () =>
      expect(has("error-code-removed", "error URL_ELICITATION_REQUIRED")?.from).toBe("-32042"));
    it("error-code constants are not reported again as constants", () =>
      expect(
        changes.filter(
          (c) =>
            c.ruleId.startsWith("constant-") &&
            /ERROR|MISMATCH|CAPABILITY|UNSUPPORTED|REQUIRED/.test(c.location),
        ),
      ).toEqual([]));

    it("client capabilities gain extensions", () =>
      expect(has("capability-added", "ClientCapabilities.extensions")?.severity).toBe(
        "non-breaking",
      ));
    it("server capabilities gain extensions", () =>
      expect(has("capability-added", "ServerCapabilities.extensions")?.severity).toBe(
        "non-breaking",
      ));
    it("the tasks capabilities are removed", () => {
      expect(has("capability-removed", "ClientCapabilities.tasks")?.severity).toBe(
        "breaking-server",
      );
      expect(has("capability-removed", "ServerCapabilities.tasks")?.severity).toBe(
        "breaking-client",
      );
    });
    it("the deprecations of SEP-2577 are listed", () =>
      expect(
        changes.filter((c) => c.ruleId === "deprecation-added" && c.message.includes("SEP-2577"))
          .length,
      ).toBe(20));

    it("lists no change for a definition whose flattened type is identical", () => {
      const before = new Map(
        model("2025-11-25").definitions.map((d) => [d.name, typeText(d.type)]),
      );
      const identical = model("2026-07-28")
        .definitions.filter((d) => before.get(d.name) === typeText(d.type))
        .map((d) => d.name);
      expect(identical.length).toBeGreaterThan(10);
      const touched = (name: string) =>
        changes.filter(
          (c) =>
            c.ruleId !== "deprecation-added" &&
            (c.location === name ||
              c.location.startsWith(`${name}.`) ||
              c.location.startsWith(`${name}[`)),
        );
      expect(identical.flatMap(touched)).toEqual([]);
    });

    it("reports an inherited property's change only where it is declared or first inherited", () => {
      const to = model("2026-07-28");
      const from = new Set(model("2025-11-25").definitions.map((d) => d.name));
      for (const change of changes.filter((c) => c.ruleId.startsWith("property-"))) {
        const [owner, name] = change.location.split(".") as [string, string];
        const definition = to.definitions.find((d) => d.name === owner);
        const property =
          definition?.type.kind === "object"
            ? definition.type.properties.find((p) => p.name === name)
            : undefined;
        // Inherited: only when the declaring definition is new in this revision (nothing to report it at).
        if (property?.declaredIn && property.declaredIn !== owner)
          expect(from.has(property.declaredIn), change.location).toBe(false);
      }
    });

    it("message definitions' params are reported by the method rules only", () => {
      const messages = new Set(methodRoles(model("2026-07-28").methods).map((m) => m.message));
      expect(
        changes.filter(
          (c) =>
            c.ruleId.startsWith("property-") &&
            messages.has(c.location.split(".")[0]!) &&
            c.location.endsWith(".params"),
        ),
      ).toEqual([]);
    });
  });
});

describe("mcp-gen diff", () => {
  const run = async (argv: string[]) => {
    let stdout = "";
    let stderr = "";
    const code = await main(argv, {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      env: {},
      cwd: ROOT,
    });
    return { code, stdout, stderr };
  };
  const real = ["--spec-dir", SPEC_DIR, "--offline"];

  it("prints JSON with the summary and the changes", async () => {
    const { code, stdout } = await run([
      "diff",
      "2025-11-25",
      "2026-07-28",
      "--format",
      "json",
      ...real,
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      from: string;
      to: string;
      summary: Record<string, number>;
      changes: Change[];
    };
    expect(report.from).toBe("2025-11-25");
    expect(report.to).toBe("2026-07-28");
    expect(report.summary.total).toBe(report.changes.length);
    expect(report.changes.filter((c) => isBreaking(c.severity)).length).toBe(
      report.summary["breaking-both"]! +
        report.summary["breaking-client"]! +
        report.summary["breaking-server"]!,
    );
  });

  it("prints Markdown grouped by severity, summary first", async () => {
    const { code, stdout } = await run(["diff", "2025-11-25", "2026-07-28", ...real]);
    expect(code).toBe(0);
    const summary = stdout.indexOf("| Severity | Changes |");
    const both = stdout.indexOf("## Breaking for clients and servers");
    const nonBreaking = stdout.indexOf("## Non-breaking");
    expect(summary).toBeGreaterThan(0);
    expect(both).toBeGreaterThan(summary);
    expect(nonBreaking).toBeGreaterThan(both);
    expect(stdout).toContain("| method-removed | `initialize` |");
  });

  it("--format github: a workflow annotation per change (error when breaking), then a summary", async () => {
    const from = fixture("method-removed", "from");
    const to = fixture("method-removed", "to");
    const { code, stdout } = await run(["diff", from, to, "--format", "github"]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    const changes = diffModels(
      loadModel(from, { revision: "from" }),
      loadModel(to, { revision: "to" }),
    );
    expect(lines).toHaveLength(changes.length + 1);
    const removed = changes.find((c) => c.ruleId === "method-removed")!;
    // The fixtures are written outside the repository: no file to annotate (test/generator/diff/fail-on).
    expect(lines).toContain(
      `::error title=method-removed (${removed.severity === "breaking-both" ? "breaking for clients and servers" : removed.severity === "breaking-client" ? "breaking for clients" : "breaking for servers"})::${removed.location}: ${removed.message} (from ${removed.from})`,
    );
    expect(lines.at(-1)).toMatch(/^MCP schema diff \S+ → \S+: \d+ changes? \(/);
    const added = await run(["diff", to, from, "--format", "github"]);
    expect(added.stdout).toMatch(/^::notice title=method-added \(non-breaking\)::/m);
  });

  it("--fail-on breaking exits 1 with one line on stderr when a change is breaking", async () => {
    const { code, stdout, stderr } = await run([
      "diff",
      fixture("method-removed", "from"),
      fixture("method-removed", "to"),
      "--fail-on",
      "breaking",
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain("method-removed");
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("breaking");
  });

  it("--fail-on breaking exits 0 when every change is non-breaking", async () => {
    const { code, stdout } = await run([
      "diff",
      fixture("definition-added", "from"),
      fixture("definition-added", "to"),
      "--fail-on",
      "breaking",
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain("definition-added");
  });

  it("rejects an unknown format as a usage error", async () => {
    expect((await run(["diff", "a.ts", "b.ts", "--format", "xml"])).code).toBe(2);
  });
});
