/**
 * Every severity branch of every diff rule, on a small protocol varied one edit at a time: who
 * writes and who reads (a client request's params, a server request's params, each one's result),
 * added and removed, optional ↔ required both ways; each case pins the exact rule, severity,
 * location, before and after.
 *
 * The branches of `method-params-changed` are severity-params; the protocol is
 * test/helpers/severity-protocol.ts.
 */
import { describe, expect, it } from "vitest";
import { diffModels } from "../../../generator/diff/index.js";
import { loadSchemaText } from "../../helpers/golden.js";
import { diff, variant, type Edits, type Row } from "../../helpers/severity-protocol.js";

describe.each<[string, Edits, Edits, Row[]]>([
  // Properties of a client request's params (client writes, server reads) and of its result (server writes, client reads).
  [
    "optional param added: nobody breaks",
    {},
    { "/*GP*/": "size?: number;" },
    [["property-added-optional", "non-breaking", "GetParams.size", null, "integer"]],
  ],
  [
    "required param added: the client (writer) breaks",
    {},
    { "/*GP*/": "size: number;" },
    [["property-added-required", "breaking-client", "GetParams.size", null, "integer"]],
  ],
  [
    "required result field added: the server (writer) breaks",
    {},
    { "/*GR*/": "size: number;" },
    [["property-added-required", "breaking-server", "GetResult.size", null, "integer"]],
  ],
  [
    "server request's required param added: the server (writer) breaks",
    {},
    { "/*AP*/": "hint: string;" },
    [["property-added-required", "breaking-server", "AskParams.hint", null, "string"]],
  ],
  [
    "server request's required result field added: the client (writer) breaks",
    {},
    { "/*AR*/": "sure: boolean;" },
    [["property-added-required", "breaking-client", "AskResult.sure", null, "boolean"]],
  ],
  [
    "param removed: the server (reader) breaks",
    { "/*GP*/": "size?: number;" },
    {},
    [["property-removed", "breaking-server", "GetParams.size", "integer", null]],
  ],
  [
    "result field removed: the client (reader) breaks",
    { "/*GR*/": "size?: number;" },
    {},
    [["property-removed", "breaking-client", "GetResult.size", "integer", null]],
  ],
  [
    "param optional → required: the client (writer) breaks",
    { "/*GP*/": "size?: number;" },
    { "/*GP*/": "size: number;" },
    [["property-became-required", "breaking-client", "GetParams.size", "optional", "required"]],
  ],
  [
    "param required → optional: the server (reader) breaks",
    { "/*GP*/": "size: number;" },
    { "/*GP*/": "size?: number;" },
    [["property-became-optional", "breaking-server", "GetParams.size", "required", "optional"]],
  ],
  [
    "result field optional → required: the server (writer) breaks",
    { "/*GR*/": "size?: number;" },
    { "/*GR*/": "size: number;" },
    [["property-became-required", "breaking-server", "GetResult.size", "optional", "required"]],
  ],
  [
    "result field required → optional: the client (reader) breaks",
    { "/*GR*/": "size: number;" },
    { "/*GR*/": "size?: number;" },
    [["property-became-optional", "breaking-client", "GetResult.size", "required", "optional"]],
  ],
  [
    "a property's type changes: both break",
    {},
    { "name: string; mode": "name: number; mode" },
    [["property-type-changed", "breaking-both", "GetParams.name", "string", "integer"]],
  ],
  // Literal values: a new value breaks whoever reads it, a value gone whoever writes it.
  [
    "param value added: the server (reader) breaks",
    {},
    { '"fast" | "slow"': '"fast" | "slow" | "eco"' },
    [["literal-value-added", "breaking-server", "GetParams.mode", null, '"eco"']],
  ],
  [
    "param value removed: the client (writer) breaks",
    {},
    { '"fast" | "slow"': '"fast"' },
    [["literal-value-removed", "breaking-client", "GetParams.mode", '"slow"', null]],
  ],
  [
    "result value added: the client (reader) breaks",
    {},
    { '"on" | "off"': '"on" | "off" | "dim"' },
    [["literal-value-added", "breaking-client", "GetResult.state", null, '"dim"']],
  ],
  [
    "result value removed: the server (writer) breaks",
    {},
    { '"on" | "off"': '"on"' },
    [["literal-value-removed", "breaking-server", "GetResult.state", '"off"', null]],
  ],
  // Methods and notifications: gone breaks their senders; new breaks nobody.
  [
    "client request removed: the client breaks",
    {},
    { "GetRequest | PingRequest /*CR*/": "PingRequest" },
    [["method-removed", "breaking-client", "gadgets/get", "GetRequest", null]],
  ],
  [
    "server request removed: the server breaks",
    {},
    { "AskRequest | PingRequest /*SR*/": "PingRequest" },
    [["method-removed", "breaking-server", "client/ask", "AskRequest", null]],
  ],
  [
    "a request both send, removed: both break",
    {},
    {
      "GetRequest | PingRequest /*CR*/": "GetRequest",
      "AskRequest | PingRequest /*SR*/": "AskRequest",
    },
    [["method-removed", "breaking-both", "ping", "PingRequest", null]],
  ],
  [
    "client notification removed: the client breaks",
    {
      "/*DEFS*/":
        'export interface ByeNotification extends Notification { method: "notifications/bye" }',
      "/*CN*/": "| ByeNotification",
    },
    {
      "/*DEFS*/":
        'export interface ByeNotification extends Notification { method: "notifications/bye" }',
    },
    [["notification-removed", "breaking-client", "notifications/bye", "ByeNotification", null]],
  ],
  [
    "server notification removed: the server breaks",
    {},
    { "ChangedNotification /*SN*/": "HelloNotification" },
    [
      ["method-sender-changed", "breaking-client", "notifications/hello", "client", "both"],
      [
        "notification-removed",
        "breaking-server",
        "notifications/changed",
        "ChangedNotification",
        null,
      ],
    ],
  ],
  [
    "client request added: nobody breaks",
    { "/*DEFS*/": 'export interface DropRequest extends Request { method: "gadgets/drop" }' },
    {
      "/*DEFS*/": 'export interface DropRequest extends Request { method: "gadgets/drop" }',
      "/*CR*/": "| DropRequest",
    },
    [["method-added", "non-breaking", "gadgets/drop", null, "DropRequest"]],
  ],
  // Who sends: a party that may no longer send breaks, a party that must now receive breaks.
  [
    "a client notification the server may now send too: the client (new receiver) breaks",
    {},
    { "/*SN*/": "| HelloNotification" },
    [["method-sender-changed", "breaking-client", "notifications/hello", "client", "both"]],
  ],
  [
    "a notification both sent, now only the client: the server (lost sender) breaks",
    { "/*SN*/": "| HelloNotification" },
    {},
    [["method-sender-changed", "breaking-server", "notifications/hello", "both", "client"]],
  ],
  // Results: a new result type breaks the requester, a removed one the responder.
  [
    "a result type added to a client request: the client (requester) breaks",
    {},
    { "/*RES*/": "| GetLaterResult" },
    [
      [
        "method-results-changed",
        "breaking-client",
        "gadgets/get",
        "GetResult",
        "GetResult | GetLaterResult",
      ],
    ],
  ],
  [
    "a result type removed from a client request: the server (responder) breaks",
    { "/*RES*/": "| GetLaterResult" },
    {},
    [
      [
        "method-results-changed",
        "breaking-server",
        "gadgets/get",
        "GetResult | GetLaterResult",
        "GetResult",
      ],
    ],
  ],
  // Capabilities: opt-in when optional; a required one breaks its party; one removed breaks the other party.
  [
    "optional client capability added: nobody breaks",
    {},
    { "/*CC*/": "sounds?: object;" },
    [["capability-added", "non-breaking", "ClientCapabilities.sounds", null, "object"]],
  ],
  [
    "required client capability added: the client breaks",
    {},
    { "/*CC*/": "sounds: object;" },
    [["capability-added", "breaking-client", "ClientCapabilities.sounds", null, "object"]],
  ],
  [
    "required server capability added: the server breaks",
    {},
    { "/*SC*/": "widgets: object;" },
    [["capability-added", "breaking-server", "ServerCapabilities.widgets", null, "object"]],
  ],
  [
    "client capability removed: the server (which checked it) breaks",
    {},
    { "colors?: object; /*CC*/": "" },
    [["capability-removed", "breaking-server", "ClientCapabilities.colors", "object", null]],
  ],
  [
    "server capability removed: the client breaks",
    {},
    { "gadgets?: object; /*SC*/": "" },
    [["capability-removed", "breaking-client", "ServerCapabilities.gadgets", "object", null]],
  ],
  // Constants and error codes.
  [
    "error code renumbered: both break",
    {},
    { "-32050": "-32051" },
    [["error-code-renumbered", "breaking-both", "error GADGET_GONE", "-32050", "-32051"]],
  ],
  [
    "constant added: nobody breaks",
    {},
    { "/*CONST*/": 'export const EXTRA = "x";' },
    [["constant-added", "non-breaking", "constant EXTRA", null, '"x"']],
  ],
  [
    "constant changed: both break",
    {},
    { '"2099-01-01"': '"2099-02-02"' },
    [
      [
        "constant-changed",
        "breaking-both",
        "constant LATEST_PROTOCOL_VERSION",
        '"2099-01-01"',
        '"2099-02-02"',
      ],
    ],
  ],
])("%s", (_name, before, after, expected) => {
  it("is reported with exactly this rule, severity, location, before and after", () => {
    expect(diff(before, after)).toEqual(expected);
  });
});

describe("no entry whose before and after are equal", () => {
  it("the same schema twice diffs to nothing", () => expect(diff({}, {})).toEqual([]));

  it("a lifecycle change its summary does not show still shows in before and after", () => {
    const from = loadSchemaText(variant({}), "from");
    const lifecycle = {
      kind: "stateless",
      discover: "server/discover",
      requestMeta: "Meta",
      protocolVersionKey: "v",
      clientCapabilitiesKey: "c",
      requiredMetaKeys: ["v", "c"],
    } as const;
    const a = {
      ...from,
      lifecycle: { ...lifecycle, requiredMetaKeys: [...lifecycle.requiredMetaKeys] },
    };
    const b = {
      ...from,
      lifecycle: {
        ...lifecycle,
        protocolVersionKey: "version",
        requiredMetaKeys: [...lifecycle.requiredMetaKeys],
      },
    };
    const changes = diffModels(a, b);
    expect(changes.map((c) => [c.ruleId, c.severity])).toEqual([
      ["lifecycle-changed", "breaking-both"],
    ]);
    expect(changes[0]!.from).not.toBe(changes[0]!.to);
    for (const change of [
      ...changes,
      ...diffModels(from, loadSchemaText(variant({ "/*GP*/": "size?: number;" }), "to")),
    ])
      expect(change.from).not.toBe(change.to);
  });
});
