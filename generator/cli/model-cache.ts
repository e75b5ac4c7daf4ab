import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ProtocolModel } from "../ir/model.js";
import { projectRoot } from "../package-root.js";
import type { KeptFiles } from "./kept-files.js";

/** Parses one revision's schema into its model (the loader, generator/load). */
export type ParseSchema = (schemaFile: string, revision: string) => Promise<ProtocolModel>;

/**
 * Loads schemas through the models kept in the user's cache (`model/`): a model is what the loader
 * makes of a schema's bytes, so one kept under a key of those bytes, the revision's name and the
 * generator that loaded it is the model a new load would make. The default command reads five
 * schemas, four of them released revisions that never change; parsing them is most of its cost
 * over one revision's, and loading their kept models spares a run TypeScript itself. A schema that
 * fails to load is never kept: it is parsed again, and fails with its file and line, every run; nor
 * is any model of a run that fails (kept-files.ts).
 */
export function cachedModels(kept: KeptFiles, parse: ParseSchema): ParseSchema {
  let identity: string | undefined;
  return async (schemaFile, revision) => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(schemaFile);
      identity ??= generatorIdentity();
    } catch {
      return parse(schemaFile, revision); // which says why the schema cannot be read
    }
    const key = createHash("sha256")
      .update(`${identity}\0${revision}\0`)
      .update(bytes)
      .digest("hex");
    const text = kept.get(key);
    if (text !== undefined) {
      try {
        return JSON.parse(text) as ProtocolModel;
      } catch {
        // unreadable: parsed again below, and kept anew
      }
    }
    const model = await parse(schemaFile, revision);
    kept.set(key, JSON.stringify(model)); // written by the caller's `save`, when its run is done
    return model;
  };
}

/**
 * What the loader is: the generator's own code (the modules of generator/, or dist/generator/ when
 * built), each by its size and modification time as the compile cache knows its bundles, and
 * package.json, which pins ts-morph and with it TypeScript. Any change to either, a rebuild during
 * development as much as an upgrade, gives every schema a new key. Stat, not read: reading the
 * modules would cost a run more than the models it spares it.
 */
export function generatorIdentity(
  generatorDir: string = fileURLToPath(new URL("..", import.meta.url)),
  packageJson: string = join(projectRoot(), "package.json"),
): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(packageJson));
  for (const file of modulesUnder(generatorDir)) {
    const { size, mtimeMs } = statSync(join(generatorDir, file));
    hash.update(`\0${file}\0${size}\0${mtimeMs}`);
  }
  return hash.digest("hex");
}

function modulesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /(?<!\.d)\.[jt]s$/.test(entry.name))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(dir.length))
    .sort();
}
