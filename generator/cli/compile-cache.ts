import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

/**
 * Keeps V8's compiled code between runs. Compiling the TypeScript bundle that ts-morph loads (9 MB of
 * JavaScript) is the largest single cost of starting the generator, about a quarter of a second, and
 * it is the same work every run.
 *
 * Node 22 caches compiled modules itself (`module.enableCompileCache`); there this only switches that
 * on. On Node 20 it compiles that one bundle with V8's code cache and places it in `require.cache`, so
 * ts-morph's own `require` finds it loaded. The cache is best-effort: a missing, stale or unwritable
 * cache only costs the compile it would have saved, and V8 rejects cached code from another version.
 */
export interface CompileCache {
  /** Stores what this run compiled, if the cache did not already hold it. Never throws. */
  save(): void;
}

const NONE: CompileCache = { save() {} };

export function enableCompileCache(cacheDir: string): CompileCache {
  const builtIn = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (builtIn) {
    builtIn(join(cacheDir, "v8"));
    return NONE;
  }
  try {
    return preloadWithCodeCache(typeScriptBundle(), join(cacheDir, "v8"));
  } catch {
    return NONE;
  }
}

/** The bundle ts-morph loads: `@ts-morph/common/dist/typescript.js`, found the way ts-morph finds it. */
function typeScriptBundle(): string {
  const fromTsMorph = createRequire(createRequire(import.meta.url).resolve("ts-morph"));
  return join(dirname(fromTsMorph.resolve("@ts-morph/common")), "typescript.js");
}

function preloadWithCodeCache(file: string, dir: string): CompileCache {
  const cache = Module as unknown as { _cache: Record<string, Module> };
  if (cache._cache[file]) return NONE;
  const { size, mtimeMs } = statSync(file);
  const key = createHash("sha256").update(`${process.version}\0${process.arch}\0${file}\0${size}\0${mtimeMs}`).digest("hex");
  const cacheFile = join(dir, `${key.slice(0, 32)}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = new Module(file);
  module.filename = file;
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  module.loaded = true;
  cache._cache[file] = module;
  if (cachedData && !script.cachedDataRejected) return NONE;
  return {
    // Taken after the run, the cache also holds the functions the run compiled lazily.
    save() {
      try {
        mkdirSync(dir, { recursive: true });
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // best-effort: the next run compiles again
      }
    },
  };
}
