import { it } from "vitest";
import fc from "fast-check";
import { join } from "node:path";
import { REVISIONS, examples, generatedDir } from "./helpers/spec.js";
import { createOracle } from "./helpers/oracle.js";
import { mutate, mutationArbitrary, schemaArbitraries, schemaFacts, type Json } from "./helpers/mutate.js";

const ex = examples("2026-07-28");
it("explore", async () => {
  for (const rev of (process.env.REVS ? process.env.REVS.split(',') : REVISIONS)) {
    const { validators } = (await import(join(generatedDir(rev), "validators.ts"))) as { validators: Record<string, (v: unknown) => { ok: boolean; errors?: unknown }> };
    const oracle = createOracle(rev);
    const facts = schemaFacts(oracle.schema);
    const arbs = schemaArbitraries(oracle.schema, oracle.defsKey);
    const names = oracle.names.filter((n) => validators[n]);
    const seeds = ex.map((e) => e.value as Json);
    const gen = fc.constantFrom(...names).chain((n) => arbs(n));
    const seedArb = fc.oneof(fc.constantFrom(...seeds), gen);
    const samples = fc.sample(fc.tuple(seedArb, fc.array(mutationArbitrary, { minLength: 0, maxLength: 3 })), { seed: 1, numRuns: Number(process.env.RUNS ?? 2000) });
    const dis = new Map<string, { n: number; v: string; ours: boolean; err: string }>();
    let cases = 0; const pos = new Map<string, number>();
    const t0 = Date.now();
    for (const [seed, muts] of samples) {
      let v: Json;
      try { v = mutate(seed, muts, facts, seeds); } catch (e) { console.log("FAIL", rev, JSON.stringify(muts), (()=>{try{return JSON.stringify(seed).slice(0,500)}catch{return "cyclic seed"}})()); throw e; }
      for (const n of names) {
        cases++;
        const r = validators[n]!(v);
        const a = oracle.validator(n)(v);
        if (a) pos.set(n, (pos.get(n) ?? 0) + 1);
        if (r.ok !== a) {
          const s = JSON.stringify(v);
          const d = dis.get(n);
          if (!d) dis.set(n, { n: 1, v: s, ours: r.ok, err: JSON.stringify(r.errors ?? "") });
          else { d.n++; if (s.length < d.v.length) { d.v = s; d.ours = r.ok; d.err = JSON.stringify(r.errors ?? ""); } }
        }
      }
    }
    const before = JSON.stringify(ex.map(e=>e.value)).length; console.log("ex size", before);
    console.log(rev, "cases", cases, "ms", Date.now() - t0, "disagreeing defs", dis.size);
    console.log("low positives", names.filter(n => (pos.get(n) ?? 0) < 20).map(n => n + ":" + (pos.get(n) ?? 0)).join(" "));
    for (const [n, d] of dis) console.log("  ", n, d.n, "ours", d.ours, d.v.slice(0, 400), d.err.slice(0, 200));
  }
});
