/**
 * The bridge from a stateless revision to initialize-era ones (generator/derive/eras.ts), derived from
 * the two models and their diff, and the `--legacy` option of the CLI (bad input included).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadModel } from "../generator/load/index.js";
import { bridgeProblem, eraBridge, eraBridges } from "../generator/derive/eras.js";
import { ROOT, SPEC_DIR, schemaFile } from "./helpers/spec.js";

const model = (revision: string) => loadModel(schemaFile(revision), { revision });
const modern = model("2026-07-28");
const r1125 = model("2025-11-25");
const r0326 = model("2025-03-26");

describe("eraBridge(2026-07-28, 2025-11-25)", () => {
  const bridge = eraBridge(modern, r1125);

  it("names the legacy handshake and version", () => {
    expect(bridge).toMatchObject({
      revision: "2025-11-25",
      protocolVersion: "2025-11-25",
      initialize: "initialize",
      initialized: "notifications/initialized",
      initializeResult: "InitializeResult",
    });
  });

  it("serves every client request both revisions have with the modern handler, dropping the fields only the modern result has", () => {
    const shared = Object.fromEntries(bridge.shared.map((s) => [s.method, s]));
    expect(Object.keys(shared).sort()).toEqual([
      "completion/complete",
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/read",
      "resources/templates/list",
      "tools/call",
      "tools/list",
    ]);
    expect(shared["tools/list"]).toEqual({
      method: "tools/list",
      results: ["ListToolsResult"],
      drop: ["resultType", "ttlMs", "cacheScope"],
    });
    expect(shared["tools/call"]).toEqual({
      method: "tools/call",
      results: ["CallToolResult"],
      drop: ["resultType"],
    });
  });

  it("leaves the legacy-only requests without a modern form or runtime role unserved (method not found)", () => {
    expect(bridge.unserved).toEqual(["tasks/get", "tasks/result", "tasks/cancel", "tasks/list"]);
  });

  it("finds the session requests by their shape: ping, the log level, the per-resource subscription pair", () => {
    expect(bridge.ping).toBe("ping");
    expect(bridge.setLevel).toEqual({
      method: "logging/setLevel",
      param: "level",
      capability: "logging",
    });
    expect(bridge.subscribe).toEqual({
      method: "resources/subscribe",
      unsubscribe: "resources/unsubscribe",
      notification: "notifications/resources/updated",
      capability: ["resources", "subscribe"],
    });
  });

  it("sends each modern input request that was a server request in the legacy revision as one, gated by its capability", () => {
    expect(bridge.serverRequests).toEqual([
      {
        method: "sampling/createMessage",
        capability: "sampling",
        results: ["CreateMessageResult"],
      },
      { method: "roots/list", capability: "roots", results: ["ListRootsResult"] },
      { method: "elicitation/create", capability: "elicitation", results: ["ElicitResult"] },
    ]);
  });

  it("maps the _meta keys by role: modern-only ones are dropped, the progress token kept", () => {
    const keys = Object.fromEntries(bridge.metaKeys.map((k) => [k.role, k.legacy]));
    expect(keys).toEqual({
      serverInfo: null,
      clientInfo: null,
      progressToken: "progressToken",
      logLevel: null,
      subscriptionId: null,
    });
    expect(bridge.notifications).toContain("notifications/tools/list_changed");
    expect(bridge.notifications).not.toContain("notifications/subscriptions/acknowledged");
  });
});

describe("eraBridges", () => {
  it("orders the bridges newest protocol version first, whatever order they are given in", () => {
    expect(eraBridges(modern, [r0326, r1125]).map((b) => b.protocolVersion)).toEqual([
      "2025-11-25",
      "2025-03-26",
    ]);
  });

  it("2025-03-26 has no elicitation: a modern elicitation has no legacy form there", () => {
    expect(eraBridge(modern, r0326).serverRequests.map((r) => r.method)).toEqual([
      "sampling/createMessage",
      "roots/list",
    ]);
  });

  it("refuses pairs that are not stateless → initialize-era", () => {
    expect(bridgeProblem(r1125, r0326)).toMatch(/no per-request _meta lifecycle/);
    expect(bridgeProblem(modern, modern)).toMatch(
      /--legacy 2026-07-28: not an initialize-era revision/,
    );
    expect(() => eraBridge(modern, modern)).toThrow(/not an initialize-era revision/);
  });
});

describe("mcp-gen --legacy", () => {
  const bin = join(ROOT, "dist", "generator", "cli", "main.js");
  const work = mkdtempSync(join(tmpdir(), "mcp-gen-legacy-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const run = (args: string[], cwd = work) =>
    spawnSync(process.execPath, [bin, ...args, "--spec-dir", SPEC_DIR], { cwd, encoding: "utf8" });

  it("a legacy revision that is not initialize-era: one line naming it, exit 2 (usage), nothing written", () => {
    const r = run(["--revision", "2026-07-28", "--legacy", "draft", "--out", "out"]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/--legacy draft: not an initialize-era revision/),
    ]);
    expect(existsSync(join(work, "out"))).toBe(false);
  });

  it("with two revisions: a usage error", () => {
    const r = run([
      "--revision",
      "2026-07-28",
      "--revision",
      "2025-11-25",
      "--legacy",
      "2025-06-18",
      "--out",
      "out",
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(
      /--legacy serves older clients from one server: give exactly one --revision/,
    );
    expect(existsSync(join(work, "out"))).toBe(false);
  });

  it("writes the legacy revisions' types and validators beside the modern output, comma-separated or repeated alike", () => {
    // The same --out from two folders: the output names its own command, --out included.
    for (const dir of ["a", "b"]) mkdirSync(join(work, dir));
    const a = run(
      ["--revision", "2026-07-28", "--legacy", "2025-11-25,2025-06-18", "--out", "out"],
      join(work, "a"),
    );
    const b = run(
      [
        "--revision",
        "2026-07-28",
        "--legacy",
        "2025-11-25",
        "--legacy",
        "2025-06-18",
        "--out",
        "out",
      ],
      join(work, "b"),
    );
    expect([a.status, b.status]).toEqual([0, 0]);
    expect(readdirSync(join(work, "a", "out", "legacy")).sort()).toEqual([
      "2025-06-18",
      "2025-11-25",
    ]);
    expect(readdirSync(join(work, "a", "out", "legacy", "2025-11-25")).sort()).toEqual([
      "types.ts",
      "validators.ts",
    ]);
    expect(readFileSync(join(work, "a", "out", "server.ts"), "utf8")).toContain(
      "regenerate with `mcp-gen --revision 2026-07-28 --legacy 2025-11-25,2025-06-18 --out out",
    );
    const diff = spawnSync("diff", ["-r", join(work, "a", "out"), join(work, "b", "out")], {
      encoding: "utf8",
    });
    expect(diff.stdout).toBe("");
  });

  it("is in --help", () => {
    expect(spawnSync(process.execPath, [bin, "--help"], { encoding: "utf8" }).stdout).toMatch(
      /--legacy +initialize-era revisions the server also serves/,
    );
  });
});
