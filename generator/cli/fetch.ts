import { fetchRevision } from "../spec/fetch.js";
import { readRevisions } from "../spec/revisions.js";
import { cacheDirFor, displayPath, UsageError, type CliIO } from "./context.js";

/** `mcp-gen fetch`: download pinned revisions into the cache, hash-checked, one summary line each. */
export async function fetchCommand(args: { revisions: string[]; all: boolean }, io: CliIO): Promise<void> {
  const manifest = readRevisions();
  const revisions = args.all ? Object.keys(manifest.revisions).sort() : [...new Set(args.revisions)];
  if (revisions.length === 0) throw new UsageError("missing --revision R (repeatable) or --all");
  for (const revision of revisions) {
    const result = await fetchRevision(revision, {
      cacheDir: cacheDirFor(io),
      env: io.env,
      manifest,
      ...(io.fetch ? { fetch: io.fetch } : {}),
    });
    io.stderr(`mcp-gen: fetched ${revision} (${result.files.length} files, sha256 checked) into ${displayPath(io, result.dir)}\n`);
  }
}
