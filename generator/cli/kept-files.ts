import { mkdirSync, readFileSync } from "node:fs";
import { writeWhole } from "../fs/write-whole.js";
import { join } from "node:path";
import type { FormattedBodies } from "../emit/format-kept.js";
import { touch } from "../spec/cache-entries.js";

/**
 * Files of a cache part, each named by its key, that a run reads and adds to: the formatted module
 * bodies (generator/emit/format-kept.ts) and the loaded models (model-cache.ts). What a run adds is
 * written when `save` is called: the formatted bodies after the output was, so a run that fails
 * leaves the cache as it was, as it leaves the output. Best-effort like the compile cache: a file
 * that cannot be read is made again, one that cannot be written is not kept; each is written whole
 * (fs/write-whole.ts). Files unused for a month, and the least recently used beyond a size limit,
 * are pruned after each generation (spec/cache-entries.ts).
 */
export interface KeptFiles extends FormattedBodies {
  /** Writes what was added since the last `save` or `drop`. Never throws. */
  save(): void;
  /** Forgets what was added since the last `save` or `drop`, keeping none of it. */
  drop(): void;
}

export function keptFiles(dir: string): KeptFiles {
  const pending = new Map<string, string>();
  return {
    get(key) {
      const file = join(dir, key);
      try {
        const text = readFileSync(file, "utf8");
        touch(file);
        return text;
      } catch {
        return pending.get(key);
      }
    },
    set(key, text) {
      pending.set(key, text);
    },
    save() {
      try {
        if (pending.size > 0) mkdirSync(dir, { recursive: true });
        for (const [key, text] of pending) writeWhole(join(dir, key), text);
      } catch {
        // not kept: the next run makes it again
      }
      pending.clear();
    },
    drop() {
      pending.clear();
    },
  };
}
