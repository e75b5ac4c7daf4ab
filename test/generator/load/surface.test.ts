/**
 * The protocol surface and lifecycle the loader derives, on the `protocol-surface`,
 * `lifecycle-stateful` and `lifecycle-stateless` fixtures.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { methodRoles, type MethodInRole } from "../../../generator/ir/query.js";
import { wireFacts } from "../../../generator/ir/wire.js";
import { fixtureSchema, loadFixture, loadSchemaText } from "../../helpers/golden.js";

const fixtureText = (name: string): string => readFileSync(fixtureSchema(name), "utf8");

const byMethod = (methods: MethodInRole[]) => new Map(methods.map((m) => [m.method, m] as const));

describe("protocol surface", () => {
  const model = loadFixture("protocol-surface");
  const roles = methodRoles(model.methods);
  const methods = byMethod(roles);

  it("finds every member of every membership union, in message source order", () => {
    expect(roles.map((m) => [m.method, m.kind, m.sender, m.message])).toEqual([
      ["ping", "request", "both", "PingRequest"],
      ["gadgets/list", "request", "client", "ListGadgetsRequest"],
      ["gadgets/fetch", "request", "client", "FetchGadgetRequest"],
      ["reports/run", "request", "client", "RunReportRequest"],
      ["gadgets/old_list", "request", "client", "OldListRequest"],
      ["client/confirm", "request", "server", "ConfirmRequest"],
      ["notifications/cancelled", "notification", "both", "CancelledNotification"],
      ["notifications/progress", "notification", "both", "ProgressNotification"],
      ["notifications/gadgets_changed", "notification", "server", "GadgetsChangedNotification"],
      ["input/pick_color", "inputRequest", "server", "PickColorInputRequest"],
      ["input/ask_name", "inputRequest", "server", "AskNameInputRequest"],
    ]);
  });

  it("records the unions a method was found in", () => {
    expect(methods.get("ping")!.unions).toEqual(["ClientRequest", "ServerRequest"]);
    expect(methods.get("notifications/cancelled")!.unions).toEqual([
      "ClientNotification",
      "ServerNotification",
    ]);
    expect(methods.get("input/pick_color")!.unions).toEqual(["InputRequest"]);
  });

  it("pairs requests with results by response, naming, category and the empty result", () => {
    const pairs = roles.map((m) => [m.method, m.pairing, m.results]);
    expect(pairs).toEqual([
      ["ping", "empty", ["EmptyResult"]],
      ["gadgets/list", "naming", ["ListGadgetsResult"]],
      ["gadgets/fetch", "category", ["GadgetPayload"]],
      // The response's own order, not the union's or the source's.
      ["reports/run", "response", ["ReportQueued", "ReportReady"]],
      ["gadgets/old_list", "empty", ["EmptyResult"]],
      ["client/confirm", "naming", ["ConfirmResult"]],
      ["notifications/cancelled", null, []],
      ["notifications/progress", null, []],
      ["notifications/gadgets_changed", null, []],
      ["input/pick_color", "naming", ["PickColorInputResult"]],
      ["input/ask_name", "naming", ["AskNameInputResult"]],
    ]);
  });

  it("reads params, their optionality and whether they accept input responses", () => {
    expect(methods.get("gadgets/list")).toMatchObject({
      params: { kind: "ref", name: "ListGadgetsParams" },
      paramsOptional: true,
    });
    expect(methods.get("gadgets/fetch")).toMatchObject({
      params: { kind: "object" },
      paramsOptional: false,
      acceptsInputResponses: true,
    });
    expect(methods.get("reports/run")!.acceptsInputResponses).toBe(false);
    // Inherited from the base's optional, open params.
    expect(methods.get("notifications/gadgets_changed")).toMatchObject({
      params: { kind: "object" },
      paramsOptional: true,
    });
    expect(methods.get("input/ask_name")).toMatchObject({ params: null, paramsOptional: true });
  });

  it("carries category and deprecation of the message", () => {
    expect(methods.get("gadgets/list")!.category).toBe("gadgets/list");
    expect(methods.get("ping")!.category).toBe("ping");
    expect(methods.get("gadgets/old_list")!.deprecated).toMatchObject({
      asOf: "2099-02-03",
      sep: "SEP-4321",
    });
    expect(methods.get("gadgets/list")!.deprecated).toBeNull();
  });

  it("has no lifecycle without capability types", () => {
    expect(model.lifecycle).toEqual({ kind: "unknown" });
  });

  it("rejects two messages claiming one method", () => {
    expect(() =>
      loadSchemaText(`export interface A { method: "x" }
export interface B { method: "x" }
export type ClientNotification = A | B;
`),
    ).toThrow(/method `x` is both `A` and `B`/);
  });

  it("rejects a membership union member without a string literal method", () => {
    expect(() =>
      loadSchemaText(`export interface A { method: string }\nexport type ClientRequest = A;\n`),
    ).toThrow(/`A` has no string literal `method`/);
  });
});

describe("stateful lifecycle", () => {
  const model = loadFixture("lifecycle-stateful");

  it("finds the handshake from where the client's capabilities travel", () => {
    expect(model.lifecycle).toEqual({
      kind: "stateful",
      initialize: "session/open",
      initialized: "notifications/opened",
    });
  });

  it("pairs the handshake with the result carrying the server's capabilities", () => {
    expect(byMethod(methodRoles(model.methods)).get("session/open")).toMatchObject({
      kind: "request",
      sender: "client",
      params: { kind: "ref", name: "OpenSessionParams" },
      results: ["OpenSessionResult"],
      pairing: "naming",
    });
  });

  it("reads the protocol version constant", () => {
    expect(model.protocolVersion).toBe("2099-01-01");
    expect(model.jsonrpcVersion).toBeNull();
  });
});

describe("stateless lifecycle", () => {
  const model = loadFixture("lifecycle-stateless");

  it("finds the discovery request and the required _meta keys", () => {
    expect(model.lifecycle).toEqual({
      kind: "stateless",
      discover: "server/describe",
      requestMeta: "CallMeta",
      protocolVersionKey: "io.example/protocolVersion",
      clientCapabilitiesKey: "io.example/clientCapabilities",
      requiredMetaKeys: ["io.example/protocolVersion", "io.example/clientCapabilities"],
    });
  });

  it("reads every request, params inherited or narrowed", () => {
    expect(
      methodRoles(model.methods).map((m) => [m.method, m.params, m.paramsOptional, m.results]),
    ).toEqual([
      ["server/describe", { kind: "ref", name: "RequestParams" }, false, ["DescribeServerResult"]],
      ["tools/echo", { kind: "ref", name: "EchoParams" }, false, ["EchoResult"]],
    ]);
  });

  it("is unknown when _meta does not require the client capabilities", () => {
    const original = fixtureText("lifecycle-stateless");
    const text = original.replace(
      '"io.example/clientCapabilities": ClientCapabilities;',
      '"io.example/clientCapabilities"?: ClientCapabilities;',
    );
    expect(text).not.toBe(original);
    expect(loadSchemaText(text).lifecycle).toEqual({ kind: "unknown" });
  });
});

describe("a method in unions of two kinds", () => {
  const text = [
    "export interface Result { [key: string]: unknown }",
    "export interface Request { method: string; params?: { [key: string]: unknown } }",
    'export interface ListRootsRequest extends Request { method: "roots/list" }',
    "export interface ListRootsResult extends Result { roots: string[] }",
    'export interface PingRequest extends Request { method: "ping" }',
    "export type ServerRequest = ListRootsRequest;",
    "export type ClientRequest = PingRequest;",
    "export type ClientResult = ListRootsResult;",
    "export type ServerResult = Result;",
    "export type InputRequest = ListRootsRequest;",
    "export type InputResponse = ListRootsResult;",
    "export interface ClientCapabilities { roots?: { [key: string]: unknown } }",
    "",
  ].join("\n");
  const model = loadSchemaText(text, "dual-role");

  it("is one method with one role per kind, each with its own union and results", () => {
    const methods = model.methods.filter((m) => m.method === "roots/list");
    expect(methods).toHaveLength(1);
    expect(
      methods[0]!.roles.map((r) => [r.kind, r.sender, r.message, r.unions, r.results, r.pairing]),
    ).toEqual([
      ["request", "server", "ListRootsRequest", ["ServerRequest"], ["ListRootsResult"], "naming"],
      [
        "inputRequest",
        "server",
        "ListRootsRequest",
        ["InputRequest"],
        ["ListRootsResult"],
        "naming",
      ],
    ]);
  });

  it("is one input request for the emitters", () => {
    expect(wireFacts(model).inputRequests.filter((i) => i.method === "roots/list")).toHaveLength(1);
  });
});
