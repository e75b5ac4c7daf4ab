/**
 * The diff's rule catalogue. Every change `diffModels` reports carries one of these rule ids, and
 * the ids are stable: tools may filter on them. Severity says WHO has to change code for a peer
 * built against the old revision to keep working with a peer built against the new one:
 * `breaking-client`, `breaking-server`, `breaking-both`, or `non-breaking`.
 *
 * "Producer"/"consumer" below: the party that writes/reads a definition on the wire, derived from
 * the methods reaching it (`generator/registry/reach.ts`): a request's params go sender → receiver,
 * its results receiver → sender. A definition no method reaches has an unknown use and counts as
 * both parties' (conservative).
 *
 * | Rule id                     | Severity                            | Reasoning |
 * |-----------------------------|-------------------------------------|-----------|
 * | method-added                | non-breaking                        | Nobody sends it yet; old peers answer "method not found". |
 * | method-removed              | breaking-<sender>                   | The party that sends the request can no longer rely on it being answered. |
 * | notification-added          | non-breaking                        | Unknown notifications are ignored. |
 * | notification-removed        | breaking-<sender>                   | The sender's emitting code targets a message that no longer exists. |
 * | method-sender-changed       | lost senders + new receivers        | A party that may no longer send breaks; a party that must now receive breaks. |
 * | method-kind-changed         | breaking-both                       | Request ↔ notification ↔ input request changes how both sides carry it. |
 * | method-params-changed       | breaking-both / by optionality      | Another params type: both sides. Params optional → required: the sender; required → optional: the receiver. Params made of object alternatives (a union): an alternative added breaks the receiver, one removed the sender; one continuing another under a new name is named, and what changed inside it is reported property by property. |
 * | method-results-changed      | requester / responder               | A new result type breaks the requester (must handle it); a removed one the responder (may no longer return it). |
 * | definition-added            | non-breaking                        | New types are used only by new features (their uses are reported where they appear). |
 * | definition-removed          | breaking-<producers ∪ consumers>    | Everyone writing or reading it loses it. |
 * | definition-renamed          | non-breaking                        | Gone under one name, here under another with exactly the same shape: the wire does not change. |
 * | definition-type-changed     | breaking-<producers ∪ consumers>    | A non-object type alias now means something else; a union that only grew breaks its consumers, one that only shrank its producers. |
 * | property-added-optional     | non-breaking                        | Producers may omit it, consumers ignore unknown fields. |
 * | property-added-required     | breaking-<producers>                | Producers must now send it (a new required request param breaks clients, a required result field servers). |
 * | property-removed            | breaking-<consumers>                | Consumers relying on it lose it. |
 * | property-became-required    | breaking-<producers>                | Producers that omitted it are now invalid. |
 * | property-became-optional    | breaking-<consumers>                | Consumers assuming it is present may find it missing. |
 * | property-type-changed       | breaking-<producers ∪ consumers>    | Both sides must change what they write and read; a union that only grew breaks consumers, one that only shrank producers (any JSON object given a shape shrank; a shape opened to any object grew). |
 * | literal-value-added         | breaking-<consumers>                | Consumers (exhaustive switches, validators) meet an unknown value. |
 * | literal-value-removed       | breaking-<producers>                | Producers sending the value are now invalid. |
 * | capability-added            | non-breaking (required: the party)  | Capabilities are opt-in; an old peer never declares or checks it. |
 * | capability-removed          | breaking-<other party>              | The peer that checked the capability can no longer find it. |
 * | constant-added              | non-breaking                        | Nothing used it before. |
 * | constant-removed            | breaking-both                       | Code and messages using the value lose it. |
 * | constant-changed            | breaking-both                       | The value on the wire differs (e.g. the protocol version: peers must negotiate). |
 * | error-code-added            | non-breaking                        | Unknown codes are handled as generic JSON-RPC errors. |
 * | error-code-removed          | breaking-both                       | Servers emitting it and clients acting on it both lose it. |
 * | error-code-renumbered       | breaking-both                       | Old and new peers disagree on the code of the same error. |
 * | deprecation-added           | non-breaking                        | Still works; a warning with a removal date (see `mcp-gen deprecations`). |
 * | lifecycle-changed           | breaking-both                       | How a conversation starts (handshake vs. per-request metadata) changes for both sides. |
 *
 * Types are compared by shape: a ref and the inline type it names, or two names for one shape, are
 * the same; an object moved between inline and named is compared property by property.
 * Error-code constants are reported by the error-code rules only; membership unions
 * (`ClientRequest`, …) and their result unions by the method rules only; an inherited property's
 * change once, at the definition that declares it.
 */

export type Severity = "breaking-client" | "breaking-server" | "breaking-both" | "non-breaking";

export const SEVERITIES: readonly Severity[] = [
  "breaking-both",
  "breaking-client",
  "breaking-server",
  "non-breaking",
];

export const RULE_IDS = [
  "method-added",
  "method-removed",
  "notification-added",
  "notification-removed",
  "method-sender-changed",
  "method-kind-changed",
  "method-params-changed",
  "method-results-changed",
  "definition-added",
  "definition-removed",
  "definition-renamed",
  "definition-type-changed",
  "property-added-optional",
  "property-added-required",
  "property-removed",
  "property-became-required",
  "property-became-optional",
  "property-type-changed",
  "literal-value-added",
  "literal-value-removed",
  "capability-added",
  "capability-removed",
  "constant-added",
  "constant-removed",
  "constant-changed",
  "error-code-added",
  "error-code-removed",
  "error-code-renumbered",
  "deprecation-added",
  "lifecycle-changed",
] as const;

export type RuleId = (typeof RULE_IDS)[number];

export interface Change {
  ruleId: RuleId;
  severity: Severity;
  /** What changed: a method (`tools/call`), a definition or property path (`Tool.inputSchema.type`), `constant NAME`, `error NAME`, `lifecycle`. */
  location: string;
  message: string;
  from?: string;
  to?: string;
  /** `deprecation-added`: what to do instead, from the tag or the revision's changelog, when either names it. */
  migration?: string;
}

/** The severity for the set of parties that break. */
export function severityFor(parties: Iterable<"client" | "server">): Severity {
  const set = new Set(parties);
  if (set.has("client") && set.has("server")) return "breaking-both";
  if (set.has("client")) return "breaking-client";
  if (set.has("server")) return "breaking-server";
  return "non-breaking";
}

export function isBreaking(severity: Severity): boolean {
  return severity !== "non-breaking";
}

/** What `mcp-gen diff --fail-on` may fail on: any breaking change, or one that breaks that party. */
export const FAIL_ON = ["breaking", "breaking-client", "breaking-server"] as const;

export type FailOn = (typeof FAIL_ON)[number];

/**
 * Whether a change of this severity fails `--fail-on`: any breaking one for `breaking`; for a
 * party, those that break it (its own severity, and `breaking-both`).
 */
export function failsOn(severity: Severity, failOn: FailOn): boolean {
  if (failOn === "breaking") return isBreaking(severity);
  return severity === failOn || severity === "breaking-both";
}
