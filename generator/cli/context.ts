import { relative, resolve } from "node:path";
import { specCacheDir, userCacheDir } from "../spec/cache-dir.js";

/**
 * Everything a command touches outside its arguments. `main(argv, io)` takes
 * it as a parameter so tests can run commands in-process with their own
 * environment, working directory and captured output.
 */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** One-line notices (a download); default: stderr. The library sends them to its `log`. */
  notice?: (line: string) => void;
  /** Replaces the global fetch (tests). */
  fetch?: typeof globalThis.fetch;
  /** The terminal's width when stdout is one: what a table is fitted to. */
  columns?: number;
}

export function processIO(): CliIO {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    ...(process.stdout.isTTY && process.stdout.columns ? { columns: process.stdout.columns } : {}),
  };
}

/** A bad command line: reported in one line with exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The cache's root (see userCacheDir); MCP_GEN_CACHE_DIR moves it. */
export function cacheRootFor(io: CliIO): string {
  return resolve(io.cwd, userCacheDir(io.env)); // a relative MCP_GEN_CACHE_DIR: from the caller's folder
}

/** Where downloaded revisions are cached. */
export function cacheDirFor(io: CliIO): string {
  return specCacheDir(cacheRootFor(io));
}

/** One-line notices go to stderr so stdout stays machine-readable (`mcp-gen ir`). */
export function logTo(io: CliIO): (line: string) => void {
  return io.notice ?? ((line) => io.stderr(`${line}\n`));
}

/** Paths in messages are shown relative to the working directory when that is shorter. */
export function displayPath(io: CliIO, path: string): string {
  const rel = relative(io.cwd, path);
  return rel === "" ? "." : rel.startsWith("..") || rel.length > path.length ? path : rel;
}
