import { resolve } from "node:path";

/**
 * Which user-supplied spec checkout applies: `--spec-dir` wins over
 * MCP_SPEC_DIR, and only one of them is ever consulted. Kept apart from
 * resolve.ts because `mcp-gen list` needs the same choice.
 */
export interface ExplicitSpecDir {
  dir: string;
  origin: "spec-dir" | "env";
  /** How to name it in messages: `--spec-dir X` or `MCP_SPEC_DIR=X`. */
  label: string;
}

export function chooseSpecDir(options: {
  specDir?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  cwd?: string | undefined;
}): ExplicitSpecDir | undefined {
  const cwd = options.cwd ?? process.cwd();
  if (options.specDir !== undefined && options.specDir !== "") {
    return {
      dir: resolve(cwd, options.specDir),
      origin: "spec-dir",
      label: `--spec-dir ${options.specDir}`,
    };
  }
  const fromEnv = (options.env ?? process.env).MCP_SPEC_DIR;
  if (fromEnv)
    return { dir: resolve(cwd, fromEnv), origin: "env", label: `MCP_SPEC_DIR=${fromEnv}` };
  return undefined;
}
