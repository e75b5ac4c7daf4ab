/**
 * The lifecycle checks every request of a generated server passes before its handler runs, one
 * table of cases run directly, over stdio and over Streamable HTTP with exact codes, statuses and
 * paths: the per-request `_meta`, the protocol version, the request metadata headers (HTTP), the
 * client capabilities a method needs.
 */
import { describe, expect } from "vitest";
import { CC, PV, TRANSPORTS, type Msg } from "../../helpers/server-harness.js";
import { REVISION, call, meta, rpc } from "../../helpers/server-fixture.js";
import { dispatcherRules, type Case } from "../../helpers/dispatch-rules.js";

const ALL_CAPS = { sampling: {}, elicitation: {}, roots: {} };

const raw = (method: string, params?: Msg, id: string | number = `raw-${method}`): Msg =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };

const { [PV]: _pv, ...metaWithoutVersion } = meta();
const { [CC]: _cc, ...metaWithoutCapabilities } = meta();
const { "io.modelcontextprotocol/clientInfo": _ci, ...metaWithoutClientInfo } = meta();

const CASES: Case[] = [
  // ---- per-request _meta -------------------------------------------------------------------------
  {
    name: "no params at all → -32602",
    message: raw("tools/list"),
    status: 400,
    error: { code: -32602, message: "Invalid params: _meta is required on every request" },
  },
  {
    name: "params without _meta → -32602",
    message: raw("server/discover", {}),
    status: 400,
    error: { code: -32602, message: "Invalid params: _meta is required on every request" },
  },
  {
    name: "_meta not an object → -32602",
    message: raw("server/discover", { _meta: "meta" }),
    status: 400,
    error: { code: -32602, message: "Invalid params: _meta is required on every request" },
  },
  {
    // versioning.mdx: a modern-only server names its versions in any error to an initialize request.
    name: "an initialize-era handshake → -32022 naming the supported versions",
    message: raw("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "legacy", version: "1" },
    }),
    headers: { "MCP-Protocol-Version": null },
    status: 400,
    error: {
      code: -32022,
      message: `Unsupported protocol version 2025-11-25: this server supports ${REVISION}, which carry the protocol version and client capabilities in every request's _meta`,
      data: { supported: [REVISION], requested: "2025-11-25" },
    },
  },
  {
    name: "_meta without protocolVersion → -32602 (before the header is compared)",
    message: raw("server/discover", { _meta: metaWithoutVersion }),
    headers: { "MCP-Protocol-Version": REVISION },
    status: 400,
    error: { code: -32602, message: `Invalid params: _meta is missing "${PV}"` },
  },
  {
    name: "_meta without clientCapabilities → -32602",
    message: raw("server/discover", { _meta: metaWithoutCapabilities }),
    status: 400,
    error: { code: -32602, message: `Invalid params: _meta is missing "${CC}"` },
  },
  {
    name: "clientCapabilities not an object → -32602",
    message: raw("server/discover", { _meta: meta([] as never) }),
    status: 400,
    error: { code: -32602, message: `Invalid params: _meta "${CC}" must be an object` },
  },
  {
    name: "missing _meta wins over a wrong header",
    message: raw("tools/list", { _meta: metaWithoutVersion }),
    headers: { "MCP-Protocol-Version": "v999.0.0", "Mcp-Method": "something/else" },
    status: 400,
    error: { code: -32602, message: `Invalid params: _meta is missing "${PV}"` },
  },
  {
    name: "clientInfo is optional",
    message: raw("server/discover", { _meta: metaWithoutClientInfo }),
    status: 200,
    check: ({ response }) => expect(response?.result?.supportedVersions).toEqual([REVISION]),
  },

  // ---- versions -----------------------------------------------------------------------------------
  {
    name: "unsupported version → -32022 with supported/requested",
    message: raw("server/discover", { _meta: meta(undefined, { [PV]: "v999.0.0" }) }),
    status: 400,
    error: {
      code: -32022,
      message: "Unsupported protocol version",
      data: { supported: [REVISION], requested: "v999.0.0" },
    },
  },
  {
    name: "an older known version is unsupported too → -32022",
    message: raw("tools/list", { _meta: meta(undefined, { [PV]: "2025-11-25" }) }),
    status: 400,
    error: { code: -32022, data: { supported: [REVISION], requested: "2025-11-25" } },
  },

  // ---- request metadata headers (HTTP only) ---------------------------------------------------------
  {
    name: "MCP-Protocol-Version header ≠ _meta → -32020",
    message: raw("server/discover", { _meta: meta(undefined, { [PV]: "v999.0.0" }) }),
    headers: { "MCP-Protocol-Version": REVISION },
    only: ["http"],
    status: 400,
    error: {
      code: -32020,
      message:
        "Header mismatch: MCP-Protocol-Version header value '2026-07-28' does not match body value 'v999.0.0'",
    },
  },
  {
    name: "MCP-Protocol-Version header missing → -32020",
    message: rpc("tools/list", {}, "no-version-header"),
    headers: { "MCP-Protocol-Version": null },
    only: ["http"],
    status: 400,
    error: {
      code: -32020,
      message: "Header mismatch: the required MCP-Protocol-Version header is missing",
    },
  },
  {
    name: "Mcp-Method header ≠ method → -32020",
    message: rpc("tools/list", {}, "method-header"),
    headers: { "Mcp-Method": "prompts/list" },
    only: ["http"],
    status: 400,
    error: {
      code: -32020,
      message:
        "Header mismatch: Mcp-Method header value 'prompts/list' does not match body value 'tools/list'",
    },
  },
  {
    name: "Mcp-Method header missing → -32020",
    message: rpc("tools/list", {}, "no-method-header"),
    headers: { "Mcp-Method": null },
    only: ["http"],
    status: 400,
    error: { code: -32020, message: "Header mismatch: the required Mcp-Method header is missing" },
  },
  {
    name: "Mcp-Name header ≠ params.name → -32020",
    message: call("echo", {}, "name-header"),
    headers: { "Mcp-Name": "other" },
    only: ["http"],
    status: 400,
    error: {
      code: -32020,
      message: "Header mismatch: Mcp-Name header value 'other' does not match body value 'echo'",
    },
  },
  {
    name: "Mcp-Name header missing → -32020",
    message: call("echo", {}, "no-name-header"),
    headers: { "Mcp-Name": null },
    only: ["http"],
    status: 400,
    error: { code: -32020, message: "Header mismatch: the required Mcp-Name header is missing" },
  },
  {
    name: "Mcp-Name header in Base64 form matches",
    message: call("echo", {}, "name-header-b64"),
    headers: { "Mcp-Name": `=?base64?${Buffer.from("echo").toString("base64")}?=` },
    only: ["http"],
    status: 200,
  },

  // ---- client capabilities ------------------------------------------------------------------------
  {
    name: "a capability the handler requires → -32021 with requiredCapabilities",
    message: call("needs_sampling"),
    status: 400,
    error: {
      code: -32021,
      message: "Missing required client capability",
      data: { requiredCapabilities: { sampling: {} } },
    },
  },
  {
    name: "requiredCapabilities lists only what is missing",
    message: call("needs_two"),
    status: 400,
    error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
  },
  {
    name: "the capability declared → served",
    message: rpc("tools/call", { _meta: meta(ALL_CAPS), name: "needs_sampling" }),
    status: 200,
    check: ({ response }) =>
      expect(response?.result?.content).toEqual([{ type: "text", text: "the client can sample" }]),
  },
];

for (const transport of TRANSPORTS) {
  describe(`dispatcher rules over ${transport}`, () => {
    dispatcherRules(transport, CASES);
  });
}
