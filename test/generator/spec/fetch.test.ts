import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GeneratorError } from "../../../generator/errors.js";
import { fetchRevision } from "../../../generator/spec/fetch.js";
import { PIN_STAMP } from "../../../generator/spec/cache-entries.js";
import { readRevisions, type RevisionsManifest } from "../../../generator/spec/revisions.js";

const repoRoot = resolve(import.meta.dirname, "../../..");
const specDir = resolve(repoRoot, process.env.MCP_SPEC_DIR ?? "../shared/mcp-spec/schema");
const REV = "2026-07-28";
const haveSpec = (() => {
  try {
    return statSync(join(specDir, REV, "schema.ts")).isFile();
  } catch {
    return false;
  }
})();

interface SpecServer {
  baseUrl: string;
  requests: string[];
  /** Paths (relative to the revision) served with one byte changed. */
  corrupt: Set<string>;
  status: Map<string, number>;
}

/** Serves `<commit>/schema/<rev>/<path>` straight from the shared spec folder, read at request time. */
async function startServer(): Promise<SpecServer> {
  const state: SpecServer = { baseUrl: "", requests: [], corrupt: new Set(), status: new Map() };
  const server = createServer((req, res) => {
    state.requests.push(req.url ?? "");
    const m = /^\/([0-9a-f]{40})\/schema\/([^/]+)\/(.+)$/.exec(req.url ?? "");
    const rel = m ? decodeURIComponent(m[3]!) : "";
    if (!m || rel.split("/").includes("..")) {
      res.statusCode = 400;
      return res.end();
    }
    const status = state.status.get(rel);
    if (status) {
      res.statusCode = status;
      return res.end();
    }
    let body: Buffer;
    try {
      body = readFileSync(join(specDir, m[2]!, ...rel.split("/")));
    } catch {
      res.statusCode = 404;
      return res.end();
    }
    if (state.corrupt.has(rel)) body = Buffer.concat([body, Buffer.from(" ")]);
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});
function tmpDir(): string {
  const d = mkdtempSync(join(tmpdir(), "mcp-gen-fetch-"));
  dirs.push(d);
  return d;
}
/** Every file under dir, relative, with contents: a snapshot to prove "untouched". */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string): void => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p, `${prefix}${n}/`);
      else out[`${prefix}${n}`] = readFileSync(p, "utf8");
    }
  };
  walk(dir, "");
  return out;
}

describe.skipIf(!haveSpec)("fetchRevision", () => {
  let manifest: RevisionsManifest;
  beforeAll(() => {
    manifest = readRevisions();
  });

  it("downloads every listed file from the pinned commit, verified, into <cache>/<rev>", async () => {
    const server = await startServer();
    const cacheDir = tmpDir();
    const result = await fetchRevision(REV, { cacheDir, baseUrl: server.baseUrl, manifest });
    const entry = manifest.revisions[REV]!;
    const listed = Object.keys(entry.files).sort();

    expect(result.dir).toBe(join(cacheDir, REV));
    expect(result.files).toEqual(listed);
    expect(listed.length).toBeGreaterThan(100); // schema.ts, schema.json and the examples
    expect(server.requests.sort()).toEqual(
      listed.map((p) => `/${entry.commit}/schema/${REV}/${p}`).sort(),
    );
    for (const p of listed) {
      expect(readFileSync(join(cacheDir, REV, ...p.split("/")))).toEqual(
        readFileSync(join(specDir, REV, ...p.split("/"))),
      );
    }
    expect(readdirSync(cacheDir)).toEqual([REV]); // no temp folders left over
  });

  it("takes the base URL from MCP_SPEC_BASE_URL", async () => {
    const server = await startServer();
    const cacheDir = tmpDir();
    await fetchRevision("2025-06-18", {
      cacheDir,
      env: { MCP_SPEC_BASE_URL: `${server.baseUrl}/` },
      manifest,
    });
    expect(readdirSync(join(cacheDir, "2025-06-18")).sort()).toEqual([
      PIN_STAMP,
      "schema.json",
      "schema.ts",
    ]);
  });

  it("a sha256 mismatch is an error naming the file, and leaves the cache untouched", async () => {
    const server = await startServer();
    server.corrupt.add("examples/CallToolResult/result-with-structured-content.json");
    const cacheDir = tmpDir();
    // An older copy is already cached: it must survive byte for byte.
    mkdirSync(join(cacheDir, REV));
    writeFileSync(join(cacheDir, REV, "schema.ts"), "// previously cached\n");
    const before = snapshot(cacheDir);

    const err = await fetchRevision(REV, { cacheDir, baseUrl: server.baseUrl, manifest }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GeneratorError);
    const line = (err as GeneratorError).toString();
    expect(line).toContain(
      `sha256 mismatch for schema/${REV}/examples/CallToolResult/result-with-structured-content.json`,
    );
    expect((err as GeneratorError).file).toMatch(/result-with-structured-content\.json$/);
    expect(line).not.toContain("\n");
    expect(snapshot(cacheDir)).toEqual(before);
    expect(readdirSync(cacheDir)).toEqual([REV]);
  });

  it("a sha256 mismatch with nothing cached writes nothing at all", async () => {
    const server = await startServer();
    server.corrupt.add("schema.ts");
    const cacheDir = join(tmpDir(), "cache");
    await expect(
      fetchRevision("2024-11-05", { cacheDir, baseUrl: server.baseUrl, manifest }),
    ).rejects.toThrow(/sha256 mismatch for schema\/2024-11-05\/schema\.ts/);
    expect(() => readdirSync(cacheDir)).toThrow(); // not even the cache folder
  });

  it("an HTTP error names the URL and leaves no partial revision", async () => {
    const server = await startServer();
    server.status.set("schema.json", 404);
    const cacheDir = tmpDir();
    const err = await fetchRevision("2025-11-25", {
      cacheDir,
      baseUrl: server.baseUrl,
      manifest,
    }).catch((e: unknown) => e);
    expect(String(err)).toMatch(
      /^mcp-gen: http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{40}\/schema\/2025-11-25\/schema\.json: download failed: HTTP 404/,
    );
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it("replaces an existing cached copy in one step", async () => {
    const server = await startServer();
    const cacheDir = tmpDir();
    mkdirSync(join(cacheDir, "draft"));
    writeFileSync(join(cacheDir, "draft", "stale.txt"), "old");
    await fetchRevision("draft", { cacheDir, baseUrl: server.baseUrl, manifest });
    expect(readdirSync(join(cacheDir, "draft")).sort()).toEqual([
      PIN_STAMP,
      "schema.json",
      "schema.ts",
    ]);
    expect(readdirSync(cacheDir)).toEqual(["draft"]);
  });

  it("refuses a revision that is not pinned", async () => {
    await expect(fetchRevision("1999-01-01", { cacheDir: tmpDir(), manifest })).rejects.toThrow(
      /cannot fetch unknown revision "1999-01-01"; pinned revisions: 2024-11-05, .*draft/,
    );
  });
});
