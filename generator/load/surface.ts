import type { Definition, Method, MethodRole } from "../ir/model.js";
import { ModelIndex } from "../ir/query.js";
import { GeneratorError } from "../errors.js";
import { MEMBERSHIP_UNIONS, type MembershipRole } from "../ir/conventions.js";

/**
 * Finds the protocol's methods: each member of a membership union is a message whose `method`
 * literal names it. Each method is one entry: a message in a client union and the matching server
 * union (cancellation, ping) is one role sent by both; a message in unions of two kinds (a server
 * request that is also an input request) one method with both roles.
 */
export function readSurface(index: ModelIndex, file: string): Method[] {
  const methods = new Map<string, Method>();
  for (const [union, role] of Object.entries(MEMBERSHIP_UNIONS)) {
    for (const message of index.unionMembers(union)) {
      const definition = index.get(message);
      if (!definition)
        throw new GeneratorError(
          `\`${union}\` names unknown \`${message}\``,
          file,
          index.get(union)?.line,
        );
      const name = methodName(index, definition, file);
      let existing = methods.get(name);
      if (!existing) methods.set(name, (existing = { method: name, roles: [] }));
      const sameKind = existing.roles.find((r) => r.kind === role.kind);
      if (!sameKind) {
        existing.roles.push(readRole(index, definition, union, role));
        continue;
      }
      if (sameKind.message !== message) {
        throw new GeneratorError(
          `method \`${name}\` is both \`${sameKind.message}\` and \`${message}\``,
          file,
          definition.line,
        );
      }
      sameKind.unions.push(union);
      if (sameKind.sender !== role.sender) sameKind.sender = "both";
    }
  }
  const line = (method: Method) =>
    Math.min(...method.roles.map((role) => index.get(role.message)?.line ?? 0));
  return [...methods.values()].sort((a, b) => line(a) - line(b));
}

function methodName(index: ModelIndex, message: Definition, file: string): string {
  const method = index.property(message.type, "method");
  if (!method || method.type.kind !== "literal" || typeof method.type.value !== "string") {
    throw new GeneratorError(
      `\`${message.name}\` has no string literal \`method\``,
      file,
      message.line,
    );
  }
  return method.type.value;
}

function readRole(
  index: ModelIndex,
  message: Definition,
  union: string,
  role: MembershipRole,
): MethodRole {
  const params = index.property(message.type, "params");
  const pairing = role.resultUnion ? pairResult(index, message, role.resultUnion) : null;
  return {
    kind: role.kind,
    sender: role.sender,
    message: message.name,
    unions: [union],
    params: params?.type ?? null,
    paramsOptional: params?.optional ?? true,
    results: pairing?.results ?? [],
    pairing: pairing?.by ?? null,
    acceptsInputResponses: acceptsInputResponses(index, params?.type ?? null),
    category: message.category,
    deprecated: message.deprecated,
  };
}

/**
 * Which results answer a request, in order of how explicitly the schema says so:
 * 1. a `…ResultResponse`-like message of the same `@category` whose `result` names them;
 * 2. the naming pair `XRequest` → `XResult`;
 * 3. results of the same `@category` in the receiver's result union;
 * 4. the receiver's empty result (the union member that is a bare alias of the base result).
 */
function pairResult(
  index: ModelIndex,
  message: Definition,
  resultUnion: string,
): { results: string[]; by: MethodRole["pairing"] } {
  const receiverResults = index.unionMembers(resultUnion);
  if (message.category !== null) {
    for (const candidate of index.model.definitions) {
      if (candidate.category !== message.category || candidate === message) continue;
      const object = index.objectOf(candidate.type);
      const result = object?.properties.find((p) => p.name === "result");
      if (!result || !object?.properties.some((p) => p.name === "jsonrpc")) continue;
      const results = index.refMembers(result.type);
      if (results) return { results, by: "response" };
    }
  }
  const stem = message.name.replace(/Request$/, "");
  if (stem !== message.name && index.get(`${stem}Result`))
    return { results: [`${stem}Result`], by: "naming" };
  if (message.category !== null) {
    const results = receiverResults.filter(
      (name) => index.get(name)?.category === message.category,
    );
    if (results.length > 0) return { results, by: "category" };
  }
  const empty = receiverResults.find((name) => {
    const definition = index.get(name);
    return (
      definition?.declaration === "type" &&
      definition.type.kind === "ref" &&
      !receiverResults.includes(definition.type.name)
    );
  });
  return empty ? { results: [empty], by: "empty" } : { results: [], by: null };
}

/** Whether the params have a property holding responses keyed like the `InputResponse` union's map. */
function acceptsInputResponses(index: ModelIndex, params: MethodRole["params"]): boolean {
  const inputResponse = MEMBERSHIP_UNIONS["InputRequest"]?.resultUnion;
  if (!inputResponse || !index.get(inputResponse)) return false;
  return (index.objectOf(params)?.properties ?? []).some((property) => {
    const map = index.objectOf(property.type);
    const values = map?.indexSignature?.type;
    return values?.kind === "ref" && values.name === inputResponse;
  });
}
