import type { CliIO } from "./context.js";
import { UsageError } from "./context.js";
import { resolveForCli } from "./generate.js";
import { withProjectDefaults } from "./project-defaults.js";
import { readRevisions } from "../spec/revisions.js";
import { deprecationRegistry, releasesOf } from "../registry/index.js";

/**
 * `mcp-gen ir`: the loaded model as JSON on stdout, for debugging the loader and for diffs between
 * revisions; with `--protocol`, the protocol description derived from it (what the generated
 * `protocol.ts` holds, generator/derive/protocol.ts).
 */
export async function printIR(
  given: {
    revision?: string | undefined;
    specDir?: string | undefined;
    offline: boolean;
    protocol?: boolean;
  },
  io: CliIO,
): Promise<void> {
  const args = withProjectDefaults(given, io);
  const schema = await resolveForCli(args.revision, args, io);
  const { loadModel } = await import("../load/index.js"); // on demand, as in generate.ts
  const model = loadModel(schema.schemaFile, { revision: schema.revision });
  if (!args.protocol) {
    io.stdout(`${JSON.stringify(model, null, 2)}\n`);
    return;
  }
  const { protocolDescription } = await import("../derive/protocol.js");
  const description = protocolDescription(
    model,
    deprecationRegistry(model, releasesOf(readRevisions())),
  );
  if (!description)
    throw new UsageError(
      `${schema.revision}: the schema describes no protocol (no requests, lifecycle or protocol version)`,
    );
  io.stdout(`${JSON.stringify(description, null, 2)}\n`);
}
