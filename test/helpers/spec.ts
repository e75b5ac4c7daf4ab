import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { releasesOf } from "../../generator/registry/index.js";
import { pinnedCommitOf, readRevisions } from "../../generator/spec/revisions.js";
import type { EmitFacts } from "../../generator/emit/index.js";
import type { ProtocolModel } from "../../generator/ir/model.js";

/** The repository root. */
/** Release dates of the known revisions, as the CLI passes them to the emitters. */
export const RELEASES = releasesOf(readRevisions());

/** What the CLI tells the emitters beside a model: the release dates, and the pinned commit of a pinned copy. */
export function emitFacts(model: ProtocolModel): EmitFacts {
  return { releases: RELEASES, sourceCommit: pinnedCommitOf(model.revision, model.source.sha256) };
}

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** Spec material, read in place (never copied into the repo): `$MCP_SPEC_DIR` or `../shared/mcp-spec/schema`. */
export const SPEC_DIR = resolve(
  process.env.MCP_SPEC_DIR ?? join(ROOT, "..", "shared", "mcp-spec", "schema"),
);

/** Every revision present in the spec dir, in name order (dates, then `draft`). */
export const REVISIONS: string[] = readdirSync(SPEC_DIR)
  .filter((name) => existsSync(join(SPEC_DIR, name, "schema.ts")))
  .sort();

export const schemaFile = (revision: string): string => join(SPEC_DIR, revision, "schema.ts");

export function officialSchema(revision: string): {
  schema: Record<string, unknown>;
  defsKey: "$defs" | "definitions";
} {
  const schema = JSON.parse(
    readFileSync(join(SPEC_DIR, revision, "schema.json"), "utf8"),
  ) as Record<string, unknown>;
  return { schema, defsKey: "$defs" in schema ? "$defs" : "definitions" };
}

export interface Example {
  /** The definition the example is filed under. */
  type: string;
  file: string;
  value: unknown;
}

/** The official example messages of a revision (`examples/<Definition>/*.json`), in a stable order. */
export function examples(revision: string): Example[] {
  const dir = join(SPEC_DIR, revision, "examples");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((type) =>
      readdirSync(join(dir, type))
        .filter((file) => file.endsWith(".json"))
        .sort()
        .map((file) => ({
          type,
          file,
          value: JSON.parse(readFileSync(join(dir, type, file), "utf8")) as unknown,
        })),
    );
}

/** Where the test run's generated output of a revision lives (made by test/global-setup.ts). */
export const generatedDir = (revision: string): string => join(ROOT, "generated", revision);
