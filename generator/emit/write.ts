import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { GeneratorError } from "../errors.js";
import { GENERATED_MARK, type GeneratedFile } from "./file.js";
import { checkManifestPaths, realOutputDir, refuseLinks } from "./output-paths.js";
import {
  MANIFEST_FILE,
  manifestOf,
  manifestText,
  readManifest,
  sha256,
  type OutputManifest,
} from "./manifest.js";

/**
 * Writes one revision's files into an output folder that may hold more than mcp-gen's output: a
 * file you added, a `.git` folder. mcp-gen replaces and removes only the files its manifest says it
 * wrote, and stops if one of them was edited by hand since (unless forced). Every file is written to
 * a sibling staging folder first and renamed into place, so a failure never leaves a half-written
 * file; a folder that does not exist yet appears whole, in one rename.
 */
export interface OutputChange {
  path: string;
  /** `added`: not there yet; `changed`: other content; `removed`: mcp-gen's, no longer generated. */
  kind: "added" | "changed" | "removed";
}

export interface OutputPlan {
  changes: OutputChange[];
  /** mcp-gen's files whose content is no longer what it wrote (edited by hand). */
  edited: string[];
}

export function planOutput(outDir: string, files: readonly GeneratedFile[]): OutputPlan {
  const target = realOutputDir(outDir);
  const owned = ownedFiles(target);
  const changes: OutputChange[] = [];
  const produced = new Set(files.map((f) => f.path));
  // Before anything is read or compared: a link inside the folder would carry it elsewhere.
  refuseLinks(target, [MANIFEST_FILE, ...produced, ...Object.keys(owned)]);
  for (const file of files) {
    const current = readIfFile(join(target, file.path));
    if (current === null) changes.push({ path: file.path, kind: "added" });
    else if (!current.equals(Buffer.from(file.content)))
      changes.push({ path: file.path, kind: "changed" });
  }
  for (const path of Object.keys(owned).sort()) {
    if (!produced.has(path) && existsSync(join(target, path)))
      changes.push({ path, kind: "removed" });
  }
  const edited = Object.entries(owned)
    .filter(([path, hash]) => {
      if (hash === null) return false; // an earlier mcp-gen without a manifest: no record to compare
      const current = readIfFile(join(target, path));
      return current !== null && sha256(current) !== hash;
    })
    .map(([path]) => path)
    .sort();
  return { changes: changes.sort((a, b) => (a.path < b.path ? -1 : 1)), edited };
}

export function writeOutput(
  outDir: string,
  files: readonly GeneratedFile[],
  facts: Omit<OutputManifest, "files">,
  options: { force?: boolean } = {},
): OutputPlan {
  const target = realOutputDir(outDir);
  const plan = planOutput(target, files);
  if (plan.edited.length > 0 && !options.force) {
    throw new GeneratorError(
      `${plan.edited.length} generated file${plan.edited.length === 1 ? " was" : "s were"} edited by hand since mcp-gen wrote ${plan.edited.length === 1 ? "it" : "them"}: ${plan.edited.join(", ")}; move the change${plan.edited.length === 1 ? "" : "s"} elsewhere, or pass --force to overwrite`,
      target,
    );
  }
  const manifest = manifestText(manifestOf(files, facts));
  const unchanged =
    plan.changes.length === 0 &&
    readIfFile(join(target, MANIFEST_FILE))?.toString("utf8") === manifest;
  if (unchanged) return plan;

  const staging = stage(target, [...files, { path: MANIFEST_FILE, content: manifest }]);
  try {
    if (!existsSync(target)) {
      renameSync(staging, target);
      return plan;
    }
    for (const change of plan.changes) {
      const path = join(target, change.path);
      if (change.kind === "removed") {
        rmSync(path, { force: true });
        removeEmptyParents(dirname(path), target);
      } else {
        mkdirSync(dirname(path), { recursive: true });
        renameSync(join(staging, change.path), path);
      }
    }
    // Last: a run interrupted before this point is still described by the previous manifest.
    renameSync(join(staging, MANIFEST_FILE), join(target, MANIFEST_FILE));
    return plan;
  } catch (error) {
    throw new GeneratorError(`cannot write output: ${(error as Error).message}`, target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Every file written into a fresh sibling folder (same filesystem, so each rename is atomic). */
function stage(target: string, files: readonly GeneratedFile[]): string {
  let staging: string | undefined;
  try {
    const parent = dirname(target);
    mkdirSync(parent, { recursive: true });
    staging = mkdtempSync(join(parent, `.${basename(target)}.tmp-`));
    // mkdtemp makes the folder private; the output is an ordinary folder once renamed.
    chmodSync(staging, 0o755 & ~process.umask());
    for (const file of files) {
      const path = join(staging, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content);
    }
    return staging;
  } catch (error) {
    if (staging) rmSync(staging, { recursive: true, force: true });
    throw new GeneratorError(`cannot write output: ${(error as Error).message}`, target);
  }
}

/**
 * The files mcp-gen may replace or remove, with the sha256 it wrote (null: not recorded). A folder
 * with a manifest lists them; one without is new, or holds only dot-entries (`.git`), or is the
 * output of an mcp-gen from before manifests (its generated `index.ts` says so: all its files are
 * mcp-gen's, as that version replaced the folder whole); anything else is not mcp-gen's to touch.
 */
function ownedFiles(target: string): Record<string, string | null> {
  if (!existsSync(target)) return {};
  if (!statSync(target).isDirectory())
    throw new GeneratorError("cannot write output: not a directory", target);
  const manifest = readManifest(target);
  if (manifest) {
    checkManifestPaths(join(target, MANIFEST_FILE), Object.keys(manifest.files), target);
    return manifest.files;
  }
  const entries = readdirSync(target).filter((name) => !name.startsWith("."));
  if (entries.length === 0) return {};
  const index = readIfFile(join(target, "index.ts"));
  if (index?.toString("utf8").startsWith(GENERATED_MARK)) {
    return Object.fromEntries(filesUnder(target, "").map((path) => [path, null]));
  }
  throw new GeneratorError(
    `cannot write output: the folder is not mcp-gen output (no ${MANIFEST_FILE}); choose another --out`,
    target,
  );
}

function filesUnder(dir: string, prefix: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !e.name.startsWith("."))
    .flatMap((e) =>
      e.isDirectory()
        ? filesUnder(join(dir, e.name), `${prefix}${e.name}/`)
        : [`${prefix}${e.name}`],
    );
}

function readIfFile(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

function removeEmptyParents(dir: string, stop: string): void {
  while (dir !== stop && dir.startsWith(stop)) {
    try {
      rmdirSync(dir); // fails when not empty: then the folder holds something else and stays
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}
