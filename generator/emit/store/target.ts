import type { Target } from "../file.js";
import { runtimeFile } from "../file.js";
import { protocolOf } from "../protocol/target.js";
import { STORE_ADAPTERS } from "./adapters.js";

/**
 * The shared store asked for at generation (`--store redis`: runtime/store-redis.ts on ioredis). It
 * is a root of the output's runtime: nothing imports it (the user hands it to the server), and the
 * modules it imports (`runtime/store.ts`) come in through the import closure. Nothing without the
 * flag: the output then imports no store client.
 */
export const storeTarget: Target = {
  name: "store",
  emit(ctx) {
    if (!ctx.store || !protocolOf(ctx)) return [];
    const name = STORE_ADAPTERS[ctx.store].file;
    return [{ path: `runtime/${name}`, content: runtimeFile(name) }];
  },
};
