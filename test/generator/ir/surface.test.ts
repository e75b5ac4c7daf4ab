import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadModel } from "../../../generator/load/index.js";
import type { ProtocolModel } from "../../../generator/ir/model.js";
import { methodRoles } from "../../../generator/ir/query.js";
import { REVISIONS, schemaFile } from "../../helpers/spec.js";

/**
 * Reads a union alias's members straight from the schema text, independently of the loader, so the
 * loader's surface can be checked against something it did not compute.
 */
function unionMembersFromText(revision: string, union: string): string[] {
  const text = readFileSync(schemaFile(revision), "utf8");
  const match = new RegExp(`export type ${union} =([^;]*);`).exec(text);
  if (!match) return [];
  return match[1]!
    .split("|")
    .map((s) => s.trim())
    .filter(Boolean);
}

const models = new Map<string, ProtocolModel>(
  REVISIONS.map((r) => [r, loadModel(schemaFile(r), { revision: r })]),
);
const model = (revision: string): ProtocolModel => models.get(revision)!;

describe.each(REVISIONS)("protocol surface of %s", (revision) => {
  const m = model(revision);
  const roles = methodRoles(m.methods);
  const messagesOf = (kind: string, sender: "client" | "server") =>
    roles
      .filter((x) => x.kind === kind && (x.sender === sender || x.sender === "both"))
      .map((x) => x.message)
      .sort();

  it("lists exactly the members of the membership unions", () => {
    expect(messagesOf("request", "client")).toEqual(
      unionMembersFromText(revision, "ClientRequest").sort(),
    );
    expect(messagesOf("request", "server")).toEqual(
      unionMembersFromText(revision, "ServerRequest").sort(),
    );
    expect(messagesOf("notification", "client")).toEqual(
      unionMembersFromText(revision, "ClientNotification").sort(),
    );
    expect(messagesOf("notification", "server")).toEqual(
      unionMembersFromText(revision, "ServerNotification").sort(),
    );
    expect(messagesOf("inputRequest", "server")).toEqual(
      unionMembersFromText(revision, "InputRequest").sort(),
    );
  });

  it("pairs every request with results from the receiver's result union", () => {
    for (const method of roles.filter((x) => x.kind !== "notification")) {
      expect(method.results.length, method.method).toBeGreaterThan(0);
      const receiverUnions =
        method.kind === "inputRequest"
          ? ["InputResponse"]
          : method.sender === "client"
            ? ["ServerResult"]
            : method.sender === "server"
              ? ["ClientResult"]
              : ["ServerResult", "ClientResult"];
      const allowed = new Set(receiverUnions.flatMap((u) => unionMembersFromText(revision, u)));
      for (const result of method.results)
        expect(allowed.has(result), `${method.method} → ${result}`).toBe(true);
    }
  });

  it("gives every method name from its message's `method` literal", () => {
    const text = readFileSync(schemaFile(revision), "utf8");
    for (const method of m.methods) expect(text).toContain(`method: "${method.method}"`);
  });

  it("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(m))).toEqual(m);
  });
});

describe("2026-07-28", () => {
  const m = model("2026-07-28");
  const byMethod = new Map(methodRoles(m.methods).map((x) => [x.method, x]));

  it("pairs requests with results, input_required where the response allows it", () => {
    expect(byMethod.get("tools/call")?.results).toEqual(["CallToolResult", "InputRequiredResult"]);
    expect(byMethod.get("tools/call")?.acceptsInputResponses).toBe(true);
    expect(byMethod.get("tools/list")?.results).toEqual(["ListToolsResult"]);
    expect(byMethod.get("tools/list")?.acceptsInputResponses).toBe(false);
    expect(byMethod.get("server/discover")?.results).toEqual(["DiscoverResult"]);
  });

  it("marks the input requests as their own kind", () => {
    const inputs = methodRoles(m.methods)
      .filter((x) => x.kind === "inputRequest")
      .map((x) => x.method)
      .sort();
    expect(inputs).toEqual(["elicitation/create", "roots/list", "sampling/createMessage"]);
    expect(byMethod.get("elicitation/create")?.results).toEqual(["ElicitResult"]);
  });

  it("is stateless, with the per-request _meta keys", () => {
    expect(m.lifecycle).toEqual({
      kind: "stateless",
      discover: "server/discover",
      requestMeta: "RequestMetaObject",
      protocolVersionKey: "io.modelcontextprotocol/protocolVersion",
      clientCapabilitiesKey: "io.modelcontextprotocol/clientCapabilities",
      requiredMetaKeys: [
        "io.modelcontextprotocol/protocolVersion",
        "io.modelcontextprotocol/clientCapabilities",
      ],
    });
  });

  it("finds the error codes and the definitions using them", () => {
    const codes = Object.fromEntries(m.errorCodes.map((e) => [e.code, e.definitions]));
    expect(codes[-32022]).toEqual(["UnsupportedProtocolVersionError"]);
    expect(codes[-32021]).toEqual(["MissingRequiredClientCapabilityError"]);
    expect(codes[-32020]).toEqual(["HeaderMismatchError"]);
    expect(codes[-32601]).toEqual(["MethodNotFoundError"]);
  });

  it("has one deprecation per @deprecated tag, with as-of revision and SEP", () => {
    const tags = readFileSync(schemaFile("2026-07-28"), "utf8").match(/@deprecated/g)?.length;
    expect(m.deprecations).toHaveLength(tags!);
    const includeContext = m.deprecations.find((d) => d.target.kind === "literal");
    expect(includeContext).toMatchObject({
      asOf: "2025-11-25",
      sep: "SEP-2596",
      target: {
        definition: "CreateMessageRequestParams",
        path: ["includeContext"],
        values: ["thisServer", "allServers"],
      },
    });
    const others = m.deprecations.filter((d) => d !== includeContext);
    expect(others.every((d) => d.asOf === "2026-07-28" && d.sep === "SEP-2577")).toBe(true);
  });

  it("folds constraint tags into types", () => {
    const progress = m.definitions.find((d) => d.name === "ProgressNotificationParams")!;
    const field = (name: string) =>
      progress.type.kind === "object"
        ? progress.type.properties.find((p) => p.name === name)?.type
        : null;
    expect(field("progress")).toEqual({
      kind: "number",
      integer: false,
      minimum: null,
      maximum: null,
    });
    const icon = m.definitions.find((d) => d.name === "Icon")!;
    expect(
      icon.type.kind === "object" && icon.type.properties.find((p) => p.name === "src")?.type,
    ).toEqual({ kind: "string", format: "uri" });
  });
});

describe("lifecycle per revision", () => {
  it.each(REVISIONS)("%s", (revision) => {
    const m = model(revision);
    const hasInitialize = m.methods.some((x) => x.method === "initialize");
    expect(m.lifecycle.kind).toBe(hasInitialize ? "stateful" : "stateless");
    if (m.lifecycle.kind === "stateful")
      expect(m.lifecycle).toEqual({
        kind: "stateful",
        initialize: "initialize",
        initialized: "notifications/initialized",
      });
  });
});
