import { RUNTIME } from "../runtime.js";

/** The runtime modules `server.ts` imports from, in the order of its import block. */
export const SERVER_MODULES = {
  dispatch: RUNTIME.dispatch,
  definitions: RUNTIME.definitions,
  jsonSchema: RUNTIME.jsonSchema,
  uriTemplate: RUNTIME.uriTemplate,
  stdio: RUNTIME.stdio,
  http: RUNTIME.http,
} as const;
