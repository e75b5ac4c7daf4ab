/**
 * runtime/shared/protocol.ts: the description's validators are put in place by name, once; and
 * runtime/shared/http-headers.ts reads the header rules from the same description.
 */
import { describe, expect, it } from "vitest";
import {
  bindProtocol,
  legacyMetaKey,
  type EraDescription,
  type ProtocolDescription,
} from "../../../runtime/shared/protocol.js";
import { headerRulesOf } from "../../../runtime/shared/http-headers.js";
import { ErrorCode } from "../../../runtime/shared/jsonrpc.js";

const ok = { ok: true };
const fail = (path: string) => ({ ok: false, errors: [{ path, message: "is wrong" }] });

/** A validators module: `is`/`validate` pairs accepting values whose `kind` is the definition's name. */
function validators(...names: string[]) {
  const module: Record<string, (value: unknown) => unknown> = {};
  for (const name of names) {
    const is = (value: unknown) => (value as { kind?: string } | null)?.kind === name;
    module[`is${name}`] = is;
    module[`validate${name}`] = (value: unknown) => (is(value) ? ok : fail("/kind"));
  }
  return module;
}

function description(overrides: Partial<ProtocolDescription> = {}): ProtocolDescription {
  return {
    revision: "r",
    protocolVersion: "v",
    lifecycle: { kind: "stateful", initialize: "initialize", initialized: null },
    methods: {
      "things/get": {
        params: { definition: "GetParams", inMessage: false },
        results: ["A", "B"],
        capability: "things",
        inputRequired: false,
        cacheable: false,
        target: "name",
      },
      "things/inline": {
        params: { definition: "InlineRequest", inMessage: true },
        results: [],
        capability: null,
        inputRequired: false,
        cacheable: false,
        target: null,
      },
    },
    inputRequests: { "ask/user": { capability: "asking", results: ["Answer"] } },
    inputResponseUnion: null,
    inputRequiredResult: null,
    resultTypes: null,
    envelope: {
      meta: "x_meta",
      resultType: null,
      inputRequests: null,
      requestState: null,
      inputResponses: null,
      inputRequest: null,
      cacheHints: null,
      acknowledgedFilter: null,
    },
    errors: { unsupportedVersion: null, missingCapability: null, headerMismatch: -32001 },
    meta: {
      serverInfo: null,
      clientInfo: null,
      progressToken: null,
      logLevel: null,
      subscriptionId: null,
    },
    notifications: { progress: null, message: null, acknowledged: null, cancelled: null },
    notificationParams: { progress: null, cancelled: null, message: null },
    logLevels: [],
    ping: null,
    describe: {},
    handshakeVersionParam: "protocolVersion",
    handshake: null,
    supportedVersionsField: null,
    headers: { protocolVersion: "X-Version", method: "X-Method", name: "X-Name" },
    listen: null,
    deprecated: { methods: {}, metaKeys: {}, clientCapabilities: {} },
    tools: null,
    cursor: null,
    eras: [],
    ...overrides,
  };
}

describe("bindProtocol", () => {
  const V = {
    ...validators("GetParams", "A", "B", "Answer"),
    // The message validator reports pointers into the whole message.
    validateInlineRequest: (message: { params?: { n?: unknown } }) =>
      typeof message.params?.n === "number" ? ok : fail("/params/n"),
  };
  const bound = bindProtocol(description(), V);

  it("checks params by the named definition, and results by any of the named ones", () => {
    const get = bound.methods["things/get"]!;
    expect(get.checkParams({ kind: "GetParams" }).ok).toBe(true);
    expect(get.checkParams({ kind: "Other" }).ok).toBe(false);
    expect(get.result({ kind: "A" }).ok).toBe(true);
    expect(get.result({ kind: "B" }).ok).toBe(true);
    // Neither: the first one's errors.
    expect(get.result({ kind: "C" })).toEqual(fail("/kind"));
    // The facts stay as described.
    expect(get).toMatchObject({ capability: "things", target: "name", results: ["A", "B"] });
  });

  it("checks params written inline through their message, with pointers relative to the params", () => {
    const inline = bound.methods["things/inline"]!;
    expect(inline.checkParams({ n: 1 }).ok).toBe(true);
    expect(inline.checkParams({ n: "one" })).toEqual(fail("/n"));
    // No result named: any result passes.
    expect(inline.result({ anything: true }).ok).toBe(true);
  });

  it("binds the input requests' responses, and no input-required result where none is named", () => {
    expect(bound.inputRequests["ask/user"]!.response({ kind: "Answer" }).ok).toBe(true);
    expect(bound.inputRequests["ask/user"]!.response({ kind: "A" }).ok).toBe(false);
    expect(bound.inputRequiredResult).toBeNull();
    expect(bound.anyInputResponse({}).ok).toBe(true);
    expect(bound.description.methods["things/get"]!.results).toEqual(["A", "B"]);
  });

  it("fails at once, naming it, when the module lacks a named validator", () => {
    expect(() => bindProtocol(description(), validators("GetParams", "A", "Answer"))).toThrow(
      /the validators module has no isB/,
    );
  });

  it("binds each era to its own revision's validators, in the order the eras are described", () => {
    const era = (revision: string, result: string): EraDescription => ({
      revision,
      protocolVersion: revision,
      initialize: "hello",
      initialized: null,
      handshake: {
        params: { version: "version", capabilities: "caps", info: null },
        result: { version: "version" },
      },
      initializeResult: "Hello",
      methods: { "things/get": { results: [result], drop: ["extra"], fill: { extra: 1 } } },
      discover: null,
      ping: null,
      setLevel: null,
      subscribe: null,
      serverRequests: { "ask/user": { capability: "asking", results: ["Answer"] } },
      notifications: [],
      metaKeys: [{ role: "progressToken", modern: "token", legacy: "oldToken" }],
      cancelled: null,
      message: null,
      progress: null,
      notificationParams: { progress: null, cancelled: null, message: null },
      serverCapabilities: null,
      toolSchemaKeywords: null,
      ownRequests: { "old/ping": { results: [result] } },
    });
    const eras = [era("new", "A"), era("old", "B")];
    const bound = bindProtocol(description({ eras }), V, [
      validators("Hello", "A", "Answer"),
      validators("Hello", "B", "Answer"),
    ]);
    expect(bound.eras.map((e) => e.revision)).toEqual(["new", "old"]);
    expect(bound.eras[0]!.methods["things/get"]!.result({ kind: "A" }).ok).toBe(true);
    expect(bound.eras[1]!.methods["things/get"]!.result({ kind: "A" }).ok).toBe(false);
    expect(bound.eras[1]!.methods["things/get"]).toMatchObject({
      drop: ["extra"],
      fill: { extra: 1 },
    });
    expect(bound.eras[0]!.initializeResult({ kind: "Hello" }).ok).toBe(true);
    expect(bound.eras[0]!.serverRequests["ask/user"]!.response({ kind: "A" }).ok).toBe(false);
    expect(bound.eras[0]!.serverRequests["ask/user"]!.capability).toBe("asking");
    expect(bound.eras[0]!.ownRequests["old/ping"]!.result({ kind: "A" }).ok).toBe(true);
    expect(bound.eras[1]!.ownRequests["old/ping"]!.result({ kind: "A" }).ok).toBe(false);
    expect(legacyMetaKey(bound.eras[0]!, "progressToken")).toBe("oldToken");
    // One validators module per era, or the generator is wrong.
    expect(() => bindProtocol(description({ eras }), V, [validators("Hello", "A")])).toThrow(
      /2 legacy eras described, 1 validators modules given/,
    );
    expect(() =>
      bindProtocol(description({ eras }), V, [
        validators("Hello", "A", "Answer"),
        validators("B", "Answer"),
      ]),
    ).toThrow(/the validators module has no isHello/);
  });

  it("keeps a method named __proto__ as data", () => {
    const methods = { ...description().methods };
    Object.defineProperty(methods, "__proto__", {
      value: methods["things/get"],
      enumerable: true,
    });
    const odd = bindProtocol(description({ methods }), V);
    expect(Object.hasOwn(odd.methods, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(odd.methods)).toBe(Object.prototype);
  });
});

describe("headerRulesOf", () => {
  it("mirrors each method's target, and the revision's mismatch code and tools", () => {
    const tools = {
      list: "tools/list",
      call: "tools/call",
      items: "tools",
      name: "name",
      arguments: "arguments",
      schema: "inputSchema",
      output: null,
    };
    expect(headerRulesOf(description({ tools }))).toEqual({
      nameParams: { "things/get": "name" },
      meta: "x_meta",
      // The initialize era requires no header: no _meta key makes them required.
      protocolVersionMetaKey: null,
      mismatchCode: -32001,
      tools: { call: "tools/call", name: "name", arguments: "arguments" },
      // The metadata headers by the description's names, for CORS.
      requestHeaders: ["X-Version", "X-Method", "X-Name"],
    });
  });

  it("names the protocol-version _meta key of a stateless revision, and answers JSON-RPC's invalid request where it defines no mismatch code", () => {
    const rules = headerRulesOf(
      description({
        lifecycle: {
          kind: "stateless",
          discover: "server/discover",
          requestMeta: "Meta",
          protocolVersionKey: "io.example/version",
          clientCapabilitiesKey: "io.example/caps",
          requiredMetaKeys: [],
        },
        errors: { unsupportedVersion: null, missingCapability: null, headerMismatch: null },
      }),
    );
    expect(rules.protocolVersionMetaKey).toBe("io.example/version");
    expect(rules.mismatchCode).toBe(ErrorCode.InvalidRequest);
  });
});
