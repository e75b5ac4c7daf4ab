import type { Target } from "../index.js";
import type { ProtocolModel } from "../../ir/model.js";
import { wireFacts, type WireFacts, type WireRequest } from "../../ir/wire.js";
import {
  CAPABILITY_TYPES,
  PROTOCOL_VERSION_FIELD,
  WIRE_CONVENTIONS,
} from "../../ir/conventions.js";
import { jsdoc, literal, str } from "../code.js";
import { render, runtimeFile, type EmitContext } from "../file.js";
import { deprecatedOnTheWire } from "../deprecations/on-the-wire.js";
import { toolFacts } from "../client/target.js";
import { ModelIndex } from "../../ir/query.js";
import { featureFacts } from "../../ir/features.js";
import { featureTypes } from "./feature-types.js";
import { eraBridges, type EraBridge } from "../../derive/eras.js";
import { validatorsTarget } from "../validators/target.js";
import { typesTarget } from "../types/target.js";

/** The runtime modules a generated server imports, copied verbatim. */
const SERVER_RUNTIME = [
  "jsonrpc.ts",
  "transport.ts",
  "admission.ts",
  "state.ts",
  "legacy.ts",
  "lifecycle.ts",
  "input-required.ts",
  "subscriptions.ts",
  "dispatch.ts",
  "stdio.ts",
  "line-framer.ts",
  "http.ts",
  "http-headers.ts",
  "param-headers.ts",
  "http-auth.ts",
  "definitions.ts",
  "json-schema.ts",
  "uri-template.ts",
];

/**
 * `server.ts`: a typed handler per client→server request of the revision, and `createServer`, which
 * hands the revision's protocol facts (derived from the IR by `wireFacts`) to the runtime dispatcher.
 */
export const serverTarget: Target = {
  name: "server",
  emit(ctx) {
    const { model, generatorVersion, legacy = [] } = ctx;
    const wire = wireFacts(model);
    if (!describesProtocol(model, wire)) return [];
    const handled = wire.requests.filter((r) => !r.builtIn);
    const handlers = handled.map((request) => ({
      method: str(request.method.method),
      doc: jsdoc(handlerDoc(model, request)),
      params: paramsType(request),
      result: resultType(request, wire),
    }));
    const bridges = eraBridges(model, legacy);
    const protocol = protocolLiteral(model, wire, bridges, deprecatedOnTheWire(ctx));
    const defined = (name: string) =>
      model.definitions.some((d) => d.name === name) ? `T.${name}` : null;
    const content = render("server.ts.hbs", {
      handlers,
      protocol,
      hasInputRequired: wire.inputRequiredResult !== null,
      usesParamsOf: protocol.includes("paramsOf("),
      usesAnyOf: protocol.includes("anyOf("),
      headerRules: headerRules(model, wire),
      features: JSON.stringify(featureFacts(model)),
      types: featureTypes(model),
      stdioOptions: wire.notifications.cancelled
        ? `{ cancelledMethod: ${str(wire.notifications.cancelled)} }`
        : "{}",
      infoType: defined(WIRE_CONVENTIONS.implementationType) ?? 'DispatcherOptions["info"]',
      capabilitiesType: defined(CAPABILITY_TYPES.server) ?? "Record<string, unknown>",
      legacyImports: bridges.map((b) => ({
        name: legacyModule(b),
        path: str(`./${legacyDir(b)}/validators.js`),
      })),
    });
    // Node: the dispatcher seals request state with node:crypto, the transports are node:http and stdio.
    return [
      {
        path: "server.ts",
        content,
        entry: { platform: "node" },
        description:
          "`createServer({ info, capabilities, handlers })`: a typed handler per request; serves stdio or Streamable HTTP (Node)",
      },
      ...SERVER_RUNTIME.map((name) => ({ path: `runtime/${name}`, content: runtimeFile(name) })),
      ...legacy.flatMap((old) => legacyFiles({ ...ctx, model: old, generatorVersion })),
    ];
  },
};

/**
 * Without requests, a recognised lifecycle and a protocol version, a schema describes no protocol to
 * serve or call (the small fixture schemas); every published revision has all three (test/output).
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

function paramsType(request: WireRequest): string {
  const access = `T.${request.method.message}["params"]`;
  return request.method.paramsOptional ? `NonNullable<${access}>` : access;
}

function resultType(request: WireRequest, wire: WireFacts): string {
  const results = request.method.results.map((name) =>
    name === wire.inputRequiredResult ? "InputRequiredAnswer" : `HandlerResult<T.${name}>`,
  );
  return results.length > 0 ? results.join(" | ") : "HandlerResult<Record<string, unknown>>";
}

/** A validator of a request's params: the params type's own when it is named, else the message's. */
function paramsValidator(request: WireRequest): string {
  const params = request.method.params;
  if (params?.kind === "ref") return validator(params.name);
  return `paramsOf(V.validate${request.method.message}, ${str(request.method.method)})`;
}

/** A definition's validator for the runtime: the boolean check first, the detailed one only on failure. */
const validator = (name: string): string => `checked(V.is${name}, V.validate${name})`;

function resultValidator(results: string[]): string {
  if (results.length === 0) return "() => VALID";
  if (results.length === 1) return validator(results[0]!);
  return `anyOf(${results.map(validator).join(", ")})`;
}

const json = (value: unknown): string =>
  value === null ? "null" : typeof value === "string" ? str(value) : JSON.stringify(value);

/** Where a legacy revision's own types and validators go, beside the modern ones. */
export const legacyDir = (bridge: { revision: string }): string => `legacy/${bridge.revision}`;
/** The identifier under which `server.ts` and `client.ts` import a legacy revision's validators. */
export const legacyModule = (bridge: { revision: string }): string =>
  `Legacy${bridge.revision.replace(/[^A-Za-z0-9]/g, "_")}`;

/**
 * A legacy revision's `types.ts` and `validators.ts`, emitted by the same targets as the modern
 * ones, under `legacy/<revision>/`; they share the output's runtime.
 */
function legacyFiles(ctx: EmitContext) {
  const { model } = ctx;
  const dir = legacyDir(model);
  return [typesTarget, validatorsTarget].flatMap((target) =>
    target.emit(ctx).map((file) =>
      // Not entry points: the index re-exports the modern revision's modules only.
      file.path.startsWith("runtime/")
        ? { path: file.path, content: file.content }
        : {
            path: `${dir}/${file.path}`,
            content: file.content.replaceAll('from "./runtime/', 'from "../../runtime/'),
            description: `initialize-era revision ${model.revision}'s ${target.name}, for the legacy sessions of the server (their results are checked against them)`,
          },
    ),
  );
}

/** A legacy revision's validators as source: one definition's, and any of several results'. */
function legacyValidators(bridge: { revision: string }): {
  one: (name: string) => string;
  any: (names: string[]) => string;
} {
  const one = (name: string) =>
    `checked(${legacyModule(bridge)}.is${name}, ${legacyModule(bridge)}.validate${name})`;
  const any = (names: string[]) =>
    names.length === 0
      ? "() => VALID"
      : names.length === 1
        ? one(names[0]!)
        : `anyOf(${names.map(one).join(", ")})`;
  return { one, any };
}

/** The requests a legacy server sends for modern input requests, with the capability each needs and its answer's validator. */
export function serverRequestsLiteral(
  bridge: Pick<EraBridge, "revision" | "serverRequests">,
): string {
  const { any } = legacyValidators(bridge);
  return bridge.serverRequests
    .map(
      (r) => `${str(r.method)}: { capability: ${str(r.capability)}, response: ${any(r.results)} }`,
    )
    .join(",\n");
}

/**
 * The fields both eras' literals open with: the legacy revision, its version and handshake (with
 * its result's validator), and its methods, each given `extra` (the server's `drop`, the client's
 * `fill`) beside its result's validator.
 */
export function legacyHandshakeFields<M extends { method: string; results: string[] }>(
  bridge: Pick<EraBridge, "revision" | "protocolVersion" | "initialize" | "initialized"> & {
    initializeResult: string;
  },
  methods: M[],
  extra: (method: M) => string,
): string {
  const { one, any } = legacyValidators(bridge);
  const entries = methods
    .map((m) => `${str(m.method)}: { result: ${any(m.results)}, ${extra(m)} }`)
    .join(",\n");
  return `revision: ${str(bridge.revision)},
    protocolVersion: ${str(bridge.protocolVersion)},
    initialize: ${str(bridge.initialize)},
    initialized: ${json(bridge.initialized)},
    initializeResult: ${bridge.initializeResult ? one(bridge.initializeResult) : "() => VALID"},
    methods: {\n${entries}\n},`;
}

/** A legacy revision's bridge as the runtime's `LegacyProtocol` literal. */
function legacyLiteral(bridge: EraBridge): string {
  return `{
    ${legacyHandshakeFields(bridge, bridge.shared, (m) => `drop: ${JSON.stringify(m.drop)}`)}
    ping: ${json(bridge.ping)},
    setLevel: ${JSON.stringify(bridge.setLevel)},
    subscribe: ${JSON.stringify(bridge.subscribe)},
    serverRequests: {\n${serverRequestsLiteral(bridge)}\n},
    notifications: ${JSON.stringify(bridge.notifications)},
    metaKeys: ${JSON.stringify(bridge.metaKeys)},
    cancelled: ${json(bridge.cancelled)},
    message: ${json(bridge.message)},
    progress: ${json(bridge.progress)},
  }`;
}

/** The `Protocol` object literal handed to the runtime, as TypeScript source. */
function protocolLiteral(
  model: ProtocolModel,
  wire: WireFacts,
  bridges: EraBridge[],
  deprecated: string,
): string {
  const { lifecycle } = model;
  const methods = wire.requests
    .map(
      (r) =>
        `${str(r.method.method)}: { params: ${paramsValidator(r)}, result: ${resultValidator(r.method.results.filter((name) => name !== wire.inputRequiredResult))}, capability: ${json(r.capability)}, ` +
        `inputRequired: ${r.method.acceptsInputResponses}, cacheable: ${r.cacheable}, target: ${json(r.target)} }`,
    )
    .join(",\n");
  const inputRequests = wire.inputRequests
    .map(
      (i) =>
        `${str(i.method)}: { capability: ${str(i.capability)}, response: ${resultValidator(i.results)} }`,
    )
    .join(",\n");
  const listen = wire.listen
    ? `{ method: ${str(wire.listen.method)}, filter: { ${wire.listen.filter
        .map(
          (f) =>
            `${str(f.key)}: { notification: ${str(f.notification)}, capability: [${str(f.capability[0])}, ${str(f.capability[1])}] }`,
        )
        .join(", ")} } }`
    : "null";
  // JSON-RPC's own invalid-params code stands in where a revision defines no specific error.
  const invalidParams = -32602;
  return `{
  revision: ${str(model.revision)},
  protocolVersion: ${str(model.protocolVersion!)},
  lifecycle: ${JSON.stringify(lifecycle)},
  methods: {\n${methods}\n},
  inputRequests: {\n${inputRequests}\n},
  anyInputResponse: ${wire.inputResponseUnion ? validator(wire.inputResponseUnion) : "() => VALID"},
  inputRequiredResult: ${wire.inputRequiredResult ? validator(wire.inputRequiredResult) : "null"},
  ping: ${json(wire.ping)},
  describe: ${JSON.stringify(wire.describe.fields)},
  resultTypes: ${json(wire.resultTypes)},
  envelope: ${JSON.stringify(wire.envelope.fields)},
  errors: { unsupportedVersion: ${wire.errors.unsupportedVersion ?? invalidParams}, missingCapability: ${wire.errors.missingCapability ?? invalidParams}, headerMismatch: ${json(wire.errors.headerMismatch)} },
  meta: ${JSON.stringify(wire.meta)},
  notifications: { progress: ${json(wire.notifications.progress)}, message: ${json(wire.notifications.message)}, acknowledged: ${json(wire.notifications.acknowledged)} },
  logLevels: [${wire.logLevels.map((l) => literal(l)).join(", ")}],
  handshakeVersionParam: ${str(PROTOCOL_VERSION_FIELD)},
  legacy: [${bridges.map(legacyLiteral).join(", ")}],
  deprecated: ${deprecated},
  listen: ${listen},
}`;
}

/** The revision's HTTP header rules: `Mcp-Name` mirrors each request's target param; `Mcp-Param-*` the annotated tool arguments. */
function headerRules(model: ProtocolModel, wire: WireFacts): string {
  const names = wire.requests
    .filter((r) => r.target !== null)
    .map((r) => `${str(r.method.method)}: ${str(r.target!)}`);
  const fields = [`nameParams: { ${names.join(", ")} }`];
  if (model.lifecycle.kind === "stateless")
    fields.push(`protocolVersionMetaKey: ${str(model.lifecycle.protocolVersionKey)}`);
  if (wire.errors.headerMismatch !== null)
    fields.push(`mismatchCode: ${wire.errors.headerMismatch}`);
  fields.push(`tools: ${toolFacts(new ModelIndex(model), wire)}`);
  return `{ ${fields.join(", ")} }`;
}
