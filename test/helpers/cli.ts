import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { main } from "../../generator/cli/main.js";
import type { CliIO } from "../../generator/cli/context.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs mcp-gen's `main` in this process with its output captured. */
export async function runCli(
  args: string[],
  io: Pick<CliIO, "cwd" | "env"> & Partial<CliIO>,
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    ...io,
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

/** The next line a `--watch` child writes to stderr, one call at a time; fails if it ends first. */
export function stderrLines(child: ChildProcess, what: string): () => Promise<string> {
  const lines = createInterface({ input: child.stderr! })[Symbol.asyncIterator]();
  return async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`${what} ended early`);
    return value as string;
  };
}
