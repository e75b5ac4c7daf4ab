import type { CliIO } from "./context.js";
import { resolveForCli } from "./generate.js";

/** `mcp-gen ir`: the loaded model as JSON on stdout, for debugging the loader and for diffs between revisions. */
export async function printIR(
  args: { revision: string; specDir?: string | undefined; offline: boolean },
  io: CliIO,
): Promise<void> {
  const schema = await resolveForCli(args.revision, args, io);
  const { loadModel } = await import("../load/index.js"); // on demand, as in generate.ts
  const model = loadModel(schema.schemaFile, { revision: schema.revision });
  io.stdout(`${JSON.stringify(model, null, 2)}\n`);
}
