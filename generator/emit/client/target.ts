import type { Target } from "../file.js";
import type { MethodRole, ProtocolModel } from "../../ir/model.js";
import { methodRoles, ModelIndex } from "../../ir/query.js";
import { wireFacts, type WireFacts, type WireRequest } from "../../ir/wire.js";
import { CAPABILITY_TYPES, MEMBERSHIP_UNIONS, WIRE_CONVENTIONS } from "../../ir/conventions.js";
import { code, ident, join, jsdoc, key, str, type Code } from "../code.js";
import { CodeFile } from "../code-file.js";
import { typesModule, validatorsModule } from "../modules.js";
import { RUNTIME } from "../runtime.js";
import { GeneratorError } from "../../errors.js";
import { PROTOCOL_MODULE, protocolOf } from "../protocol/target.js";
import type { ProtocolDescription } from "../../derive/protocol.js";
import { legacyValidators } from "../server/target.js";

/** The runtime modules `client.ts` imports from. */
const MODULES = {
  protocol: RUNTIME.protocol,
  client: RUNTIME.client,
  jsonrpc: RUNTIME.jsonrpc,
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
  /** Members of `McpClient` that a generated method name must not take. */
  reserved: [
    "core",
    "close",
    "connect",
    "listen",
    "notifications",
    "protocolVersion",
    "clearCache",
    "setLogLevel",
    "constructor",
  ],
} as const;

/**
 * `client.ts`: `createClient` and a typed method per client→server request of the revision, on the
 * revision-independent core of `runtime/client/client.ts`, configured by facts derived from the IR.
 */
export const clientTarget: Target = {
  name: "client",
  emit(ctx) {
    const { model } = ctx;
    const wire = wireFacts(model);
    // The server target's condition: the two targets share `runtime/shared/jsonrpc.ts`.
    const description = protocolOf(ctx);
    if (!description) return [];
    const own = ownParams(description);
    const index = new ModelIndex(model);
    const eras = description.eras;
    const file = new CodeFile("client.ts", [
      typesModule().from,
      validatorsModule().from,
      ...eras.map((era) => legacyValidators(era).from),
      PROTOCOL_MODULE.path,
      MODULES.protocol.path,
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
      const paging = pagination(index, request, wire, description.cursor);
      return {
        name,
        wireMethod: request.method.method,
        doc: jsdoc(methodDoc(model, request)),
        params: code`ParamsOf<${t(request.method.message)}>`,
        optional: !hasRequiredParams(index, request.method, own),
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
        key: key(input.method),
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
    // The description, bound to this revision's validators and each era's to its own revision's.
    const bind = [
      file.use(PROTOCOL_MODULE.value("PROTOCOL_DESCRIPTION")),
      file.use(validatorsModule()),
      ...(eras.length > 0
        ? [code`[${join(eras.map((era) => file.use(legacyValidators(era))))}]`]
        : []),
    ];
    const protocol = code`${file.use(MODULES.protocol.value("bindProtocol"))}(${join(bind)})`;
    const legacyEras = eras.length > 0 ? code`CLIENT_PROTOCOL.eras` : code`[]`;
    // A stateless revision sets the log level in each request's metadata, an era by its own
    // request: one typed method for both (a stateful revision has its request as a method).
    const logLevel =
      description.lifecycle.kind === "stateless" &&
      defined(WIRE_CONVENTIONS.logLevelType) &&
      (description.meta.logLevel !== null || eras.some((era) => era.setLevel !== null))
        ? { type: t(WIRE_CONVENTIONS.logLevelType) }
        : null;
    const content = file.render("client.ts.hbs", {
      from: { client: file.from(MODULES.client), clientHttp: file.from(RUNTIME.clientHttp) },
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
          cursor: str(m.paging.cursor),
        },
      })),
      handlers: handlers.map((h) => ({ ...h, option: ident(h.option) })),
      protocol,
      legacyEras,
      infoType,
      capabilitiesType,
      notificationType,
      listen,
      logLevel,
      ownParams: join(own.map(str), code` | `),
      telemetry: ctx.telemetry
        ? file.use(RUNTIME[ctx.telemetry].value("otelClientTelemetry"))
        : null,
    });
    return [
      // Its error classes share names with the schema's error types: a namespace in the entry points.
      {
        path: "client.ts",
        content,
        entry: {
          platform: "portable",
          namespace: { name: "client", names: ["createClient", "httpTransport"] },
        },
        description:
          "`createClient({ transport, info })`: a typed method per request; `httpTransport(url)` over `fetch` (runs anywhere)",
      },
      {
        path: "client-node.ts",
        content: clientNode(),
        entry: { platform: "node" },
        description:
          "`stdioTransport({ command })`: the client over a spawned server process; `nodeFetch()`: `httpTransport`'s requests over `node:http` (Node)",
      },
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

/** The params the client fills in itself, which callers never pass: the metadata and the retry's fields. */
function ownParams(protocol: ProtocolDescription): string[] {
  const { inputResponses, requestState } = protocol.envelope;
  return [WIRE_CONVENTIONS.metaField, inputResponses, requestState].filter(
    (name): name is string => name !== null,
  );
}

function hasRequiredParams(
  index: ModelIndex,
  method: Pick<MethodRole, "params" | "paramsOptional">,
  own: readonly string[],
): boolean {
  if (method.params === null || method.paramsOptional) return false;
  const params = index.objectOf(method.params);
  if (!params) return true;
  return params.properties.some((p) => !p.optional && !own.includes(p.name));
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
  /** The cursor param, which the iterator sets itself. */
  cursor: string;
}

/** A paginated list: params with the revision's cursor param, one complete result with its next cursor and one array. */
function pagination(
  index: ModelIndex,
  request: WireRequest,
  wire: WireFacts,
  cursor: ProtocolDescription["cursor"],
): Paging | null {
  if (!cursor || !index.property(request.method.params, cursor.param)) return null;
  const results = completeResults(request, wire);
  if (results.length !== 1) return null;
  const result = index.objectOf({ kind: "ref", name: results[0]! });
  if (!result?.properties.some((p) => p.name === cursor.result)) return null;
  const arrays = result.properties.filter((p) => p.type.kind === "array");
  if (arrays.length !== 1) return null;
  return { items: arrays[0]!.name, result: results[0]!, cursor: cursor.param };
}

/** `client-node.ts`: the client's transports that need Node, re-exported from the runtime. */
function clientNode(): string {
  const file = new CodeFile("client-node.ts");
  return file.render("client-node.ts.hbs", {
    from: {
      clientStdio: file.from(RUNTIME.clientStdio),
      clientNodeFetch: file.from(RUNTIME.clientNodeFetch),
    },
  });
}
