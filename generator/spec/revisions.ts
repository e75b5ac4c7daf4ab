import { readFileSync } from "node:fs";
import { GeneratorError } from "../errors.js";
import { defaultRevisionsFile } from "./project-root.js";

/**
 * schema/revisions.json: which upstream commit each protocol revision is pinned
 * to and the sha256 of every file `mcp-gen fetch` downloads for it. Only names
 * and digests live in the repo; the spec files themselves are fetched or read
 * from a spec dir at run time.
 */
export interface RevisionEntry {
  /** Upstream commit (40 hex digits) the files are downloaded from. */
  commit: string;
  /** Release date (YYYY-MM-DD), null for unreleased revisions such as draft. */
  releaseDate: string | null;
  /** false when nobody confirmed that `commit` holds exactly these bytes. */
  verified: boolean;
  note?: string;
  /** Path relative to `schema/<rev>/` → lowercase hex sha256. */
  files: Record<string, string>;
}

export interface RevisionsManifest {
  /** "owner/name" on GitHub. */
  repository: string;
  /** Files are fetched from `<rawBaseUrl>/<commit>/schema/<rev>/<path>`. */
  rawBaseUrl: string;
  revisions: Record<string, RevisionEntry>;
}

const HEX40 = /^[0-9a-f]{40}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Revision names become directory names and URL segments, so they are limited
 * to a safe alphabet: no separators, no leading dot.
 */
export const REVISION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A listed file must stay inside `schema/<rev>/` once joined to a local
 * directory or a URL: relative, forward slashes, no `.`/`..` segments.
 */
export function isSafeRelativePath(path: string): boolean {
  if (path === "" || path.startsWith("/") || path.includes("\\")) return false;
  return path
    .split("/")
    .every((seg) => seg !== "" && seg !== "." && seg !== ".." && !seg.includes(":"));
}

/** Reads and validates the manifest; any defect is a GeneratorError naming the file. */
export function readRevisions(file: string = defaultRevisionsFile()): RevisionsManifest {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new GeneratorError(`cannot read revisions manifest: ${(e as Error).message}`, file);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new GeneratorError(`invalid JSON: ${(e as Error).message}`, file);
  }
  return validateRevisions(data, file);
}

/** Checks the shape field by field so that the error says which key is wrong. */
export function validateRevisions(data: unknown, file: string): RevisionsManifest {
  const fail = (what: string): never => {
    throw new GeneratorError(`invalid revisions manifest: ${what}`, file);
  };
  if (!isObject(data)) return fail("top level must be an object");
  if (typeof data.repository !== "string" || !/^[\w.-]+\/[\w.-]+$/.test(data.repository)) {
    fail(`"repository" must be "owner/name"`);
  }
  const repository = data.repository as string;
  const rawBaseUrl = data.rawBaseUrl ?? `https://raw.githubusercontent.com/${repository}`;
  if (typeof rawBaseUrl !== "string" || !/^https?:\/\//.test(rawBaseUrl))
    fail(`"rawBaseUrl" must be an http(s) URL`);
  if (!isObject(data.revisions)) return fail(`"revisions" must be an object`);

  const revisions: Record<string, RevisionEntry> = {};
  for (const [name, raw] of Object.entries(data.revisions)) {
    const at = `revisions["${name}"]`;
    if (!REVISION_NAME.test(name)) fail(`${at}: revision name must match ${REVISION_NAME.source}`);
    if (!isObject(raw)) return fail(`${at} must be an object`);
    if (typeof raw.commit !== "string" || !HEX40.test(raw.commit))
      fail(`${at}.commit must be 40 lowercase hex digits`);
    if (
      raw.releaseDate !== null &&
      (typeof raw.releaseDate !== "string" || !DATE.test(raw.releaseDate))
    ) {
      fail(`${at}.releaseDate must be "YYYY-MM-DD" or null`);
    }
    if (raw.verified !== undefined && typeof raw.verified !== "boolean")
      fail(`${at}.verified must be a boolean`);
    if (raw.note !== undefined && typeof raw.note !== "string") fail(`${at}.note must be a string`);
    if (!isObject(raw.files) || Object.keys(raw.files).length === 0)
      return fail(`${at}.files must be a non-empty object`);
    const files: Record<string, string> = {};
    for (const [path, digest] of Object.entries(raw.files)) {
      if (!isSafeRelativePath(path)) fail(`${at}.files: unsafe path "${path}"`);
      if (typeof digest !== "string" || !HEX64.test(digest))
        fail(`${at}.files["${path}"] must be a lowercase hex sha256`);
      files[path] = digest as string;
    }
    if (!("schema.ts" in files)) fail(`${at}.files must list schema.ts`);
    const entry: RevisionEntry = {
      commit: raw.commit as string,
      releaseDate: raw.releaseDate as string | null,
      verified: (raw.verified as boolean | undefined) ?? true,
      files,
    };
    if (typeof raw.note === "string") entry.note = raw.note;
    revisions[name] = entry;
  }
  return { repository, rawBaseUrl: rawBaseUrl as string, revisions };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The upstream commit a schema is pinned at, when its bytes are the pinned copy's (by sha256), else
 * null: a local edit or another revision's file is not that commit's. Null too when the manifest
 * cannot be read (provenance must not stop generation from a spec dir).
 */
export function pinnedCommitOf(
  revision: string,
  schemaSha256: string,
  file?: string,
): string | null {
  try {
    const pin = readRevisions(file).revisions[revision];
    return pin && pin.files["schema.ts"] === schemaSha256 ? pin.commit : null;
  } catch {
    return null;
  }
}
