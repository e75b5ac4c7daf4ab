import type { Target } from "../file.js";
import { RUNTIME_ADAPTERS, runtimeCopy } from "../runtime.js";
import { protocolOf } from "../protocol/target.js";

/**
 * The shared store asked for at generation (`--store redis`: runtime/server/store-redis.ts on ioredis). It
 * is a root of the output's runtime: nothing imports it (the user hands it to the server), and the
 * modules it imports (`runtime/server/store.ts`) come in through the import closure. Nothing without the
 * flag: the output then imports no store client.
 */
export const storeTarget: Target = {
  name: "store",
  emit(ctx) {
    if (!ctx.store || !protocolOf(ctx)) return [];
    return [runtimeCopy(RUNTIME_ADAPTERS[ctx.store])];
  },
};
