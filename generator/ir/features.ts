import type { ProtocolModel, TypeNode } from "./model.js";
import { methodRoles, ModelIndex, type MethodInRole as Method } from "./query.js";
import { FEATURE_CONVENTIONS } from "./conventions.js";
import { wireFacts } from "./wire.js";
import type { Features } from "../../runtime/server/definitions.js";

/**
 * What the runtime's definitions layer (`runtime/server/definitions.ts`) needs to serve tools,
 * resources, resource templates, prompts and completions from definitions: each feature's methods,
 * the field its list carries, the cursor fields, the notification announcing a changed list, and
 * the names of the fields it reads and writes. Read from the model; a feature the revision lacks
 * (or lacks a field of) is `null`. The shape is the runtime's own `Features`, emitted as JSON.
 */
export type FeatureFacts = Features;

/** Worked out once per model, as `wireFacts` is. */
export function featureFacts(model: ProtocolModel): FeatureFacts {
  let facts = known.get(model);
  if (!facts) known.set(model, (facts = readFeatureFacts(model)));
  return facts;
}

const known = new WeakMap<ProtocolModel, FeatureFacts>();

function readFeatureFacts(model: ProtocolModel): FeatureFacts {
  const index = new ModelIndex(model);
  const wire = wireFacts(model);
  const conventions = FEATURE_CONVENTIONS;
  const roles = methodRoles(model.methods);
  const byMessage = (name: string): Method | null => roles.find((m) => m.message === name) ?? null;
  const capabilityOf = (method: string) =>
    wire.requests.find((r) => r.method.method === method)?.capability ?? null;
  const ref = (name: string): TypeNode => ({ kind: "ref", name });
  /** The name if the type has that property, else null. */
  const has = (type: TypeNode | null | undefined, name: string): string | null =>
    index.property(type, name) ? name : null;
  /** The first result type of a method that has the property. */
  const resultWith = (method: Method, name: string): TypeNode | null =>
    method.results.map(ref).find((result) => index.property(result, name)) ?? null;
  const isCursor = (type: TypeNode) => type.kind === "ref" && type.name === conventions.cursorType;
  /** A list request's item field: the one array property of its result. */
  const listItems = (method: Method | null): string | null => {
    if (!method) return null;
    for (const result of method.results) {
      const arrays =
        index.objectOf(ref(result))?.properties.filter((p) => p.type.kind === "array") ?? [];
      if (arrays.length === 1) return arrays[0]!.name;
    }
    return null;
  };

  const toolsList = byMessage(conventions.tools.list);
  const toolsCall = byMessage(conventions.tools.use);
  const listParams = index.objectOf(toolsList?.params);
  const listResult = toolsList ? index.objectOf(ref(toolsList.results[0] ?? "")) : null;
  const cursorParam = listParams?.properties.find((p) => isCursor(p.type))?.name;
  const cursorResult = listResult?.properties.find((p) => isCursor(p.type))?.name;
  const cursor = cursorParam && cursorResult ? { param: cursorParam, result: cursorResult } : null;

  return {
    cursor,
    tools: toolFacts(),
    resources: resourceFacts(),
    prompts: promptFacts(),
    completion: completionFacts(),
  };

  function toolFacts(): FeatureFacts["tools"] {
    const items = listItems(toolsList);
    if (!toolsList || !toolsCall || !items) return null;
    const f = conventions.toolFields;
    const itemsType = listResult?.properties.find((p) => p.name === items)?.type;
    const toolType = itemsType?.kind === "array" ? itemsType.items : null;
    const name = has(toolsCall.params, f.name);
    const args = has(toolsCall.params, f.arguments);
    const inputSchema = has(toolType, f.inputSchema);
    const content = resultWith(toolsCall, f.content) ? f.content : null;
    const isError = resultWith(toolsCall, f.isError) ? f.isError : null;
    const text = textContent();
    if (!name || !args || !inputSchema || !content || !isError || !text) return null;
    return {
      capability: capabilityOf(toolsList.method),
      list: toolsList.method,
      call: toolsCall.method,
      items,
      changed: byMessage(conventions.tools.changed)?.method ?? null,
      name,
      arguments: args,
      inputSchema,
      outputSchema: has(toolType, f.outputSchema),
      content,
      structuredContent: resultWith(toolsCall, f.structuredContent) ? f.structuredContent : null,
      isError,
      text,
    };
  }

  function textContent(): { discriminator: string; type: string; field: string } | null {
    const { type, discriminator, field } = conventions.textContent;
    const tag = index.property(ref(type), discriminator)?.type;
    if (tag?.kind !== "literal" || typeof tag.value !== "string" || !has(ref(type), field))
      return null;
    return { discriminator, type: tag.value, field };
  }

  function resourceFacts(): FeatureFacts["resources"] {
    const list = byMessage(conventions.resources.list);
    const read = byMessage(conventions.resources.use);
    const items = listItems(list);
    const f = conventions.resourceFields;
    const uri = has(read?.params, f.uri);
    if (!list || !read || !items || !uri || !resultWith(read, f.contents)) return null;
    const templatesList = byMessage(conventions.resourceTemplates.list);
    const templateItems = listItems(templatesList);
    return {
      capability: capabilityOf(list.method),
      list: list.method,
      read: read.method,
      items,
      changed: byMessage(conventions.resources.changed)?.method ?? null,
      uri,
      templates:
        templatesList && templateItems
          ? { list: templatesList.method, items: templateItems, uriTemplate: f.uriTemplate }
          : null,
    };
  }

  function promptFacts(): FeatureFacts["prompts"] {
    const list = byMessage(conventions.prompts.list);
    const get = byMessage(conventions.prompts.use);
    const items = listItems(list);
    const f = conventions.promptFields;
    if (!list || !get || !items || !has(get.params, f.name) || !has(get.params, f.arguments))
      return null;
    return {
      capability: capabilityOf(list.method),
      list: list.method,
      get: get.method,
      items,
      changed: byMessage(conventions.prompts.changed)?.method ?? null,
      name: f.name,
      arguments: f.arguments,
      argumentName: f.argumentName,
      required: f.required,
    };
  }

  function completionFacts(): FeatureFacts["completion"] {
    const method = byMessage(conventions.completion);
    const f = conventions.completionFields;
    if (!method || !has(method.params, f.ref) || !has(method.params, f.argument)) return null;
    // The reference kinds: members of the `ref` union told apart by their literal `type`.
    const refType = index.property(method.params, f.ref)!.type;
    const members = refType.kind === "union" ? refType.members : [refType];
    let prompt: { type: string; name: string } | null = null;
    let resource: { type: string; uri: string } | null = null;
    for (const member of members) {
      const tag = index.property(member, f.refType)?.type;
      if (tag?.kind !== "literal" || typeof tag.value !== "string") continue;
      if (has(member, f.promptName)) prompt = { type: tag.value, name: f.promptName };
      else if (has(member, f.resourceUri)) resource = { type: tag.value, uri: f.resourceUri };
    }
    const resultType = resultWith(method, f.result);
    const completion = index.property(resultType, f.result)?.type;
    const values = index.property(completion, f.values)?.type;
    if (!resultType || values?.kind !== "array") return null;
    const context = index.property(method.params, f.context)?.type;
    return {
      method: method.method,
      ref: f.ref,
      refType: f.refType,
      prompt,
      resource,
      argument: f.argument,
      argumentName: f.argumentName,
      argumentValue: f.argumentValue,
      context: context ? f.context : null,
      contextArguments: has(context, f.contextArguments),
      result: f.result,
      values: f.values,
      total: has(completion, f.total),
      hasMore: has(completion, f.hasMore),
      maxValues: values.maxItems,
    };
  }
}
