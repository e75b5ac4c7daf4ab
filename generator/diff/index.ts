import type { ProtocolModel, TypeNode } from "../ir/model.js";
import { deprecationRegistry } from "../registry/index.js";
import type { ChangelogDeprecation } from "../registry/changelog.js";
import type { Change, Severity } from "./rules.js";
import { withoutEnvelope } from "./envelope.js";
import { methodRoles } from "../ir/query.js";
import { DiffContext } from "./context.js";
import { lifecycle, methods } from "./methods.js";
import { definitions } from "./definitions.js";
import { constants, deprecations, errorCodes } from "./catalog.js";

export {
  FAIL_ON,
  RULE_IDS,
  SEVERITIES,
  failsOn,
  isBreaking,
  type FailOn,
  type Change,
  type RuleId,
  type Severity,
} from "./rules.js";

/**
 * Every change between two revisions' models, by the rules of `rules.ts`, in a stable order:
 * lifecycle, methods, definitions (with their properties), constants, error codes, deprecations.
 */
export function diffModels(
  from: ProtocolModel,
  to: ProtocolModel,
  options: DiffOptions = {},
): Change[] {
  // Response wrappers are found by their envelope (`jsonrpc` beside `result`): before it is set aside.
  const responses = new Set([from, to].flatMap(responseWrappers));
  // What to do instead of each deprecation of `to`: its tag's sentence, else its changelog's.
  const migrations = deprecationRegistry(to, {}, options.changelog).map(
    (entry) => entry.migration.sentence ?? entry.migration.changelog ?? null,
  );
  const c = new DiffContext(withoutEnvelope(from), withoutEnvelope(to), responses, migrations);
  lifecycle(c);
  methods(c);
  definitions(c);
  constants(c);
  errorCodes(c);
  deprecations(c);
  return c.changes;
}

export interface DiffOptions {
  /** The newer revision's changelog (`parseChangelog`): the migrations it names go with its new deprecations. */
  changelog?: readonly ChangelogDeprecation[] | undefined;
}

/** Changes counted by severity. */
export function summarize(changes: Change[]): Record<Severity, number> & { total: number } {
  const summary = {
    "breaking-both": 0,
    "breaking-client": 0,
    "breaking-server": 0,
    "non-breaking": 0,
    total: changes.length,
  };
  for (const change of changes) summary[change.severity] += 1;
  return summary;
}

/** Definitions with `jsonrpc` and `result` sharing the `@category` of a method whose results were paired by response. */
function responseWrappers(model: ProtocolModel): string[] {
  const categories = new Set(
    methodRoles(model.methods)
      .filter((r) => r.pairing === "response")
      .map((r) => r.category),
  );
  const wraps = (type: TypeNode) =>
    type.kind === "object" &&
    ["jsonrpc", "result"].every((name) => type.properties.some((p) => p.name === name));
  return model.definitions
    .filter((d) => d.category !== null && categories.has(d.category) && wraps(d.type))
    .map((d) => d.name);
}
