/**
 * The diff compares messages without their JSON-RPC envelope (`generator/diff/envelope.ts`): a
 * revision that folds `jsonrpc`/`id` into its message types through `extends` changes nothing on
 * the wire, so it yields no entry; the envelope's own changes show once, where it is declared.
 * Checked on a small fixture pair, on every pair of revisions in the spec dir (both directions)
 * and on consecutive versions of the upstream history (a sample; all under `MCP_HISTORY=all`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffModels, type Change } from "../../../generator/diff/index.js";
import { envelopeOf, withoutEnvelope } from "../../../generator/diff/envelope.js";
import { GeneratorError } from "../../../generator/errors.js";
import type { ProtocolModel } from "../../../generator/ir/model.js";
import { loadModel } from "../../../generator/load/index.js";
import { DIFF_FIXTURES } from "../../helpers/diff-fixtures.js";
import { ALL_HISTORY, HISTORY_VERSIONS, historySchema, sampled } from "../../helpers/history.js";
import { REVISIONS, schemaFile } from "../../helpers/spec.js";

/** An entry about a framing field (`jsonrpc`, `id`) of a definition other than the JSON-RPC ones. */
const isEnvelopeEntry = (change: Change): boolean =>
  /^(?!JSONRPC)[^.\s]+\.(jsonrpc|id)$/.test(change.location);

const envelopeEntries = (from: ProtocolModel, to: ProtocolModel): string[] =>
  diffModels(from, to)
    .filter(isEnvelopeEntry)
    .map((c) => `${from.revision} → ${to.revision}: ${c.ruleId} ${c.location}`);

const work = mkdtempSync(join(tmpdir(), "mcp-gen-diff-envelope-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ENVELOPE_TYPES = `
/** @internal */
export type RequestId = string | number;

export interface JSONRPCRequest extends Request {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
}

export interface JSONRPCNotification extends Notification {
  jsonrpc: typeof JSONRPC_VERSION;
}
`;

/** The diff fixtures' base schema with JSON-RPC envelope types, after `edit`. */
function schema(name: string, edit: (text: string) => string): ProtocolModel {
  const base = readFileSync(join(DIFF_FIXTURES, "base.ts"), "utf8");
  const text = edit(
    base.replace("export interface Result {", `${ENVELOPE_TYPES}\nexport interface Result {`),
  );
  const file = join(work, `${name}.ts`);
  writeFileSync(file, text);
  return loadModel(file, { revision: name });
}

/** Every message extends the envelope instead of the plain base. */
const folded = (text: string): string =>
  text
    .replace(/(?<!JSONRPC)Request extends Request \{/g, "Request extends JSONRPCRequest {")
    .replace(
      /(?<!JSONRPC)Notification extends Notification \{/g,
      "Notification extends JSONRPCNotification {",
    );

describe("the JSON-RPC envelope in the diff", () => {
  it("finds the envelope by its version field: the definitions declaring it and their framing fields", () => {
    const model = schema("found", (t) => t);
    const envelope = envelopeOf(model);
    expect([...envelope.definitions].sort()).toEqual(["JSONRPCNotification", "JSONRPCRequest"]);
    expect([...envelope.fields].sort()).toEqual(["id", "jsonrpc"]);
    // The envelope's own definitions keep their fields; a message extending it loses them.
    const bare = withoutEnvelope(schema("bare", folded));
    const props = (name: string) => {
      const type = bare.definitions.find((d) => d.name === name)!.type;
      return type.kind === "object" ? type.properties.map((p) => p.name) : [];
    };
    expect(props("JSONRPCRequest")).toEqual(["method", "params", "jsonrpc", "id"]);
    expect(props("GetGadgetRequest")).toEqual(["method", "params"]);
  });

  it("folding the envelope into the messages through extends is no change", () => {
    const from = schema("plain", (t) => t);
    const to = schema("folded", folded);
    expect(diffModels(from, to)).toEqual([]);
    expect(diffModels(to, from)).toEqual([]);
  });

  it("a message spelling the envelope out itself is no change either", () => {
    const from = schema("plain2", (t) => t);
    const to = schema("spelled", (t) =>
      t.replace(
        '  method: "gadgets/get";\n',
        '  method: "gadgets/get";\n  jsonrpc: typeof JSONRPC_VERSION;\n  id: RequestId;\n',
      ),
    );
    expect(diffModels(from, to)).toEqual([]);
  });

  it("a changed envelope shows once, at the definition declaring it, not at every message", () => {
    const from = schema("folded2", folded);
    const to = schema("narrowed", (t) =>
      folded(t).replace("  id: RequestId;\n", "  id: string;\n"),
    );
    expect(diffModels(from, to).map((c) => [c.ruleId, c.location])).toEqual([
      ["property-type-changed", "JSONRPCRequest.id"],
    ]);
  });

  it("a field of a message that only shares a framing field's name is the message's own", () => {
    const from = schema("plain3", (t) => t);
    const to = schema("own-id", (t) =>
      t.replace('  method: "gadgets/get";\n', '  method: "gadgets/get";\n  id: boolean;\n'),
    );
    expect(diffModels(from, to).map((c) => [c.ruleId, c.location])).toEqual([
      ["property-added-required", "GetGadgetRequest.id"],
    ]);
  });
});

describe("no envelope entries between real revisions", () => {
  const models = new Map(REVISIONS.map((r) => [r, loadModel(schemaFile(r), { revision: r })]));

  it("every revision has its envelope found (JSONRPCRequest declares jsonrpc and id)", () => {
    for (const [revision, model] of models) {
      const envelope = envelopeOf(model);
      expect(envelope.definitions.has("JSONRPCRequest"), revision).toBe(true);
      expect([...envelope.fields].sort(), revision).toEqual(["id", "jsonrpc"]);
    }
  });

  it(`over every ordered pair of ${REVISIONS.length} revisions`, () => {
    const found: string[] = [];
    for (const a of models.values())
      for (const b of models.values()) if (a !== b) found.push(...envelopeEntries(a, b));
    expect(found).toEqual([]);
  });
});

/** The pairs where messages gained or lost the envelope as written: always among the checked ones. */
const KNOWN_PAIRS = ["a-a470342d", "a-e94f2862", "a-48b43d69", "a-2d37d9de"];
const pairs = HISTORY_VERSIONS.slice(1).map((v, i) => [HISTORY_VERSIONS[i]!.name, v.name] as const);
const checked = ALL_HISTORY
  ? pairs
  : [...new Set([...sampled(pairs, 12), ...pairs.filter(([, to]) => KNOWN_PAIRS.includes(to))])];

describe.skipIf(pairs.length === 0)(
  `no envelope entries between consecutive history versions (${checked.length} of ${pairs.length} pairs)`,
  () => {
    it("each pair of loadable versions", () => {
      const models = new Map<string, ProtocolModel | null>();
      const model = (name: string) => {
        if (!models.has(name)) {
          try {
            models.set(name, loadModel(historySchema(name), { revision: name }));
          } catch (error) {
            // A version that is not valid TypeScript itself is refused (test/generator/load/history.test.ts).
            if (!(error instanceof GeneratorError)) throw error;
            models.set(name, null);
          }
        }
        return models.get(name)!;
      };
      const found: string[] = [];
      let compared = 0;
      for (const [from, to] of checked) {
        const a = model(from);
        const b = model(to);
        if (!a || !b) continue;
        compared += 1;
        found.push(...envelopeEntries(a, b));
      }
      expect(found).toEqual([]);
      expect(compared).toBeGreaterThan(checked.length / 2);
    }, 120_000);
  },
);
