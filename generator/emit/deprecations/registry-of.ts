import type { ProtocolModel } from "../../ir/model.js";
import { deprecationRegistry, releasesOf, type RegistryEntry } from "../../registry/index.js";
import { readRevisions } from "../../spec/revisions.js";

const computed = new WeakMap<ProtocolModel, RegistryEntry[]>();

/** A model's deprecation registry, computed once however many targets ask (registry, server, client). */
export function registryOf(model: ProtocolModel): RegistryEntry[] {
  let registry = computed.get(model);
  if (!registry) {
    registry = deprecationRegistry(model, releasesOf(readRevisions()));
    computed.set(model, registry);
  }
  return registry;
}
