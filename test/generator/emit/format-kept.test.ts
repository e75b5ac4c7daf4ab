import { describe, expect, it } from "vitest";
import { loadModel } from "../../../generator/load/index.js";
import { renderRevision } from "../../../generator/emit/index.js";
import { format } from "../../../generator/emit/format.js";
import { formatKept, type FormattedBodies } from "../../../generator/emit/format-kept.js";
import { emitFacts, schemaFile } from "../../helpers/spec.js";

/** A store that counts what it was asked for and told. */
function countingStore(): FormattedBodies & {
  map: Map<string, string>;
  hits: number;
  sets: number;
} {
  const map = new Map<string, string>();
  const store = {
    map,
    hits: 0,
    sets: 0,
    get(key: string) {
      const found = map.get(key);
      if (found !== undefined) store.hits++;
      return found;
    },
    set(key: string, formatted: string) {
      store.sets++;
      map.set(key, formatted);
    },
  };
  return store;
}

describe("formatted bodies kept between runs", () => {
  it("formats what it has not kept, keeps it, and answers from the store after", async () => {
    const store = countingStore();
    const body = "export const a = {b:1,  c: [1,2]}\n";
    expect(await formatKept(body, store)).toBe(await format(body));
    expect(store.sets).toBe(1);
    // What the store holds is what comes back: the second call does not format.
    const [key] = [...store.map.keys()];
    store.map.set(key!, "kept\n");
    expect(await formatKept(body, store)).toBe("kept\n");
    expect(store.sets).toBe(1);
    // Another body, another key.
    await formatKept("export const a = 2\n", store);
    expect(store.map.size).toBe(2);
    expect(await formatKept(body)).toBe(await format(body));
  });

  it("renders a revision the same with an empty store, a full one and none", async () => {
    const revision = "2025-11-25";
    const model = loadModel(schemaFile(revision), { revision });
    const plain = await renderRevision(model, "test", emitFacts(model));
    const store = countingStore();
    const filling = await renderRevision(model, "test", emitFacts(model), store);
    const sets = store.sets;
    expect(sets).toBeGreaterThan(5);
    const hits = store.hits;
    const filled = await renderRevision(model, "test", emitFacts(model), store);
    expect(filling).toEqual(plain);
    expect(filled).toEqual(plain);
    expect(store.sets).toBe(sets);
    const formatted = plain.filter((f) => f.path.endsWith(".ts") && !f.path.startsWith("runtime/"));
    expect(store.hits - hits).toBe(formatted.length);
    // Another header (here: another generator version), the same bodies: nothing formatted again.
    const other = await renderRevision(model, "other", emitFacts(model), store);
    expect(store.sets).toBe(sets);
    expect(other.find((f) => f.path === "types.ts")?.content).toContain("other");
  });
});
