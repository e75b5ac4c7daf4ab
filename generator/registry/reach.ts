import type { MethodRole, ProtocolModel, TypeNode } from "../ir/model.js";
import { methodRoles, walkType } from "../ir/query.js";

/** A party of the protocol. */
export type Party = "client" | "server";
export const PARTIES: readonly Party[] = ["client", "server"];

/** The parties a method's `sender` stands for. */
export function sendersOf(sender: MethodRole["sender"]): Party[] {
  return sender === "both" ? [...PARTIES] : [sender];
}

/** The other party (or parties) of a set of parties. */
export function counterparts(parties: Iterable<Party>): Party[] {
  const set = new Set(parties);
  return PARTIES.filter((p) => set.has(p === "client" ? "server" : "client"));
}

/**
 * Which definitions each method reaches through refs, and which party writes (produces) and reads
 * (consumes) each definition on the wire. Derived from the methods alone:
 * - a request's or notification's message and params travel from its sender to the other party;
 * - a request's results travel back, from the receiver to the sender;
 * - an input request travels inside a result (server → client) and its results come back (client → server).
 * A definition reached by no method but inherited from (`declaredIn`) takes the flow of the
 * definitions that inherit from it.
 */
export class Reach {
  private readonly definitions: Map<string, TypeNode>;
  private readonly closures = new Map<string, Set<string>>();
  /** Method name → every definition its message, params and results reach. */
  readonly byMethod = new Map<string, Set<string>>();
  private readonly flows = new Map<string, { producers: Set<Party>; consumers: Set<Party> }>();

  constructor(readonly model: Pick<ProtocolModel, "definitions" | "methods">) {
    this.definitions = new Map(model.definitions.map((d) => [d.name, d.type]));
    for (const method of methodRoles(model.methods)) {
      const senders = sendersOf(method.sender);
      const receivers = counterparts(senders);
      const outbound = this.fromTypes([
        { kind: "ref", name: method.message },
        ...(method.params ? [method.params] : []),
      ]);
      const inbound = this.fromTypes(
        method.results.map((name): TypeNode => ({ kind: "ref", name })),
      );
      this.byMethod.set(
        method.method,
        new Set([...(this.byMethod.get(method.method) ?? []), ...outbound, ...inbound]),
      );
      for (const name of outbound) this.addFlow(name, senders, receivers);
      for (const name of inbound) this.addFlow(name, receivers, senders);
    }
    // Bases take the flow of the definitions that inherit their properties.
    for (const definition of model.definitions) {
      const flow = this.flows.get(definition.name);
      if (!flow || definition.type.kind !== "object") continue;
      const bases = new Set(
        definition.type.properties
          .map((p) => p.declaredIn)
          .filter((b): b is string => b !== null && b !== definition.name),
      );
      if (
        definition.type.indexSignature?.declaredIn &&
        definition.type.indexSignature.declaredIn !== definition.name
      ) {
        bases.add(definition.type.indexSignature.declaredIn);
      }
      for (const base of bases) this.addFlow(base, [...flow.producers], [...flow.consumers]);
    }
  }

  /** Every definition reachable from `name` (itself included). */
  closure(name: string): Set<string> {
    let result = this.closures.get(name);
    if (result) return result;
    result = new Set<string>();
    const queue = [name];
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (result.has(next)) continue;
      const type = this.definitions.get(next);
      if (!type) continue;
      result.add(next);
      walkType(type, (node) => {
        if (node.kind === "ref" && !result!.has(node.name)) queue.push(node.name);
      });
    }
    this.closures.set(name, result);
    return result;
  }

  private fromTypes(types: TypeNode[]): Set<string> {
    const names = new Set<string>();
    for (const type of types) {
      walkType(type, (node) => {
        if (node.kind === "ref") for (const name of this.closure(node.name)) names.add(name);
      });
    }
    return names;
  }

  private addFlow(name: string, producers: Iterable<Party>, consumers: Iterable<Party>): void {
    let flow = this.flows.get(name);
    if (!flow) this.flows.set(name, (flow = { producers: new Set(), consumers: new Set() }));
    for (const p of producers) flow.producers.add(p);
    for (const c of consumers) flow.consumers.add(c);
  }

  /** Methods whose message, params or results reach the definition, in model order. */
  methodsReaching(definition: string): string[] {
    return this.model.methods
      .filter((m) => this.byMethod.get(m.method)?.has(definition))
      .map((m) => m.method);
  }

  /** Who writes and who reads a definition; `null` when no method reaches it (its use is unknown). */
  flowOf(definition: string): { producers: Party[]; consumers: Party[] } | null {
    const flow = this.flows.get(definition);
    if (!flow) return null;
    return {
      producers: PARTIES.filter((p) => flow.producers.has(p)),
      consumers: PARTIES.filter((p) => flow.consumers.has(p)),
    };
  }
}
