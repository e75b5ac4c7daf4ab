import { resolve } from "node:path";
import { fetchRevision } from "../spec/fetch.js";
import { pinRevision } from "../spec/pin.js";
import { readRevisions } from "../spec/revisions.js";
import type { FETCH_OPTIONS, FlagValues } from "./options.js";
import { cacheDirFor, displayPath, UsageError, type CliIO } from "./context.js";

/** `commit`: pin the one revision at it; `manifest`: the revisions.json to use instead of mcp-gen's own. */
export type FetchArgs = FlagValues<typeof FETCH_OPTIONS>;

/** `mcp-gen fetch`: download pinned revisions into the cache, hash-checked, one summary line each; or pin one with --commit. */
export async function fetchCommand(args: FetchArgs, io: CliIO): Promise<void> {
  const manifestFile = args.manifest === undefined ? undefined : resolve(io.cwd, args.manifest);
  const common = {
    cacheDir: cacheDirFor(io),
    env: io.env,
    ...(io.fetch ? { fetch: io.fetch } : {}),
  };
  if (args.commit !== undefined) {
    const [revision, ...more] = [...new Set(args.revision ?? [])];
    if (revision === undefined || more.length > 0)
      throw new UsageError("--commit pins exactly one --revision");
    const pinned = await pinRevision(revision, args.commit, { ...common, manifestFile });
    const dropped =
      pinned.dropped.length > 0
        ? `; not at that commit, dropped: ${pinned.dropped.join(", ")}`
        : "";
    io.stderr(
      `mcp-gen: pinned ${revision} at ${args.commit} in ${displayPath(io, pinned.manifestFile)} (${plural(Object.keys(pinned.entry.files).length, "file")}, sha256 recorded${dropped}); cached in ${displayPath(io, pinned.dir)}\n`,
    );
    return;
  }
  const manifest = readRevisions(manifestFile);
  const revisions = args.all
    ? Object.keys(manifest.revisions).sort()
    : [...new Set(args.revision ?? [])];
  if (revisions.length === 0) throw new UsageError("missing --revision R (repeatable) or --all");
  for (const revision of revisions) {
    const result = await fetchRevision(revision, { ...common, manifest });
    io.stderr(
      `mcp-gen: fetched ${revision} (${result.files.length} files, sha256 checked) into ${displayPath(io, result.dir)}\n`,
    );
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
