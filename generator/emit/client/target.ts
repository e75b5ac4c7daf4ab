import type { Target } from "../index.js";
import type { MethodRole, ProtocolModel } from "../../ir/model.js";
import { methodRoles, ModelIndex } from "../../ir/query.js";
import { wireFacts, type WireFacts, type WireRequest } from "../../ir/wire.js";
import { CAPABILITY_TYPES, MEMBERSHIP_UNIONS, WIRE_CONVENTIONS } from "../../ir/conventions.js";
import { code, ident, join, jsdoc, json, key, nothing, str, type Code } from "../code.js";
import { CodeFile } from "../code-file.js";
import { runtimeModule, typesModule, validatorsModule } from "../modules.js";
import { CheckCode, CHECKS_RUNTIME } from "../checks.js";
import { runtimeFile } from "../file.js";
import { deprecatedOnTheWire } from "../deprecations/on-the-wire.js";
import { GeneratorError } from "../../errors.js";
import { featureFacts, type FeatureFacts } from "../../ir/features.js";
import {
  describesProtocol,
  legacyHandshakeFields,
  legacyValidators,
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
  CHECKS_RUNTIME,
];

/** The runtime modules `client.ts` imports from. */
const MODULES = {
  client: runtimeModule("client.ts"),
  jsonrpc: runtimeModule("jsonrpc.ts"),
} as const;

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
    const eras = clientEraBridges(model, ctx.legacy ?? []);
    const file = new CodeFile("client.ts", [
      typesModule().from,
      validatorsModule().from,
      ...eras.map((era) => legacyValidators(era).from),
      MODULES.client.path,
      MODULES.jsonrpc.path,
    ]);
    const t = (name: string): Code => code`${file.use(typesModule())}.${ident(name)}`;
    // The runtime names the text of `client.ts.hbs` itself uses.
    file.use(MODULES.client.value("ClientCore"));
    for (const name of [
      "CallOptions",
      "ClientProtocol",
      "ConnectOutcome",
      "CoreOptions",
      "LegacyEra",
    ])
      file.use(MODULES.client.type(name));
    const defined = (name: string) => model.definitions.some((d) => d.name === name);
    const used = new Set<string>(CLIENT_CONVENTIONS.reserved);
    const methods = wire.requests.map((request) => {
      let name = methodName(request.method.message);
      while (used.has(name)) name = `${name}Request`;
      used.add(name);
      const paging = pagination(index, request, wire);
      return {
        name,
        wireMethod: request.method.method,
        doc: jsdoc(methodDoc(model, request)),
        params: code`ParamsOf<${t(request.method.message)}>`,
        optional: !hasRequiredParams(index, request.method),
        result: resultType(t, request, wire),
        paging,
      };
    });
    const pagedNames = methods.map((m) => {
      if (!m.paging) return null;
      let all = `${m.name}All`;
      while (used.has(all)) all = `${all}Items`;
      used.add(all);
      return all;
    });
    const handlers = wire.inputRequests.map((input) => {
      const verb =
        CLIENT_CONVENTIONS.handlerVerbs[input.capability] ?? input.message.replace(/Request$/, "");
      const message = methodRoles(model.methods).find((m) => m.message === input.message);
      const params = message?.paramsOptional
        ? code`NonNullable<${t(input.message)}["params"]>`
        : code`${t(input.message)}["params"]`;
      return {
        option: `on${verb}`,
        method: str(input.method),
        params,
        result:
          input.results.length > 0
            ? join(input.results.map(t), code` | `)
            : code`Record<string, unknown>`,
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
      ? methods.find((m) => m.wireMethod === wire.listen!.method)
      : undefined;
    const listen = listenMethod
      ? {
          filterKey: str(WIRE_CONVENTIONS.listenFilterParam),
          filterType: code`ParamsOf<${t(wire.requests.find((r) => r.method.method === wire.listen!.method)!.method.message)}>[${WIRE_CONVENTIONS.listenFilterParam}]`,
          stream: file.use(MODULES.client.type("ListenStream")),
        }
      : null;
    const infoType = defined(WIRE_CONVENTIONS.implementationType)
      ? t(WIRE_CONVENTIONS.implementationType)
      : code`Record<string, unknown>`;
    const capabilitiesType = defined(CAPABILITY_TYPES.client)
      ? t(CAPABILITY_TYPES.client)
      : code`Record<string, unknown>`;
    const notificationType = notificationUnion
      ? t(notificationUnion)
      : file.use(MODULES.jsonrpc.type("JsonRpcNotification"));
    const protocol = protocolLiteral(
      model,
      wire,
      index,
      deprecatedOnTheWire(ctx),
      new CheckCode(file, validatorsModule()),
    );
    const legacyEras = code`[${join(
      eras.map((era) => legacyEraLiteral(era, new CheckCode(file, legacyValidators(era)))),
    )}]`;
    const content = file.render("client.ts.hbs", {
      methods: methods.map((m, i) => ({
        name: ident(m.name),
        method: str(m.wireMethod),
        doc: m.doc,
        params: m.params,
        optional: m.optional,
        result: m.result,
        paging: m.paging && {
          name: ident(pagedNames[i]!),
          items: str(m.paging.items),
          itemType: code`${t(m.paging.result)}[${m.paging.items}][number]`,
        },
      })),
      handlers: handlers.map((h) => ({ ...h, option: ident(h.option) })),
      protocol,
      legacyEras,
      infoType,
      capabilitiesType,
      notificationType,
      listen,
      ownParams: join(CLIENT_CONVENTIONS.ownParams.map(str), code` | `),
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
        content: new CodeFile("client-node.ts").render("client-node.ts.hbs", {}),
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

function resultType(t: (name: string) => Code, request: WireRequest, wire: WireFacts): Code {
  const results = completeResults(request, wire);
  return results.length > 0 ? join(results.map(t), code` | `) : code`Record<string, unknown>`;
}

/** A paginated list request: its result's array field, and the result type. */
interface Paging {
  items: string;
  result: string;
}

function pagination(index: ModelIndex, request: WireRequest, wire: WireFacts): Paging | null {
  if (!index.property(request.method.params, CLIENT_CONVENTIONS.cursorParam)) return null;
  const results = completeResults(request, wire);
  if (results.length !== 1) return null;
  const result = index.objectOf({ kind: "ref", name: results[0]! });
  if (!result?.properties.some((p) => p.name === CLIENT_CONVENTIONS.nextCursorField)) return null;
  const arrays = result.properties.filter((p) => p.type.kind === "array");
  if (arrays.length !== 1) return null;
  return { items: arrays[0]!.name, result: results[0]! };
}

/** The fields of a tool's output schema and of the results it governs, where the revision has them. */
function toolOutputFacts(features: FeatureFacts): Code {
  const tools = features.tools;
  if (!tools?.outputSchema || !tools.structuredContent) return code`null`;
  const cursor = features.cursor ? features.cursor.param : null;
  return code`{ schema: ${tools.outputSchema}, structuredContent: ${tools.structuredContent}, isError: ${tools.isError}, cursor: ${cursor} }`;
}

/** The tool listing and calling methods: the paginated list of definitions with a name and an input schema, and the request of the same family naming one. The server's HTTP header rules use it too; the client's adds the output facts. */
export function toolFacts(index: ModelIndex, wire: WireFacts, withOutput?: FeatureFacts): Code {
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
    const output = withOutput ? code`, output: ${toolOutputFacts(withOutput)}` : nothing;
    return code`{ list: ${request.method.method}, call: ${call.method.method}, items: ${array.name}, name: ${name}, arguments: ${args}, schema: ${schema}${output} }`;
  }
  return code`null`;
}

/**
 * A legacy revision as the client runtime's `LegacyEra` literal: its handshake, and for each modern
 * method it has, the legacy check its answers go through and the fields put back.
 */
function legacyEraLiteral(bridge: ClientEraBridge, checks: CheckCode): Code {
  const handshake = legacyHandshakeFields(
    bridge,
    bridge.methods,
    (m) => code`fill: ${json(m.fill)}`,
    checks,
  );
  return code`{
    ${handshake}
    discover: ${json(bridge.discover)},
    ping: ${bridge.ping},
    serverRequests: ${serverRequestsLiteral(bridge, checks)},
    progressTokenKey: ${bridge.progressTokenKey},
    cancelled: ${bridge.cancelled},
  }`;
}

/** The `ClientProtocol` object literal handed to the runtime, as TypeScript source. */
function protocolLiteral(
  model: ProtocolModel,
  wire: WireFacts,
  index: ModelIndex,
  deprecated: Code,
  checks: CheckCode,
): Code {
  const { lifecycle } = model;
  const life =
    lifecycle.kind === "stateless"
      ? code`{ kind: "stateless", discover: ${lifecycle.discover}, protocolVersionKey: ${lifecycle.protocolVersionKey}, clientCapabilitiesKey: ${lifecycle.clientCapabilitiesKey} }`
      : lifecycle.kind === "stateful"
        ? code`{ kind: "stateful", initialize: ${lifecycle.initialize}, initialized: ${lifecycle.initialized} }`
        : code`null`;
  const methods = wire.requests.map(
    (r) =>
      code`${key(r.method.method)}: { result: ${checks.anyOf(completeResults(r, wire))}, inputRequired: ${r.method.acceptsInputResponses}, cacheable: ${r.cacheable}, target: ${r.target} }`,
  );
  const inputRequests = wire.inputRequests.map(
    (i) => code`${key(i.method)}: { capability: ${i.capability} }`,
  );
  const resultTypes = wire.resultTypes
    ? code`{ complete: ${wire.resultTypes.complete}, inputRequired: ${wire.resultTypes.inputRequired} }`
    : code`null`;
  return code`{
  revision: ${model.revision},
  protocolVersion: ${model.protocolVersion!},
  lifecycle: ${life},
  methods: {\n${join(methods, code`,\n`)}\n},
  inputRequests: {\n${join(inputRequests, code`,\n`)}\n},
  inputRequiredResult: ${wire.inputRequiredResult ? checks.of(wire.inputRequiredResult) : null},
  resultTypes: ${resultTypes},
  errors: { unsupportedVersion: ${wire.errors.unsupportedVersion}, missingCapability: ${wire.errors.missingCapability}, headerMismatch: ${wire.errors.headerMismatch} },
  meta: { clientInfo: ${wire.meta.clientInfo}, progressToken: ${wire.meta.progressToken}, subscriptionId: ${wire.meta.subscriptionId} },
  notifications: { progress: ${wire.notifications.progress}, cancelled: ${wire.notifications.cancelled}, acknowledged: ${wire.notifications.acknowledged} },
  listen: ${wire.listen ? code`{ method: ${wire.listen.method} }` : null},
  ping: ${wire.ping},
  deprecated: ${deprecated},
  tools: ${toolFacts(index, wire, featureFacts(model))},
}`;
}
