/**
 * `mcp-gen.config.json` and `mcp-gen init`: the file is read through the option table (its keys are
 * the table's `configKey`s), flags override it, and bad input is one line naming file and line,
 * exit 1, output untouched. The loader and emitters are stand-ins recording how they were driven.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { readConfig } from "../../../generator/cli/config-file.js";
import { GENERATE_OPTIONS, TOOLS_OPTIONS } from "../../../generator/cli/options.js";
import { readRevisions } from "../../../generator/spec/revisions.js";

const calls = vi.hoisted(() => ({
  emit: [] as Array<{ outDir: string; regenerate: string; auth: boolean; legacy?: unknown[] }>,
  tools: [] as Array<{ regenerate: string }>,
  written: [] as string[],
}));
vi.mock("../../../generator/load/index.js", () => ({
  // The shared TypeScript project the loads parse into: the mocked loads parse nothing.
  schemaProject: () => ({}),
  loadModel: (_file: string, options: { revision: string }) => ({
    revision: options.revision,
    irVersion: 1,
    source: { file: "schema.ts", sha256: "0".repeat(64) },
    // initialize-era: no default --legacy to locate (cli-legacy.test.ts covers the default)
    lifecycle: { kind: "stateful" },
  }),
}));
vi.mock("../../../generator/derive/eras.js", () => ({ bridgeProblem: () => undefined }));
vi.mock("../../../generator/emit/index.js", () => ({
  writeRevision: async (_model: unknown, options: (typeof calls.emit)[number]) => {
    calls.emit.push(options);
    return { files: ["types.ts"], plan: { changes: [], edited: [] } };
  },
  renderRevision: async () => [],
}));
vi.mock("../../../generator/emit/tools/render.js", () => ({
  renderTools: async (_model: unknown, options: { regenerate: string }) => {
    calls.tools.push(options);
    return [{ path: "tools.ts", content: "// tools\n" }];
  },
}));
vi.mock("../../../generator/emit/write.js", () => ({
  writeOutput: (outDir: string) => {
    calls.written.push(outDir);
    return { changes: [], edited: [] };
  },
  planOutput: () => ({ changes: [], edited: [] }),
}));

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-config-"));
  for (const rev of ["2026-07-28", "2025-11-25"]) {
    mkdirSync(join(work, "spec", rev), { recursive: true });
    writeFileSync(join(work, "spec", rev, "schema.ts"), `// ${rev}\n`);
  }
  writeFileSync(join(work, "tools.ts"), "export interface EchoArguments { a: string }\n");
  calls.emit.length = 0;
  calls.tools.length = 0;
  calls.written.length = 0;
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: string[], cwd = work) =>
  runCli(args, {
    env: { MCP_GEN_CACHE_DIR: join(work, "cache"), MCP_SPEC_DIR: join(work, "spec") },
    cwd,
  });

const config = (text: string, file = "mcp-gen.config.json") =>
  writeFileSync(join(work, file), text);

describe("mcp-gen.config.json", () => {
  it("names revisions, out, legacy, json-schema, auth and tools; `mcp-gen` generates all of it", async () => {
    config(
      JSON.stringify(
        {
          revisions: ["2026-07-28"],
          out: "src/mcp",
          legacy: ["2025-11-25"],
          "json-schema": "ajv",
          auth: true,
          tools: { file: "tools.ts", out: "src/mcp-tools" },
        },
        null,
        2,
      ),
    );
    const r = await cli([]);
    expect(r.code, r.stderr).toBe(0);
    expect(calls.emit).toHaveLength(1);
    expect(calls.emit[0]).toMatchObject({
      outDir: join(work, "src", "mcp"),
      auth: true,
      jsonSchema: "ajv",
      regenerate:
        "mcp-gen --revision 2026-07-28 --legacy 2025-11-25 --out src/mcp --json-schema ajv --auth",
    });
    expect(calls.emit[0]!.legacy).toHaveLength(1);
    expect(calls.tools).toEqual([
      expect.objectContaining({ regenerate: "mcp-gen tools tools.ts --out src/mcp-tools" }),
    ]);
    expect(calls.written).toEqual([join(work, "src", "mcp-tools")]);
  });

  it("flags override it; naming revisions on the command line leaves the config's tools out", async () => {
    config(
      JSON.stringify({
        revisions: ["2025-11-25"],
        out: "a",
        auth: true,
        tools: { file: "tools.ts" },
      }),
    );
    const r = await cli(["-r", "2026-07-28", "--out", "b", "--no-auth"]);
    expect(r.code, r.stderr).toBe(0);
    expect(calls.emit).toEqual([
      expect.objectContaining({
        outDir: join(work, "b"),
        auth: false,
        regenerate: "mcp-gen --revision 2026-07-28 --out b",
      }),
    ]);
    expect(calls.tools).toEqual([]);
  });

  it("paths in it are taken from its folder, whatever the working directory (--config)", async () => {
    mkdirSync(join(work, "sub"));
    config(JSON.stringify({ revisions: ["2026-07-28"], out: "gen" }), "sub/mine.json");
    const r = await cli(["--config", "sub/mine.json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(calls.emit.map((c) => c.outDir)).toEqual([join(work, "sub", "gen")]);
    expect(calls.emit[0]!.regenerate).toBe("mcp-gen --revision 2026-07-28 --out gen");
  });

  it("`mcp-gen tools` takes its file and folder from the config's tools", async () => {
    config(JSON.stringify({ tools: { file: "tools.ts", out: "t" } }));
    const r = await cli(["tools"]);
    expect(r.code, r.stderr).toBe(0);
    expect(calls.written).toEqual([join(work, "t")]);
    expect(calls.emit).toEqual([]);
  });

  it.each([
    [
      '{\n  "revisions": ["2026-07-28"],\n  "out": "x",\n}\n',
      'mcp-gen.config.json:4: invalid JSON: expected a key, found "}"',
    ],
    [
      '{\n  "revisions": ["2026-07-28"]\n',
      'mcp-gen.config.json:3: invalid JSON: expected "," or "}", found the end of the file',
    ],
    [
      '{\n  "revisions": ["2026-07-28"],\n  "outt": "x"\n}\n',
      'mcp-gen.config.json:3: unknown key "outt"; did you mean "out"? (known: auth, json-schema, legacy, out, revisions, spec-dir, store, telemetry, tools)',
    ],
    [
      '{\n  "tools": {\n    "file": "tools.ts",\n    "ot": "x"\n  }\n}\n',
      'mcp-gen.config.json:4: unknown key "tools.ot"; did you mean "out"? (known: file, out)',
    ],
    ['{\n  "auth": "yes"\n}\n', 'mcp-gen.config.json:2: "auth" must be true or false'],
    [
      '{\n\n  "revisions": [1]\n}\n',
      'mcp-gen.config.json:3: "revisions" must be a list of strings',
    ],
    [
      '{ "json-schema": "zod" }',
      'mcp-gen.config.json:1: "json-schema" must be one of ajv, cfworker, not "zod"',
    ],
    ['{ "out": "a",\n "out": "b" }', 'mcp-gen.config.json:2: "out" is given twice'],
    ['{ "tools": "tools.ts" }', 'mcp-gen.config.json:1: "tools" must be an object'],
    ["[]", "mcp-gen.config.json:1: a config file is a JSON object"],
  ])("%j: one line naming file and line, exit 1, nothing written", async (text, message) => {
    config(text);
    const r = await cli([]);
    expect(r).toEqual({ code: 1, stdout: "", stderr: `mcp-gen: ${message}\n` });
    expect(calls.emit).toEqual([]);
    expect(calls.written).toEqual([]);
  });

  it("--config naming no file is an error; no config and no --revision says how to get one", async () => {
    expect(await cli(["--config", "nope.json"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "mcp-gen: nope.json: no such config file\n",
    });
    expect((await cli([])).stderr).toBe(
      "mcp-gen: missing --revision R (repeatable) or --all, or an mcp-gen.config.json (mcp-gen init writes one) (see mcp-gen --help)\n",
    );
    expect((await cli(["tools"])).stderr).toBe(
      'mcp-gen: missing the tools file (mcp-gen tools FILE, or "tools.file" in mcp-gen.config.json) (see mcp-gen --help)\n',
    );
  });

  it("every key the file accepts is an option table entry's configKey", () => {
    const keys = [GENERATE_OPTIONS, TOOLS_OPTIONS]
      .flatMap((t) => Object.values(t).map((s) => ("configKey" in s ? s.configKey : undefined)))
      .filter((k) => k !== undefined)
      .sort();
    expect(keys).toEqual([
      "auth",
      "json-schema",
      "legacy",
      "out",
      "revisions",
      "spec-dir",
      "store",
      "telemetry",
      "tools.file",
      "tools.out",
    ]);
    const values = readConfig(
      '{ "revisions": "2026-07-28", "legacy": "2025-11-25,2025-06-18" }',
      "c",
    );
    expect(values.get(GENERATE_OPTIONS)).toEqual({
      revision: ["2026-07-28"],
      legacy: ["2025-11-25", "2025-06-18"],
    });
  });
});

describe("mcp-gen init", () => {
  it("writes the config for the latest released revision, which mcp-gen then reads", async () => {
    const r = await cli(["init"]);
    expect(r.code, r.stderr).toBe(0);
    const latest = Object.entries(readRevisions().revisions)
      .filter(([, p]) => p.releaseDate !== null)
      .map(([name]) => name)
      .sort()
      .at(-1)!;
    expect(JSON.parse(readFileSync(join(work, "mcp-gen.config.json"), "utf8"))).toEqual({
      revisions: [latest],
      out: "src/mcp",
    });
    expect(r.stderr).toBe(
      `mcp-gen: wrote mcp-gen.config.json (${latest} into src/mcp); npx mcp-gen generates it, npx mcp-gen --check checks it\n`,
    );
    expect((await cli([])).code).toBe(0);
    expect(calls.emit.map((c) => c.outDir)).toEqual([join(work, "src", "mcp")]);
  });

  it("keeps an existing config unless --force; takes --revision and --out", async () => {
    config('{ "out": "mine" }');
    expect(await cli(["init"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "mcp-gen: mcp-gen.config.json: already exists; pass --force to replace it\n",
    });
    expect(readFileSync(join(work, "mcp-gen.config.json"), "utf8")).toBe('{ "out": "mine" }');
    expect((await cli(["init", "--force", "-r", "2025-11-25", "--out", "gen"])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(work, "mcp-gen.config.json"), "utf8"))).toEqual({
      revisions: ["2025-11-25"],
      out: "gen",
    });
    expect(existsSync(join(work, "gen"))).toBe(false);
  });
});
