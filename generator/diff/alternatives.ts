import type { ObjectType, TypeNode } from "../ir/model.js";
import { counterparts, type Party } from "../registry/reach.js";
import { severityFor } from "./rules.js";
import { typeText } from "./types.js";
import type { DiffContext } from "./context.js";
import { objectChanges } from "./definitions.js";

// Params that are a union of object alternatives: each old alternative paired with the new one
// that continues it, and what changed inside each pair.

/** One alternative of params that may be a union: its definition's name (`null` inline), its type, the object it is. */
interface Variant {
  name: string | null;
  type: TypeNode;
  object: ObjectType;
}

/** Params' alternatives before and after, paired old → new, and those only one side has. */
export interface Alternatives {
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

/**
 * Params that are, or were, a union of object alternatives, each old alternative paired with the
 * new one that continues it: the same name (renames followed), else the one sharing the most
 * properties (then the one with fewest others); the rest were added or removed. `null` unless one
 * side has several alternatives and every alternative of both sides is an object.
 */
export function alternatives(
  c: DiffContext,
  before: TypeNode,
  after: TypeNode,
): Alternatives | null {
  const left = variants(c, before, "from");
  const right = variants(c, after, "to");
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
    const y = x.name === null ? undefined : added.find((v) => v.name === c.renamed(x.name!));
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
          (score.shared > 0 && score.shared === bestScore.shared && score.others < bestScore.others)
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
function variants(c: DiffContext, type: TypeNode, side: "from" | "to"): Variant[] | null {
  let node = type;
  const seen = new Set<string>();
  while (node.kind === "ref" && !seen.has(node.name)) {
    const target = c.lookup[side](node.name);
    if (target?.kind !== "union") break;
    seen.add(node.name);
    node = target;
  }
  const out: Variant[] = [];
  for (const member of node.kind === "union" ? node.members : [node]) {
    const object = c.index[side].objectOf(member);
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
export function alternativeChanges(
  c: DiffContext,
  at: string,
  message: string,
  senders: Party[],
  { before, after, paired, added, removed }: Alternatives,
): void {
  const name = (v: Variant, side: "old" | "new") => v.name ?? `the ${side} inline params`;
  const text = (list: Variant[]) =>
    [...new Set(list.map((v) => typeText(v.type)))].sort().join(" | ");
  const continued = paired.filter(([x, y]) => x.name === null || c.renamed(x.name) !== y.name);
  if (added.length > 0 || removed.length > 0 || continued.length > 0) {
    const parts = [
      added.length ? `added ${added.map((v) => name(v, "new")).join(", ")}` : "",
      removed.length ? `removed ${removed.map((v) => name(v, "old")).join(", ")}` : "",
      ...continued.map(([x, y]) => `${name(x, "old")} continued by ${name(y, "new")}`),
    ].filter(Boolean);
    c.add(
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
    if (x.name !== null && c.renamed(x.name) === y.name) continue;
    c.changes.push(...objectChanges(c, message, ["params"], x.object, y.object));
  }
}
