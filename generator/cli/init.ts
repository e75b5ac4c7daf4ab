import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GeneratorError } from "../errors.js";
import { readRevisions } from "../spec/revisions.js";
import { CONFIG_FILE, readConfig } from "./config-file.js";
import type { CliIO } from "./context.js";
import type { FlagValues, INIT_OPTIONS } from "./options.js";

/**
 * `mcp-gen init`: writes `mcp-gen.config.json` into the working directory, naming the latest
 * released revision (or those given) and the output folder, so that `npx mcp-gen` (and `--check`
 * in CI) needs no options. An existing config is kept unless `--force`.
 */
export function initCommand(flags: FlagValues<typeof INIT_OPTIONS>, io: CliIO): void {
  const path = join(io.cwd, CONFIG_FILE);
  if (existsSync(path) && !flags.force)
    throw new GeneratorError("already exists; pass --force to replace it", CONFIG_FILE);
  const revisions = flags.revision ?? [latestReleased()];
  const text = `${JSON.stringify({ revisions, out: flags.out ?? "src/mcp" }, null, 2)}\n`;
  readConfig(text, CONFIG_FILE); // what init writes, generation reads
  writeFileSync(path, text);
  io.stderr(
    `mcp-gen: wrote ${CONFIG_FILE} (${revisions.join(", ")} into ${flags.out ?? "src/mcp"}); npx mcp-gen generates it, npx mcp-gen --check checks it\n`,
  );
}

/** The most recently released revision of mcp-gen's pins (never `draft`). */
function latestReleased(): string {
  const released = Object.entries(readRevisions().revisions)
    .filter(([, pin]) => pin.releaseDate !== null)
    .sort(([, a], [, b]) => (a.releaseDate! < b.releaseDate! ? -1 : 1));
  return released.at(-1)![0];
}
