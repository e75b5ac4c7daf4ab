/**
 * The eras from a stateless revision to initialize-era ones (generator/derive/eras.ts), derived from
 * the two models and their diff and carried in the protocol description, what a dual-era server
 * and client read; and the `--legacy` option of the CLI (bad input included).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadModel } from "../../../generator/load/index.js";
import { bridgeProblem, eraDescription, eraDescriptions } from "../../../generator/derive/eras.js";
import { checkDescription, protocolDescription } from "../../../generator/derive/protocol.js";
import { deprecationRegistry } from "../../../generator/registry/index.js";
import { legacyMetaKey } from "../../../runtime/shared/protocol.js";
import { RELEASES, ROOT, SPEC_DIR, schemaFile } from "../../helpers/spec.js";
import { loadSchemaText } from "../../helpers/golden.js";
import { RENAMED_FIELDS, renamedMessageFields } from "../../helpers/renamed-message-fields.js";

const model = (revision: string) => loadModel(schemaFile(revision), { revision });
const modern = model("2026-07-28");
const r1125 = model("2025-11-25");
const r0326 = model("2025-03-26");

describe("eraDescription(2026-07-28, 2025-11-25)", () => {
  const era = eraDescription(modern, r1125);

  it("names the legacy handshake and version", () => {
    expect(era).toMatchObject({
      revision: "2025-11-25",
      protocolVersion: "2025-11-25",
      initialize: "initialize",
      initialized: "notifications/initialized",
      initializeResult: "InitializeResult",
    });
  });

  it("names the legacy handshake's params and result, and its notifications' params, as the legacy revision does", () => {
    expect(era.handshake).toEqual({
      params: { version: "protocolVersion", capabilities: "capabilities", info: "clientInfo" },
      result: { version: "protocolVersion" },
    });
    expect(era.notificationParams).toEqual({
      progress: {
        token: "progressToken",
        progress: "progress",
        total: "total",
        message: "message",
      },
      cancelled: { requestId: "requestId", reason: "reason" },
      message: { level: "level", logger: "logger", data: "data" },
    });
    expect(eraDescription(modern, r0326).notificationParams.progress?.message).toBe("message");
  });

  it("follows a legacy revision renaming them", () => {
    const renamed = loadSchemaText(renamedMessageFields("2025-11-25"), "2025-11-25");
    const described = eraDescription(modern, renamed);
    expect(described.handshake.params).toEqual({
      version: "protocolVersion",
      capabilities: RENAMED_FIELDS.capabilities,
      info: RENAMED_FIELDS.clientInfo,
    });
    expect(described.notificationParams).toMatchObject({
      progress: { token: RENAMED_FIELDS.progressToken },
      cancelled: { requestId: RENAMED_FIELDS.requestId, reason: RENAMED_FIELDS.reason },
      message: {
        level: RENAMED_FIELDS.level,
        logger: RENAMED_FIELDS.logger,
        data: RENAMED_FIELDS.data,
      },
    });
  });

  it("serves every client request both revisions have with the modern handler: the server drops the fields only the modern result has, the client puts back the required ones as complete and not cacheable", () => {
    expect(Object.keys(era.methods).sort()).toEqual([
      "completion/complete",
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/read",
      "resources/templates/list",
      "tools/call",
      "tools/list",
    ]);
    expect(era.methods["tools/list"]).toEqual({
      results: ["ListToolsResult"],
      drop: ["resultType", "ttlMs", "cacheScope"],
      fill: { resultType: "complete", ttlMs: 0, cacheScope: "private" },
    });
    expect(era.methods["tools/call"]).toEqual({
      results: ["CallToolResult"],
      drop: ["resultType"],
      fill: { resultType: "complete" },
    });
    expect(era.methods["prompts/get"]!.fill).toEqual({ resultType: "complete" });
  });

  it("leaves the legacy-only requests without a modern form or runtime role out (method not found)", () => {
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel", "tasks/list", "ping"])
      expect(era.methods[method]).toBeUndefined();
  });

  it("gives a client every other request of the legacy revision, the handshake aside, with its legacy results", () => {
    expect(era.ownRequests).toEqual({
      ping: { results: ["EmptyResult"] },
      "logging/setLevel": { results: ["EmptyResult"] },
      "resources/subscribe": { results: ["EmptyResult"] },
      "resources/unsubscribe": { results: ["EmptyResult"] },
      "tasks/get": { results: ["GetTaskResult"] },
      "tasks/result": { results: ["GetTaskPayloadResult"] },
      "tasks/cancel": { results: ["CancelTaskResult"] },
      "tasks/list": { results: ["ListTasksResult"] },
    });
    for (const method of Object.keys(era.ownRequests)) expect(era.methods[method]).toBeUndefined();
    expect(era.ownRequests[era.initialize]).toBeUndefined();
  });

  it("drops from legacy tool listings the schema keywords the modern tool input schema documents and the legacy one does not", () => {
    expect(era.toolSchemaKeywords).toEqual({
      list: "tools/list",
      items: "tools",
      schema: "inputSchema",
      drop: ["x-mcp-header"],
    });
  });

  it("drops nothing when the legacy tool input schema documents the same keywords", () => {
    // 2025-11-25 with the 2026-07-28 Tool: its input schema documents x-mcp-header too.
    const keywords = eraDescription(modern, {
      ...r1125,
      definitions: r1125.definitions.map((d) => {
        const twin = modern.definitions.find((m) => m.name === d.name);
        return d.name === "Tool" && twin ? { ...d, type: twin.type } : d;
      }),
    }).toolSchemaKeywords;
    expect(keywords).toBeNull();
  });

  it("finds the session requests by their shape: ping, the log level, the per-resource subscription pair and the param naming the resource", () => {
    expect(era.ping).toBe("ping");
    expect(era.setLevel).toEqual({
      method: "logging/setLevel",
      param: "level",
      capability: "logging",
    });
    expect(era.subscribe).toEqual({
      method: "resources/subscribe",
      unsubscribe: "resources/unsubscribe",
      param: "uri",
      notification: "notifications/resources/updated",
      capability: ["resources", "subscribe"],
    });
  });

  it("sends each modern input request that was a server request in the legacy revision as one, gated by its capability", () => {
    expect(era.serverRequests).toEqual({
      "sampling/createMessage": { capability: "sampling", results: ["CreateMessageResult"] },
      "roots/list": { capability: "roots", results: ["ListRootsResult"] },
      "elicitation/create": { capability: "elicitation", results: ["ElicitResult"] },
    });
  });

  it("maps the _meta keys by role: modern-only ones are dropped, the progress token kept", () => {
    const keys = Object.fromEntries(era.metaKeys.map((k) => [k.role, k.legacy]));
    expect(keys).toEqual({
      serverInfo: null,
      clientInfo: null,
      progressToken: "progressToken",
      logLevel: null,
      subscriptionId: null,
    });
    expect(legacyMetaKey(era, "progressToken")).toBe("progressToken");
    expect(legacyMetaKey(era, "logLevel")).toBeNull();
    expect(era.notifications).toContain("notifications/tools/list_changed");
    expect(era.notifications).not.toContain("notifications/subscriptions/acknowledged");
    expect([era.cancelled, era.message, era.progress]).toEqual([
      "notifications/cancelled",
      "notifications/message",
      "notifications/progress",
    ]);
  });

  it("answers discovery from the handshake: versions negotiated, capabilities and instructions by role, the server's identity in _meta", () => {
    expect(era.discover).toEqual({
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
    expect(era.serverCapabilities).toBe("capabilities");
  });
});

describe("eraDescriptions", () => {
  it("orders the eras newest protocol version first, whatever order they are given in", () => {
    expect(eraDescriptions(modern, [r0326, r1125]).map((b) => b.protocolVersion)).toEqual([
      "2025-11-25",
      "2025-03-26",
    ]);
  });

  it("2025-03-26 has no elicitation: a modern elicitation has no legacy form there", () => {
    expect(Object.keys(eraDescription(modern, r0326).serverRequests)).toEqual([
      "sampling/createMessage",
      "roots/list",
    ]);
  });

  it("refuses pairs that are not stateless → initialize-era", () => {
    expect(bridgeProblem(r1125, r0326)).toMatch(/no per-request _meta lifecycle/);
    expect(bridgeProblem(modern, modern)).toMatch(
      /--legacy 2026-07-28: not an initialize-era revision/,
    );
    expect(() => eraDescription(modern, modern)).toThrow(/not an initialize-era revision/);
  });
});

describe("the eras in the protocol description", () => {
  const registry = deprecationRegistry(modern, RELEASES);

  it("carries each legacy revision's era, newest first; none for a revision generated alone", () => {
    const described = protocolDescription(modern, registry, [r0326, r1125])!;
    expect(described.eras.map((e) => e.revision)).toEqual(["2025-11-25", "2025-03-26"]);
    expect(described.eras[0]).toEqual(eraDescription(modern, r1125));
    expect(protocolDescription(modern, registry)!.eras).toEqual([]);
  });

  it("is checked against the legacy revision: a definition or method it lacks is a generation error", () => {
    const described = protocolDescription(modern, registry, [r1125])!;
    const era = described.eras[0]!;
    const withEra = (changed: Partial<typeof era>) => ({
      ...described,
      eras: [{ ...era, ...changed }],
    });
    expect(() => checkDescription(modern, withEra({}), [r1125])).not.toThrow();
    expect(() =>
      checkDescription(modern, withEra({ initializeResult: "NoSuchResult" }), [r1125]),
    ).toThrow(/era 2025-11-25 names unknown definition `NoSuchResult`/);
    // server/discover is modern only: an era naming it as a legacy method is a bug.
    expect(() =>
      checkDescription(
        modern,
        withEra({ methods: { ...era.methods, "server/discover": era.methods["tools/list"]! } }),
        [r1125],
      ),
    ).toThrow(/era 2025-11-25 names unknown method `server\/discover`/);
    expect(() => checkDescription(modern, withEra({}), [])).toThrow(
      /era 2025-11-25 has no legacy revision/,
    );
  });
});

describe("the generated dual-era output", () => {
  const dual = (file: string) => readFileSync(join(ROOT, "generated", "dual", file), "utf8");

  it("holds the eras in protocol.ts only: server.ts and client.ts bind them to each legacy revision's validators, in the description's order", () => {
    const protocol = dual("protocol.ts");
    expect(protocol.indexOf('revision: "2025-11-25"')).toBeGreaterThan(0);
    expect(protocol.indexOf('revision: "2025-11-25"')).toBeLessThan(
      protocol.indexOf('revision: "2025-06-18"'),
    );
    expect(dual("server.ts")).toMatch(
      /serverProtocol\(PROTOCOL_DESCRIPTION, V, \[\s*Legacy2025_11_25,\s*Legacy2025_06_18,\s*Legacy2025_03_26,\s*Legacy2024_11_05,?\s*\]\)/,
    );
    const client = dual("client.ts");
    expect(client).toMatch(
      /bindProtocol\(PROTOCOL_DESCRIPTION, V, \[\s*Legacy2025_11_25,\s*Legacy2025_06_18,\s*Legacy2025_03_26,\s*Legacy2024_11_05,?\s*\]\)/,
    );
    expect(client).toContain("LEGACY_ERAS: readonly LegacyEra[] = CLIENT_PROTOCOL.eras");
    expect(client).toContain("new ClientCore(CLIENT_PROTOCOL, core, LEGACY_ERAS)");
    for (const file of [dual("server.ts"), client])
      expect(file).not.toContain('"notifications/initialized"');
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
      /--legacy +initialize-era revisions the server and client also speak.*\(default: every released/s,
    );
  });
});
