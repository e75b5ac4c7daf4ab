/**
 * The severity of `method-params-changed` in every branch, on a small protocol varied one edit at a
 * time (test/helpers/severity-protocol.ts): who writes and who reads a client request's params and a
 * server request's params, optional ↔ required both ways, alternatives added and removed; each case
 * pins the exact rule, severity, location, before and after.
 */
import { describe, expect, it } from "vitest";
import { diff, type Edits, type Row } from "../../helpers/severity-protocol.js";

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
])("%s", (_name, before, after, expected) => {
  it("is reported with exactly this rule, severity, location, before and after", () => {
    expect(diff(before, after)).toEqual(expected);
  });
});
