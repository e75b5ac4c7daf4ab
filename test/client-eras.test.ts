/**
 * The client's bridge from a stateless revision to initialize-era ones (generator/derive/client-eras.ts):
 * the server's bridge read the other way, derived from the two models and their diff, and the
 * literal the client target emits from it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadModel } from "../generator/load/index.js";
import { clientEraBridge, clientEraBridges } from "../generator/derive/client-eras.js";
import { eraBridge } from "../generator/derive/eras.js";
import { ROOT, schemaFile } from "./helpers/spec.js";

const model = (revision: string) => loadModel(schemaFile(revision), { revision });
const modern = model("2026-07-28");
const r1125 = model("2025-11-25");
const r0618 = model("2025-06-18");

describe("clientEraBridge(2026-07-28, 2025-11-25)", () => {
  const bridge = clientEraBridge(modern, r1125);

  it("has the modern methods the legacy revision has, as the server's bridge does", () => {
    expect(bridge.methods.map((m) => m.method)).toEqual(
      eraBridge(modern, r1125).shared.map((s) => s.method),
    );
  });

  it("puts back only the modern-only fields the modern result requires, as complete and not cacheable", () => {
    const byMethod = Object.fromEntries(bridge.methods.map((m) => [m.method, m]));
    expect(byMethod["tools/list"]).toEqual({
      method: "tools/list",
      results: ["ListToolsResult"],
      fill: { resultType: "complete", ttlMs: 0, cacheScope: "private" },
    });
    expect(byMethod["tools/call"]!.fill).toEqual({ resultType: "complete" });
    expect(byMethod["prompts/get"]!.fill).toEqual({ resultType: "complete" });
  });

  it("answers discovery from the handshake: versions negotiated, capabilities and instructions by role, the server's identity in _meta", () => {
    expect(bridge.discover).toEqual({
      method: "server/discover",
      fields: {
        resultType: { value: "complete" },
        ttlMs: { value: 0 },
        cacheScope: { value: "private" },
        supportedVersions: { version: true },
        capabilities: { field: "capabilities" },
        instructions: { field: "instructions" },
      },
      info: { metaKey: "io.modelcontextprotocol/serverInfo", field: "serverInfo" },
    });
  });

  it("names the requests a legacy server sends that the modern input handlers answer, the liveness request and the progress key", () => {
    expect(bridge.serverRequests.map((r) => [r.method, r.capability]).sort()).toEqual([
      ["elicitation/create", "elicitation"],
      ["roots/list", "roots"],
      ["sampling/createMessage", "sampling"],
    ]);
    expect(bridge.ping).toBe("ping");
    expect(bridge.progressTokenKey).toBe("progressToken");
    expect(bridge.initialize).toBe("initialize");
    expect(bridge.initializeResult).toBe("InitializeResult");
  });
});

describe("clientEraBridges", () => {
  it("orders the legacy revisions newest first (the handshake offers the first)", () => {
    expect(clientEraBridges(modern, [r0618, r1125]).map((b) => b.protocolVersion)).toEqual([
      "2025-11-25",
      "2025-06-18",
    ]);
  });

  it("derives a 2025-06-18 bridge with no new code, read from its own model", () => {
    const bridge = clientEraBridge(modern, r0618);
    expect(bridge.revision).toBe("2025-06-18");
    expect(bridge.methods.find((m) => m.method === "tools/call")?.results).toEqual([
      "CallToolResult",
    ]);
  });
});

describe("the generated dual-era client", () => {
  const client = readFileSync(join(ROOT, "generated", "dual", "client.ts"), "utf8");

  it("imports each legacy revision's validators and checks legacy answers with them", () => {
    expect(client).toContain('from "./legacy/2025-11-25/validators.js"');
    expect(client).toContain('from "./legacy/2025-06-18/validators.js"');
    expect(client).toMatch(
      /"tools\/list": \{\s*result: checked\(\s*Legacy2025_11_25\.isListToolsResult,\s*Legacy2025_11_25\.validateListToolsResult,?\s*\)/,
    );
  });

  it("hands the eras to the core, newest first", () => {
    expect(client).toContain("new ClientCore(CLIENT_PROTOCOL, core, LEGACY_ERAS)");
    expect(client.indexOf('revision: "2025-11-25"')).toBeLessThan(
      client.indexOf('revision: "2025-06-18"'),
    );
  });
});
