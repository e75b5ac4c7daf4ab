import { readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { projectRoot } from "../package-root.js";
import { outputModule, type ImportSymbol, type OutputModule } from "./code-file.js";
import type * as Checks from "../../runtime/schema/checks.js";
import type * as Formats from "../../runtime/schema/formats.js";
import type * as JsonSchema from "../../runtime/schema/json-schema.js";
import type * as Jsonrpc from "../../runtime/shared/jsonrpc.js";
import type * as Protocol from "../../runtime/shared/protocol.js";
import type * as HttpAuth from "../../runtime/auth/http-auth.js";
import type * as Dispatch from "../../runtime/server/dispatch.js";
import type * as Definitions from "../../runtime/server/definitions.js";
import type * as UriTemplate from "../../runtime/server/uri-template.js";
import type * as Stdio from "../../runtime/server/stdio.js";
import type * as Http from "../../runtime/server/http/index.js";
import type * as Client from "../../runtime/client/client.js";
import type * as ClientHttp from "../../runtime/client/http.js";
import type * as ClientStdio from "../../runtime/client/stdio.js";
import type * as Otel from "../../runtime/telemetry/otel.js";
import type * as ClientNodeFetch from "../../runtime/client/http-node.js";

/**
 * The runtime as the emitters see it: every runtime module generated code imports from, by the
 * path it has both in `runtime/` and in an output folder, and the modules emitted whole on request.
 * Moving a runtime module is one edit here; a value an emitter imports is checked against the
 * module's own exports when the generator compiles (a type's name, by the output's type check).
 */

/** Where the runtime's modules go in an output folder (the same layout as `runtime/` here). */
export const RUNTIME_DIR = "runtime/";

/** `runtime/` at the project root (the same from sources and from dist/). */
const RUNTIME_SOURCES = join(projectRoot(), "runtime") + sep;

/** A runtime module whose value exports are those of its source, `M`. */
export interface RuntimeModule<M> extends OutputModule {
  value(name: keyof M & string): ImportSymbol;
}

function runtimeModule<M>(path: string): RuntimeModule<M> {
  return outputModule(`${RUNTIME_DIR}${path}`);
}

export const RUNTIME = {
  checks: runtimeModule<typeof Checks>("schema/checks.ts"),
  formats: runtimeModule<typeof Formats>("schema/formats.ts"),
  jsonSchema: runtimeModule<typeof JsonSchema>("schema/json-schema.ts"),
  jsonrpc: runtimeModule<typeof Jsonrpc>("shared/jsonrpc.ts"),
  protocol: runtimeModule<typeof Protocol>("shared/protocol.ts"),
  httpAuth: runtimeModule<typeof HttpAuth>("auth/http-auth.ts"),
  dispatch: runtimeModule<typeof Dispatch>("server/dispatch.ts"),
  definitions: runtimeModule<typeof Definitions>("server/definitions.ts"),
  uriTemplate: runtimeModule<typeof UriTemplate>("server/uri-template.ts"),
  stdio: runtimeModule<typeof Stdio>("server/stdio.ts"),
  http: runtimeModule<typeof Http>("server/http/index.ts"),
  client: runtimeModule<typeof Client>("client/client.ts"),
  clientHttp: runtimeModule<typeof ClientHttp>("client/http.ts"),
  clientStdio: runtimeModule<typeof ClientStdio>("client/stdio.ts"),
  /** Imported by the server and the client only when generated with `--telemetry otel`. */
  otel: runtimeModule<typeof Otel>("telemetry/otel.ts"),
  clientNodeFetch: runtimeModule<typeof ClientNodeFetch>("client/http-node.ts"),
} as const;

/**
 * Runtime modules nothing generated imports, emitted whole when a flag asks: each imports one
 * well-kept library, and the user hands it to the server or client. What they import of the
 * runtime comes in through the import closure.
 */
export const RUNTIME_ADAPTERS = {
  oauthClient: "auth/oauth-client.ts",
  jwtVerifier: "auth/jwt-verifier.ts",
  ajv: "schema/json-schema-ajv.ts",
  cfworker: "schema/json-schema-cfworker.ts",
  redis: "server/store-redis.ts",
  // Imported by the generated server and client (RUNTIME.otel) rather than handed over by the user.
  otel: "telemetry/otel.ts",
} as const;

/** A verbatim copy of a hand-written runtime module, by its path under `runtime/`. */
export function runtimeFile(path: string): string {
  return readFileSync(RUNTIME_SOURCES + path, "utf8");
}

/** A runtime module as an output file: copied verbatim. */
export function runtimeCopy(path: string): { path: string; content: string } {
  return { path: `${RUNTIME_DIR}${path}`, content: runtimeFile(path) };
}
