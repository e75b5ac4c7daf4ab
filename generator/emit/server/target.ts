import type { Target } from "../file.js";
import type { ProtocolModel } from "../../ir/model.js";
import { wireFacts, type WireFacts, type WireRequest } from "../../ir/wire.js";
import { CAPABILITY_TYPES, WIRE_CONVENTIONS } from "../../ir/conventions.js";
import { code, ident, join, json, jsdoc, str, type Code } from "../code.js";
import { CodeFile, type OutputModule } from "../code-file.js";
import { typesModule, validatorsModule } from "../modules.js";
import type { EmitContext } from "../file.js";
import { featureFacts } from "../../ir/features.js";
import { PROTOCOL_MODULE, protocolOf } from "../protocol/target.js";
import { featureTypes } from "./feature-types.js";
import { SERVER_MODULES as M } from "./modules.js";
import { RUNTIME } from "../runtime.js";
import { validatorsTarget } from "../validators/target.js";
import { typesTarget } from "../types/target.js";

/**
 * `server.ts`: a typed handler per client→server request of the revision, and `createServer`, which
 * hands the revision's protocol facts (derived from the IR by `wireFacts`) to the runtime dispatcher.
 */
export const serverTarget: Target = {
  name: "server",
  emit(ctx) {
    const { model, generatorVersion, legacy = [] } = ctx;
    const wire = wireFacts(model);
    const description = protocolOf(ctx);
    if (!description) return [];
    // The import block's layout: generated modules, then the runtime's, as the file reads.
    const file = new CodeFile("server.ts", [
      typesModule().from,
      validatorsModule().from,
      ...description.eras.map((era) => legacyValidators(era).from),
      PROTOCOL_MODULE.path,
      M.dispatch.path,
      M.definitions.path,
      M.jsonSchema.path,
      M.uriTemplate.path,
      M.stdio.path,
      M.http.path,
    ]);
    const T = file.use(typesModule());
    const types = featureTypes(model, file);
    layoutImports(file, types);
    const handled = wire.requests.filter((r) => !r.builtIn);
    const handlers = handled.map((request) => ({
      method: str(request.method.method),
      doc: jsdoc(handlerDoc(model, request)),
      params: paramsType(T, request),
      result: resultType(file, T, request, wire),
    }));
    // The description, bound to this revision's validators and each era's to its own revision's.
    const data = file.use(PROTOCOL_MODULE.value("PROTOCOL_DESCRIPTION"));
    const eraValidators = description.eras.map((era) => file.use(legacyValidators(era)));
    const protocol = code`${file.use(M.dispatch.value("serverProtocol"))}(${data}, ${file.use(validatorsModule())}, [${join(eraValidators)}])`;
    // The fields the runtime fills in, which a handler may leave out.
    const { resultType: typeField, cacheHints } = description.envelope;
    const filled = [typeField, cacheHints?.ttl ?? null, cacheHints?.scope ?? null].filter(
      (name): name is string => name !== null,
    );
    const defined = (name: string) =>
      model.definitions.some((d) => d.name === name) ? code`${T}.${ident(name)}` : null;
    const content = file.render("server.ts.hbs", {
      from: {
        jsonrpc: file.from(RUNTIME.jsonrpc),
        httpAuth: file.from(RUNTIME.httpAuth),
        dispatch: file.from(M.dispatch),
        definitions: file.from(M.definitions),
        jsonSchema: file.from(M.jsonSchema),
      },
      handlers,
      protocol,
      filled: filled.length > 0 ? join(filled.map(str), code` | `) : code`never`,
      headerRules: code`${file.use(M.http.value("headerRulesOf"))}(${data})`,
      features: json(featureFacts(model)),
      types,
      stdioOptions: wire.notifications.cancelled
        ? code`{ cancelledMethod: ${wire.notifications.cancelled} }`
        : code`{}`,
      infoType:
        defined(WIRE_CONVENTIONS.implementationType) ??
        code`${file.use(M.dispatch.type("DispatcherOptions"))}["info"]`,
      capabilitiesType: defined(CAPABILITY_TYPES.server) ?? code`Record<string, unknown>`,
      telemetry: ctx.telemetry
        ? file.use(RUNTIME[ctx.telemetry].value("otelServerTelemetry"))
        : null,
    });
    // Node, Bun, Deno and workerd: the server imports no node: module at load (the stdio and
    // node:http transports load theirs when used), but browsers are no place for it.
    return [
      {
        path: file.path,
        content,
        entry: { platform: "node" },
        description:
          "`createServer({ info, capabilities, handlers })`: a typed handler per request; serves stdio, or Streamable HTTP as a `node:http` listener or a web-standard `fetch` handler (Bun, Deno, Workers); imports no `node:` module at load",
      },
      ...legacy.flatMap((old, i) =>
        legacyFiles({
          ...ctx,
          model: old,
          generatorVersion,
          // Each takes what it shares from the revision before it in the list (newest first), the
          // first from this one: a chain of re-exports, each link decided between neighbours.
          newer:
            i === 0
              ? { model, dir: "" }
              : { model: legacy[i - 1]!, dir: legacyDir(legacy[i - 1]!) },
        }),
      ),
    ];
  },
};

/**
 * The runtime names the text of `server.ts.hbs` itself uses (its classes and the options they
 * take); those of the sections for tools and resource templates only when the revision has them.
 */
function layoutImports(file: CodeFile, types: ReturnType<typeof featureTypes>): void {
  const use = (module: OutputModule, values: string[], typeNames: string[]) => {
    for (const name of values) file.use(module.value(name));
    for (const name of typeNames) file.use(module.type(name));
  };
  use(M.dispatch, ["Dispatcher"], ["DispatcherOptions", "Handler", "Protocol", "RequestContext"]);
  use(M.definitions, ["Definitions"], ["DefinitionsOptions", "Features"]);
  if (types.tool) use(M.jsonSchema, [], ["SchemaCheck"]);
  if (types.resourceTemplate) use(M.uriTemplate, [], ["UriVariables"]);
  use(M.stdio, ["serveStdio"], ["StdioOptions"]);
  use(
    M.http,
    ["createFetchHandler", "createHttpHandler", "serveHttp"],
    ["FetchHandler", "FetchHandlerOptions", "HeaderRules", "HttpOptions"],
  );
}

/**
 * Without requests, a recognised lifecycle and a protocol version, a schema describes no protocol to
 * serve or call (the small fixture schemas); every published revision has all three (test/generator/emit/output).
 * The server, client and auth targets share this condition, and with it the runtime modules.
 */
export function describesProtocol(
  model: ProtocolModel,
  wire: WireFacts = wireFacts(model),
): boolean {
  return (
    wire.requests.length > 0 && model.lifecycle.kind !== "unknown" && model.protocolVersion !== null
  );
}

function handlerDoc(model: ProtocolModel, request: WireRequest): string[] {
  const definition = model.definitions.find((d) => d.name === request.method.message);
  const lines = definition?.doc.text ? [definition.doc.text] : [];
  if (request.method.deprecated) lines.push(`@deprecated ${request.method.deprecated.text}`);
  return lines;
}

function paramsType(T: Code, request: WireRequest): Code {
  const access = code`${T}.${ident(request.method.message)}["params"]`;
  return request.method.paramsOptional ? code`NonNullable<${access}>` : access;
}

function resultType(file: CodeFile, T: Code, request: WireRequest, wire: WireFacts): Code {
  const results = request.method.results.map((name) =>
    name === wire.inputRequiredResult
      ? file.use(M.dispatch.type("InputRequiredAnswer"))
      : code`HandlerResult<${T}.${ident(name)}>`,
  );
  return results.length > 0
    ? join(results, code` | `)
    : code`HandlerResult<Record<string, unknown>>`;
}

/** Where a legacy revision's own types and validators go, beside the modern ones. */
const legacyDir = (bridge: { revision: string }): string => `legacy/${bridge.revision}/`;
/** A legacy revision's validators, as `server.ts` and `client.ts` import them. */
export const legacyValidators = (bridge: { revision: string }) =>
  validatorsModule(legacyDir(bridge), `Legacy${bridge.revision.replace(/[^A-Za-z0-9]/g, "_")}`);

/**
 * A legacy revision's `types.ts` and `validators.ts`, emitted by the same targets as the modern
 * ones, under `legacy/<revision>/`; they share the output's runtime, and re-export from `ctx.newer`'s
 * modules what they would emit the same.
 */
function legacyFiles(ctx: EmitContext) {
  const { model } = ctx;
  return [typesTarget, validatorsTarget].flatMap((target) =>
    target.emit({ ...ctx, dir: legacyDir(model) }).map((file) =>
      // Not entry points: the index re-exports the modern revision's modules only.
      file.path.startsWith("runtime/")
        ? { path: file.path, content: file.content }
        : {
            path: file.path,
            content: file.content,
            description: `initialize-era revision ${model.revision}'s ${target.name}, for the legacy sessions of the server (their results are checked against them)`,
          },
    ),
  );
}
