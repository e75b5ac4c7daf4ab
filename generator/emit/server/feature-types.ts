import type { ProtocolModel } from "../../ir/model.js";
import { FEATURE_CONVENTIONS } from "../../ir/conventions.js";
import { featureFacts } from "../../ir/features.js";
import { methodRoles, ModelIndex } from "../../ir/query.js";
import { wireFacts } from "../../ir/wire.js";
import { code, ident, type Code } from "../code.js";
import type { CodeFile } from "../code-file.js";
import { SERVER_MODULES as M } from "./modules.js";
import { typesModule } from "../modules.js";

/**
 * The revision's types for the typed `ServerDefinitions` methods of `server.ts`: each feature's
 * listing entry (the item type of its list) and the complete result of its call, read or get.
 * `null` where the revision lacks the feature; the method is then not emitted.
 */
export function featureTypes(model: ProtocolModel, file: CodeFile): Record<string, Code | null> {
  const index = new ModelIndex(model);
  const T = (name: string): Code => code`${file.use(typesModule())}.${ident(name)}`;
  const features = featureFacts(model);
  const roles = methodRoles(model.methods);
  const method = (message: string) => roles.find((m) => m.message === message) ?? null;
  /** The item type of a list request's array field, as `T.Name`. */
  const itemOf = (message: string, items: string | undefined): Code | null => {
    const list = method(message);
    const type =
      items && list
        ? index.property({ kind: "ref", name: list.results[0] ?? "" }, items)?.type
        : null;
    return type?.kind === "array" && type.items.kind === "ref" ? T(type.items.name) : null;
  };
  /** A handler's answer: its complete result, the runtime filling what it fills. */
  const resultOf = (message: string): Code | null => {
    const result = method(message)?.results[0];
    return result ? code`HandlerResult<${T(result)}>` : null;
  };
  const c = FEATURE_CONVENTIONS;
  const tool = features.tools ? itemOf(c.tools.list, features.tools.items) : null;
  const resource = features.resources ? itemOf(c.resources.list, features.resources.items) : null;
  const prompt = features.prompts ? itemOf(c.prompts.list, features.prompts.items) : null;
  const resourceTemplate = features.resources?.templates
    ? itemOf(c.resourceTemplates.list, features.resources.templates.items)
    : null;
  const withInput = (type: Code | null) =>
    type && wireFacts(model).inputRequiredResult !== null
      ? code`${type} | ${file.use(M.dispatch.type("InputRequiredAnswer"))}`
      : type;
  return {
    tool,
    toolResult: withInput(resultOf(c.tools.use)),
    resource,
    resourceTemplate,
    resourceResult: withInput(resultOf(c.resources.use)),
    prompt,
    promptResult: withInput(resultOf(c.prompts.use)),
  };
}
