import { homedir } from "node:os";
import { isAbsolute, join, win32 } from "node:path";

/**
 * Where mcp-gen keeps what it downloads and compiles, per user, as each platform expects caches:
 * `$XDG_CACHE_HOME/mcp-gen` (else `~/.cache/mcp-gen`), `~/Library/Caches/mcp-gen` on macOS,
 * `%LOCALAPPDATA%\mcp-gen` on Windows; `MCP_GEN_CACHE_DIR` moves it. Not inside the installed
 * package: `npm ci` wipes that, and one download serves every project of the user.
 */
export function userCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.MCP_GEN_CACHE_DIR) return env.MCP_GEN_CACHE_DIR;
  if (platform === "win32")
    return win32.join(env.LOCALAPPDATA || win32.join(home, "AppData", "Local"), "mcp-gen");
  if (platform === "darwin") return join(home, "Library", "Caches", "mcp-gen");
  // The XDG spec ignores a relative XDG_CACHE_HOME.
  const xdg =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : join(home, ".cache");
  return join(xdg, "mcp-gen");
}

/**
 * The cache's parts, apart so that clearing one leaves the others: downloaded spec revisions, V8's
 * compiled code, formatted module bodies, loaded models.
 */
export const specCacheDir = (cacheRoot: string): string => join(cacheRoot, "spec");
export const compileCacheDir = (cacheRoot: string): string => join(cacheRoot, "v8");
export const formatCacheDir = (cacheRoot: string): string => join(cacheRoot, "format");
export const modelCacheDir = (cacheRoot: string): string => join(cacheRoot, "model");
