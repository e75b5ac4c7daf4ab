import type { Target } from "../index.js";
import type { MethodRole, ProtocolModel } from "../../ir/model.js";
import { methodRoles, ModelIndex } from "../../ir/query.js";
import { wireFacts, type WireFacts, type WireRequest } from "../../ir/wire.js";
import { CAPABILITY_TYPES, MEMBERSHIP_UNIONS, WIRE_CONVENTIONS } from "../../ir/conventions.js";
import { jsdoc, key, str } from "../code.js";
import { render, runtimeFile } from "../file.js";
import { deprecatedOnTheWire } from "../deprecations/on-the-wire.js";
import { GeneratorError } from "../../errors.js";
import { featureFacts, type FeatureFacts } from "../../ir/features.js";
import {
  describesProtocol,
  legacyDir,
  legacyHandshakeFields,
  legacyModule,
  serverRequestsLiteral,
} from "../server/target.js";
import { clientEraBridges, type ClientEraBridge } from "../../derive/client-eras.js";

/**
 * The runtime modules a generated client imports, copied verbatim. It also imports `jsonrpc.ts`
 * and `param-headers.ts`, which the server target copies: both targets skip exactly the same
 * schemas (see `emit`).
 */
const CLIENT_RUNTIME = [
  "client.ts",
  "client-core.ts",
  "client-protocol.ts",
  "client-transport.ts",
  "client-errors.ts",
  "client-cache.ts",
  "client-legacy.ts",
  "client-http.ts",
  "client-stdio.ts",
  "line-framer.ts",
  "client-tool-output.ts",
  "json-schema.ts",
];

/**
 * Naming conventions of the client API that the schema does not state.
 * - A method is named after its message: `CallToolRequest` → `callTool`.
 * - An input request's handler option is `on` + its message minus `Request` (`ElicitRequest` →
 *   `onElicit`), unless its client capability names a shorter verb here.
 * - A paginated list method (params with `cursor`, a result with `nextCursor` and one array) also
 *   gets `<name>All`, iterating over every item of every page.
 */
export const CLIENT_CONVENTIONS = {
  handlerVerbs: { sampling: "Sample" } as Readonly<Record<string, string>>,
  cursorParam: "cursor",
  nextCursorField: "nextCursor",
  /** Fields the client fills in itself; callers never pass them. */
  ownParams: ["_meta", "inputResponses", "requestState"],
  /** A definition with these properties is a tool: its listing's annotations become `Mcp-Param-*` headers. */
  toolFields: { name: "name", schema: "inputSchema", arguments: "arguments" },
  /** Members of `McpClient` that a generated method name must not take. */
  reserved: [
    "core",
    "close",
    "connect",
    "listen",
    "notifications",
    "protocolVersion",
    "clearCache",
    "constructor",
  ],
} as const;

/**
 * `client.ts`: `createClient` and a typed method per client→server request of the revision, on the
 * revision-independent core of `runtime/client.ts`, configured by facts derived from the IR.
 */
export const clientTarget: Target = {
  name: "client",
  emit(ctx) {
    const { model } = ctx;
    const wire = wireFacts(model);
    // The server target's condition: the two targets share `runtime/jsonrpc.ts`.
    if (!describesProtocol(model, wire)) return [];
    const index = new ModelIndex(model);
    const defined = (name: string) => model.definitions.some((d) => d.name === name);
    const used = new Set<string>(CLIENT_CONVENTIONS.reserved);
    const methods = wire.requests.map((request) => {
      let name = methodName(request.method.message);
      while (used.has(name)) name = `${name}Request`;
      used.add(name);
      const paging = pagination(index, request, wire);
      return {
        name,
        method: str(request.method.method),
        doc: jsdoc(methodDoc(model, request)),
        params: `ParamsOf<T.${request.method.message}>`,
        optional: !hasRequiredParams(index, request.method),
        result: resultType(request, wire),
        paging,
      };
    });
    for (const m of methods) {
      if (!m.paging) continue;
      let all = `${m.name}All`;
      while (used.has(all)) all = `${all}Items`;
      used.add(all);
      m.paging.name = all;
    }
    const handlers = wire.inputRequests.map((input) => {
      const verb =
        CLIENT_CONVENTIONS.handlerVerbs[input.capability] ?? input.message.replace(/Request$/, "");
      const message = methodRoles(model.methods).find((m) => m.message === input.message);
      const params = message?.paramsOptional
        ? `NonNullable<T.${input.message}["params"]>`
        : `T.${input.message}["params"]`;
      return {
        option: `on${verb}`,
        method: str(input.method),
        params,
        result:
          input.results.length > 0
            ? input.results.map((r) => `T.${r}`).join(" | ")
            : "Record<string, unknown>",
      };
    });
    rejectClashes(
      model,
      wire.inputRequests.map((input, i) => ({
        member: handlers[i]!.option,
        message: input.message,
      })),
      "client option",
    );
    const notificationUnion = Object.entries(MEMBERSHIP_UNIONS).find(
      ([name, role]) => role.kind === "notification" && role.sender === "server" && defined(name),
    )?.[0];
    const listenMethod = wire.listen
      ? methods.find((m) => m.method === str(wire.listen!.method))
      : undefined;
    const protocol = protocolLiteral(model, wire, index, deprecatedOnTheWire(ctx));
    const eras = clientEraBridges(model, ctx.legacy ?? []);
    const legacyEras = `[${eras.map(legacyEraLiteral).join(", ")}]`;
    const content = render("client.ts.hbs", {
      methods,
      handlers,
      protocol,
      legacyEras,
      legacyImports: eras.map((b) => ({
        name: legacyModule(b),
        path: str(`./${legacyDir(b)}/validators.js`),
      })),
      usesAnyOf: protocol.includes("anyOf(") || legacyEras.includes("anyOf("),
      usesValid: protocol.includes("VALID"),
      infoType: defined(WIRE_CONVENTIONS.implementationType)
        ? `T.${WIRE_CONVENTIONS.implementationType}`
        : "Record<string, unknown>",
      capabilitiesType: defined(CAPABILITY_TYPES.client)
        ? `T.${CAPABILITY_TYPES.client}`
        : "Record<string, unknown>",
      notificationType: notificationUnion ? `T.${notificationUnion}` : "JsonRpcNotification",
      usesJsonRpcNotification: !notificationUnion,
      listen: listenMethod
        ? {
            filterKey: str(WIRE_CONVENTIONS.listenFilterParam),
            filterType: `ParamsOf<T.${wire.requests.find((r) => r.method.method === wire.listen!.method)!.method.message}>[${str(WIRE_CONVENTIONS.listenFilterParam)}]`,
          }
        : null,
      ownParams: CLIENT_CONVENTIONS.ownParams.map(str).join(" | "),
    });
    return [
      // Its error classes share names with the schema's error types: a namespace in the entry points.
      {
        path: "client.ts",
        content,
        entry: { platform: "portable", namespace: { name: "client", names: ["createClient"] } },
        description:
          "`createClient({ transport, info })`: a typed method per request; `httpTransport(url)` over `fetch` (runs anywhere)",
      },
      {
        path: "client-node.ts",
        content: render("client-node.ts.hbs", {}),
        entry: { platform: "node" },
        description:
          "`stdioTransport({ command })`: the client over a spawned server process (Node)",
      },
      ...CLIENT_RUNTIME.map((name) => ({ path: `runtime/${name}`, content: runtimeFile(name) })),
    ];
  },
};

/** `CallToolRequest` → `callTool`. */
function methodName(message: string): string {
  const base = message.replace(/Request$/, "") || message;
  return base.charAt(0).toLowerCase() + base.slice(1);
}

function methodDoc(model: ProtocolModel, request: WireRequest): string[] {
  const definition = model.definitions.find((d) => d.name === request.method.message);
  const lines = definition?.doc.text ? [definition.doc.text] : [];
  if (request.method.deprecated) lines.push(`@deprecated ${request.method.deprecated.text}`);
  return lines;
}

function hasRequiredParams(
  index: ModelIndex,
  method: Pick<MethodRole, "params" | "paramsOptional">,
): boolean {
  if (method.params === null || method.paramsOptional) return false;
  const params = index.objectOf(method.params);
  if (!params) return true;
  const own = new Set<string>(CLIENT_CONVENTIONS.ownParams);
  return params.properties.some((p) => !p.optional && !own.has(p.name));
}

/**
 * Two schema messages emitted as one member name would make output that does not compile: a
 * generation error naming both, at the second message's line, instead.
 */
function rejectClashes(
  model: ProtocolModel,
  members: Array<{ member: string; message: string }>,
  what: string,
): void {
  const seen = new Map<string, string>();
  for (const { member, message } of members) {
    const first = seen.get(member);
    if (first !== undefined && first !== message) {
      const line = model.definitions.find((d) => d.name === message)?.line;
      throw new GeneratorError(
        `\`${first}\` and \`${message}\` would both be the ${what} \`${member}\``,
        model.source.file,
        line,
      );
    }
    seen.set(member, message);
  }
}

/** The complete results of a request (the input-required one is the client's business). */
function completeResults(request: WireRequest, wire: WireFacts): string[] {
  return request.method.results.filter((name) => name !== wire.inputRequiredResult);
}

function resultType(request: WireRequest, wire: WireFacts): string {
  const results = completeResults(request, wire);
  return results.length > 0 ? results.map((r) => `T.${r}`).join(" | ") : "Record<string, unknown>";
}

interface Paging {
  name: string;
  items: string;
  itemType: string;
}

function pagination(index: ModelIndex, request: WireRequest, wire: WireFacts): Paging | null {
  if (!index.property(request.method.params, CLIENT_CONVENTIONS.cursorParam)) return null;
  const results = completeResults(request, wire);
  if (results.length !== 1) return null;
  const result = index.objectOf({ kind: "ref", name: results[0]! });
  if (!result?.properties.some((p) => p.name === CLIENT_CONVENTIONS.nextCursorField)) return null;
  const arrays = result.properties.filter((p) => p.type.kind === "array");
  if (arrays.length !== 1) return null;
  const items = arrays[0]!.name;
  return { name: "", items: str(items), itemType: `T.${results[0]}[${str(items)}][number]` };
}

/** The fields of a tool's output schema and of the results it governs, where the revision has them. */
function toolOutputFacts(features: FeatureFacts): string {
  const tools = features.tools;
  if (!tools?.outputSchema || !tools.structuredContent) return "null";
  const cursor = features.cursor ? str(features.cursor.param) : "null";
  return `{ schema: ${str(tools.outputSchema)}, structuredContent: ${str(tools.structuredContent)}, isError: ${str(tools.isError)}, cursor: ${cursor} }`;
}

/** The tool listing and calling methods: the paginated list of definitions with a name and an input schema, and the request of the same family naming one. The server's HTTP header rules use it too; the client's adds the output facts. */
export function toolFacts(index: ModelIndex, wire: WireFacts, withOutput?: FeatureFacts): string {
  const { name, schema, arguments: args } = CLIENT_CONVENTIONS.toolFields;
  for (const request of wire.requests) {
    const paging = pagination(index, request, wire);
    if (!paging) continue;
    const result = index.objectOf({ kind: "ref", name: completeResults(request, wire)[0]! });
    const array = result?.properties.find((p) => p.type.kind === "array");
    const item = array?.type.kind === "array" ? index.objectOf(array.type.items) : null;
    if (
      !array ||
      !item?.properties.some((p) => p.name === schema) ||
      !item.properties.some((p) => p.name === name)
    )
      continue;
    const family = request.method.method.split("/")[0];
    const call = wire.requests.find(
      (r) =>
        r !== request &&
        r.method.method.split("/")[0] === family &&
        r.target === name &&
        index.property(r.method.params, args) !== null,
    );
    if (!call) continue;
    return `{ list: ${str(request.method.method)}, call: ${str(call.method.method)}, items: ${str(array.name)}, name: ${str(name)}, arguments: ${str(args)}, schema: ${str(schema)}${withOutput ? `, output: ${toolOutputFacts(withOutput)}` : ""} }`;
  }
  return "null";
}

const validator = (name: string): string => `checked(V.is${name}, V.validate${name})`;

function resultValidator(results: string[]): string {
  if (results.length === 0) return "() => VALID";
  if (results.length === 1) return validator(results[0]!);
  return `anyOf(${results.map(validator).join(", ")})`;
}

const json = (value: string | number | null): string =>
  value === null ? "null" : typeof value === "string" ? str(value) : String(value);

/**
 * A legacy revision as the client runtime's `LegacyEra` literal: its handshake, and for each modern
 * method it has, the legacy validator its answers are checked against and the fields put back.
 */
function legacyEraLiteral(bridge: ClientEraBridge): string {
  return `{
    ${legacyHandshakeFields(bridge, bridge.methods, (m) => `fill: ${JSON.stringify(m.fill)}`)}
    discover: ${JSON.stringify(bridge.discover)},
    ping: ${json(bridge.ping)},
    serverRequests: {\n${serverRequestsLiteral(bridge)}\n},
    progressTokenKey: ${json(bridge.progressTokenKey)},
    cancelled: ${json(bridge.cancelled)},
  }`;
}

/** The `ClientProtocol` object literal handed to the runtime, as TypeScript source. */
function protocolLiteral(
  model: ProtocolModel,
  wire: WireFacts,
  index: ModelIndex,
  deprecated: string,
): string {
  const { lifecycle } = model;
  const life =
    lifecycle.kind === "stateless"
      ? `{ kind: "stateless", discover: ${str(lifecycle.discover)}, protocolVersionKey: ${str(lifecycle.protocolVersionKey)}, clientCapabilitiesKey: ${str(lifecycle.clientCapabilitiesKey)} }`
      : lifecycle.kind === "stateful"
        ? `{ kind: "stateful", initialize: ${str(lifecycle.initialize)}, initialized: ${json(lifecycle.initialized)} }`
        : "null";
  const methods = wire.requests
    .map(
      (r) =>
        `${key(r.method.method)}: { result: ${resultValidator(completeResults(r, wire))}, inputRequired: ${r.method.acceptsInputResponses}, cacheable: ${r.cacheable}, target: ${json(r.target)} }`,
    )
    .join(",\n");
  const inputRequests = wire.inputRequests
    .map((i) => `${key(i.method)}: { capability: ${str(i.capability)} }`)
    .join(",\n");
  return `{
  revision: ${str(model.revision)},
  protocolVersion: ${str(model.protocolVersion!)},
  lifecycle: ${life},
  methods: {\n${methods}\n},
  inputRequests: {\n${inputRequests}\n},
  inputRequiredResult: ${wire.inputRequiredResult ? validator(wire.inputRequiredResult) : "null"},
  resultTypes: ${wire.resultTypes ? `{ complete: ${str(wire.resultTypes.complete)}, inputRequired: ${str(wire.resultTypes.inputRequired)} }` : "null"},
  errors: { unsupportedVersion: ${json(wire.errors.unsupportedVersion)}, missingCapability: ${json(wire.errors.missingCapability)}, headerMismatch: ${json(wire.errors.headerMismatch)} },
  meta: { clientInfo: ${json(wire.meta.clientInfo)}, progressToken: ${json(wire.meta.progressToken)}, subscriptionId: ${json(wire.meta.subscriptionId)} },
  notifications: { progress: ${json(wire.notifications.progress)}, cancelled: ${json(wire.notifications.cancelled)}, acknowledged: ${json(wire.notifications.acknowledged)} },
  listen: ${wire.listen ? `{ method: ${str(wire.listen.method)} }` : "null"},
  ping: ${wire.ping ? str(wire.ping) : "null"},
  deprecated: ${deprecated},
  tools: ${toolFacts(index, wire, featureFacts(model))},
}`;
}
