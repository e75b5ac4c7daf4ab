import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { GeneratedFile } from "./file.js";

/**
 * `.mcp-gen.json` in an output folder: what mcp-gen wrote there, each file with its sha256. It is
 * how a later run knows which files are its own to replace or remove (a file you added, a `.git`
 * folder, are not) and which of its own files were edited by hand since (their hash differs).
 */
export const MANIFEST_FILE = ".mcp-gen.json";

export interface OutputManifest {
  generator: string;
  revision: string;
  schemaSha256: string;
  /** The command that regenerates the folder. */
  regenerate: string;
  /** Output-relative path → sha256 of the content mcp-gen wrote. */
  files: Record<string, string>;
}

export const sha256 = (content: string | Uint8Array): string =>
  createHash("sha256").update(content).digest("hex");

export function manifestOf(
  files: readonly GeneratedFile[],
  facts: Omit<OutputManifest, "files">,
): OutputManifest {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ...facts, files: Object.fromEntries(sorted.map((f) => [f.path, sha256(f.content)])) };
}

export function manifestText(manifest: OutputManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The folder's manifest; null when it has none or it is not one of ours (unreadable, wrong shape). */
export function readManifest(outDir: string): OutputManifest | null {
  try {
    const data = JSON.parse(
      readFileSync(join(outDir, MANIFEST_FILE), "utf8"),
    ) as Partial<OutputManifest>;
    if (typeof data.files !== "object" || data.files === null) return null;
    return data as OutputManifest;
  } catch {
    return null;
  }
}
