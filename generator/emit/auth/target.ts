import type { Target } from "../file.js";
import { RUNTIME_ADAPTERS, runtimeCopy } from "../runtime.js";
import { protocolOf } from "../protocol/target.js";

/**
 * The optional authorization adapters, emitted only with `--auth`: each imports one well-kept library
 * (`oauth4webapi` for the OAuth client, `jose` for verifying JWT access tokens), so output generated
 * without the flag stays dependency-free. The transports' hooks they plug into are part of the
 * dependency-free runtime.
 */
const AUTH_RUNTIME = [RUNTIME_ADAPTERS.oauthClient, RUNTIME_ADAPTERS.jwtVerifier];

export const authTarget: Target = {
  name: "auth",
  emit(ctx) {
    if (!ctx.auth || !protocolOf(ctx)) return [];
    return AUTH_RUNTIME.map(runtimeCopy);
  },
};
