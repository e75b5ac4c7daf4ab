/**
 * Finishing results (runtime/server/results.ts) on its own: the fields every result carries (its
 * result type, caching hints, the server's metadata) written under the names the description gives,
 * and a legacy session's result put into the legacy shape. The description uses made-up names, so
 * every field the runtime writes is shown to come from it.
 */
import { describe, expect, it } from "vitest";
import { Results } from "../../../runtime/server/results.js";
import type { LegacyCall } from "../../../runtime/server/legacy.js";
import type { Protocol } from "../../../runtime/server/protocol.js";
import { VALID } from "../../../runtime/schema/checks.js";

const PROTOCOL = {
  envelope: {
    meta: "x_meta",
    resultType: "x/kind",
    cacheHints: { ttl: "x/ttl", scope: "x/scope", uncached: { ttl: 0, scope: "none" } },
  },
  resultTypes: { complete: "done", inputRequired: "more" },
  meta: { serverInfo: "x/server", subscriptionId: "x/sub" },
  errors: { unsupportedVersion: -1001, missingCapability: -1002, headerMismatch: null },
} as unknown as Protocol;

const results = (cache?: { ttlMs: number; cacheScope: "public" | "private" }) =>
  new Results(PROTOCOL, cache ? { cache } : {}, { name: "s", version: "1" }, () => undefined);

describe("Results.finish", () => {
  it("adds the result type and the server's metadata under the description's names", () => {
    expect(results().finish({ a: 1 }, false)).toEqual({
      a: 1,
      "x/kind": "done",
      x_meta: { "x/server": { name: "s", version: "1" } },
    });
  });

  it("merges the handler's own metadata and a subscription's id into the server's", () => {
    const finished = results().finish({ x_meta: { mine: true }, _meta: "kept as is" }, false, 7);
    expect(finished).toEqual({
      "x/kind": "done",
      _meta: "kept as is",
      x_meta: { "x/server": { name: "s", version: "1" }, mine: true, "x/sub": 7 },
    });
  });

  it("adds caching hints to a cacheable result: the server's, else the uncached values", () => {
    expect(results().finish({}, true)).toMatchObject({ "x/ttl": 0, "x/scope": "none" });
    expect(results({ ttlMs: 5, cacheScope: "public" }).finish({}, true)).toMatchObject({
      "x/ttl": 5,
      "x/scope": "public",
    });
  });
});

describe("Results.respondLegacy", () => {
  it("leaves out the modern-only fields and renames metadata keys in the description's field", () => {
    const era = {
      protocol: {
        protocolVersion: "v1",
        metaKeys: [
          { role: "progressToken", modern: "x/progress", legacy: "progressToken" },
          { role: "clientInfo", modern: "x/client", legacy: null },
        ],
      },
      method: { result: () => VALID, drop: ["x/kind"] },
    } as unknown as LegacyCall;
    const outcome = results().respondLegacy(
      { jsonrpc: "2.0", id: 1, method: "x/list" },
      { items: [], "x/kind": "done", x_meta: { "x/progress": 3, "x/client": {} } },
      era,
    );
    expect(outcome.response).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { items: [], x_meta: { progressToken: 3 } },
    });
  });
});
