import { it } from "vitest";
import fc from "fast-check";
import { createOracle } from "./helpers/oracle.js";
it("explore2", async () => {
  const oracle = createOracle("2026-07-28");
  const names = fc.sample(fc.constantFrom(...oracle.names), { seed: 1, numRuns: 2000 });
  const c = new Map<string, number>(); for (const n of names) c.set(n, (c.get(n) ?? 0) + 1);
  console.log(c.size, [...c].sort((a, b) => b[1] - a[1]).slice(0, 10), c.get("CompleteResult"));
  const idx = fc.sample(fc.nat(), { seed: 1, numRuns: 2000 });
  console.log(idx.filter(i => i < 10).length, idx.slice(0,30).join(","));
});
