import { runtimeModule } from "../modules.js";

/** The runtime modules `server.ts` imports from. */
export const SERVER_MODULES = {
  dispatch: runtimeModule("dispatch.ts"),
  definitions: runtimeModule("definitions.ts"),
  jsonSchema: runtimeModule("json-schema.ts"),
  uriTemplate: runtimeModule("uri-template.ts"),
  stdio: runtimeModule("stdio.ts"),
  http: runtimeModule("http.ts"),
} as const;
