import { renameSync, writeFileSync } from "node:fs";

/**
 * Writes `file` under a temporary name beside it, then renames it into place: a reader (another
 * mcp-gen process sharing the cache, the next run after a crash) sees the old file or the whole new
 * one, never half of one. The temporary name carries the process id, so two writers do not share it.
 */
export function writeWhole(file: string, data: string | NodeJS.ArrayBufferView): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, data);
  renameSync(temp, file);
}
