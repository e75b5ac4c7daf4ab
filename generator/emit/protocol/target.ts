import type { EmitContext, Target } from "../file.js";
import { CodeFile, outputModule } from "../code-file.js";
import { json } from "../code.js";
import { RUNTIME } from "../runtime.js";
import type { ProtocolModel } from "../../ir/model.js";
import { protocolDescription, type ProtocolDescription } from "../../derive/protocol.js";
import { registryOf } from "../deprecations/registry-of.js";

/** The generated module holding the description, as `server.ts` and `client.ts` import it. */
export const PROTOCOL_MODULE = outputModule("protocol.ts");

const computed = new WeakMap<ProtocolModel, Map<string, ProtocolDescription | null>>();

/**
 * A model's protocol description with the eras of `ctx.legacy`, derived once however many targets
 * read it (protocol, server, client); one model may be emitted with several legacy sets.
 */
export function protocolOf(ctx: EmitContext): ProtocolDescription | null {
  const legacy = ctx.legacy ?? [];
  const key = legacy.map((l) => l.revision).join(",");
  let byLegacy = computed.get(ctx.model);
  if (!byLegacy) computed.set(ctx.model, (byLegacy = new Map()));
  if (!byLegacy.has(key))
    byLegacy.set(key, protocolDescription(ctx.model, registryOf(ctx), legacy));
  return byLegacy.get(key)!;
}

/**
 * `protocol.ts`: the revision's protocol description as data, once, for the server and the client
 * to read (`runtime/shared/protocol.ts` types it and binds its validators). Nothing for a schema that
 * describes no protocol; the server and client targets skip exactly those too.
 */
export const protocolTarget: Target = {
  name: "protocol",
  emit(ctx) {
    const description = protocolOf(ctx);
    if (!description) return [];
    return [
      {
        path: "protocol.ts",
        content: protocolFile(description),
        description:
          "`PROTOCOL`: the revision's protocol facts as data (methods, capabilities, `_meta` keys, error codes, envelope fields…), read by the server and the client",
      },
    ];
  },
};

function protocolFile(description: ProtocolDescription): string {
  const file = new CodeFile("protocol.ts");
  file.use(RUNTIME.protocol.type("ProtocolDescription"));
  return file.render("protocol.ts.hbs", { description: json(description) });
}
