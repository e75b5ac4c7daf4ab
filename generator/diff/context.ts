import type { Definition, ProtocolModel, TypeNode } from "../ir/model.js";
import { PARTIES, Reach, type Party } from "../registry/reach.js";
import type { Change, RuleId, Severity } from "./rules.js";
import { shapeText, typeText, unionChange, type KeptShapes, type RefText } from "./types.js";
import { methodRoles, ModelIndex } from "../ir/query.js";

/**
 * What every part of a diff reads: both models, indexed; who writes and reads each definition; the
 * definitions renamed between them; and the changes found so far, in the order they are found.
 */
export class DiffContext {
  readonly changes: Change[] = [];
  readonly reach: { from: Reach; to: Reach };
  readonly defs: { from: Map<string, Definition>; to: Map<string, Definition> };
  /** The message definitions of every method of either revision. */
  readonly messages: Set<string>;
  /** The `…ResultResponse` definitions results were paired by: their `result` is the method's results. */
  readonly responses: ReadonlySet<string>;
  readonly index: { from: ModelIndex; to: ModelIndex };
  /** Definitions of `from` gone from `to` where `to` has a new one of the same shape: old name → new name. */
  readonly renames: Map<string, string>;
  /** Writes a `from` ref under its name in `to`. */
  readonly renamed: RefText = (name) => this.renames.get(name) ?? name;

  readonly lookup = {
    from: (name: string) => this.defs.from.get(name)?.type,
    to: (name: string) => this.defs.to.get(name)?.type,
  };
  /** Each definition's shape (shapeText), per side, worked out once. */
  private readonly shapes: { from: KeptShapes; to: KeptShapes } = {
    from: new Map(),
    to: new Map(),
  };

  constructor(
    readonly from: ProtocolModel,
    readonly to: ProtocolModel,
    responses: ReadonlySet<string>,
    /** Per deprecation of `to`, in order: what to do instead, or `null`. */
    readonly migrations: ReadonlyArray<string | null>,
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

  add(
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

  /** Who writes and reads a definition in either revision; unknown use counts as both parties. */
  parties(name: string): { producers: Party[]; consumers: Party[]; all: Party[] } {
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
    const removed = this.from.definitions.filter((d) => !this.defs.to.has(d.name));
    if (removed.length === 0) return renames;
    // Each new definition's shape once: a shape resolves refs, and an era bridge (an old revision
    // against the current one) has dozens of removed and added definitions to pair.
    const added = this.to.definitions
      .filter((d) => !this.defs.from.has(d.name))
      .map((d) => ({ name: d.name, shape: shapeText(d.type, this.lookup.to, this.shapes.to) }));
    for (const old of removed) {
      const shape = shapeText(old.type, this.lookup.from, this.shapes.from);
      const same = added.filter((d) => d.shape === shape);
      if (same.length === 1 && ![...renames.values()].includes(same[0]!.name))
        renames.set(old.name, same[0]!.name);
    }
    return renames;
  }

  /** Whether two types are the same: by name (renames followed), or else by the shapes their refs name. */
  equivalent(before: TypeNode, after: TypeNode): boolean {
    return (
      typeText(before, this.renamed) === typeText(after) ||
      shapeText(before, this.lookup.from, this.shapes.from) ===
        shapeText(after, this.lookup.to, this.shapes.to)
    );
  }

  /** Who breaks when a type changes: readers when a union only grew, writers when it only shrank, else both. */
  typeChangeParties(
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
}
