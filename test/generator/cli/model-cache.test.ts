import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachedModels, generatorIdentity } from "../../../generator/cli/model-cache.js";
import type { KeptFiles } from "../../../generator/cli/kept-files.js";
import { loadModel } from "../../../generator/load/index.js";
import { GeneratorError } from "../../../generator/errors.js";
import { REVISIONS, ROOT, schemaFile, SPEC_DIR } from "../../helpers/spec.js";
import { generateWithCache } from "../../helpers/cache-runs.js";

// Models kept between runs (generator/cli/model-cache.ts) stand in for parsing a schema again: one
// from the cache must be the model the loader makes, and a change to the schema or the generator
// must miss.

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-mc-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** KeptFiles in memory, counting what was saved. */
function memoryFiles(): KeptFiles & { files: Map<string, string> } {
  const files = new Map<string, string>();
  const pending = new Map<string, string>();
  return {
    files,
    get: (key) => files.get(key) ?? pending.get(key),
    set: (key, text) => void pending.set(key, text),
    save() {
      for (const [key, text] of pending) files.set(key, text);
      pending.clear();
    },
    drop: () => pending.clear(),
  };
}

/** The loader, counting its calls. */
function countedParse() {
  const calls: string[] = [];
  const parse = (file: string, revision: string) => {
    calls.push(revision);
    return Promise.resolve(loadModel(file, { revision }));
  };
  return { calls, parse };
}

describe("cachedModels", () => {
  it("gives back every real revision's model as the loader made it, parsing each once", async () => {
    const kept = memoryFiles();
    const { calls, parse } = countedParse();
    const load = cachedModels(kept, parse);
    for (const revision of REVISIONS) {
      const fresh = await load(schemaFile(revision), revision);
      const again = await load(schemaFile(revision), revision);
      expect(again).not.toBe(fresh);
      expect(again, revision).toStrictEqual(fresh);
    }
    expect(calls).toEqual(REVISIONS);
    // Kept when the caller's run is done, not before.
    expect(kept.files.size).toBe(0);
    kept.save();
    expect(kept.files.size).toBe(REVISIONS.length);
  });

  it("parses again when the schema's bytes or the revision's name differ", async () => {
    const file = join(work, "schema.ts");
    writeFileSync(file, `/** A. */\nexport interface A { a: string }\n`);
    const { calls, parse } = countedParse();
    const load = cachedModels(memoryFiles(), parse);
    await load(file, "one");
    await load(file, "one");
    await load(file, "two");
    writeFileSync(file, `/** A. */\nexport interface A { a: number }\n`);
    const changed = await load(file, "one");
    expect(calls).toEqual(["one", "two", "one"]);
    expect(JSON.stringify(changed.definitions[0]!.type)).toContain('"integer"');
  });

  it("parses again what it cannot read back, and keeps nothing of a schema that fails", async () => {
    const file = join(work, "broken.ts");
    writeFileSync(file, `export interface A { a: string }\n`);
    const kept = memoryFiles();
    const { calls, parse } = countedParse();
    const load = cachedModels(kept, parse);
    const model = await load(file, "r");
    kept.save();
    const [key] = kept.files.keys();
    kept.files.set(key!, "{ not json");
    expect(await load(file, "r")).toStrictEqual(model);
    kept.save();
    expect(JSON.parse(kept.files.get(key!)!)).toStrictEqual(model);
    writeFileSync(file, `export interface A { a: string\n`);
    for (let i = 0; i < 2; i++)
      await expect(load(file, "r")).rejects.toMatchObject({ file, line: 2 });
    kept.save();
    expect(calls).toEqual(["r", "r", "r", "r"]);
    expect(kept.files.size).toBe(1);
    // A file that is not there: the loader's own error, nothing kept.
    await expect(load(join(work, "missing.ts"), "r")).rejects.toBeInstanceOf(GeneratorError);
  });
});

describe("generatorIdentity", () => {
  it("changes with any file of the generator or package.json, and only then", () => {
    const dir = join(work, "generator");
    mkdirSync(join(dir, "load"), { recursive: true });
    writeFileSync(join(dir, "load", "types.js"), "export const a = 1;\n");
    const pkg = join(work, "package.json");
    writeFileSync(pkg, `{"name":"mcp-gen","version":"1.0.0"}`);
    const first = generatorIdentity(dir, pkg);
    expect(generatorIdentity(dir, pkg)).toBe(first);
    // Declarations and source maps are not code the loader runs.
    writeFileSync(join(dir, "load", "types.d.ts"), "export declare const a: number;\n");
    writeFileSync(join(dir, "load", "types.js.map"), "{}");
    expect(generatorIdentity(dir, pkg)).toBe(first);
    writeFileSync(join(dir, "load", "types.js"), "export const a = 2;\n");
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, "load", "types.js"), later, later);
    const edited = generatorIdentity(dir, pkg);
    expect(edited).not.toBe(first);
    writeFileSync(join(dir, "load", "more.ts"), "\n");
    const added = generatorIdentity(dir, pkg);
    expect(added).not.toBe(edited);
    writeFileSync(pkg, `{"name":"mcp-gen","version":"1.0.1"}`);
    expect(generatorIdentity(dir, pkg)).not.toBe(added);
  });
});

describe("the built CLI with kept models", () => {
  // A preloaded probe lists, as the process exits, the parser bundles it loaded.
  const probe = () => {
    const file = join(work, "probe.cjs");
    writeFileSync(
      file,
      `process.on("exit", () => require("node:fs").writeFileSync(process.env.PROBE_OUT, JSON.stringify(Object.keys(require.cache).filter((f) => /[\\\\/](typescript|ts-morph)\\.js$/.test(f)))));\n`,
    );
    return file;
  };

  it("writes the same files from kept models, without loading TypeScript, for the default command", () => {
    const cache = join(work, "cache");
    const revision = REVISIONS.filter((r) => r !== "draft").at(-1)!;
    const cold = generateWithCache(work, cache, revision);
    expect(cold.status, cold.stderr).toBe(0);
    const models = readdirSync(join(cache, "model"));
    // The revision and the initialize-era revisions the default command serves beside it.
    const served = [...cold.files.keys()].filter((f) => /^legacy\/[^/]+\/types\.ts$/.test(f));
    expect(served.length).toBeGreaterThan(0);
    expect(models.length).toBe(1 + served.length);
    const warm = generateWithCache(work, cache, revision);
    expect(warm.status, warm.stderr).toBe(0);
    expect(warm.files).toEqual(cold.files);
    expect(readdirSync(join(cache, "model"))).toEqual(models);

    const loadedBundles = (cacheDir: string) => {
      const out = join(work, `probe-${cacheDir.length}-${Date.now()}.json`);
      const r = spawnSync(
        process.execPath,
        [
          "--require",
          probe(),
          join(ROOT, "dist", "generator", "cli", "main.js"),
          "--revision",
          revision,
          "--spec-dir",
          SPEC_DIR,
          "--out",
          join(work, "probe-out"),
        ],
        { encoding: "utf8", env: { ...process.env, MCP_GEN_CACHE_DIR: cacheDir, PROBE_OUT: out } },
      );
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(readFileSync(out, "utf8")) as string[];
    };
    expect(loadedBundles(cache)).toEqual([]);
    // The probe sees the bundles when a schema is parsed: an empty cache.
    expect(loadedBundles(join(work, "empty-cache")).length).toBeGreaterThan(0);
    expect(existsSync(join(work, "empty-cache", "model"))).toBe(true);
  });
});
