import type { TypeNode } from "../ir/model.js";
import { walkType } from "../ir/query.js";

/**
 * What a legacy revision's `types.ts` or `validators.ts` can take from the same module of a newer
 * revision in the same output instead of emitting it again. Most definitions of the initialize-era
 * revisions are emitted the same from one revision to the next; re-exported, they are written,
 * formatted and type-checked once.
 */

/** One declaration of a module: its name, the text it is emitted as, and the names that text uses. */
export interface Shareable {
  readonly name: string;
  /** Everything that makes the emitted declaration what it is: equal texts emit the same code. */
  readonly text: string;
  /** The module's other declarations it refers to. */
  readonly references: readonly string[];
}

/**
 * The names of `own` that the newer module declares with the same text and whose every reference is
 * shared too, transitively: a re-exported `isFoo` calls the newer module's `isBar`, which is this
 * revision's only if `Bar` is shared. A reference to a name that is not in `own` is never shared.
 */
export function sharedNames(
  own: readonly Shareable[],
  newer: ReadonlyMap<string, string>,
): Set<string> {
  const byName = new Map(own.map((item) => [item.name, item]));
  const shared = new Set(
    own.filter((item) => newer.get(item.name) === item.text).map((i) => i.name),
  );
  // Each pass drops the candidates that use a name no longer shared; it ends when a pass drops none,
  // after at most as many passes as there are candidates.
  for (let changed = true; changed;) {
    changed = false;
    for (const name of shared)
      if (byName.get(name)!.references.some((reference) => !shared.has(reference))) {
        shared.delete(name);
        changed = true;
      }
  }
  return shared;
}

/** The definitions a type refers to; with `constants`, also the constants of its `typeof` literals. */
export function typeReferences(type: TypeNode, constants = false): string[] {
  const names = new Set<string>();
  walkType(type, (node) => {
    if (node.kind === "ref") names.add(node.name);
    else if (constants && node.kind === "literal" && node.constant !== null)
      names.add(node.constant);
  });
  return [...names];
}

/**
 * A type's structure without what only documents it (docs, lines, where a property was declared,
 * deprecation notes): two definitions with equal shapes are the same TypeScript type.
 */
export function typeShape(type: TypeNode): string {
  return JSON.stringify(type, (name, value: unknown) =>
    DOCUMENTATION.has(name) ? undefined : value,
  );
}

const DOCUMENTATION = new Set(["doc", "line", "declaredIn", "deprecated"]);
