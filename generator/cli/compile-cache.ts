import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { writeWhole } from "../fs/write-whole.js";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { PRETTIER_MODULES } from "../emit/format.js";
import { touch } from "../spec/cache-entries.js";

/**
 * Keeps V8's compiled code between runs. Reading and compiling the CommonJS bundles behind ts-morph
 * (TypeScript's 9 MB, ts-morph's 4 MB) and prettier is the largest single cost of starting the
 * generator, and it is the same work every run.
 *
 * Node 22 caches compiled modules itself (`module.enableCompileCache`); there this only switches that
 * on. On Node 20 it compiles those bundles with V8's code cache, in their load order, and places them
 * in `require.cache`, so ts-morph's own `require`s find them loaded. The cache is best-effort: a
 * missing, stale or unwritable cache only costs the compile it would have saved, and V8 rejects
 * cached code from another version or with other flags.
 */
export interface CompileCache {
  /**
   * Loads the schema parser's bundles (TypeScript, ts-morph) before the loader requires them: only
   * a run that parses a schema needs them, and one whose models all come from the cache does not.
   */
  preloadParser(): void;
  /** Stores what this run compiled, if the cache did not already hold it. Never throws. */
  save(): void;
}

/** Switches the cache on and preloads prettier's bundles; the parser's wait for `preloadParser`. */
export function enableCompileCache(dir: string): CompileCache {
  const builtIn = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (builtIn) {
    builtIn(dir);
    return { preloadParser() {}, save() {} };
  }
  const compiled: Array<{ script: Script; cacheFile: string }> = [];
  const preloadAll = (files: () => string[]) => {
    try {
      for (const file of files()) {
        const script = preload(file, join(dir, cacheName(file)));
        if (script) compiled.push(script);
      }
    } catch {
      // whatever was not preloaded is loaded by `require` as usual
    }
  };
  preloadAll(formatterBundles);
  return {
    preloadParser: () => preloadAll(parserBundles),
    // Taken after the run, the cached code also holds the functions the run compiled lazily.
    save() {
      try {
        if (compiled.length > 0) mkdirSync(dir, { recursive: true });
        for (const { script, cacheFile } of compiled.splice(0)) {
          writeWhole(cacheFile, script.createCachedData());
        }
      } catch {
        // best-effort: the next run compiles again
      }
    },
  };
}

/**
 * The schema parser's CommonJS bundles, in load order: TypeScript, ts-morph's common library and
 * ts-morph, each found the way its dependant finds it.
 */
function parserBundles(): string[] {
  const tsMorph = createRequire(import.meta.url).resolve("ts-morph");
  const common = createRequire(tsMorph).resolve("@ts-morph/common");
  return [join(dirname(common), "typescript.js"), common, tsMorph];
}

/** Prettier's CommonJS bundles, as `format` loads them. */
function formatterBundles(): string[] {
  const require = createRequire(import.meta.url);
  return PRETTIER_MODULES.map((name) => require.resolve(name));
}

/** A cache file per bundle, Node version and installed copy of the bundle. */
function cacheName(file: string): string {
  const { size, mtimeMs } = statSync(file);
  const identity = `${process.version}\0${process.arch}\0${file}\0${size}\0${mtimeMs}`;
  return `${createHash("sha256").update(identity).digest("hex").slice(0, 32)}.bin`;
}

/**
 * Runs one CommonJS file as `require` would, compiled from cached code where the cache has it, and
 * registers it in `require.cache`. Returns the script when its cached code should be (re)written.
 */
function preload(
  file: string,
  cacheFile: string,
): { script: Script; cacheFile: string } | undefined {
  const loaded = Module as unknown as { _cache: Record<string, Module> };
  if (loaded._cache[file]) return undefined;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(readSource(file)), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = new Module(file);
  module.filename = file;
  loaded._cache[file] = module;
  try {
    (script.runInThisContext() as (...args: unknown[]) => void).call(
      module.exports,
      module.exports,
      createRequire(file),
      module,
      file,
      dirname(file),
    );
  } catch (error) {
    delete loaded._cache[file];
    throw error;
  }
  module.loaded = true;
  if (cachedData && !script.cachedDataRejected) {
    touch(cacheFile); // in use: not pruned as stale
    return undefined;
  }
  return { script, cacheFile };
}

/** Bytes first, then decoded: for these bundles about 40 % faster than `readFileSync(file, "utf8")` on Node 20. */
function readSource(file: string): string {
  return readFileSync(file).toString("utf8");
}
