/**
 * The lifecycle checks (runtime/server/lifecycle.ts) on their own: what refuses a stateless revision's
 * request and in which order (the envelope stage's place among them), the handshake's version
 * negotiation.
 * The description uses made-up keys, codes and params, so every name the checks use is shown to
 * come from it. (The dispatcher's rules over real revisions: server-dispatch-lifecycle.test.ts.)
 */
import { describe, expect, it } from "vitest";
import {
  negotiated,
  refusedStateless,
  type StatelessLifecycle,
} from "../../../runtime/server/lifecycle.js";
import type { JsonRpcErrorObject, JsonRpcRequest } from "../../../runtime/shared/jsonrpc.js";
import type { Delivery } from "../../../runtime/server/transport.js";

const LIFECYCLE: StatelessLifecycle = {
  kind: "stateless",
  discover: "x/discover",
  requestMeta: "XMeta",
  protocolVersionKey: "x/version",
  clientCapabilitiesKey: "x/caps",
  requiredMetaKeys: ["x/version", "x/caps", "x/also"],
};
const PROTOCOL = {
  handshakeVersionParam: "hello",
  envelope: { meta: "_meta" },
  errors: { unsupportedVersion: -1001, missingCapability: -1002, headerMismatch: -1003 },
};
const SUPPORTED = ["v2", "v3"];
const ENVELOPE_ERROR: JsonRpcErrorObject = { code: -1003, message: "header mismatch" };

const DELIVERY: Delivery = { notify: () => undefined, signal: new AbortController().signal };

/** An envelope stage that records what it was given and answers `refusal`. */
function envelope(refusal: JsonRpcErrorObject | null = null) {
  const checked: Array<{ method: string; params: Record<string, unknown> }> = [];
  const stage = {
    refused: (request: JsonRpcRequest, params: Record<string, unknown>) => {
      checked.push({ method: request.method, params });
      return refusal;
    },
  };
  return { stage, checked };
}

const request = (params?: Record<string, unknown>): JsonRpcRequest =>
  (params === undefined
    ? { jsonrpc: "2.0", id: 1, method: "x/list" }
    : { jsonrpc: "2.0", id: 1, method: "x/list", params }) as JsonRpcRequest;
const meta = (overrides: Record<string, unknown> = {}) => ({
  "x/version": "v3",
  "x/caps": {},
  "x/also": true,
  ...overrides,
});

function refused(params: Record<string, unknown> | undefined, refusal?: JsonRpcErrorObject) {
  const e = envelope(refusal ?? null);
  const req = request(params);
  const result = refusedStateless(
    PROTOCOL,
    LIFECYCLE,
    SUPPORTED,
    req,
    req.params ?? {},
    DELIVERY,
    e.stage,
  );
  return { result, checked: e.checked };
}

describe("refusedStateless", () => {
  it("serves a request whose _meta carries every required key, object capabilities and a supported version", () => {
    const { result, checked } = refused({ _meta: meta() });
    expect(result).toBeNull();
    expect(checked).toHaveLength(1);
  });

  it("refuses a request without _meta (or with one that is not an object), before the envelope", () => {
    for (const params of [undefined, {}, { _meta: "meta" }, { _meta: [] }]) {
      const { result, checked } = refused(params, ENVELOPE_ERROR);
      expect(result).toEqual({
        code: -32602,
        message: "Invalid params: _meta is required on every request",
      });
      expect(checked).toEqual([]);
    }
  });

  it("reads the metadata field the description names, and names it when refusing", () => {
    const protocol = { ...PROTOCOL, envelope: { meta: "x_meta" } };
    const check = (params: Record<string, unknown>) =>
      refusedStateless(
        protocol,
        LIFECYCLE,
        SUPPORTED,
        request(params),
        params,
        DELIVERY,
        envelope().stage,
      );
    expect(check({ x_meta: meta() })).toBeNull();
    expect(check({ _meta: meta() })).toEqual({
      code: -32602,
      message: "Invalid params: x_meta is required on every request",
    });
    expect(check({ x_meta: meta({ "x/also": undefined }) })?.message).toBe(
      'Invalid params: x_meta is missing "x/also"',
    );
  });

  it("answers an initialize-era handshake (no _meta, the handshake's version param) with the versions it speaks", () => {
    const { result } = refused({ hello: "v1" });
    expect(result).toEqual({
      code: -1001,
      message:
        "Unsupported protocol version v1: this server supports v2, v3, which carry the protocol version and client capabilities in every request's _meta",
      data: { supported: ["v2", "v3"], requested: "v1" },
    });
  });

  it("names the first required _meta key that is missing", () => {
    const { "x/also": _also, ...withoutAlso } = meta();
    expect(refused({ _meta: withoutAlso }).result).toEqual({
      code: -32602,
      message: 'Invalid params: _meta is missing "x/also"',
    });
    const { "x/version": _version, ...withoutVersion } = meta();
    expect(refused({ _meta: withoutVersion }, ENVELOPE_ERROR).result?.message).toBe(
      'Invalid params: _meta is missing "x/version"',
    );
  });

  it("refuses client capabilities that are not an object", () => {
    for (const caps of [null, [], "all", 1]) {
      const { result, checked } = refused({ _meta: meta({ "x/caps": caps }) }, ENVELOPE_ERROR);
      expect(result).toEqual({
        code: -32602,
        message: 'Invalid params: _meta "x/caps" must be an object',
      });
      expect(checked).toEqual([]);
    }
  });

  it("consults the envelope after _meta and before the version", () => {
    const { result, checked } = refused({ _meta: meta({ "x/version": "v9" }) }, ENVELOPE_ERROR);
    expect(result).toEqual(ENVELOPE_ERROR);
    expect(checked).toHaveLength(1);
  });

  it("refuses a version it does not support, naming what it supports and what was requested", () => {
    for (const version of ["v1", 3]) {
      expect(refused({ _meta: meta({ "x/version": version }) }).result).toEqual({
        code: -1001,
        message: "Unsupported protocol version",
        data: { supported: ["v2", "v3"], requested: version },
      });
    }
  });
});

describe("negotiated", () => {
  it("takes the requested version when supported, else the server's own", () => {
    expect(negotiated("v2", SUPPORTED, "v3")).toBe("v2");
    expect(negotiated("v1", SUPPORTED, "v3")).toBe("v3");
    expect(negotiated(undefined, SUPPORTED, "v3")).toBe("v3");
    expect(negotiated(2, SUPPORTED, "v3")).toBe("v3");
  });
});
