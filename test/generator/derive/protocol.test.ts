/**
 * The protocol description (generator/derive/protocol.ts): the facts the generated server and
 * client both read, derived once from a revision's model. Pinned here on the released revisions
 * fact by fact (the fixtures' descriptions are golden files), on a schema that renames the fields
 * the runtime writes, and through `mcp-gen ir --protocol`; its check refuses what the runtimes
 * could not trust.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  checkDescription,
  protocolDescription,
  type ProtocolDescription,
} from "../../../generator/derive/protocol.js";
import { loadModel } from "../../../generator/load/index.js";
import type { ProtocolModel } from "../../../generator/ir/model.js";
import { deprecationRegistry } from "../../../generator/registry/index.js";
import { GeneratorError } from "../../../generator/errors.js";
import { main } from "../../../generator/cli/main.js";
import { loadSchemaText } from "../../helpers/golden.js";
import { generatedDir, RELEASES, schemaFile, SPEC_DIR } from "../../helpers/spec.js";
import { RENAMED_ENVELOPE, renamedSchema } from "../../helpers/renamed-envelope.js";
import { RENAMED_FIELDS, renamedMessageFields } from "../../helpers/renamed-message-fields.js";

const load = (revision: string) => loadModel(schemaFile(revision), { revision });

function describeModel(model: ProtocolModel): ProtocolDescription {
  const description = protocolDescription(model, deprecationRegistry(model, RELEASES));
  if (!description) throw new Error(`${model.revision} describes no protocol`);
  return description;
}

const constant = (model: ProtocolModel, name: string) =>
  model.constants.find((c) => c.name === name)?.value;

describe("the protocol description of 2026-07-28 (per-request _meta)", () => {
  const model = load("2026-07-28");
  const d = describeModel(model);

  it("names the fields the runtime writes by the revision's own types", () => {
    expect(d.envelope).toEqual({
      meta: "_meta",
      resultType: "resultType",
      inputRequests: "inputRequests",
      requestState: "requestState",
      inputResponses: "inputResponses",
      inputRequest: { method: "method", params: "params" },
      cacheHints: {
        ttl: "ttlMs",
        scope: "cacheScope",
        uncached: { ttl: 0, scope: "private" },
        sharedScope: "public",
      },
      acknowledgedFilter: "notifications",
    });
    expect(d.resultTypes).toEqual({ complete: "complete", inputRequired: "input_required" });
    expect(d.inputRequiredResult).toBe("InputRequiredResult");
    expect(d.inputResponseUnion).toBe("InputResponse");
  });

  it("gates, pairs and marks each method", () => {
    expect(d.methods["tools/call"]).toEqual({
      params: { definition: "CallToolRequestParams", inMessage: false },
      results: ["CallToolResult"],
      capability: "tools",
      inputRequired: true,
      cacheable: false,
      target: "name",
    });
    expect(d.methods["resources/read"]).toMatchObject({
      capability: "resources",
      cacheable: true,
      target: "uri",
    });
    expect(d.methods["completion/complete"]?.capability).toBe("completions");
    // Cacheable exactly where a result requires both caching hints.
    expect(
      Object.entries(d.methods)
        .filter(([, m]) => m.cacheable)
        .map(([name]) => name)
        .sort(),
    ).toEqual(
      [
        "prompts/list",
        "resources/list",
        "resources/read",
        "resources/templates/list",
        "server/discover",
        "tools/list",
      ].sort(),
    );
  });

  it("takes error codes from the schema's constants and the lifecycle from the model", () => {
    expect(d.errors).toEqual({
      unsupportedVersion: constant(model, "UNSUPPORTED_PROTOCOL_VERSION"),
      missingCapability: constant(model, "MISSING_REQUIRED_CLIENT_CAPABILITY"),
      headerMismatch: constant(model, "HEADER_MISMATCH"),
    });
    expect(d.lifecycle).toEqual(model.lifecycle);
    expect(d.protocolVersion).toBe(model.protocolVersion);
  });

  it("finds the input requests, the listen filter and the describe result's sources", () => {
    expect(Object.keys(d.inputRequests).sort()).toEqual(
      ["elicitation/create", "roots/list", "sampling/createMessage"].sort(),
    );
    expect(d.inputRequests["elicitation/create"]).toEqual({
      capability: "elicitation",
      results: ["ElicitResult"],
    });
    expect(d.listen?.method).toBe("subscriptions/listen");
    expect(d.listen?.filterParam).toBe("notifications");
    expect(d.listen?.filter["toolsListChanged"]).toEqual({
      notification: "notifications/tools/list_changed",
      capability: ["tools", "listChanged"],
      target: null,
    });
    expect(d.listen?.filter["resourceSubscriptions"]).toEqual({
      notification: "notifications/resources/updated",
      capability: ["resources", "subscribe"],
      target: "uri",
    });
    expect(d.describe).toMatchObject({ ttlMs: "cacheTtl", cacheScope: "cacheScope" });
    expect(d.meta.subscriptionId).not.toBeNull();
    expect(d.notifications.acknowledged).toBe("notifications/subscriptions/acknowledged");
    expect(d.cursor).toEqual({ param: "cursor", result: "nextCursor" });
  });

  it("names the params of its own notifications by their types, the discovery versions by their role, the headers by the table", () => {
    expect(d.notificationParams).toEqual({
      progress: {
        token: "progressToken",
        progress: "progress",
        total: "total",
        message: "message",
      },
      cancelled: { requestId: "requestId", reason: "reason" },
      message: { level: "level", logger: "logger", data: "data" },
    });
    expect(d.handshake).toBeNull();
    expect(d.supportedVersionsField).toBe("supportedVersions");
    expect(d.headers).toEqual({
      protocolVersion: "MCP-Protocol-Version",
      method: "Mcp-Method",
      name: "Mcp-Name",
    });
  });

  it("carries the registry's notices of what is deprecated on the wire, by where each shows", () => {
    expect(Object.keys(d.deprecated.methods).sort()).toEqual(
      ["notifications/message", "roots/list", "sampling/createMessage"].sort(),
    );
    expect(d.deprecated.methods["roots/list"]).toMatch(
      /^ListRootsRequest is deprecated \(as of 2026-07-28, SEP-2577\); earliest removal: first revision released on or after 2027-07-28\./,
    );
    expect(Object.keys(d.deprecated.metaKeys)).toEqual(["io.modelcontextprotocol/logLevel"]);
    expect(Object.keys(d.deprecated.clientCapabilities).sort()).toEqual(["roots", "sampling"]);
  });

  it("is the same JSON however often it is derived, and passes its own check", () => {
    expect(JSON.stringify(describeModel(load("2026-07-28")))).toBe(JSON.stringify(d));
    expect(() => checkDescription(model, structuredClone(d))).not.toThrow();
  });
});

describe("the protocol description of 2025-11-25 (initialize handshake)", () => {
  const d = describeModel(load("2025-11-25"));

  it("has none of the per-request envelope, and its server requests are the input requests", () => {
    expect(d.lifecycle).toMatchObject({ kind: "stateful", initialize: "initialize" });
    expect(d.envelope).toEqual({
      meta: "_meta",
      resultType: null,
      inputRequests: null,
      requestState: null,
      inputResponses: null,
      inputRequest: null,
      cacheHints: null,
      acknowledgedFilter: null,
    });
    expect(d.resultTypes).toBeNull();
    expect(Object.values(d.methods).some((m) => m.cacheable || m.inputRequired)).toBe(false);
    expect(d.inputRequests["sampling/createMessage"]?.capability).toBe("sampling");
    expect(d.ping).toBe("ping");
    expect(d.listen).toBeNull();
    expect(d.notifications.cancelled).toBe("notifications/cancelled");
  });

  it("names the handshake's params by their types and the version its result chose", () => {
    expect(d.handshake).toEqual({
      params: { version: "protocolVersion", capabilities: "capabilities", info: "clientInfo" },
      result: { version: "protocolVersion" },
    });
    expect(d.handshake?.params.version).toBe(d.handshakeVersionParam);
    expect(d.supportedVersionsField).toBeNull();
    expect(d.notificationParams.cancelled).toEqual({ requestId: "requestId", reason: "reason" });
    expect(d.notificationParams.message).toEqual({
      level: "level",
      logger: "logger",
      data: "data",
    });
  });
});

describe("a revision renaming the handshake's, discovery's and notifications' fields", () => {
  it("is described under its own names", () => {
    const n = RENAMED_FIELDS;
    const stateful = describeModel(loadSchemaText(renamedMessageFields("2025-11-25"), "renamed-1"));
    expect(stateful.handshake?.params).toEqual({
      version: "protocolVersion",
      capabilities: n.capabilities,
      info: n.clientInfo,
    });
    expect(stateful.notifications.cancelled).toBe("notifications/cancelled");
    expect(stateful.notificationParams).toMatchObject({
      progress: { token: n.progressToken },
      cancelled: { requestId: n.requestId, reason: n.reason },
      message: { level: n.level, logger: n.logger, data: n.data },
    });
    expect(stateful.notifications.message).toBe("notifications/message");
    const stateless = describeModel(
      loadSchemaText(renamedMessageFields("2026-07-28"), "renamed-2"),
    );
    expect(stateless.supportedVersionsField).toBe(n.supportedVersions);
    expect(stateless.notifications.progress).toBe("notifications/progress");
    expect(stateless.notificationParams).toMatchObject({
      progress: { token: n.progressToken },
      cancelled: { requestId: n.requestId, reason: n.reason },
      message: { level: n.level, logger: n.logger, data: n.data },
    });
    expect(stateless.listen?.filter["resourceSubscriptions"]?.target).toBe(n.updatedUri);
  });
});

describe("a revision renaming the fields the runtime writes", () => {
  it("is described under its own names", () => {
    const d = describeModel(loadSchemaText(renamedSchema(), "renamed-envelope"));
    expect(d.envelope).toEqual({
      meta: "_meta",
      resultType: RENAMED_ENVELOPE.resultType,
      inputRequests: RENAMED_ENVELOPE.inputRequests,
      requestState: RENAMED_ENVELOPE.requestState,
      inputResponses: RENAMED_ENVELOPE.inputResponses,
      inputRequest: { method: "method", params: "params" },
      cacheHints: {
        ttl: RENAMED_ENVELOPE.ttl,
        scope: RENAMED_ENVELOPE.scope,
        uncached: { ttl: 0, scope: "private" },
        sharedScope: RENAMED_ENVELOPE.sharedScope,
      },
      acknowledgedFilter: "notifications",
    });
    expect(d.describe).toMatchObject({
      [RENAMED_ENVELOPE.ttl]: "cacheTtl",
      [RENAMED_ENVELOPE.scope]: "cacheScope",
    });
    expect(d.methods["tools/list"]?.cacheable).toBe(true);
    expect(d.cursor).toEqual({
      param: RENAMED_ENVELOPE.cursorParam,
      result: RENAMED_ENVELOPE.cursorResult,
    });
  });
});

describe("checkDescription", () => {
  const model = load("2026-07-28");
  const d = describeModel(model);
  const refused = (edit: (copy: ProtocolDescription & Record<string, unknown>) => void) => {
    const copy = structuredClone(d) as ProtocolDescription & Record<string, unknown>;
    edit(copy);
    let error: unknown;
    try {
      checkDescription(model, copy);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GeneratorError);
    return (error as Error).message;
  };

  it("refuses a validator naming no definition", () => {
    expect(
      refused((c) => {
        (c.methods["tools/call"] as { results: readonly string[] }).results = ["NoSuchResult"];
      }),
    ).toMatch(/names unknown definition `NoSuchResult`/);
  });

  it("refuses a method the revision does not have", () => {
    expect(
      refused((c) => {
        (c.notifications as { progress: string | null }).progress = "notifications/nowhere";
      }),
    ).toMatch(/names unknown method `notifications\/nowhere`/);
  });

  it("refuses a value JSON cannot carry, naming where", () => {
    expect(
      refused((c) => {
        (c.errors as Record<string, unknown>)["headerMismatch"] = Number.NaN;
      }),
    ).toMatch(/at \/errors\/headerMismatch/);
    expect(
      refused((c) => {
        c["extra"] = undefined;
      }),
    ).toMatch(/at \/extra/);
  });
});

describe("mcp-gen ir --protocol", () => {
  async function run(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(args, {
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      env: {},
      cwd: process.cwd(),
    });
    return { code, stdout: out.join(""), stderr: err.join("") };
  }

  it("prints the description the generated protocol.ts holds", async () => {
    const r = await run(["ir", "-r", "2026-07-28", "--spec-dir", SPEC_DIR, "--protocol"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      JSON.parse(JSON.stringify(describeModel(load("2026-07-28")))),
    );
    // Without the flag it is the IR, as before.
    const ir = await run(["ir", "-r", "2026-07-28", "--spec-dir", SPEC_DIR]);
    expect(JSON.parse(ir.stdout).irVersion).toBeTypeOf("number");
  });

  it("is the data of the generated protocol.ts", async () => {
    const generated = (await import(
      /* @vite-ignore */ pathToFileURL(join(generatedDir("2026-07-28"), "protocol.ts")).href
    )) as { PROTOCOL_DESCRIPTION: ProtocolDescription };
    expect(generated.PROTOCOL_DESCRIPTION).toEqual(
      JSON.parse(JSON.stringify(describeModel(load("2026-07-28")))),
    );
  });
});
