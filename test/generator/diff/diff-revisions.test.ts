/**
 * The diff report (`generator/diff`) between the real revisions of the spec: valid, unique changes for
 * every pair, the released pairs by structure, and the changelog's schema-visible changes of
 * 2025-11-25 → 2026-07-28.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  diffModels,
  RULE_IDS,
  SEVERITIES,
  summarize,
  type Change,
} from "../../../generator/diff/index.js";
import { diffMarkdown } from "../../../generator/diff/report.js";
import { methodsOfChangedKind } from "../../../generator/diff/methods.js";
import { typeText } from "../../../generator/diff/types.js";
import type { ProtocolModel } from "../../../generator/ir/model.js";
import { methodRoles } from "../../../generator/ir/query.js";
import { loadModel } from "../../../generator/load/index.js";
import { REVISIONS, schemaFile } from "../../helpers/spec.js";

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
      // The era bridge asks for this one rule alone; it must find what the whole diff reports.
      expect(methodsOfChangedKind(model(from), model(to))).toEqual(
        new Set(changes.filter((c) => c.ruleId === "method-kind-changed").map((c) => c.location)),
      );
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
