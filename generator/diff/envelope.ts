import type { Definition, Property, ProtocolModel, TypeNode } from "../ir/model.js";
import { CONSTANT_ROLES, WIRE_CONVENTIONS } from "../ir/conventions.js";
import { methodRoles } from "../ir/query.js";

/**
 * The JSON-RPC envelope of a revision: the definitions that frame a message on the wire (those
 * declaring the `jsonrpc` version field themselves: `JSONRPCRequest`, `JSONRPCNotification`, the
 * responses), and the framing fields they declare: the version, and the request id.
 */
export interface Envelope {
  definitions: ReadonlySet<string>;
  fields: ReadonlySet<string>;
}

/** Whether a type is the JSON-RPC version: the version constant (`typeof JSONRPC_VERSION`) or its value. */
function isVersion(type: TypeNode, model: ProtocolModel): boolean {
  if (type.kind !== "literal") return false;
  if (type.constant !== null) return CONSTANT_ROLES.jsonrpcVersion.test(type.constant);
  return model.jsonrpcVersion !== null && type.value === model.jsonrpcVersion;
}

/** Whether a type is the request id (`RequestId`, possibly with `null` beside it, as some revisions' errors have it). */
function isRequestId(type: TypeNode): boolean {
  if (type.kind === "ref") return type.name === WIRE_CONVENTIONS.requestIdType;
  return (
    type.kind === "union" &&
    type.members.some(isRequestId) &&
    type.members.every((m) => m.kind === "null" || isRequestId(m))
  );
}

/** A property that frames a message: the version field, or the request id. */
function isFraming(property: Property, model: ProtocolModel): boolean {
  return isVersion(property.type, model) || isRequestId(property.type);
}

/** The envelope definitions and fields of a model, found by the version field's type alone. */
export function envelopeOf(model: ProtocolModel): Envelope {
  const messages = new Set(methodRoles(model.methods).map((role) => role.message));
  const definitions = new Set<string>();
  const fields = new Set<string>();
  for (const definition of model.definitions) {
    if (definition.type.kind !== "object" || messages.has(definition.name)) continue;
    const own = definition.type.properties.filter((p) => p.declaredIn === definition.name);
    if (!own.some((p) => isVersion(p.type, model))) continue;
    definitions.add(definition.name);
    for (const property of own) if (isFraming(property, model)) fields.add(property.name);
  }
  return { definitions, fields };
}

/**
 * The model as the diff compares it: every definition other than the envelope's own without the
 * fields it takes from the envelope (through `extends` or `Omit<>`), and every method's message
 * without the framing fields it spells out itself.
 *
 * Why: a revision that makes its messages extend `JSONRPCRequest` instead of `Request` changes
 * nothing on the wire, where every request always carried `jsonrpc` and `id`; compared as written,
 * each message would show "required property `jsonrpc` added". The envelope is compared once, at
 * the definitions that declare it (a changed id type shows at `JSONRPCRequest.id`), and a message
 * that stops or starts travelling as a JSON-RPC message of its own (a request becoming an input
 * request) is the method rules' `method-kind-changed`, not one entry per framing field.
 */
export function withoutEnvelope(model: ProtocolModel): ProtocolModel {
  const envelope = envelopeOf(model);
  if (envelope.definitions.size === 0) return model;
  const messages = new Set(methodRoles(model.methods).map((role) => role.message));
  // Whatever a definition takes from the envelope is the envelope's, whatever its type says; a
  // field a message declares itself is framing only by its name and type.
  const framing = (definition: Definition, property: Property): boolean =>
    (property.declaredIn !== null && envelope.definitions.has(property.declaredIn)) ||
    (messages.has(definition.name) &&
      envelope.fields.has(property.name) &&
      isFraming(property, model));
  const definitions = model.definitions.map((definition): Definition => {
    const type = definition.type;
    if (type.kind !== "object" || envelope.definitions.has(definition.name)) return definition;
    const kept = type.properties.filter((p) => !framing(definition, p));
    if (kept.length === type.properties.length) return definition;
    return { ...definition, type: { ...type, properties: kept } };
  });
  return { ...model, definitions };
}
