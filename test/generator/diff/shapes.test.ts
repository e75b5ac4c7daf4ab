import { describe, expect, it } from "vitest";
import { shapeText, type KeptShapes } from "../../../generator/diff/types.js";
import type { TypeNode } from "../../../generator/ir/model.js";
import { loadModel } from "../../../generator/load/index.js";
import { REVISIONS, schemaFile } from "../../helpers/spec.js";
import { prop, t } from "../../helpers/types-ir.js";

// A definition's shape, worked out once and kept (`shapes`), must read as it reads worked out
// afresh wherever it is met: kept only when it cut no ref back to an expansion outside it.
describe("shapes kept between calls", () => {
  const withKept = (types: Map<string, TypeNode>, order: readonly string[]) => {
    const lookup = (name: string) => types.get(name);
    const shapes: KeptShapes = new Map();
    return order.map((name) => [
      shapeText(t.ref(name), lookup, shapes),
      shapeText(t.ref(name), lookup),
    ]);
  };

  it("read the same as worked out afresh, through mutual recursion, in any order", () => {
    // A ↔ B recursive; C reaches both; D is plain; E reaches D twice.
    const types = new Map<string, TypeNode>([
      ["A", t.literalObject([prop("b", t.ref("B")), prop("d", t.ref("D"))])],
      ["B", t.literalObject([prop("a", t.array(t.ref("A")))])],
      ["C", t.union(t.ref("A"), t.ref("B"), t.string())],
      ["D", t.literalObject([prop("n", t.number())])],
      ["E", t.intersection(t.ref("D"), t.literalObject([prop("again", t.ref("D"))]))],
    ]);
    const names = [...types.keys()];
    const orders = [names, [...names].reverse(), ["C", "B", "E", "A", "D", "C", "A"]];
    for (const order of orders)
      for (const [kept, fresh] of withKept(types, order)) expect(kept).toBe(fresh);
    // A's own shape expands B, and inside it A is a name: A's kept shape (B expanded) must not
    // stand for A inside B's, where A's expansion leaves B a name.
    expect(shapeText(t.ref("A"), (n) => types.get(n))).toContain('"a": Array<A>');
  });

  it.each(REVISIONS)(
    "%s: every definition's shape, kept, reads as worked out afresh",
    (revision) => {
      const model = loadModel(schemaFile(revision), { revision });
      const types = new Map(model.definitions.map((d) => [d.name, d.type]));
      const order = [...types.keys()];
      for (const [kept, fresh] of withKept(types, [...order, ...[...order].reverse()]))
        expect(kept).toBe(fresh);
    },
  );
});
