/**
 * `--json-schema ajv|cfworker`: the adapter is emitted only when asked for, compiles with the rest
 * of the output under strict settings, and each adapter follows the engine contract (dialects,
 * pointers, refusal of what it cannot check).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderRevision } from "../../../generator/emit/index.js";
import { loadModel } from "../../../generator/load/index.js";
import { ajvEngine } from "../../../runtime/schema/json-schema-ajv.js";
import { cfworkerEngine } from "../../../runtime/schema/json-schema-cfworker.js";
import { SchemaCache } from "../../../runtime/schema/json-schema.js";
import { emitFacts, ROOT, schemaFile } from "../../helpers/spec.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../../helpers/tsc.js";

const REVISION = "2026-07-28";

describe("emitting an adapter", () => {
  const model = loadModel(schemaFile(REVISION), { revision: REVISION });

  it("emits nothing of an engine unless asked, and only the engine asked for", async () => {
    const plain = (await renderRevision(model, "test", emitFacts(model))).map((f) => f.path);
    expect(plain.filter((p) => p.startsWith("runtime/schema/json-schema-"))).toEqual([]);
    const ajv = (
      await renderRevision(model, "test", { ...emitFacts(model), jsonSchema: "ajv" })
    ).map((f) => f.path);
    expect(ajv.filter((p) => p.startsWith("runtime/schema/json-schema-"))).toEqual([
      "runtime/schema/json-schema-ajv.ts",
    ]);
  });

  it.each(["ajv", "cfworker"] as const)(
    "the output with the %s adapter compiles under strict settings",
    async (engine) => {
      // Inside node_modules' parent chain, so the adapter's package resolves as in a user's project.
      const dir = mkdtempSync(join(ROOT, "node_modules", ".mcp-gen-adapter-"));
      try {
        for (const file of await renderRevision(model, "test", {
          ...emitFacts(model),
          jsonSchema: engine,
        })) {
          mkdirSync(dirname(join(dir, file.path)), { recursive: true });
          writeFileSync(join(dir, file.path), file.content);
        }
        const result = tsc(dir, {
          compilerOptions: { ...STRICT_OPTIONS, ...NODE_TYPES, noEmit: true },
          include: ["**/*.ts"],
        });
        expect(result.output).toBe("");
        expect(result.status).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});

describe.each([
  ["ajv", ajvEngine],
  ["cfworker", cfworkerEngine],
] as const)("the %s engine", (_name, engine) => {
  it("reads the 2020-12 dialect by default and draft-07 when a schema names it", () => {
    const cache = new SchemaCache(engine());
    // prefixItems exists in 2020-12 only; draft-07 reads an array `items` positionally instead.
    const modern = cache.check({ type: "array", prefixItems: [{ type: "number" }] });
    expect(modern(["x"]).ok).toBe(false);
    const old = cache.check({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "array",
      items: [{ type: "number" }],
    });
    expect(old(["x"]).ok).toBe(false);
    expect(old([1]).ok).toBe(true);
  });

  it("refuses an unknown dialect instead of treating the schema as permissive", () => {
    const check = new SchemaCache(engine()).check({
      $schema: "https://example.com/my-dialect",
      type: "object",
    });
    expect(check({}).ok).toBe(false);
    expect(check({}).errors?.[0]?.message).toMatch(/unsupported JSON Schema dialect/);
  });

  it("resolves $ref inside the schema", () => {
    const check = new SchemaCache(engine()).check({
      $defs: { n: { type: "number" } },
      type: "object",
      properties: { a: { $ref: "#/$defs/n" } },
    });
    expect(check({ a: 1 }).ok).toBe(true);
    expect(check({ a: "x" })).toMatchObject({ ok: false, errors: [{ path: "/a" }] });
  });

  it("checks formats", () => {
    const check = new SchemaCache(engine()).check({ type: "string", format: "date-time" });
    expect(check("2026-07-28T10:00:00Z").ok).toBe(true);
    expect(check("yesterday").ok).toBe(false);
  });
});
