import {
  cacheEntries,
  clearCache,
  STALE_AFTER_DAYS,
  type CacheEntry,
  type KeptPart,
} from "../spec/cache-entries.js";
import { cacheRootFor, type CliIO } from "./context.js";
import { formatTable } from "./table.js";

/** `mcp-gen cache`: where the per-user cache is and what it holds, on stdout; `--clear` empties it. */
export function cacheCommand(args: { clear?: boolean | undefined }, io: CliIO): void {
  const root = cacheRootFor(io);
  if (args.clear) {
    const entries = cacheEntries(root);
    clearCache(root);
    io.stderr(
      `mcp-gen: cleared ${root} (${entries.length} entr${entries.length === 1 ? "y" : "ies"}, ${size(total(entries))})\n`,
    );
    return;
  }
  const entries = cacheEntries(root);
  io.stdout(`cache: ${root}${io.env.MCP_GEN_CACHE_DIR ? " (MCP_GEN_CACHE_DIR)" : ""}\n`);
  if (entries.length === 0) {
    io.stdout("(empty)\n");
    return;
  }
  // Formatted bodies and loaded models are many files: one row for each part.
  const rows = entries
    .filter((e) => !(e.part in KEPT_ROWS))
    .map((e) => [
      e.part === "spec" ? "download" : "compiled",
      e.name,
      e.commit ? e.commit.slice(0, 12) : "-",
      size(e.bytes),
      day(e.lastUsed),
    ]);
  for (const [part, [kind, noun]] of Object.entries(KEPT_ROWS)) {
    const files = entries.filter((e) => e.part === part);
    if (files.length > 0)
      rows.push([
        kind,
        `${files.length} ${noun}${files.length === 1 ? "" : "s"}`,
        "-",
        size(total(files)),
        day(new Date(Math.max(...files.map((e) => e.lastUsed.getTime())))),
      ]);
  }
  io.stdout(formatTable([["KIND", "NAME", "COMMIT", "SIZE", "LAST USED"], ...rows]));
  io.stdout(
    `total ${size(total(entries))}; entries unused for ${STALE_AFTER_DAYS} days are pruned after each generation\n`,
  );
}

/** Each kept part's row: its kind, and what one of its files is. */
const KEPT_ROWS: Record<KeptPart, readonly [string, string]> = {
  format: ["formatted", "module"],
  model: ["loaded", "model"],
};

const day = (date: Date): string => date.toISOString().slice(0, 10);

const total = (entries: readonly CacheEntry[]): number =>
  entries.reduce((sum, e) => sum + e.bytes, 0);

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
