import type { ProtocolModel } from "../../ir/model.js";
import { deprecationRegistry, type RegistryEntry } from "../../registry/index.js";
import type { EmitContext } from "../file.js";

const computed = new WeakMap<ProtocolModel, RegistryEntry[]>();

/** A model's deprecation registry, computed once however many targets ask (registry, server, client). */
export function registryOf(ctx: EmitContext): RegistryEntry[] {
  let registry = computed.get(ctx.model);
  if (!registry) {
    registry = deprecationRegistry(ctx.model, ctx.releases);
    computed.set(ctx.model, registry);
  }
  return registry;
}
