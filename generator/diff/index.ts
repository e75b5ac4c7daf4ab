import type {
  Definition,
  Deprecation,
  Method,
  MethodRole,
  ObjectType,
  Property,
  ProtocolModel,
  TypeNode,
} from "../ir/model.js";
import { CAPABILITY_TYPES, MEMBERSHIP_UNIONS } from "../ir/conventions.js";
import { deprecationRegistry, locationText } from "../registry/index.js";
import type { ChangelogDeprecation } from "../registry/changelog.js";
import { counterparts, PARTIES, Reach, sendersOf, type Party } from "../registry/reach.js";
import { severityFor, type Change, type RuleId, type Severity } from "./rules.js";
import { withoutEnvelope } from "./envelope.js";
import { literalParts, shapeText, typeText, unionChange, type RefText } from "./types.js";
import { methodRoles, ModelIndex } from "../ir/query.js";

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
  return new Differ(withoutEnvelope(from), withoutEnvelope(to), responses, migrations).run();
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

const MEMBERSHIP_TYPES = new Set<string>([
  ...Object.keys(MEMBERSHIP_UNIONS),
  ...Object.values(MEMBERSHIP_UNIONS).flatMap((role) =>
    role.resultUnion ? [role.resultUnion] : [],
  ),
]);
const CAPABILITY_PARTY = new Map<string, Party>([
  [CAPABILITY_TYPES.client, "client"],
  [CAPABILITY_TYPES.server, "server"],
]);

/** One alternative of params that may be a union: its definition's name (`null` inline), its type, the object it is. */
interface Variant {
  name: string | null;
  type: TypeNode;
  object: ObjectType;
}

/** Params' alternatives before and after, paired old → new, and those only one side has. */
interface Alternatives {
  before: Variant[];
  after: Variant[];
  paired: Array<[Variant, Variant]>;
  added: Variant[];
  removed: Variant[];
}

/** How close two objects are: the property names they share, and those only one has. */
function closeness(a: ObjectType, b: ObjectType): { shared: number; others: number } {
  const names = new Set(a.properties.map((p) => p.name));
  const shared = b.properties.filter((p) => names.has(p.name)).length;
  return { shared, others: a.properties.length + b.properties.length - 2 * shared };
}

class Differ {
  private readonly changes: Change[] = [];
  private readonly reach: { from: Reach; to: Reach };
  private readonly defs: { from: Map<string, Definition>; to: Map<string, Definition> };
  /** The message definitions of every method of either revision. */
  private readonly messages: Set<string>;
  /** The `…ResultResponse` definitions results were paired by: their `result` is the method's results. */
  private readonly responses: ReadonlySet<string>;
  private readonly index: { from: ModelIndex; to: ModelIndex };
  /** Definitions of `from` gone from `to` where `to` has a new one of the same shape: old name → new name. */
  private readonly renames: Map<string, string>;
  /** Writes a `from` ref under its name in `to`. */
  private readonly renamed: RefText = (name) => this.renames.get(name) ?? name;

  constructor(
    private readonly from: ProtocolModel,
    private readonly to: ProtocolModel,
    responses: ReadonlySet<string>,
    /** Per deprecation of `to`, in order: what to do instead, or `null`. */
    private readonly migrations: ReadonlyArray<string | null>,
  ) {
    this.reach = { from: new Reach(from), to: new Reach(to) };
    this.messages = new Set(methodRoles([...from.methods, ...to.methods]).map((m) => m.message));
    this.responses = responses;
    this.index = { from: new ModelIndex(from), to: new ModelIndex(to) };
    this.defs = {
      from: new Map(from.definitions.map((d) => [d.name, d])),
      to: new Map(to.definitions.map((d) => [d.name, d])),
    };
    this.renames = this.findRenames();
  }

  run(): Change[] {
    this.lifecycle();
    this.methods();
    this.definitions();
    this.constants();
    this.errorCodes();
    this.deprecations();
    return this.changes;
  }

  private add(
    ruleId: RuleId,
    severity: Severity,
    location: string,
    message: string,
    values: { from?: string; to?: string } = {},
  ): void {
    const change: Change = { ruleId, severity, location, message };
    if (values.from !== undefined) change.from = values.from;
    if (values.to !== undefined) change.to = values.to;
    this.changes.push(change);
  }

  private lifecycle(): void {
    const a = JSON.stringify(this.from.lifecycle);
    const b = JSON.stringify(this.to.lifecycle);
    if (a === b) return;
    const describe = (l: ProtocolModel["lifecycle"]): string =>
      l.kind === "stateful"
        ? `stateful (${[l.initialize, l.initialized].filter(Boolean).join(" + ")})`
        : l.kind === "stateless"
          ? `stateless (${l.discover}, _meta ${l.requestMeta} requiring ${l.requiredMetaKeys.join(", ")})`
          : "unknown";
    // Before and after always differ in what they show: the whole lifecycle when the summaries agree.
    const [from, to] =
      describe(this.from.lifecycle) === describe(this.to.lifecycle)
        ? [a, b]
        : [describe(this.from.lifecycle), describe(this.to.lifecycle)];
    const message =
      this.from.lifecycle.kind === this.to.lifecycle.kind
        ? `Lifecycle (${this.to.lifecycle.kind}) changed`
        : `Lifecycle changed from ${this.from.lifecycle.kind} to ${this.to.lifecycle.kind}`;
    this.add("lifecycle-changed", "breaking-both", "lifecycle", message, { from, to });
  }

  // --- methods ---------------------------------------------------------------------------------

  private methods(): void {
    const after = new Map(this.to.methods.map((m) => [m.method, m]));
    const before = new Map(this.from.methods.map((m) => [m.method, m]));
    for (const old of this.from.methods) {
      const now = after.get(old.method);
      if (!now) {
        const rule = old.roles.every((r) => r.kind === "notification")
          ? "notification-removed"
          : "method-removed";
        this.add(
          rule,
          severityFor(old.roles.flatMap((r) => sendersOf(r.sender))),
          old.method,
          `${describeMethod(old)} removed`,
          { from: messagesOf(old) },
        );
        continue;
      }
      this.roleChanges(old, now);
    }
    for (const now of this.to.methods) {
      if (before.has(now.method)) continue;
      const rule = now.roles.every((r) => r.kind === "notification")
        ? "notification-added"
        : "method-added";
      this.add(rule, "non-breaking", now.method, `${describeMethod(now)} added`, {
        to: messagesOf(now),
      });
    }
  }

  /**
   * Roles compared kind by kind: one role turned into another is a kind change; a role gained breaks
   * its receivers (they must now handle it), a role lost its senders; within a kind, who sends it and
   * what answers it.
   */
  private roleChanges(old: Method, now: Method): void {
    const at = now.method;
    const kinds = (m: Method) => m.roles.map((r) => r.kind).join(" + ");
    const lost = old.roles.filter((r) => !now.roles.some((n) => n.kind === r.kind));
    const gained = now.roles.filter((r) => !old.roles.some((o) => o.kind === r.kind));
    if (lost.length > 0 && lost.length === old.roles.length && gained.length === now.roles.length) {
      this.add(
        "method-kind-changed",
        "breaking-both",
        at,
        `${at} changed from ${kinds(old)} to ${kinds(now)}`,
        { from: kinds(old), to: kinds(now) },
      );
    } else if (lost.length > 0 || gained.length > 0) {
      const broken = [
        ...lost.flatMap((r) => sendersOf(r.sender)),
        ...gained.flatMap((r) => counterparts(sendersOf(r.sender))),
      ];
      this.add(
        "method-kind-changed",
        severityFor(broken),
        at,
        `${at} is now ${kinds(now)} (was ${kinds(old)})`,
        { from: kinds(old), to: kinds(now) },
      );
    }
    for (const before of old.roles) {
      const after = now.roles.find((r) => r.kind === before.kind);
      if (after) this.roleChange(at, before, after);
    }
  }

  private roleChange(at: string, old: MethodRole, now: MethodRole): void {
    const senders = sendersOf(now.sender);
    const oldParams = old.params ? typeText(old.params) : "none";
    const newParams = now.params ? typeText(now.params) : "none";
    const same =
      old.params && now.params ? this.equivalent(old.params, now.params) : oldParams === newParams;
    const inner =
      old.params && now.params && !same ? this.lookThrough(old.params, now.params) : null;
    const alternatives =
      old.params && now.params && !same && !inner
        ? this.alternatives(old.params, now.params)
        : null;
    if (inner && old.message !== now.message) {
      // Another message: its definition's diff cannot show what changed in the params.
      this.changes.push(...this.objectChanges(now.message, ["params"], inner.before, inner.after));
    } else if (alternatives) {
      this.alternativeChanges(at, now.message, senders, alternatives);
    } else if (!same && !inner) {
      this.add("method-params-changed", "breaking-both", at, `${at} params type changed`, {
        from: oldParams,
        to: newParams,
      });
    } else if (old.params && old.paramsOptional !== now.paramsOptional) {
      this.add(
        "method-params-changed",
        severityFor(now.paramsOptional ? counterparts(senders) : senders),
        at,
        `${at} params became ${now.paramsOptional ? "optional" : "required"}`,
        {
          from: old.paramsOptional ? "optional" : "required",
          to: now.paramsOptional ? "optional" : "required",
        },
      );
    }
    if (old.sender !== now.sender) {
      const before = sendersOf(old.sender);
      const after = sendersOf(now.sender);
      const lost = before.filter((p) => !after.includes(p));
      const gained = after.filter((p) => !before.includes(p));
      this.add(
        "method-sender-changed",
        severityFor([...lost, ...counterparts(gained)]),
        at,
        `${at} is now sent by ${now.sender} (was ${old.sender})`,
        {
          from: old.sender,
          to: now.sender,
        },
      );
    }
    const oldResults = old.results.map(this.renamed);
    const added = now.results.filter((r) => !oldResults.includes(r));
    const removed = old.results.filter((r) => !now.results.includes(this.renamed(r)));
    if (added.length || removed.length) {
      const broken = [
        ...(added.length ? senders : []),
        ...(removed.length ? counterparts(senders) : []),
      ];
      const parts = [
        added.length ? `added ${added.join(", ")}` : "",
        removed.length ? `removed ${removed.join(", ")}` : "",
      ].filter(Boolean);
      this.add(
        "method-results-changed",
        severityFor(broken),
        at,
        `${at} result types changed: ${parts.join("; ")}`,
        {
          from: old.results.join(" | ") || "none",
          to: now.results.join(" | ") || "none",
        },
      );
    }
  }

  // --- definitions -----------------------------------------------------------------------------

  /** Who writes and reads a definition in either revision; unknown use counts as both parties. */
  private parties(name: string): { producers: Party[]; consumers: Party[]; all: Party[] } {
    const flows = [this.reach.from.flowOf(name), this.reach.to.flowOf(name)].filter(
      (f) => f !== null,
    );
    if (flows.length === 0)
      return { producers: [...PARTIES], consumers: [...PARTIES], all: [...PARTIES] };
    const producers = PARTIES.filter((p) => flows.some((f) => f.producers.includes(p)));
    const consumers = PARTIES.filter((p) => flows.some((f) => f.consumers.includes(p)));
    return {
      producers,
      consumers,
      all: PARTIES.filter((p) => producers.includes(p) || consumers.includes(p)),
    };
  }

  /** A definition gone and one new of exactly the same shape (refs resolved): a rename, or a move. */
  private findRenames(): Map<string, string> {
    const renames = new Map<string, string>();
    const added = this.to.definitions.filter((d) => !this.defs.from.has(d.name));
    for (const old of this.from.definitions) {
      if (this.defs.to.has(old.name)) continue;
      const shape = shapeText(old.type, this.lookup.from);
      const same = added.filter((d) => shapeText(d.type, this.lookup.to) === shape);
      if (same.length === 1 && ![...renames.values()].includes(same[0]!.name))
        renames.set(old.name, same[0]!.name);
    }
    return renames;
  }

  private readonly lookup = {
    from: (name: string) => this.defs.from.get(name)?.type,
    to: (name: string) => this.defs.to.get(name)?.type,
  };

  /** Whether two types are the same: by name (renames followed), or else by the shapes their refs name. */
  private equivalent(before: TypeNode, after: TypeNode): boolean {
    return (
      typeText(before, this.renamed) === typeText(after) ||
      shapeText(before, this.lookup.from) === shapeText(after, this.lookup.to)
    );
  }

  /** Who breaks when a type changes: readers when a union only grew, writers when it only shrank, else both. */
  private typeChangeParties(
    before: TypeNode,
    after: TypeNode,
    parties: { producers: Party[]; consumers: Party[]; all: Party[] },
  ): Party[] {
    const change = unionChange(before, after, this.lookup, this.renamed);
    return change === "wider"
      ? parties.consumers
      : change === "narrower"
        ? parties.producers
        : parties.all;
  }

  private definitions(): void {
    for (const old of this.from.definitions) {
      const now = this.defs.to.get(old.name);
      const renamedTo = this.renames.get(old.name);
      if (renamedTo) {
        this.add(
          "definition-renamed",
          "non-breaking",
          old.name,
          `Definition ${old.name} renamed to ${renamedTo} (same shape)`,
          { from: old.name, to: renamedTo },
        );
        continue;
      }
      if (!now) {
        this.add(
          "definition-removed",
          severityFor(this.parties(old.name).all),
          old.name,
          `Definition ${old.name} removed`,
        );
        continue;
      }
      if (MEMBERSHIP_TYPES.has(old.name)) continue; // reported by the method rules
      this.changes.push(...this.definitionChanges(old.name, old.type, now.type));
    }
    const renameTargets = new Set(this.renames.values());
    for (const now of this.to.definitions) {
      if (!this.defs.from.has(now.name) && !renameTargets.has(now.name))
        this.add("definition-added", "non-breaking", now.name, `Definition ${now.name} added`);
    }
  }

  /** The changes of one definition, every inherited one left to the definition declaring it. */
  private definitionChanges(name: string, before: TypeNode, after: TypeNode): Change[] {
    if (before.kind === "object" && after.kind === "object") {
      return this.objectChanges(name, [], before, after);
    }
    const literal = this.literalChanges(name, [], before, after);
    if (literal) return literal;
    if (this.equivalent(before, after)) return [];
    return [
      {
        ruleId: "definition-type-changed",
        severity: severityFor(this.typeChangeParties(before, after, this.parties(name))),
        location: name,
        message: `Type of ${name} changed`,
        from: typeText(before),
        to: typeText(after),
      },
    ];
  }

  private objectChanges(
    definition: string,
    path: string[],
    before: ObjectType,
    after: ObjectType,
  ): Change[] {
    const out: Change[] = [];
    const names = [
      ...after.properties.map((p) => p.name),
      ...before.properties
        .map((p) => p.name)
        .filter((n) => !after.properties.some((p) => p.name === n)),
    ];
    for (const name of names) {
      const a = before.properties.find((p) => p.name === name) ?? null;
      const b = after.properties.find((p) => p.name === name) ?? null;
      let changes = this.propertyChanges(definition, [...path, name], a, b);
      // A message's own `params` is the method's params: the method rules report it, the
      // property rules only what changed inside an inline params object.
      if (path.length === 0 && name === "params" && this.messages.has(definition)) {
        changes = changes.filter((c) => c.location !== `${definition}.params`);
      }
      // Likewise a response wrapper's `result`: the method-results rule reports it.
      if (path.length === 0 && name === "result" && this.responses.has(definition)) {
        changes = changes.filter((c) => c.location !== `${definition}.result`);
      }
      if (changes.length === 0) continue;
      if (path.length === 0 && this.reportedByDeclarer(definition, name, a, b, changes)) continue;
      out.push(...changes);
    }
    const ia = before.indexSignature;
    const ib = after.indexSignature;
    const ta = ia ? typeText(ia.type) : "none";
    const tb = ib ? typeText(ib.type) : "none";
    // Objects are open: no index signature and one of `unknown` values accept the same.
    const open = (text: string) =>
      text === "none" || text === "unknown" || text === "any" ? "open" : text;
    const sameIndex = ia && ib ? this.equivalent(ia.type, ib.type) : open(ta) === open(tb);
    const inheritedIndex =
      path.length === 0 &&
      (ib ?? ia)?.declaredIn &&
      (ib ?? ia)!.declaredIn !== definition &&
      this.defs.from.has((ib ?? ia)!.declaredIn!);
    if (!sameIndex && !inheritedIndex) {
      const parties = this.parties(definition);
      out.push({
        ruleId: "property-type-changed",
        severity: severityFor(
          ia && ib ? this.typeChangeParties(ia.type, ib.type, parties) : parties.all,
        ),
        location: `${[definition, ...path].join(".")}[string]`,
        message: `Index signature of ${[definition, ...path].join(".")} changed`,
        from: ta,
        to: tb,
      });
    }
    return out;
  }

  /**
   * True when an inherited property's change is the change reported at the definition declaring it
   * (that definition exists in both revisions and changed the same way).
   */
  private reportedByDeclarer(
    definition: string,
    name: string,
    a: Property | null,
    b: Property | null,
    changes: Change[],
  ): boolean {
    const declarer = (b ?? a)!.declaredIn;
    if (!declarer || declarer === definition) return false;
    const before = this.defs.from.get(declarer)?.type;
    const after = this.defs.to.get(declarer)?.type;
    if (before?.kind !== "object" || after?.kind !== "object") return false;
    const there = this.propertyChanges(
      declarer,
      [name],
      before.properties.find((p) => p.name === name) ?? null,
      after.properties.find((p) => p.name === name) ?? null,
    );
    const shape = (list: Change[], owner: string) =>
      JSON.stringify(list.map((c) => [c.ruleId, c.location.slice(owner.length), c.from, c.to]));
    return shape(there, declarer) === shape(changes, definition);
  }

  private propertyChanges(
    definition: string,
    path: string[],
    a: Property | null,
    b: Property | null,
  ): Change[] {
    const location = [definition, ...path].join(".");
    const parties = this.parties(definition);
    const capabilityParty = CAPABILITY_PARTY.get(definition);
    if (!a && b) {
      if (capabilityParty) {
        return [
          {
            ruleId: "capability-added",
            severity: b.optional ? "non-breaking" : severityFor([capabilityParty]),
            location,
            message: `${capabilityParty === "client" ? "Client" : "Server"} capability ${path.join(".")} added`,
            to: typeText(b.type),
          },
        ];
      }
      return [
        b.optional
          ? {
              ruleId: "property-added-optional",
              severity: "non-breaking",
              location,
              message: `Optional property ${location} added`,
              to: typeText(b.type),
            }
          : {
              ruleId: "property-added-required",
              severity: severityFor(parties.producers),
              location,
              message: `Required property ${location} added`,
              to: typeText(b.type),
            },
      ];
    }
    if (a && !b) {
      if (capabilityParty) {
        return [
          {
            ruleId: "capability-removed",
            severity: severityFor(counterparts([capabilityParty])),
            location,
            message: `${capabilityParty === "client" ? "Client" : "Server"} capability ${path.join(".")} removed`,
            from: typeText(a.type),
          },
        ];
      }
      return [
        {
          ruleId: "property-removed",
          severity: severityFor(parties.consumers),
          location,
          message: `Property ${location} removed`,
          from: typeText(a.type),
        },
      ];
    }
    if (!a || !b) return [];
    const out: Change[] = [];
    if (a.optional && !b.optional) {
      out.push({
        ruleId: "property-became-required",
        severity: severityFor(parties.producers),
        location,
        message: `Property ${location} became required`,
        from: "optional",
        to: "required",
      });
    } else if (!a.optional && b.optional) {
      out.push({
        ruleId: "property-became-optional",
        severity: severityFor(parties.consumers),
        location,
        message: `Property ${location} became optional`,
        from: "required",
        to: "optional",
      });
    }
    const inner = this.lookThrough(a.type, b.type);
    if (inner) {
      out.push(...this.objectChanges(definition, path, inner.before, inner.after));
      return out;
    }
    const literal = this.literalChanges(definition, path, a.type, b.type);
    if (literal) return [...out, ...literal];
    if (!this.equivalent(a.type, b.type)) {
      const severity = severityFor(this.typeChangeParties(a.type, b.type, parties));
      out.push({
        ruleId: "property-type-changed",
        severity,
        location,
        message: `Type of ${location} changed`,
        from: typeText(a.type),
        to: typeText(b.type),
      });
    }
    return out;
  }

  /**
   * The two object types to compare property by property: two inline objects, or an object moved
   * between inline and a named type (or from one name to another) — looked through, so that what
   * changed inside shows. Two refs to one name are compared where that definition is.
   */
  private lookThrough(
    before: TypeNode,
    after: TypeNode,
  ): { before: ObjectType; after: ObjectType } | null {
    if (before.kind === "ref" && after.kind === "ref" && this.renamed(before.name) === after.name)
      return null;
    const a = this.index.from.objectOf(before);
    const b = this.index.to.objectOf(after);
    return a && b ? { before: a, after: b } : null;
  }

  /**
   * Params that are, or were, a union of object alternatives, each old alternative paired with the
   * new one that continues it: the same name (renames followed), else the one sharing the most
   * properties (then the one with fewest others); the rest were added or removed. `null` unless one
   * side has several alternatives and every alternative of both sides is an object.
   */
  private alternatives(before: TypeNode, after: TypeNode): Alternatives | null {
    const left = this.variants(before, "from");
    const right = this.variants(after, "to");
    if (!left || !right || (left.length < 2 && right.length < 2)) return null;
    const removed = [...left];
    const added = [...right];
    const paired: Array<[Variant, Variant]> = [];
    const pair = (x: Variant, y: Variant): void => {
      paired.push([x, y]);
      removed.splice(removed.indexOf(x), 1);
      added.splice(added.indexOf(y), 1);
    };
    for (const x of left) {
      const y = x.name === null ? undefined : added.find((v) => v.name === this.renamed(x.name!));
      if (y) pair(x, y);
    }
    for (;;) {
      let best: [Variant, Variant] | null = null;
      let bestScore = { shared: 0, others: Infinity };
      for (const x of removed) {
        for (const y of added) {
          const score = closeness(x.object, y.object);
          if (
            score.shared > bestScore.shared ||
            (score.shared > 0 &&
              score.shared === bestScore.shared &&
              score.others < bestScore.others)
          ) {
            best = [x, y];
            bestScore = score;
          }
        }
      }
      if (!best) break;
      pair(...best);
    }
    return { before: left, after: right, paired, added, removed };
  }

  /** A type's alternatives: a union's members (through refs naming a union), or the type itself; `null` when one is not an object. */
  private variants(type: TypeNode, side: "from" | "to"): Variant[] | null {
    let node = type;
    const seen = new Set<string>();
    while (node.kind === "ref" && !seen.has(node.name)) {
      const target = this.lookup[side](node.name);
      if (target?.kind !== "union") break;
      seen.add(node.name);
      node = target;
    }
    const out: Variant[] = [];
    for (const member of node.kind === "union" ? node.members : [node]) {
      const object = this.index[side].objectOf(member);
      if (!object) return null;
      out.push({ name: member.kind === "ref" ? member.name : null, type: member, object });
    }
    return out;
  }

  /**
   * What changed in params made of alternatives: one entry naming the alternatives added (their
   * receivers must now handle them: they break), removed (their senders may no longer send them:
   * they break) and which new alternative continues each old one under another name; then,
   * property by property, what changed inside each pair (a pair of one named definition is that
   * definition's own diff).
   */
  private alternativeChanges(
    at: string,
    message: string,
    senders: Party[],
    { before, after, paired, added, removed }: Alternatives,
  ): void {
    const name = (v: Variant, side: "old" | "new") => v.name ?? `the ${side} inline params`;
    const text = (list: Variant[]) =>
      [...new Set(list.map((v) => typeText(v.type)))].sort().join(" | ");
    const continued = paired.filter(([x, y]) => x.name === null || this.renamed(x.name) !== y.name);
    if (added.length > 0 || removed.length > 0 || continued.length > 0) {
      const parts = [
        added.length ? `added ${added.map((v) => name(v, "new")).join(", ")}` : "",
        removed.length ? `removed ${removed.map((v) => name(v, "old")).join(", ")}` : "",
        ...continued.map(([x, y]) => `${name(x, "old")} continued by ${name(y, "new")}`),
      ].filter(Boolean);
      this.add(
        "method-params-changed",
        severityFor([
          ...(added.length ? counterparts(senders) : []),
          ...(removed.length ? senders : []),
        ]),
        at,
        `${at} params alternatives changed: ${parts.join("; ")}`,
        { from: text(before), to: text(after) },
      );
    }
    for (const [x, y] of paired) {
      if (x.name !== null && this.renamed(x.name) === y.name) continue;
      this.changes.push(...this.objectChanges(message, ["params"], x.object, y.object));
    }
  }

  /** Literal values added or removed when that is all that changed (other members equal); `null` when it does not apply. */
  private literalChanges(
    definition: string,
    path: string[],
    before: TypeNode,
    after: TypeNode,
  ): Change[] | null {
    const a = literalParts(before);
    const b = literalParts(after);
    if (
      a.values.length === 0 ||
      b.values.length === 0 ||
      JSON.stringify(a.others) !== JSON.stringify(b.others)
    )
      return null;
    const location = [definition, ...path].join(".");
    const parties = this.parties(definition);
    const added = b.values.filter((v) => !a.values.includes(v));
    const removed = a.values.filter((v) => !b.values.includes(v));
    const show = (values: string[]) => values.join(" | ");
    const out: Change[] = [];
    if (added.length) {
      out.push({
        ruleId: "literal-value-added",
        severity: severityFor(parties.consumers),
        location,
        message: `${location} accepts new value${added.length > 1 ? "s" : ""} ${show(added)}`,
        to: show(added),
      });
    }
    if (removed.length) {
      out.push({
        ruleId: "literal-value-removed",
        severity: severityFor(parties.producers),
        location,
        message: `${location} no longer accepts ${show(removed)}`,
        from: show(removed),
      });
    }
    return out;
  }

  // --- constants, error codes, deprecations ----------------------------------------------------

  private constants(): void {
    const errorConstants = new Set(
      [...this.from.errorCodes, ...this.to.errorCodes].map((e) => e.constant),
    );
    const after = new Map(this.to.constants.map((c) => [c.name, c]));
    const before = new Map(this.from.constants.map((c) => [c.name, c]));
    for (const old of this.from.constants) {
      if (errorConstants.has(old.name)) continue;
      const now = after.get(old.name);
      if (!now)
        this.add(
          "constant-removed",
          "breaking-both",
          `constant ${old.name}`,
          `Constant ${old.name} removed`,
          { from: JSON.stringify(old.value) },
        );
      else if (now.value !== old.value) {
        this.add(
          "constant-changed",
          "breaking-both",
          `constant ${old.name}`,
          `Constant ${old.name} changed value`,
          { from: JSON.stringify(old.value), to: JSON.stringify(now.value) },
        );
      }
    }
    for (const now of this.to.constants) {
      if (errorConstants.has(now.name) || before.has(now.name)) continue;
      this.add(
        "constant-added",
        "non-breaking",
        `constant ${now.name}`,
        `Constant ${now.name} added`,
        { to: JSON.stringify(now.value) },
      );
    }
  }

  private errorCodes(): void {
    const after = new Map(this.to.errorCodes.map((e) => [e.constant, e]));
    const before = new Map(this.from.errorCodes.map((e) => [e.constant, e]));
    for (const old of this.from.errorCodes) {
      const now = after.get(old.constant);
      if (!now)
        this.add(
          "error-code-removed",
          "breaking-both",
          `error ${old.constant}`,
          `Error code ${old.code} (${old.constant}) removed`,
          { from: String(old.code) },
        );
      else if (now.code !== old.code) {
        this.add(
          "error-code-renumbered",
          "breaking-both",
          `error ${old.constant}`,
          `Error code ${old.constant} renumbered from ${old.code} to ${now.code}`,
          {
            from: String(old.code),
            to: String(now.code),
          },
        );
      }
    }
    for (const now of this.to.errorCodes) {
      if (!before.has(now.constant))
        this.add(
          "error-code-added",
          "non-breaking",
          `error ${now.constant}`,
          `Error code ${now.code} (${now.constant}) added`,
          { to: String(now.code) },
        );
    }
  }

  private deprecations(): void {
    const key = (d: Deprecation) => JSON.stringify(d.target);
    const before = new Set(this.from.deprecations.map(key));
    for (const [i, d] of this.to.deprecations.entries()) {
      if (before.has(key(d))) continue;
      const when = [d.asOf ? `as of ${d.asOf}` : "", d.sep ? `(${d.sep})` : ""]
        .filter(Boolean)
        .join(" ");
      this.add(
        "deprecation-added",
        "non-breaking",
        locationText(d),
        `${locationText(d)} deprecated${when ? ` ${when}` : ""}`,
        { to: d.text.replace(/\s+/g, " ").trim() },
      );
      const migration = this.migrations[i];
      if (migration) this.changes[this.changes.length - 1]!.migration = migration;
    }
  }
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

function messagesOf(method: Method): string {
  return [...new Set(method.roles.map((role) => role.message))].join(", ");
}

function describeMethod(method: Method): string {
  const roles = method.roles.map((role) => {
    const kind =
      role.kind === "notification"
        ? "Notification"
        : role.kind === "inputRequest"
          ? "Input request"
          : "Request";
    return `${kind} ${method.method} (sent by ${role.sender === "both" ? "either party" : role.sender})`;
  });
  return roles.join(" and ");
}
