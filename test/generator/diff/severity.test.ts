/**
 * Every severity branch of every diff rule, on a small protocol varied one edit at a time: who
 * writes and who reads (a client request's params, a server request's params, each one's result),
 * added and removed, optional ↔ required both ways; each case pins the exact rule, severity,
 * location, before and after.
 */
import { describe, expect, it } from "vitest";
import { diffModels } from "../../../generator/diff/index.js";
import { loadSchemaText } from "../../helpers/golden.js";

/** Each `/*X*\/` marker is a place a case edits; the base leaves them empty. */
const BASE = `
export const LATEST_PROTOCOL_VERSION = "2099-01-01";
export const GADGET_GONE = -32050; /*CONST*/
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Notification { method: string; params?: { [key: string]: unknown } }
export interface Result { _meta?: { [key: string]: unknown } }
export interface ClientCapabilities { colors?: object; /*CC*/ }
export interface ServerCapabilities { gadgets?: object; /*SC*/ }
export interface GadgetGoneError { code: typeof GADGET_GONE; message: string }
export interface GetParams { name: string; mode?: "fast" | "slow"; /*GP*/ }
/** @category \`gadgets/get\` */
export interface GetRequest extends Request { method: "gadgets/get"; params: GetParams }
/** @category \`gadgets/get\` */
export interface GetResultResponse { jsonrpc: "2.0"; id: number; result: GetResult /*RES*/ }
export interface GetLaterResult extends Result { later: boolean }
export interface GetResult extends Result { gadget: string; state: "on" | "off"; /*GR*/ }
export interface AskParams { question: string; /*AP*/ }
export interface AskRequest extends Request { method: "client/ask"; params: AskParams }
export interface AskResult extends Result { answer: string; /*AR*/ }
export interface PingRequest extends Request { method: "ping" }
export type EmptyResult = Result;
export interface HelloNotification extends Notification { method: "notifications/hello"; params: { greeting: string } }
export interface ChangedNotification extends Notification { method: "notifications/changed" }
/*DEFS*/
export type ClientRequest = GetRequest | PingRequest /*CR*/;
export type ServerRequest = AskRequest | PingRequest /*SR*/;
export type ServerResult = GetResult | EmptyResult /*SRES*/;
export type ClientResult = AskResult | EmptyResult;
export type ClientNotification = HelloNotification /*CN*/;
export type ServerNotification = ChangedNotification /*SN*/;
`;

type Edits = Record<string, string>;
/** The base with each edit applied: a `/*X*\/` key fills that marker, any other key is replaced text. */
function variant(edits: Edits): string {
  let text = BASE;
  for (const [from, to] of Object.entries(edits)) {
    if (!text.includes(from)) throw new Error(`no ${from} in the base`);
    text = text.replace(from, to);
  }
  return text;
}

type Row = [string, string, string, string | null, string | null];
function diff(before: Edits, after: Edits): Row[] {
  const from = loadSchemaText(variant(before), "from");
  const to = loadSchemaText(variant(after), "to");
  return diffModels(from, to).map((c) => [
    c.ruleId,
    c.severity,
    c.location,
    c.from ?? null,
    c.to ?? null,
  ]);
}

/** Two alternatives of a request's params: one continuing `{ question }`, one new. */
const ALTERNATIVES = `export interface AskFormParams { question: string; mode?: "form" }
export interface AskLinkParams { question: string; mode: "link"; url: string }`;
const clientOptional = { "params: GetParams }": "params?: GetParams }" };
const serverOptional = { "params: AskParams }": "params?: AskParams }" };

describe.each<[string, Edits, Edits, Row[]]>([
  // method-params-changed: the sender of a request writes its params, the receiver reads them.
  [
    "client request params optional → required: the client (sender) breaks",
    clientOptional,
    {},
    [["method-params-changed", "breaking-client", "gadgets/get", "optional", "required"]],
  ],
  [
    "client request params required → optional: the server (receiver) breaks",
    {},
    clientOptional,
    [["method-params-changed", "breaking-server", "gadgets/get", "required", "optional"]],
  ],
  [
    "server request params optional → required: the server (sender) breaks",
    serverOptional,
    {},
    [["method-params-changed", "breaking-server", "client/ask", "optional", "required"]],
  ],
  [
    "server request params required → optional: the client (receiver) breaks",
    {},
    serverOptional,
    [["method-params-changed", "breaking-client", "client/ask", "required", "optional"]],
  ],
  [
    "client request params gain an alternative beside the old one: the server (receiver) breaks",
    {},
    { "params: GetParams }": "params: GetParams | AskParams }" },
    [
      [
        "method-params-changed",
        "breaking-server",
        "gadgets/get",
        "GetParams",
        "AskParams | GetParams",
      ],
    ],
  ],
  [
    "server request's inline params become two alternatives: the client (receiver) breaks; what changed in the one continuing them shows",
    { "params: AskParams }": "params: { question: string } }" },
    { "params: AskParams }": "params: AskFormParams | AskLinkParams }", "/*DEFS*/": ALTERNATIVES },
    [
      [
        "method-params-changed",
        "breaking-client",
        "client/ask",
        '{ "question": string }',
        "AskFormParams | AskLinkParams",
      ],
      ["property-added-optional", "non-breaking", "AskRequest.params.mode", null, '"form"'],
      ["definition-added", "non-breaking", "AskFormParams", null, null],
      ["definition-added", "non-breaking", "AskLinkParams", null, null],
    ],
  ],
  [
    "server request params lose an alternative: the server (sender) breaks",
    { "params: AskParams }": "params: AskFormParams | AskLinkParams }", "/*DEFS*/": ALTERNATIVES },
    { "params: AskParams }": "params: { question: string } }" },
    [
      [
        "method-params-changed",
        "breaking-server",
        "client/ask",
        "AskFormParams | AskLinkParams",
        '{ "question": string }',
      ],
      ["property-removed", "breaking-client", "AskRequest.params.mode", '"form"', null],
      ["definition-removed", "breaking-both", "AskFormParams", null, null],
      ["definition-removed", "breaking-both", "AskLinkParams", null, null],
    ],
  ],
  [
    "client request params swap an alternative for an unrelated one: the client (sender of the one removed) and the server (receiver of the one added) break",
    { "params: GetParams }": "params: GetParams | AskParams }" },
    {
      "params: GetParams }": "params: GetParams | TimerParams }",
      "/*DEFS*/": "export interface TimerParams { seconds: number }",
    },
    [
      [
        "method-params-changed",
        "breaking-both",
        "gadgets/get",
        "AskParams | GetParams",
        "GetParams | TimerParams",
      ],
      ["definition-added", "non-breaking", "TimerParams", null, null],
    ],
  ],
  [
    "client request params swap an alternative for one continuing it: named, nothing breaks but what changed inside",
    { "params: GetParams }": "params: GetParams | AskParams }" },
    { "params: GetParams }": "params: GetParams | AskFormParams }", "/*DEFS*/": ALTERNATIVES },
    [
      [
        "method-params-changed",
        "non-breaking",
        "gadgets/get",
        "AskParams | GetParams",
        "AskFormParams | GetParams",
      ],
      ["property-added-optional", "non-breaking", "GetRequest.params.mode", null, '"form"'],
      ["definition-added", "non-breaking", "AskFormParams", null, null],
      ["definition-added", "non-breaking", "AskLinkParams", null, null],
    ],
  ],
  [
    "params moved to another named type: looked through to the properties inside",
    {},
    { "params: GetParams }": "params: AskParams }" },
    [
      ["property-added-required", "breaking-client", "GetRequest.params.question", null, "string"],
      ["property-removed", "breaking-server", "GetRequest.params.name", "string", null],
      ["property-removed", "breaking-server", "GetRequest.params.mode", '"fast" | "slow"', null],
    ],
  ],
  [
    "params moved from inline to a named type of the same shape: nothing",
    { "params: GetParams }": 'params: { name: string; mode?: "fast" | "slow" } }' },
    {},
    [],
  ],
  [
    "a definition renamed, shape unchanged: one non-breaking rename naming both",
    {},
    {
      "interface HelloNotification ": "interface GreetingNotification ",
      "= HelloNotification": "= GreetingNotification",
    },
    [
      [
        "definition-renamed",
        "non-breaking",
        "HelloNotification",
        "HelloNotification",
        "GreetingNotification",
      ],
    ],
  ],
  [
    "an inline type extracted to a named one of the same shape: nothing",
    { "/*GR*/": "extra?: { [key: string]: unknown };" },
    { "/*GR*/": "extra?: Extra;", "/*DEFS*/": "export interface Extra { [key: string]: unknown }" },
    [["definition-added", "non-breaking", "Extra", null, null]],
  ],
  [
    "object spelled as a JSON object alias: nothing but the new definitions",
    { "/*GR*/": "extra?: object;" },
    {
      "/*GR*/": "extra?: JSONObject;",
      "/*DEFS*/":
        "export type JSONValue = string | number | boolean | null | JSONObject | JSONArray;\nexport type JSONObject = { [key: string]: JSONValue };\nexport type JSONArray = JSONValue[];",
    },
    [
      ["definition-added", "non-breaking", "JSONValue", null, null],
      ["definition-added", "non-breaking", "JSONObject", null, null],
      ["definition-added", "non-breaking", "JSONArray", null, null],
    ],
  ],
  [
    "a result field loosened to any value: the client (reader) breaks",
    { "/*GR*/": "extra?: { [key: string]: unknown };" },
    { "/*GR*/": "extra?: unknown;" },
    [
      [
        "property-type-changed",
        "breaking-client",
        "GetResult.extra",
        "{ [key: string]: unknown }",
        "unknown",
      ],
    ],
  ],
  [
    "a result array bounded: the server (writer) breaks",
    { "/*GR*/": "tags?: string[];" },
    { "/*GR*/": "\n  /** @maxItems 3 */\n  tags?: string[];\n" },
    [
      [
        "property-type-changed",
        "breaking-server",
        "GetResult.tags",
        "Array<string>",
        "Array<string>(<=3)",
      ],
    ],
  ],
  [
    "a result union that only grew: the client (reader) breaks",
    { "/*GR*/": "value?: string | number;" },
    { "/*GR*/": "value?: string | number | boolean;" },
    [
      [
        "property-type-changed",
        "breaking-client",
        "GetResult.value",
        "integer | string",
        "boolean | integer | string",
      ],
    ],
  ],
  [
    "a result union that only shrank: the server (writer) breaks",
    { "/*GR*/": "value?: string | number;" },
    { "/*GR*/": "value?: string;" },
    [["property-type-changed", "breaking-server", "GetResult.value", "integer | string", "string"]],
  ],
  [
    "a params field that took any object given a shape of optional fields: the client (writer) breaks",
    { "/*GP*/": "options?: object;" },
    { "/*GP*/": "options?: { context?: object; tools?: object };" },
    [
      [
        "property-type-changed",
        "breaking-client",
        "GetParams.options",
        "object",
        '{ "context"?: object; "tools"?: object }',
      ],
    ],
  ],
  [
    "a params field that took any object given a named shape: the client (writer) breaks",
    { "/*GP*/": "options?: object;" },
    { "/*GP*/": "options?: Options;", "/*DEFS*/": "export interface Options { context?: object }" },
    [
      ["property-type-changed", "breaking-client", "GetParams.options", "object", "Options"],
      ["definition-added", "non-breaking", "Options", null, null],
    ],
  ],
  [
    "a result field's shape opened to any object: the client (reader) breaks",
    { "/*GR*/": "extra?: { note?: string };" },
    { "/*GR*/": "extra?: object;" },
    [
      [
        "property-type-changed",
        "breaking-client",
        "GetResult.extra",
        '{ "note"?: string }',
        "object",
      ],
    ],
  ],
  [
    "a result field that held any object given a shape: the server (writer) breaks",
    { "/*GR*/": "extra?: object;" },
    { "/*GR*/": "extra?: { note?: string };" },
    [
      [
        "property-type-changed",
        "breaking-server",
        "GetResult.extra",
        "object",
        '{ "note"?: string }',
      ],
    ],
  ],
  [
    "a params union that only grew: the server (reader) breaks",
    { "/*GP*/": "value?: string[];" },
    { "/*GP*/": "value?: (string | number)[];" },
    [
      [
        "property-type-changed",
        "breaking-server",
        "GetParams.value",
        "Array<string>",
        "Array<integer | string>",
      ],
    ],
  ],
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
