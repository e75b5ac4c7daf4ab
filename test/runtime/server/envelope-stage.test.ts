/**
 * The dispatcher's envelope stage (runtime/server/envelope.ts) and where it finds the tools'
 * `x-mcp-header` annotations (tool-annotations.ts): a request without an envelope passes; one with
 * headers is checked against its body by the rules of the protocol description; a definitions
 * layer answers the annotations itself, any other server learns them from its own listings. (The
 * same over HTTP, end to end: hardening.test.ts and http-headers.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { createServer, ServerDefinitions } from "../../../generated/2026-07-28/server.js";
import { PROTOCOL_DESCRIPTION } from "../../../generated/2026-07-28/protocol.js";
import { EnvelopeStage } from "../../../runtime/server/envelope.js";
import { TOOL_ANNOTATIONS } from "../../../runtime/server/tool-annotations.js";
import { success, type JsonRpcRequest } from "../../../runtime/shared/jsonrpc.js";
import type { Delivery, Outcome } from "../../../runtime/server/transport.js";
import { call, INFO, REVISION } from "../../helpers/server-fixture.js";
import { connect } from "../../helpers/server-harness.js";

const SCHEMA = {
  type: "object",
  properties: { region: { type: "string", "x-mcp-header": "Region" } },
};

/** A delivery carrying `headers` (as the HTTP transport hands them over), or none (stdio). */
function delivery(headers?: Record<string, string>): Delivery {
  return { notify: () => undefined, signal: new AbortController().signal, headers };
}

/** The headers a conforming client sends with `request`. */
function headersOf(request: JsonRpcRequest, extra: Record<string, string> = {}) {
  const name = request.params?.["name"];
  return {
    "mcp-protocol-version": REVISION,
    "mcp-method": request.method,
    ...(typeof name === "string" ? { "mcp-name": name } : {}),
    ...extra,
  };
}

const deploy = (region: string) =>
  call("deploy", { arguments: { region } }) as unknown as JsonRpcRequest;

/** A handler map whose tools/list is counted and lists `deploy` (annotated) and `plain`. */
function listing() {
  const listed: JsonRpcRequest[] = [];
  const tools = [
    { name: "deploy", inputSchema: SCHEMA },
    { name: "plain", inputSchema: { type: "object" } },
  ];
  const handle = async (request: JsonRpcRequest): Promise<Outcome> => {
    listed.push(request);
    return { response: success(request.id, { tools }), httpStatus: 200 };
  };
  return { listed, handle, tools };
}

const noLog = () => undefined;

describe("the envelope stage", () => {
  it("passes a request without an envelope, and never makes it wait", () => {
    const { handle, listed } = listing();
    const stage = new EnvelopeStage(PROTOCOL_DESCRIPTION, {}, handle, noLog);
    const request = deploy("eu-west");
    expect(stage.refused(request, request.params!, delivery())).toBeNull();
    expect(stage.pending(request, delivery())).toBeNull();
    expect(listed).toEqual([]);
  });

  it("checks the headers against the body by the description's rules (its mismatch code)", () => {
    const { handle } = listing();
    const stage = new EnvelopeStage(PROTOCOL_DESCRIPTION, {}, handle, noLog);
    const request = deploy("eu-west");
    expect(stage.refused(request, request.params!, delivery(headersOf(request)))).toBeNull();
    expect(
      stage.refused(request, request.params!, delivery(headersOf(request, { "mcp-name": "x" }))),
    ).toEqual({
      code: PROTOCOL_DESCRIPTION.errors.headerMismatch,
      message: "Header mismatch: Mcp-Name header value 'x' does not match body value 'deploy'",
    });
  });

  it("asks a tool listing handler that knows its tools (TOOL_ANNOTATIONS) and never lists", () => {
    const { handle, listed } = listing();
    const list = Object.assign(() => ({ tools: [] }), {
      [TOOL_ANNOTATIONS]: (name: string) =>
        name === "deploy"
          ? [{ path: ["region"], header: "Region", type: "string" as const }]
          : undefined,
    });
    const stage = new EnvelopeStage(PROTOCOL_DESCRIPTION, { "tools/list": list }, handle, noLog);
    const request = deploy("eu-west");
    const headers = delivery(headersOf(request, { "mcp-param-region": "us-east" }));
    expect(stage.pending(request, headers)).toBeNull();
    expect(stage.refused(request, request.params!, headers)?.message).toBe(
      "Header mismatch: Mcp-Param-Region header value 'us-east' does not match body value 'eu-west'",
    );
    expect(listed).toEqual([]);
  });

  it("otherwise lists the tools once, as the calling client would, before the first call to one it has not learned", async () => {
    const { handle, listed } = listing();
    const stage = new EnvelopeStage(PROTOCOL_DESCRIPTION, {}, handle, noLog);
    const request = deploy("eu-west");
    const headers = delivery(headersOf(request, { "mcp-param-region": "us-east" }));
    // Before the listing the call's tool has no known annotations.
    expect(stage.refused(request, request.params!, headers)).toBeNull();
    const first = stage.pending(request, headers);
    expect(stage.pending(request, headers)).toBe(first);
    await first;
    expect(listed).toHaveLength(1);
    expect(listed[0]!.method).toBe("tools/list");
    expect(listed[0]!.params?.["_meta"]).toEqual(request.params?.["_meta"]);
    expect(stage.refused(request, request.params!, headers)?.message).toMatch(/Mcp-Param-Region/);
    // Done once: a call to a tool still unknown does not list again.
    expect(stage.pending(deploy("x"), headers)).toBeNull();
    const unknown = call("other", { arguments: {} }) as unknown as JsonRpcRequest;
    expect(stage.pending(unknown, headers)).toBeNull();
  });

  it("learns from the listings the server sends with an envelope, not from those without", () => {
    const { handle, tools } = listing();
    const stage = new EnvelopeStage(PROTOCOL_DESCRIPTION, {}, handle, noLog);
    const request = { jsonrpc: "2.0", id: 7, method: "tools/list", params: {} } as JsonRpcRequest;
    const outcome: Outcome = { response: success(7, { tools }), httpStatus: 200 };
    const call = deploy("eu-west");
    const headers = delivery(headersOf(call, { "mcp-param-region": "us-east" }));
    expect(stage.sent(request, delivery(), outcome)).toBe(outcome);
    expect(stage.refused(call, call.params!, headers)).toBeNull();
    expect(stage.sent(request, headers, outcome)).toBe(outcome);
    expect(stage.refused(call, call.params!, headers)?.message).toMatch(/Mcp-Param-Region/);
    // The tool is known now: its calls wait for no listing.
    expect(stage.pending(call, headers)).toBeNull();
  });
});

describe("a server whose tools are definitions", () => {
  it("checks a call's Mcp-Param headers before any listing, and never lists its tools itself", async () => {
    const definitions = new ServerDefinitions({ log: noLog });
    definitions.tool<{ region?: string }>({
      name: "deploy",
      inputSchema: SCHEMA as never,
      handler: (args) => ({ content: [{ type: "text", text: args.region ?? "" }] }),
    });
    let listings = 0;
    const list = definitions.handlers()["tools/list"]!;
    const server = createServer({
      info: INFO,
      capabilities: { tools: {} },
      definitions,
      handlers: {
        // Counted, and still the definitions' own (its TOOL_ANNOTATIONS with it).
        "tools/list": Object.assign(
          (...args: Parameters<typeof list>) => {
            listings++;
            return list(...args);
          },
          { [TOOL_ANNOTATIONS]: (list as { [TOOL_ANNOTATIONS]?: unknown })[TOOL_ANNOTATIONS] },
        ) as never,
      },
    });
    const peer = await connect("http", server, { protocolVersion: REVISION });
    try {
      const mismatched = await peer.send(call("deploy", { arguments: { region: "eu-west" } }), {
        headers: { "Mcp-Param-Region": "us-east" },
      });
      expect(mismatched.status).toBe(400);
      expect(mismatched.response?.error?.message).toBe(
        "Header mismatch: Mcp-Param-Region header value 'us-east' does not match body value 'eu-west'",
      );
      const matching = await peer.send(call("deploy", { arguments: { region: "eu-west" } }), {
        headers: { "Mcp-Param-Region": "eu-west" },
      });
      expect(matching.status).toBe(200);
      expect(listings).toBe(0);
    } finally {
      await peer.close();
    }
  });
});
