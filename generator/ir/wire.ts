import type { Property, ProtocolModel, TypeNode } from "./model.js";
import type {
  DescribeSource,
  ProtocolDescription as Description,
} from "../../runtime/shared/protocol.js";
import { methodRoles, ModelIndex, type MethodInRole } from "./query.js";
import {
  cancelledRequestParam,
  handshakeFields,
  logLevelParam,
  notificationParams,
  progressTokenParam,
} from "./message-fields.js";
import {
  CAPABILITY_TYPES,
  MEMBERSHIP_UNIONS,
  PROTOCOL_VERSION_FIELD,
  WIRE_CONVENTIONS,
} from "./conventions.js";

/**
 * The facts a server or client needs to speak a revision on the wire, derived from the model alone:
 * which capability gates each method, which results carry caching hints, the `_meta` keys with a
 * protocol role, the notifications with one, log levels, the subscription filter. Each is found by
 * the shape the schema gives it (a `_meta` key typed `Implementation` names the peer, a notification
 * whose params carry a progress token is the progress notification…), so that a revision renaming
 * one needs no new code; a fact a revision lacks is `null`.
 */
export interface WireFacts {
  /** Client→server requests a handler answers, with what the runtime needs to dispatch them. */
  requests: WireRequest[];
  /**
   * What a server may ask of the client, and the client capability each needs: input requests
   * inside `input_required` results (stateless revisions), or requests the server sends on the
   * wire (stateful revisions).
   */
  inputRequests: Array<{ method: string; message: string; capability: string; results: string[] }>;
  /** The union of every input response, when the schema has one. */
  inputResponseUnion: string | null;
  /** The result asking for input: the one every method accepting input responses may answer with. */
  inputRequiredResult: string | null;
  resultTypes: Description["resultTypes"];
  errors: Description["errors"];
  meta: Description["meta"];
  notifications: Description["notifications"];
  /** The params of the progress and cancellation notifications, by the types the revision gives them. */
  notificationParams: Description["notificationParams"];
  /** The initialize handshake's params and the result field naming the chosen version (stateful revisions). */
  handshake: Description["handshake"];
  /** The discovery result's list of the versions the server supports (stateless revisions). */
  supportedVersionsField: string | null;
  logLevels: string[];
  listen: {
    method: string;
    /** The param holding the filter. */
    filterParam: string;
    /**
     * Per filter key, the notification it opts into; `target`, for a key listing targets (an
     * array), the notification's required string param naming one.
     */
    filter: Array<{
      key: string;
      notification: string;
      capability: [string, string];
      target: string | null;
    }>;
  } | null;
  /** The liveness request both sides send and answer with the empty result, or `null`. */
  ping: string | null;
  /** The result the runtime writes itself to describe the server (discovery or handshake), field by field. */
  describe: DescribeFacts;
  /** The field names the runtime writes (and reads back) around handlers' results, from the revision's own types. */
  envelope: EnvelopeFacts;
}

/**
 * Where the runtime's own fields go in messages no handler writes: the result type every result
 * carries, the input-required result (its map of input requests, its opaque state), the params a
 * retried request brings them back in, the fields of one input request, the caching hints, and the
 * acknowledgement of a listen stream. A name is `null` where the revision has no such field. The
 * runtime's own type: the description carries these as they are.
 */
export type EnvelopeFields = Description["envelope"];

/** The fields of a cacheable result: how long it stays fresh, and who may share it. */
export type CacheHints = NonNullable<EnvelopeFields["cacheHints"]>;

export interface EnvelopeFacts {
  fields: EnvelopeFields;
  /** Required properties the runtime has no value for, in a message it writes itself. */
  unfillable: Array<{ result: string; property: Property }>;
}

/** Where the runtime takes a field of a result it writes itself: the runtime's own type. */
export type { DescribeSource };

export interface DescribeFacts {
  /** Result field → its source, in the result's property order. */
  fields: Record<string, DescribeSource>;
  /** Required properties of a result the runtime writes that it has no source for: the revision cannot be served. */
  unfillable: Array<{ result: string; property: Property }>;
}

export interface WireRequest {
  method: MethodInRole;
  /** The server capability that must be declared for the method to exist, or `null` (always there). */
  capability: string | null;
  cacheable: boolean;
  /** The required string param naming the request's target (`name`, `uri`), or `null`. */
  target: string | null;
  /** True for the requests the runtime answers itself (discovery, handshake, subscriptions). */
  builtIn: boolean;
}

/**
 * Worked out once per model: a run reads them for every target and every era (the default command
 * 38 times for its five models), and a loaded model is never changed.
 */
export function wireFacts(model: ProtocolModel): WireFacts {
  let facts = known.get(model);
  if (!facts) known.set(model, (facts = readWireFacts(model)));
  return facts;
}

const known = new WeakMap<ProtocolModel, WireFacts>();

function readWireFacts(model: ProtocolModel): WireFacts {
  const index = new ModelIndex(model);
  const serverCapabilities = index.objectOf({ kind: "ref", name: CAPABILITY_TYPES.server });
  const clientCapabilities = index.objectOf({ kind: "ref", name: CAPABILITY_TYPES.client });
  const roles = methodRoles(model.methods);
  const notifications = roles.filter((m) => m.kind === "notification");
  const paramsHave = (method: MethodInRole, ...names: string[]) => {
    const params = index.objectOf(method.params);
    return names.every((name) => params?.properties.some((p) => p.name === name));
  };
  // Each `_meta` is read where the schema puts it: on the params of requests and notifications, and
  // on results; a revision may name it (`RequestMetaObject`) or write it inline.
  const metaOf = (types: Array<TypeNode | null>) => {
    for (const type of types) {
      const meta = index.objectOf(index.property(type, WIRE_CONVENTIONS.metaField)?.type);
      if (meta) return meta;
    }
    return null;
  };
  const requestMeta = metaOf(
    roles.filter((m) => m.kind === "request" && m.sender !== "server").map((m) => m.params),
  );
  const notificationMeta = metaOf(
    roles.filter((m) => m.kind === "notification").map((m) => m.params),
  );
  const resultMeta = metaOf(
    roles.flatMap((m) => m.results.map((name): TypeNode => ({ kind: "ref", name }))),
  );
  const metaKey = (meta: ReturnType<typeof metaOf>, valueType: string): string | null =>
    meta?.properties.find((p) => refersTo(p.type, valueType))?.name ?? null;
  const conventions = WIRE_CONVENTIONS;
  const hints = cacheHints(index);

  const listen =
    roles.find(
      (m) =>
        m.kind === "request" &&
        m.sender !== "server" &&
        paramsHave(m, conventions.listenFilterParam),
    ) ?? null;
  const capabilityOf = (method: string): string | null => {
    const segment = method.split("/")[0]!;
    // `tools/list` is gated by `tools`, `completion/complete` by `completions`.
    return (
      serverCapabilities?.properties.find((p) => p.name === segment || p.name === `${segment}s`)
        ?.name ?? null
    );
  };
  const lifecycleMethods = new Set(
    model.lifecycle.kind === "stateless"
      ? [model.lifecycle.discover]
      : model.lifecycle.kind === "stateful"
        ? [model.lifecycle.initialize]
        : [],
  );

  const requests = roles
    .filter((m) => m.kind === "request" && m.sender !== "server")
    .map((method) => ({
      method,
      capability: capabilityOf(method.method),
      cacheable:
        hints !== null &&
        method.results.some((result) =>
          [hints.ttl, hints.scope].every(
            (field) => index.property({ kind: "ref", name: result }, field)?.optional === false,
          ),
        ),
      target:
        conventions.targetParams.find((name) => {
          const param = index.property(method.params, name);
          return param !== null && !param.optional && param.type.kind === "string";
        }) ?? null,
      builtIn: lifecycleMethods.has(method.method) || method === listen,
    }));

  // A method the server may both send on the wire and ask for inside results is one input request.
  const inputRequests: WireFacts["inputRequests"] = [];
  for (const m of roles.filter(
    (r) => r.kind === "inputRequest" || (r.kind === "request" && r.sender !== "client"),
  )) {
    const capability = m.method.split("/")[0]!;
    if (!clientCapabilities?.properties.some((p) => p.name === capability)) continue;
    const known = inputRequests.find((i) => i.method === m.method);
    if (known) known.results.push(...m.results.filter((r) => !known.results.includes(r)));
    else
      inputRequests.push({
        method: m.method,
        message: m.message,
        capability,
        results: [...m.results],
      });
  }

  const resultTypeValues = literalValues(index.get(conventions.resultTypeDefinition)?.type ?? null);
  const constant = (name: string) => {
    const value = model.constants.find((c) => c.name === name)?.value;
    return typeof value === "number" ? value : null;
  };

  // The progress notification names its request by a progress token, the cancellation by a request id.
  const progress = notifications.find((n) => progressTokenParam(index, n) !== null);
  const cancelled = notifications.find((n) => cancelledRequestParam(index, n) !== null);
  const message = notifications.find((n) => logLevelParam(index, n) !== null);
  const describe = describeFacts(model, index);

  let listenFacts: WireFacts["listen"] = null;
  if (listen) {
    const filterType = index.property(listen.params, conventions.listenFilterParam)?.type ?? null;
    const filter = index.objectOf(filterType);
    const byMessage = new Map(notifications.map((n) => [n.message, n]));
    listenFacts = {
      method: listen.method,
      filterParam: conventions.listenFilterParam,
      filter: (filter?.properties ?? []).flatMap((property) => {
        // The filter's docs link the notification each key opts into.
        const linked = /\{@link\s+([A-Za-z0-9_]+)/.exec(property.doc.text)?.[1];
        const role = linked ? byMessage.get(linked) : undefined;
        if (!role) return [];
        const notification = role.method;
        const target =
          property.type.kind === "array"
            ? (index
                .objectOf(role.params)
                ?.properties.find((p) => !p.optional && p.type.kind === "string")?.name ?? null)
            : null;
        const capability = capabilityOf(notification.split("/").slice(1).join("/"));
        const flag = conventions.subscriptionFlags[notification.split("/").pop()!];
        return capability && flag
          ? [
              {
                key: property.name,
                notification,
                capability: [capability, flag] as [string, string],
                target,
              },
            ]
          : [];
      }),
    };
  }

  return {
    requests,
    inputRequests,
    inputResponseUnion: index.get(conventions.inputResponseUnion)
      ? conventions.inputResponseUnion
      : null,
    inputRequiredResult: sharedResult(roles.filter((m) => m.acceptsInputResponses)),
    resultTypes:
      resultTypeValues.includes(conventions.resultTypes.complete) &&
      resultTypeValues.includes(conventions.resultTypes.inputRequired)
        ? { ...conventions.resultTypes }
        : null,
    errors: {
      unsupportedVersion: constant(conventions.errorConstants.unsupportedVersion),
      missingCapability: constant(conventions.errorConstants.missingCapability),
      headerMismatch: constant(conventions.errorConstants.headerMismatch),
    },
    meta: {
      serverInfo: metaKey(resultMeta, conventions.implementationType),
      clientInfo: metaKey(requestMeta, conventions.implementationType),
      progressToken: metaKey(requestMeta, conventions.progressTokenType),
      logLevel: metaKey(requestMeta, conventions.logLevelType),
      subscriptionId: metaKey(notificationMeta, conventions.requestIdType),
    },
    notifications: {
      progress: progress?.method ?? null,
      message: message?.method ?? null,
      acknowledged:
        notifications.find((n) => paramsHave(n, conventions.listenFilterParam))?.method ?? null,
      cancelled: cancelled?.method ?? null,
    },
    notificationParams: notificationParams(index, progress, cancelled, message),
    handshake: handshakeFields(model, index, roles, describe.fields),
    supportedVersionsField:
      Object.entries(describe.fields).find(([, source]) => source === "supportedVersions")?.[0] ??
      null,
    logLevels: literalValues(index.get(conventions.logLevelType)?.type ?? null),
    listen: listenFacts,
    ping: pingMethod(model),
    describe,
    envelope: envelopeFacts(model, index),
  };
}

/**
 * The envelope's field names, each found by what its type holds: the result type by its
 * definition, the input requests and responses as the maps whose values are the input-request
 * union and its result union, the state as the string the input-required result and the retried
 * params share. Then every other required field of those messages (and of the listen result,
 * which the runtime writes when it ends a stream) is reported: nothing could fill it.
 */
export function envelopeFacts(model: ProtocolModel, index = new ModelIndex(model)): EnvelopeFacts {
  const roles = methodRoles(model.methods);
  const conventions = WIRE_CONVENTIONS;
  const resultType =
    roles
      .flatMap((m) => m.results)
      .flatMap((result) => index.objectOf({ kind: "ref", name: result })?.properties ?? [])
      .find((p) => refersTo(p.type, conventions.resultTypeDefinition))?.name ?? null;
  const mapOf = (properties: Property[], union: string | null | undefined) =>
    union
      ? (properties.find((p) =>
          refersTo(index.objectOf(p.type)?.indexSignature?.type ?? { kind: "null" }, union),
        ) ?? null)
      : null;

  const inputUnion = Object.entries(MEMBERSHIP_UNIONS).find(
    ([, role]) => role.kind === "inputRequest",
  );
  const accepting = roles.filter((m) => m.acceptsInputResponses);
  const requiredName = sharedResult(accepting);
  const requiredResult =
    index.objectOf(requiredName ? { kind: "ref", name: requiredName } : null)?.properties ?? [];
  const retryParams = index.objectOf(accepting[0]?.params ?? null)?.properties ?? [];
  const inputRequests = mapOf(requiredResult, inputUnion?.[0]);
  const inputResponses = mapOf(retryParams, inputUnion?.[1].resultUnion);
  const requestState =
    requiredResult.find(
      (p) =>
        p.type.kind === "string" &&
        retryParams.some((q) => q.name === p.name && q.type.kind === "string"),
    ) ?? null;

  const listenMethod = roles.find(
    (m) =>
      m.kind === "request" &&
      m.sender !== "server" &&
      index.property(m.params, conventions.listenFilterParam),
  );
  const acknowledged = roles.find(
    (m) => m.kind === "notification" && index.property(m.params, conventions.listenFilterParam),
  );
  const acknowledgedFilter = acknowledged ? conventions.listenFilterParam : null;

  const fields: EnvelopeFields = {
    meta: conventions.metaField,
    resultType,
    inputRequests: inputRequests?.name ?? null,
    requestState: requestState?.name ?? null,
    inputResponses: inputResponses?.name ?? null,
    inputRequest: inputRequestFields(roles, index),
    cacheHints: cacheHints(index),
    acknowledgedFilter,
  };
  const unfillable: EnvelopeFacts["unfillable"] = [];
  const written = [
    {
      name: requiredName,
      properties: requiredResult,
      filled: [fields.inputRequests, fields.requestState],
    },
    ...(listenMethod?.results ?? []).map((name) => ({
      name,
      properties: index.objectOf({ kind: "ref", name })?.properties ?? [],
      filled: [],
    })),
    {
      name: acknowledged
        ? acknowledged.params?.kind === "ref"
          ? acknowledged.params.name
          : acknowledged.message
        : null,
      properties: index.objectOf(acknowledged?.params ?? null)?.properties ?? [],
      filled: [acknowledgedFilter],
    },
  ];
  for (const { name, properties, filled } of written) {
    if (!name) continue;
    for (const property of properties) {
      if (property.optional || runtimeAdded(property) || filled.includes(property.name)) continue;
      unfillable.push({ result: name, property });
    }
  }
  return { fields, unfillable };
}

/**
 * The fields of an input request as its message lays them out: the one holding the method's own
 * name as a literal, and the one typed as its params.
 */
function inputRequestFields(
  roles: MethodInRole[],
  index: ModelIndex,
): EnvelopeFields["inputRequest"] {
  for (const role of roles.filter((r) => r.kind === "inputRequest" && r.params !== null)) {
    const properties = index.objectOf({ kind: "ref", name: role.message })?.properties ?? [];
    const method = properties.find(
      (p) => p.type.kind === "literal" && p.type.value === role.method,
    );
    const params = properties.find((p) => JSON.stringify(p.type) === JSON.stringify(role.params));
    if (method && params) return { method: method.name, params: params.name };
  }
  return null;
}

/**
 * The caching hints: the fields the cacheable result declares itself (inherited ones are every
 * result's), the lifetime as its number and the scope as its literal choice.
 */
export function cacheHints(index: ModelIndex): CacheHints | null {
  const name = WIRE_CONVENTIONS.cacheableResult;
  const own = index
    .objectOf({ kind: "ref", name })
    ?.properties.filter((p) => p.declaredIn === name);
  const ttl = own?.find((p) => p.type.kind === "number");
  const scope = own?.find(
    (p) => p.type.kind === "union" && p.type.members.every((m) => m.kind === "literal"),
  );
  if (!ttl || !scope || scope.type.kind !== "union") return null;
  // What "not cacheable" is the schema cannot say (the docs do): the conventions table; the shared
  // scope is then the one other choice the schema's union offers.
  const { uncached } = WIRE_CONVENTIONS;
  const others = scope.type.members.flatMap((m) =>
    m.kind === "literal" && m.value !== uncached.scope ? [String(m.value)] : [],
  );
  return {
    ttl: ttl.name,
    scope: scope.name,
    uncached: { ttl: uncached.ttl, scope: uncached.scope },
    sharedScope: others.length === 1 ? others[0]! : null,
  };
}

function pingMethod(model: ProtocolModel): string | null {
  return (
    methodRoles(model.methods).find(
      (m) => m.kind === "request" && m.sender === "both" && m.pairing === "empty",
    )?.method ?? null
  );
}

/**
 * The results the runtime answers with on its own, rather than a handler: the lifecycle request's
 * (discovery or handshake) and the liveness request's. Each field of the first is matched to what
 * fills it by its type or role: the server's capabilities and identity from the options, the
 * versions the server accepts, the negotiated version, the caching hints, the instructions. A
 * required field nothing can fill (in either result) is reported, so that generation fails rather
 * than emit a server that breaks its own validators.
 */
export function describeFacts(model: ProtocolModel, index = new ModelIndex(model)): DescribeFacts {
  const lifecycleMethod =
    model.lifecycle.kind === "stateless"
      ? model.lifecycle.discover
      : model.lifecycle.kind === "stateful"
        ? model.lifecycle.initialize
        : null;
  const written = [
    { method: lifecycleMethod, describes: true },
    { method: pingMethod(model), describes: false },
  ];
  const fields: Record<string, DescribeSource> = {};
  const unfillable: DescribeFacts["unfillable"] = [];
  for (const { method, describes } of written) {
    const entry = methodRoles(model.methods).find(
      (m) => m.method === method && m.kind === "request",
    );
    for (const result of entry?.results ?? []) {
      for (const property of index.objectOf({ kind: "ref", name: result })?.properties ?? []) {
        if (runtimeAdded(property)) continue;
        const source = describes ? describeSource(property, cacheHints(index)) : null;
        if (source) fields[property.name] = source;
        else if (!property.optional) unfillable.push({ result, property });
      }
    }
  }
  return { fields, unfillable };
}

/** `_meta` and the result type the runtime adds to every result it sends. */
function runtimeAdded(property: Property): boolean {
  return (
    property.name === WIRE_CONVENTIONS.metaField ||
    refersTo(property.type, WIRE_CONVENTIONS.resultTypeDefinition)
  );
}

function describeSource(property: Property, hints: CacheHints | null): DescribeSource | null {
  const { type, name } = property;
  if (refersTo(type, CAPABILITY_TYPES.server)) return "capabilities";
  if (refersTo(type, WIRE_CONVENTIONS.implementationType)) return "info";
  // The negotiated version; a revision may pin it to its own (`typeof LATEST_PROTOCOL_VERSION`).
  if (name === PROTOCOL_VERSION_FIELD && (type.kind === "string" || type.kind === "literal"))
    return "protocolVersion";
  if (type.kind === "array" && type.items.kind === "string" && /versions$/i.test(name))
    return "supportedVersions";
  if (name === hints?.ttl) return "cacheTtl";
  if (name === hints?.scope) return "cacheScope";
  if (name === WIRE_CONVENTIONS.instructionsField && type.kind === "string") return "instructions";
  return null;
}

function refersTo(type: TypeNode, name: string): boolean {
  return type.kind === "ref" && type.name === name;
}

function literalValues(type: TypeNode | null): string[] {
  if (!type) return [];
  const members = type.kind === "union" ? type.members : [type];
  return members.flatMap((m) =>
    m.kind === "literal" && typeof m.value === "string" ? [m.value] : [],
  );
}

function sharedResult(methods: MethodInRole[]): string | null {
  // With a single such method its own result would pass for the shared one.
  if (methods.length < 2) return null;
  const [first, ...rest] = methods;
  return first!.results.find((result) => rest.every((m) => m.results.includes(result))) ?? null;
}
