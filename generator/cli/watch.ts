import { watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import { GeneratorError } from "../errors.js";
import type { CliIO } from "./context.js";

/** How long a burst of file events (an editor's save is often several) is let settle before regenerating. */
const SETTLE_MS = 150;

/** A file to watch and what to run when it changes. */
export interface Watched {
  file: string;
  regenerate: () => Promise<unknown>;
}

/**
 * `--watch`: runs a file's regeneration whenever it changes (a revision's `schema.ts`, a tools file),
 * until SIGINT or SIGTERM. The folder is watched rather than the file, since editors often save by
 * replacing the file. A run that fails (a syntax error mid-edit) prints its one line and waits for
 * the next change; the output stays as it was.
 */
export async function watchFiles(files: readonly Watched[], io: CliIO): Promise<void> {
  const watchers: FSWatcher[] = [];
  let queue = Promise.resolve();
  for (const { file: path, regenerate } of files) {
    let timer: NodeJS.Timeout | undefined;
    const file = basename(path);
    watchers.push(
      watch(dirname(path), (_event, name) => {
        if (name !== null && name !== file) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          queue = queue.then(() =>
            regenerate().then(
              () => {},
              (e: unknown) => {
                if (!(e instanceof GeneratorError)) throw e;
                io.stderr(`${e.toString()}\n`);
              },
            ),
          );
        }, SETTLE_MS);
      }),
    );
  }
  io.stderr(`mcp-gen: watching ${files.map((f) => f.file).join(", ")} (Ctrl-C stops)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  for (const watcher of watchers) watcher.close();
  await queue;
}
