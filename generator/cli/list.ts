import { GeneratorError } from "../errors.js";
import { catalog, type CatalogEntry } from "../spec/catalog.js";
import { chooseSpecDir } from "../spec/sources.js";
import { isDirectory } from "../spec/spec-dirs.js";
import { cacheDirFor, type CliIO } from "./context.js";
import { formatTable } from "./table.js";
import { findConfig } from "./config-file.js";
import { specDirOf } from "./project-defaults.js";

/**
 * `mcp-gen list`: one row per known revision, to stdout, as an aligned table:
 * release date, pinned commit (short; `?` marks an unverified pin) and where
 * it is available locally.
 */
export function listRevisions(given: { specDir?: string | undefined }, io: CliIO): void {
  const args = { specDir: specDirOf(given.specDir, findConfig(undefined, io.cwd), io) };
  // A mistyped spec dir would otherwise just show every revision as absent.
  const explicit = chooseSpecDir({ specDir: args.specDir, env: io.env, cwd: io.cwd });
  if (explicit && !isDirectory(explicit.dir))
    throw new GeneratorError(`${explicit.label}: no such directory`);
  const entries = catalog({
    specDir: args.specDir,
    env: io.env,
    cwd: io.cwd,
    cacheDir: cacheDirFor(io),
  });
  io.stdout(formatTable([["REVISION", "RELEASED", "PINNED", "PRESENT"], ...entries.map(row)]));
  io.stdout(`${LEGEND}\n`);
}

function row(e: CatalogEntry): string[] {
  const pinned = e.commit ? `${e.commit.slice(0, 12)}${e.verified ? "" : "?"}` : "-";
  return [
    e.revision,
    e.releaseDate ?? "unreleased",
    pinned,
    e.present.length ? e.present.join(",") : "absent",
  ];
}

/** What the columns' values mean, under the table. */
const LEGEND = [
  "",
  "PINNED: the upstream commit a download comes from (sha256-checked); ? marks a pin not confirmed to hold those exact bytes.",
  "PRESENT: spec-dir (--spec-dir), env (MCP_SPEC_DIR), cache (downloaded earlier); absent: downloaded when first used.",
].join("\n");
