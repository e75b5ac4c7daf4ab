import { createHash } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { GeneratorError } from "../../../generator/errors.js";
import { rawHost, type RawHost } from "../../helpers/raw-host.js";

// The loader and emitters belong to other modules and have their own tests;
// here they are stand-ins that record how the CLI drives them.
const calls = vi.hoisted(() => ({
  load: [] as Array<{ file: string; revision: string }>,
  emit: [] as Array<{ model: unknown; outDir: string; generatorVersion: string; auth?: boolean }>,
  loadError: undefined as unknown,
}));
vi.mock("../../../generator/load/index.js", () => ({
  // The shared TypeScript project the loads parse into: the mocked loads parse nothing.
  schemaProject: () => ({}),
  loadModel: (file: string, options: { revision: string }) => {
    calls.load.push({ file, revision: options.revision });
    if (calls.loadError) throw calls.loadError;
    return {
      revision: options.revision,
      irVersion: 1,
      source: { file: "schema.ts", sha256: "0".repeat(64) },
      // initialize-era: no default --legacy to locate (cli-legacy.test.ts covers that)
      lifecycle: { kind: "stateful" },
    };
  },
}));
vi.mock("../../../generator/emit/index.js", () => ({
  writeRevision: async (
    model: unknown,
    {
      releases,
      kept,
      ...options
    }: { outDir: string; generatorVersion: string; releases: object; kept?: object },
  ) => {
    // Every revision of the manifest comes with its release date (the registry's removal dates need them).
    if (!("2025-06-18" in releases))
      throw new Error("writeRevision called without the release dates");
    // ...and the formatted bodies kept from earlier runs (generator/cli/kept-files.ts).
    if (kept === undefined) throw new Error("writeRevision called without the kept bodies");
    calls.emit.push({ model, ...options });
    const files = ["index.ts", "types.ts", "validators.ts"];
    // A first run: every file is new.
    return { files, plan: { changes: files.map((path) => ({ path, kind: "added" })), edited: [] } };
  },
  renderRevision: async () => [],
}));

const repoRoot = resolve(import.meta.dirname, "../../..");
const specDir = resolve(repoRoot, process.env.MCP_SPEC_DIR ?? "../shared/mcp-spec/schema");
const haveSpec = (() => {
  try {
    return statSync(join(specDir, "draft", "schema.ts")).isFile();
  } catch {
    return false;
  }
})();
const packageVersion = (
  JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }
).version;
const PINNED = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"];

let work: string;
let cache: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-cli-"));
  cache = join(work, "cache");
  calls.load.length = 0;
  calls.emit.length = 0;
  calls.loadError = undefined;
});
afterEach(async () => {
  rmSync(work, { recursive: true, force: true });
});

/** Runs mcp-gen in-process with a clean environment, a private cache and captured output. */
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(args, { env: { MCP_GEN_CACHE_DIR: cache, ...env }, cwd: work });

function layout(base: string, revisions: string[]): string {
  for (const rev of revisions) {
    mkdirSync(join(base, rev), { recursive: true });
    writeFileSync(join(base, rev, "schema.ts"), `// ${rev}\n`);
  }
  return base;
}

function expectOneLine(stderr: string): string {
  expect(stderr.endsWith("\n")).toBe(true);
  expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  return stderr.trimEnd();
}

describe("mcp-gen list", () => {
  it("shows every pinned revision with its date, pin and presence", async () => {
    const r = await cli(["list"]);
    expect(r.code).toBe(0);
    const [table, legend] = r.stdout.trimEnd().split("\n\n");
    const lines = table!.split("\n");
    expect(legend).toMatch(
      /^PINNED: .*\? marks a pin not confirmed.*\nPRESENT: spec-dir \(--spec-dir\), env \(MCP_SPEC_DIR\), cache/,
    );
    expect(lines[0]).toMatch(/^REVISION\s+RELEASED\s+PINNED\s+PRESENT$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(PINNED);
    expect(lines[1]).toMatch(/^2024-11-05\s+2024-11-05\s+[0-9a-f]{12}\??\s+absent$/);
    expect(lines[6]).toMatch(/^draft\s+unreleased\s+[0-9a-f]{12}\??\s+absent$/);
  });

  it.skipIf(!haveSpec)("marks revisions found through MCP_SPEC_DIR as env", async () => {
    const r = await cli(["list"], { MCP_SPEC_DIR: specDir });
    expect(r.code).toBe(0);
    for (const line of r.stdout.split("\n\n")[0]!.split("\n").slice(1))
      expect(line).toMatch(/\senv$/);
  });

  it("--spec-dir wins over MCP_SPEC_DIR, adds unpinned revisions, and cache copies show too", async () => {
    const flag = layout(join(work, "flag"), ["2025-06-18", "2030-01-01"]);
    const env = layout(join(work, "env"), ["draft"]);
    layout(join(cache, "spec"), ["draft", "2025-06-18"]);
    const r = await cli(["list", "--spec-dir", flag], { MCP_SPEC_DIR: env });
    expect(r.code).toBe(0);
    const rows = Object.fromEntries(
      r.stdout
        .split("\n\n")[0]!
        .split("\n")
        .slice(1)
        .map((l) => {
          const cells = l.split(/\s{2,}/);
          return [cells[0], cells];
        }),
    );
    expect(rows["2025-06-18"]?.[3]).toBe("spec-dir,cache");
    expect(rows["draft"]?.[3]).toBe("cache");
    expect(rows["2030-01-01"]).toEqual(["2030-01-01", "2030-01-01", "-", "spec-dir"]);
    expect(rows["2024-11-05"]?.[3]).toBe("absent");
  });

  it("a spec dir that does not exist is an error, not a table of 'absent'", async () => {
    const r = await cli(["list", "--spec-dir", "no/such/dir"]);
    expect(r.code).toBe(1);
    expect(expectOneLine(r.stderr)).toBe("mcp-gen: --spec-dir no/such/dir: no such directory");
  });
});

describe("mcp-gen cache", () => {
  it("shows where the cache is and what it holds, each part apart; --clear empties it", async () => {
    const empty = await cli(["cache"]);
    expect(empty).toEqual({
      code: 0,
      stdout: `cache: ${cache} (MCP_GEN_CACHE_DIR)\n(empty)\n`,
      stderr: "",
    });
    layout(join(cache, "spec"), ["draft"]);
    writeFileSync(
      join(cache, "spec", "draft", ".mcp-gen-pin.json"),
      JSON.stringify({ commit: "d".repeat(40), files: {} }),
    );
    mkdirSync(join(cache, "v8"));
    writeFileSync(join(cache, "v8", "code.bin"), "x".repeat(2048));
    for (const [part, names] of [
      ["format", ["a", "b"]],
      ["model", ["m"]],
    ] as const) {
      mkdirSync(join(cache, part));
      for (const name of names) writeFileSync(join(cache, part, name), "x".repeat(512));
    }
    const shown = await cli(["cache"]);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`cache: ${cache} (MCP_GEN_CACHE_DIR)`);
    expect(lines[1]).toMatch(/^KIND\s+NAME\s+COMMIT\s+SIZE\s+LAST USED$/);
    expect(lines[2]).toMatch(
      new RegExp(`^download\\s+draft\\s+${"d".repeat(12)}\\s+\\d+ B\\s+\\d{4}-\\d{2}-\\d{2}$`),
    );
    expect(lines[3]).toMatch(/^compiled\s+code\.bin\s+-\s+2\.0 KB\s+\d{4}-\d{2}-\d{2}$/);
    // The many files of formatted bodies and of models: one row each.
    expect(lines[4]).toMatch(/^formatted\s+2 modules\s+-\s+1\.0 KB\s+\d{4}-\d{2}-\d{2}$/);
    expect(lines[5]).toMatch(/^loaded\s+1 model\s+-\s+512 B\s+\d{4}-\d{2}-\d{2}$/);
    expect(lines[6]).toMatch(
      /^total .*; entries unused for 30 days are pruned after each generation$/,
    );
    const cleared = await cli(["cache", "--clear"]);
    expect(cleared.code).toBe(0);
    expect(expectOneLine(cleared.stderr)).toMatch(
      new RegExp(`^mcp-gen: cleared ${cache} \\(5 entries, `),
    );
    expect((await cli(["cache"])).stdout).toContain("(empty)");
  });
});

describe("usage", () => {
  it("--help and --version print to stdout and exit 0", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("mcp-gen list");
    expect(help.stdout).toContain("--spec-dir");
    expect(await cli(["--version"])).toEqual({
      code: 0,
      stdout: `${packageVersion}\n`,
      stderr: "",
    });
  });

  it.each([[], ["ir"], ["list"], ["fetch"], ["cache"], ["deprecations"], ["diff"]])(
    "%j --help: an example, and every option described",
    async (...command) => {
      const help = await cli([...command, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/\nExamples:\n\s+mcp-gen \S/);
      const options = help.stdout.slice(
        help.stdout.indexOf("Options:"),
        help.stdout.indexOf("Examples:"),
      );
      // An option line is its flags, then (after two spaces) a description or at least its type.
      for (const line of options.split("\n").filter((l) => /^\s+-/.test(l)))
        expect(line, line).toMatch(/^\s+-[^ ].*?\s{2,}[A-Za-z(].*[a-z]/);
      for (const line of options.split("\n").filter((l) => /^\s+-/.test(l)))
        expect(line, line).not.toMatch(/^\s+(-\S+,? ?)+\s+\[\w+\]( \[required\])?$/);
    },
  );

  it("a mistyped command gets a suggestion", async () => {
    const r = await cli(["lsit"]);
    expect(r.code).toBe(2);
    expect(expectOneLine(r.stderr)).toBe(
      'mcp-gen: Unknown argument: lsit; did you mean "list"? (see mcp-gen --help)',
    );
  });

  it.each([
    [["--bogus"], /Unknown argument: bogus/],
    [["frobnicate"], /Unknown argument: frobnicate/],
    [["list", "--revision", "draft"], /Unknown argument: revision/],
    [["--revision"], /Not enough arguments following: revision/],
    [["--revision", "draft", "--all"], /mutually exclusive/],
    [["--out", "a", "--out", "b", "-r", "draft"], /--out may be given only once/],
    [[], /missing --revision R \(repeatable\) or --all/],
    [["ir"], /missing --revision R \(or an mcp-gen\.config\.json naming one/],
    [["fetch"], /missing --revision R/],
  ])("%j is a usage error: one line, exit 2", async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(expectOneLine(r.stderr)).toMatch(message);
    expect(r.stdout).toBe("");
    expect(calls.load).toEqual([]);
  });
});

describe("mcp-gen --revision (generate)", () => {
  it("--offline with the schema nowhere: exactly the advice line, exit 1", async () => {
    const r = await cli(["--revision", "2026-07-28", "--offline"]);
    expect(r.code).toBe(1);
    expect(expectOneLine(r.stderr)).toBe(
      "mcp-gen: no schema.ts for revision 2026-07-28 (--offline): put it at DIR/2026-07-28/schema.ts and pass --spec-dir DIR or set MCP_SPEC_DIR=DIR (mcp-gen's own npm scripts use ../shared/mcp-spec/schema beside the checkout), or run without --offline to download the pinned copy (MCP_SPEC_BASE_URL=URL fetches it from a mirror)",
    );
  });

  it("an unknown revision lists the known ones, exit 1", async () => {
    const r = await cli(["-r", "1999-01-01"]);
    expect(r.code).toBe(1);
    expect(expectOneLine(r.stderr)).toMatch(
      /unknown revision "1999-01-01"; known revisions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, draft/,
    );
  });

  it("loads each revision once and emits into generated/<rev> under cwd", async () => {
    const spec = layout(join(work, "spec"), ["2025-06-18", "draft"]);
    const r = await cli([
      "-r",
      "2025-06-18",
      "--revision",
      "draft",
      "-r",
      "2025-06-18",
      "--spec-dir",
      spec,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(calls.load).toEqual([
      { file: join(spec, "2025-06-18", "schema.ts"), revision: "2025-06-18" },
      { file: join(spec, "draft", "schema.ts"), revision: "draft" },
    ]);
    expect(calls.emit).toEqual([
      {
        model: {
          revision: "2025-06-18",
          irVersion: 1,
          source: { file: "schema.ts", sha256: "0".repeat(64) },
          lifecycle: { kind: "stateful" },
        },
        outDir: join(work, "generated", "2025-06-18"),
        generatorVersion: packageVersion,
        regenerate: "mcp-gen --revision 2025-06-18",
        sourceCommit: null,
        force: false,
        auth: false,
      },
      {
        model: {
          revision: "draft",
          irVersion: 1,
          source: { file: "schema.ts", sha256: "0".repeat(64) },
          lifecycle: { kind: "stateful" },
        },
        outDir: join(work, "generated", "draft"),
        generatorVersion: packageVersion,
        regenerate: "mcp-gen --revision draft",
        sourceCommit: null,
        force: false,
        auth: false,
      },
    ]);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^mcp-gen: 2025-06-18: wrote 3 files to generated\/2025-06-18 \(schema from spec-dir, \d+ ms\)$/,
    );
  });

  it("--auth asks the emitters for the authorization adapters", async () => {
    const spec = layout(join(work, "spec"), ["draft"]);
    expect((await cli(["-r", "draft", "--auth"], { MCP_SPEC_DIR: spec })).code).toBe(0);
    expect(calls.emit.map((c) => c.auth)).toEqual([true]);
  });

  it("--out is the folder for one revision and the parent for several", async () => {
    const spec = layout(join(work, "spec"), ["2025-06-18", "draft"]);
    await cli(["-r", "draft", "--out", "out/one"], { MCP_SPEC_DIR: spec });
    expect(calls.emit.map((c) => c.outDir)).toEqual([join(work, "out", "one")]);
    calls.emit.length = 0;
    await cli(["-r", "draft", "-r", "2025-06-18", "--out", "out/many"], { MCP_SPEC_DIR: spec });
    expect(calls.emit.map((c) => c.outDir)).toEqual([
      join(work, "out", "many", "draft"),
      join(work, "out", "many", "2025-06-18"),
    ]);
  });

  it("locates every schema before loading any: one missing revision means nothing is generated", async () => {
    const spec = layout(join(work, "spec"), ["draft"]);
    const r = await cli(["-r", "draft", "-r", "2025-06-18", "--spec-dir", spec, "--offline"]);
    expect(r.code).toBe(1);
    expect(expectOneLine(r.stderr)).toBe(
      `mcp-gen: --spec-dir ${spec} has no revision 2025-06-18: expected ${join(spec, "2025-06-18", "schema.ts")}; it holds draft`,
    );
    expect(calls.load).toEqual([]);
  });

  it.skipIf(!haveSpec)("--all generates every known revision in one process", async () => {
    const r = await cli(["--all", "--offline"], { MCP_SPEC_DIR: specDir });
    expect(r.code).toBe(0);
    expect(calls.load.map((c) => c.revision)).toEqual(PINNED);
    expect(calls.load.every((c) => c.file.startsWith(specDir))).toBe(true);
  });

  it("a GeneratorError from the loader is printed as its one line, exit 1, no stack", async () => {
    const spec = layout(join(work, "spec"), ["draft"]);
    calls.loadError = new GeneratorError(
      "unexpected token\nat column 3",
      join(spec, "draft", "schema.ts"),
      42,
    );
    const r = await cli(["-r", "draft", "--spec-dir", spec]);
    expect(r.code).toBe(1);
    expect(expectOneLine(r.stderr)).toBe(
      `mcp-gen: ${join(spec, "draft", "schema.ts")}:42: unexpected token at column 3`,
    );
    expect(calls.emit).toEqual([]);
  });

  it("an unexpected error is one line and exit 70 (stack only with MCP_GEN_DEBUG)", async () => {
    const spec = layout(join(work, "spec"), ["draft"]);
    calls.loadError = new TypeError("boom");
    const r = await cli(["-r", "draft", "--spec-dir", spec]);
    expect(r.code).toBe(70);
    expect(expectOneLine(r.stderr)).toBe("mcp-gen: internal error: boom");
    const debug = await cli(["-r", "draft", "--spec-dir", spec], { MCP_GEN_DEBUG: "1" });
    expect(debug.code).toBe(70);
    expect(debug.stderr).toContain("TypeError: boom\n    at ");
  });
});

describe("mcp-gen ir", () => {
  it("prints the model as 2-space JSON on stdout", async () => {
    const spec = layout(join(work, "spec"), ["2030-01-01"]);
    const r = await cli(["ir", "--revision", "2030-01-01", "--spec-dir", spec]);
    expect(r).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ revision: "2030-01-01", irVersion: 1, source: { file: "schema.ts", sha256: "0".repeat(64) }, lifecycle: { kind: "stateful" } }, null, 2)}\n`,
      stderr: "",
    });
    expect(calls.load).toEqual([
      { file: join(spec, "2030-01-01", "schema.ts"), revision: "2030-01-01" },
    ]);
  });
});

describe.skipIf(!haveSpec)("mcp-gen fetch", () => {
  const hosts: RawHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });
  /** The raw-content stand-in serving `root`; its base URL. */
  async function serve(root = specDir, served?: string[]): Promise<string> {
    const host = await rawHost(root, served);
    hosts.push(host);
    return host.base;
  }

  it("downloads pinned revisions into the cache, one summary line each", async () => {
    const base = await serve();
    const r = await cli(["fetch", "-r", "2025-06-18", "-r", "draft"], { MCP_SPEC_BASE_URL: base });
    expect(r.code).toBe(0);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      "mcp-gen: fetched 2025-06-18 (2 files, sha256 checked) into cache/spec/2025-06-18",
      "mcp-gen: fetched draft (2 files, sha256 checked) into cache/spec/draft",
    ]);
    expect(readdirSync(join(cache, "spec")).sort()).toEqual(["2025-06-18", "draft"]);
    // ... after which generation finds them offline.
    const gen = await cli(["-r", "draft", "--offline"]);
    expect(gen.code).toBe(0);
    expect(gen.stderr).toMatch(/schema from cache/);
  });

  it("generation fetches a missing pinned revision by itself and says so on one line", async () => {
    const base = await serve();
    const r = await cli(["-r", "2025-03-26"], { MCP_SPEC_BASE_URL: base });
    expect(r.code).toBe(0);
    const [notice, summary, ...rest] = r.stderr.trimEnd().split("\n");
    expect(notice).toMatch(
      /^mcp-gen: no local schema\.ts for revision 2025-03-26; fetching pinned revision 2025-03-26 from http:\/\/127\.0\.0\.1/,
    );
    expect(summary).toMatch(/schema from fetched/);
    expect(rest).toEqual([]);
    expect(calls.load).toEqual([
      { file: join(cache, "spec", "2025-03-26", "schema.ts"), revision: "2025-03-26" },
    ]);
  });

  it("--commit pins a new revision: downloads from that commit, records each file's sha256, caches it", async () => {
    const spec = layout(join(work, "upstream"), ["2099-01-01"]);
    const served: string[] = [];
    const base = await serve(spec, served);
    const manifest = join(work, "revisions.json");
    writeFileSync(manifest, readFileSync(join(repoRoot, "schema", "revisions.json")));
    const commit = "c".repeat(40);
    const r = await cli(
      ["fetch", "-r", "2099-01-01", "--commit", commit, "--manifest", "revisions.json"],
      { MCP_SPEC_BASE_URL: base },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(expectOneLine(r.stderr)).toBe(
      `mcp-gen: pinned 2099-01-01 at ${commit} in revisions.json (1 file, sha256 recorded); cached in cache/spec/2099-01-01`,
    );
    expect(served.sort()).toEqual([
      `/${commit}/schema/2099-01-01/schema.json`,
      `/${commit}/schema/2099-01-01/schema.ts`,
    ]);
    const pinned = JSON.parse(readFileSync(manifest, "utf8")) as {
      $comment: string;
      revisions: Record<
        string,
        { commit: string; verified: boolean; releaseDate: string; files: Record<string, string> }
      >;
    };
    expect(typeof pinned.$comment).toBe("string");
    expect(Object.keys(pinned.revisions).at(-1)).toBe("draft");
    expect(pinned.revisions["2099-01-01"]).toMatchObject({
      commit,
      verified: true,
      releaseDate: "2099-01-01",
    });
    expect(pinned.revisions["2099-01-01"]!.files).toEqual({
      "schema.ts": createHash("sha256").update("// 2099-01-01\n").digest("hex"),
    });
    // The pin is usable at once: fetching it again through the same manifest checks the hashes.
    const again = await cli(["fetch", "-r", "2099-01-01", "--manifest", "revisions.json"], {
      MCP_SPEC_BASE_URL: base,
    });
    expect(again.code, again.stderr).toBe(0);
  });

  it("--commit needs a full commit id and exactly one revision", async () => {
    expect((await cli(["fetch", "-r", "draft", "--commit", "abc"])).stderr).toMatch(
      /--commit must be a full commit id/,
    );
    expect(
      (await cli(["fetch", "-r", "draft", "-r", "2025-06-18", "--commit", "c".repeat(40)])).stderr,
    ).toMatch(/--commit pins exactly one --revision/);
  });

  it("an unpinned revision cannot be fetched", async () => {
    const r = await cli(["fetch", "-r", "1999-01-01"]);
    expect(r.code).toBe(1);
    expect(expectOneLine(r.stderr)).toMatch(/cannot fetch unknown revision "1999-01-01"/);
  });
});
