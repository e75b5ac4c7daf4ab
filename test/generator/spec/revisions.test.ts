import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { GeneratorError } from "../../../generator/errors.js";
import { findProjectRoot, projectRoot } from "../../../generator/package-root.js";
import { readRevisions, validateRevisions } from "../../../generator/spec/revisions.js";
import { SPEC_DIR } from "../../helpers/spec.js";

const repoRoot = resolve(import.meta.dirname, "../../..");
const specDir = resolve(repoRoot, process.env.MCP_SPEC_DIR ?? "../shared/mcp-spec/schema");
const haveSpec = (() => {
  try {
    return statSync(specDir).isDirectory();
  } catch {
    return false;
  }
})();

const tmp: string[] = [];
afterEach(() => {
  for (const d of tmp.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmpFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-rev-"));
  tmp.push(dir);
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}
function errorOf(run: () => unknown): GeneratorError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(GeneratorError);
    return e as GeneratorError;
  }
  throw new Error("expected a GeneratorError");
}

const good = {
  repository: "modelcontextprotocol/modelcontextprotocol",
  revisions: {
    "2025-06-18": {
      commit: "a".repeat(40),
      releaseDate: "2025-06-18",
      files: { "schema.ts": "0".repeat(64) },
    },
  },
};

describe("project root", () => {
  it("is found from the sources and from a dist-like depth", () => {
    expect(projectRoot()).toBe(repoRoot);
    const fake = new URL(`file://${join(repoRoot, "dist", "generator", "package-root.js")}`).href;
    expect(findProjectRoot(fake)).toBe(repoRoot);
  });
});

describe("schema/revisions.json", () => {
  it("in the repo is valid and pins every revision to a 40-hex commit", () => {
    const manifest = readRevisions();
    expect(manifest.repository).toBe("modelcontextprotocol/modelcontextprotocol");
    expect(Object.keys(manifest.revisions)).toEqual(
      expect.arrayContaining([
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
        "draft",
      ]),
    );
    for (const [rev, entry] of Object.entries(manifest.revisions)) {
      expect(entry.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(entry.releaseDate).toBe(rev === "draft" ? null : rev);
      expect(Object.keys(entry.files)).toEqual(
        expect.arrayContaining(["schema.ts", "schema.json"]),
      );
    }
  });

  it.skipIf(!haveSpec)("lists exactly the local spec files, with matching sha256", () => {
    const manifest = readRevisions();
    for (const [rev, entry] of Object.entries(manifest.revisions)) {
      const dir = join(specDir, rev);
      const walk = (d: string): string[] =>
        readdirSync(d).flatMap((n) =>
          statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)],
        );
      const local = walk(dir)
        .map((p) => relative(dir, p).split(sep).join("/"))
        .sort();
      expect(Object.keys(entry.files).sort(), rev).toEqual(local);
      for (const path of local) {
        const digest = createHash("sha256")
          .update(readFileSync(join(dir, path)))
          .digest("hex");
        expect(entry.files[path], `${rev}/${path}`).toBe(digest);
      }
    }
  });

  it("bad JSON is a GeneratorError naming the file", () => {
    const file = tmpFile("revisions.json", "{ not json");
    const err = errorOf(() => readRevisions(file));
    expect(err.file).toBe(file);
    expect(err.toString()).toMatch(
      new RegExp(`^mcp-gen: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: invalid JSON`),
    );
    expect(err.toString()).not.toContain("\n");
  });

  it("a missing file is a GeneratorError naming it", () => {
    const file = join(tmpdir(), "mcp-gen-does-not-exist", "revisions.json");
    expect(errorOf(() => readRevisions(file)).file).toBe(file);
  });

  it("accepts a well-formed manifest and defaults rawBaseUrl and verified", () => {
    const m = validateRevisions(good, "r.json");
    expect(m.rawBaseUrl).toBe(
      "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol",
    );
    expect(m.revisions["2025-06-18"]?.verified).toBe(true);
  });

  it.each([
    ["short commit", { commit: "abc123" }, /commit must be 40/],
    ["bad date", { releaseDate: "June 2025" }, /releaseDate/],
    ["bad digest", { files: { "schema.ts": "xyz" } }, /sha256/],
    [
      "escaping path",
      { files: { "schema.ts": "0".repeat(64), "../evil.ts": "0".repeat(64) } },
      /unsafe path/,
    ],
    [
      "absolute path",
      { files: { "schema.ts": "0".repeat(64), "/etc/passwd": "0".repeat(64) } },
      /unsafe path/,
    ],
    ["no schema.ts", { files: { "schema.json": "0".repeat(64) } }, /must list schema\.ts/],
  ])("rejects %s, naming the file and the key", (_name, patch, message) => {
    const data = {
      ...good,
      revisions: { "2025-06-18": { ...good.revisions["2025-06-18"], ...patch } },
    };
    const err = errorOf(() => validateRevisions(data, "schema/revisions.json"));
    expect(err.file).toBe("schema/revisions.json");
    expect(err.message).toMatch(message);
    expect(err.message).toContain('revisions["2025-06-18"]');
  });

  it("rejects revision names that could leave the cache folder", () => {
    const data = { ...good, revisions: { "../up": good.revisions["2025-06-18"] } };
    expect(errorOf(() => validateRevisions(data, "r.json")).message).toMatch(/revision name/);
  });
});

describe.skipIf(!existsSync(join(SPEC_DIR, "draft", "schema.ts")))("schema/revisions.json", () => {
  it("pins every revision, verified, to a commit whose files are byte for byte the spec copy's", () => {
    const manifest = readRevisions();
    expect(Object.keys(manifest.revisions).length).toBeGreaterThanOrEqual(6);
    for (const [revision, entry] of Object.entries(manifest.revisions)) {
      expect(entry.verified, revision).toBe(true);
      expect(entry.commit, revision).toBe("b0f60ba5409db7a6582440a7b473cc0398890f15");
      expect(entry.files, revision).toHaveProperty(["schema.ts"]);
      for (const [path, digest] of Object.entries(entry.files)) {
        expect(
          createHash("sha256")
            .update(readFileSync(join(SPEC_DIR, revision, ...path.split("/"))))
            .digest("hex"),
          `${revision}/${path}`,
        ).toBe(digest);
      }
    }
  });
});
