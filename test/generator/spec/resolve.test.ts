import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GeneratorError } from "../../../generator/errors.js";
import { resolveSchema, type ResolveOptions } from "../../../generator/spec/resolve.js";
import { PIN_STAMP } from "../../../generator/spec/cache-entries.js";
import { readRevisions, validateRevisions } from "../../../generator/spec/revisions.js";

const repoRoot = resolve(import.meta.dirname, "../../..");
const specDir = resolve(repoRoot, process.env.MCP_SPEC_DIR ?? "../shared/mcp-spec/schema");
const haveSpec = (() => {
  try {
    return statSync(join(specDir, "2026-07-28", "schema.ts")).isFile();
  } catch {
    return false;
  }
})();

// A small synthetic manifest: which revisions are "pinned" must not depend on the real file here.
const manifest = validateRevisions(
  {
    repository: "modelcontextprotocol/modelcontextprotocol",
    revisions: {
      "2025-06-18": {
        commit: "1".repeat(40),
        releaseDate: "2025-06-18",
        files: { "schema.ts": "0".repeat(64) },
      },
      draft: { commit: "2".repeat(40), releaseDate: null, files: { "schema.ts": "0".repeat(64) } },
    },
  },
  "test-manifest",
);

const dirs: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A folder laid out like a spec checkout, with a marker schema.ts per revision. */
function layout(revisions: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-resolve-"));
  dirs.push(dir);
  for (const rev of revisions) {
    mkdirSync(join(dir, rev), { recursive: true });
    writeFileSync(join(dir, rev, "schema.ts"), `// ${rev}\n`);
  }
  return dir;
}

const noNetwork: typeof fetch = async () => {
  throw new TypeError("fetch failed", { cause: { code: "ENOTFOUND" } });
};

function run(extra: Partial<ResolveOptions> & { revision: string }, log: string[] = []) {
  return resolveSchema({
    env: {},
    cacheDir: layout([]),
    manifest,
    fetch: noNetwork,
    log: (l) => log.push(l),
    ...extra,
  });
}

async function failure(p: Promise<unknown>): Promise<GeneratorError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(GeneratorError);
    const line = (e as GeneratorError).toString();
    expect(line).not.toContain("\n");
    expect(line).toMatch(/^mcp-gen: /);
    return e as GeneratorError;
  }
  throw new Error("expected resolveSchema to fail");
}

describe("resolveSchema: order", () => {
  const flag = () => layout(["2025-06-18"]);
  const env = () => layout(["2025-06-18"]);
  const cache = () => layout(["2025-06-18"]);

  it("--spec-dir beats MCP_SPEC_DIR and the cache", async () => {
    const f = flag();
    const r = await run({
      revision: "2025-06-18",
      specDir: f,
      env: { MCP_SPEC_DIR: env() },
      cacheDir: cache(),
    });
    expect(r).toEqual({
      revision: "2025-06-18",
      dir: join(f, "2025-06-18"),
      schemaFile: join(f, "2025-06-18", "schema.ts"),
      origin: "spec-dir",
    });
  });

  it("MCP_SPEC_DIR beats the cache", async () => {
    const e = env();
    const r = await run({ revision: "2025-06-18", env: { MCP_SPEC_DIR: e }, cacheDir: cache() });
    expect(r.origin).toBe("env");
    expect(r.schemaFile).toBe(join(e, "2025-06-18", "schema.ts"));
  });

  it("the cache is used when no spec dir is given", async () => {
    const c = cache();
    const r = await run({ revision: "2025-06-18", cacheDir: c });
    expect(r).toMatchObject({ origin: "cache", dir: join(c, "2025-06-18") });
  });

  it("a relative --spec-dir is taken from cwd", async () => {
    const f = flag();
    const r = await run({ revision: "2025-06-18", specDir: "x/..", cwd: f });
    expect(r.schemaFile).toBe(join(f, "2025-06-18", "schema.ts"));
  });

  it("any <dir>/<rev>/schema.ts works, pinned or not (new revisions need no code)", async () => {
    const f = layout(["2099-01-01"]);
    const r = await run({ revision: "2099-01-01", specDir: f });
    expect(r).toMatchObject({ origin: "spec-dir", revision: "2099-01-01" });
    expect((await run({ revision: "2099-01-01", env: { MCP_SPEC_DIR: f } })).origin).toBe("env");
  });
});

describe("resolveSchema: an explicit spec dir is authoritative", () => {
  it("lacking the revision: one line naming the file expected and what the folder holds", async () => {
    const f = layout(["2025-06-18", "2030-01-01"]);
    const err = await failure(run({ revision: "2031-01-01", specDir: f }));
    expect(err.message).toBe(
      `--spec-dir ${f} has no revision 2031-01-01: expected ${join(f, "2031-01-01", "schema.ts")}; it holds 2025-06-18, 2030-01-01; did you mean "2030-01-01"?`,
    );
  });

  it("never falls back to the cache or the network, even for a pinned revision", async () => {
    const c = layout(["draft"]);
    let fetched = 0;
    const spy: typeof fetch = async () => {
      fetched++;
      throw new Error("no");
    };
    const empty = layout([]);
    const err = await failure(
      run({ revision: "draft", env: { MCP_SPEC_DIR: empty }, cacheDir: c, fetch: spy }),
    );
    expect(err.message).toBe(
      `MCP_SPEC_DIR=${empty} has no revision draft: expected ${join(empty, "draft", "schema.ts")}; it holds no <revision>/schema.ts at all`,
    );
    expect(fetched).toBe(0);
  });

  it("a folder one level too high: the message suggests its schema/ subfolder", async () => {
    const top = layout([]);
    mkdirSync(join(top, "schema", "draft"), { recursive: true });
    writeFileSync(join(top, "schema", "draft", "schema.ts"), "// draft\n");
    const err = await failure(run({ revision: "draft", specDir: top }));
    expect(err.message).toBe(
      `--spec-dir ${top} has no revision draft: expected ${join(top, "draft", "schema.ts")}; did you mean --spec-dir ${join(top, "schema")}?`,
    );
  });

  it("a spec dir that does not exist is reported as such", async () => {
    const err = await failure(
      run({ revision: "draft", specDir: join(tmpdir(), "mcp-gen-nope-404") }),
    );
    expect(err.message).toMatch(/--spec-dir .*: no such directory/);
  });
});

describe("resolveSchema: the cache", () => {
  it("a copy stamped with another commit than the pin is stale: fetched again (offline: an error saying so)", async () => {
    const c = layout(["draft"]);
    writeFileSync(
      join(c, "draft", PIN_STAMP),
      JSON.stringify({ commit: "9".repeat(40), files: { "schema.ts": "0".repeat(64) } }),
    );
    const offline = await failure(run({ revision: "draft", cacheDir: c, offline: true }));
    expect(offline.message).toBe(
      `the cached draft is from commit ${"9".repeat(12)}, pinned is ${"2".repeat(12)} (--offline): run without --offline or "mcp-gen fetch --revision draft"`,
    );
    const log: string[] = [];
    await failure(run({ revision: "draft", cacheDir: c }, log));
    expect(log[0]).toMatch(
      /^mcp-gen: the cached draft is from commit 9{12}, pinned is 2{12}; fetching pinned revision draft/,
    );
  });

  it("a copy stamped with the pinned commit and files is used", async () => {
    const c = layout(["draft"]);
    writeFileSync(
      join(c, "draft", PIN_STAMP),
      JSON.stringify({ commit: "2".repeat(40), files: { "schema.ts": "0".repeat(64) } }),
    );
    expect((await run({ revision: "draft", cacheDir: c, offline: true })).origin).toBe("cache");
  });

  it("an unknown revision suggests the closest known one", async () => {
    const err = await failure(run({ revision: "2025-06-81" }));
    expect(err.message).toMatch(
      /^unknown revision "2025-06-81"; known revisions: 2025-06-18, draft; did you mean "2025-06-18"\?/,
    );
  });
});

describe("resolveSchema: nothing local", () => {
  it("--offline fails with the one line naming every option", async () => {
    const err = await failure(run({ revision: "draft", offline: true }));
    expect(err.toString()).toBe(
      "mcp-gen: no schema.ts for revision draft (--offline): put it at DIR/draft/schema.ts and pass --spec-dir DIR or set MCP_SPEC_DIR=DIR (mcp-gen's own npm scripts use ../shared/mcp-spec/schema beside the checkout), or run without --offline to download the pinned copy (MCP_SPEC_BASE_URL=URL fetches it from a mirror)",
    );
  });

  it("without network: the same line plus the reason, after announcing the fetch on one log line", async () => {
    const log: string[] = [];
    const err = await failure(run({ revision: "draft" }, log));
    expect(err.message).toMatch(
      /^no schema\.ts for revision draft, and downloading it failed \(.*ENOTFOUND.*\): put it at DIR\/draft\/schema\.ts and pass --spec-dir DIR or set MCP_SPEC_DIR=DIR \(mcp-gen's own npm scripts use \.\.\/shared\/mcp-spec\/schema beside the checkout\), or set MCP_SPEC_BASE_URL to a mirror of the pinned files$/,
    );
    // A retry would fail the same way: it is not offered.
    expect(err.message).not.toMatch(/mcp-gen fetch/);
    expect(err.toString()).not.toContain("\n");
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(
      /^mcp-gen: no local schema\.ts for revision draft; fetching pinned revision draft from https:\/\/raw\.githubusercontent\.com\/modelcontextprotocol\/modelcontextprotocol\/2{40}\/schema\/draft\//,
    );
  });

  it("a download from the mirror MCP_SPEC_BASE_URL names that mirror as the thing to fix", async () => {
    const err = await failure(
      run({ revision: "draft", env: { MCP_SPEC_BASE_URL: "http://127.0.0.1:9/mirror" } }),
    );
    expect(err.message).toMatch(
      /^no schema\.ts for revision draft, and downloading it failed \(.*\): put it at DIR\/draft\/schema\.ts .*, or fix the mirror MCP_SPEC_BASE_URL=http:\/\/127\.0\.0\.1:9\/mirror$/,
    );
  });

  it("an unknown revision lists the known ones", async () => {
    const err = await failure(run({ revision: "1999-01-01", cacheDir: layout(["2030-01-01"]) }));
    expect(err.message).toMatch(
      /^unknown revision "1999-01-01"; known revisions: 2025-06-18, 2030-01-01, draft/,
    );
  });

  it("rejects revision names that are not plain folder names", async () => {
    for (const bad of ["../draft", "a/b", ".hidden", ""]) {
      expect((await failure(run({ revision: bad, specDir: layout([]) }))).message).toMatch(
        /invalid revision name/,
      );
    }
  });
});

describe.skipIf(!haveSpec)("resolveSchema: fetching when missing", () => {
  it("downloads the pinned files into the cache and reports origin 'fetched'", async () => {
    const real = readRevisions();
    const entry = real.revisions["2026-07-28"]!;
    const server = createServer((req, res) => {
      const m = /^\/[0-9a-f]{40}\/schema\/2026-07-28\/(.+)$/.exec(req.url ?? "");
      try {
        res.end(
          readFileSync(join(specDir, "2026-07-28", ...decodeURIComponent(m![1]!).split("/"))),
        );
      } catch {
        res.statusCode = 404;
        res.end();
      }
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cacheDir = layout([]);
    const log: string[] = [];
    const r = await resolveSchema({
      revision: "2026-07-28",
      env: { MCP_SPEC_BASE_URL: baseUrl },
      cacheDir,
      manifest: real,
      log: (l) => log.push(l),
    });
    expect(r).toMatchObject({
      origin: "fetched",
      schemaFile: join(cacheDir, "2026-07-28", "schema.ts"),
    });
    expect(log).toEqual([
      expect.stringContaining(
        `from ${baseUrl}/${entry.commit}/schema/2026-07-28/ into ${join(cacheDir, "2026-07-28")}`,
      ),
    ]);
    expect(readFileSync(r.schemaFile)).toEqual(
      readFileSync(join(specDir, "2026-07-28", "schema.ts")),
    );
    // Second time round it is a plain cache hit.
    expect(
      (
        await resolveSchema({
          revision: "2026-07-28",
          env: {},
          cacheDir,
          manifest: real,
          offline: true,
        })
      ).origin,
    ).toBe("cache");
  });
});
