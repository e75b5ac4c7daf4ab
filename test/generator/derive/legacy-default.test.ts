/**
 * The default of `--legacy` (generator/derive/legacy-default.ts): the released revisions dated
 * before the generated one (from the catalog), kept when the loaded models say they are
 * initialize-era; and `--legacy none`. Small stand-in models for the rules, then the real
 * catalog and schemas.
 */
import { describe, expect, it } from "vitest";
import type { ProtocolModel } from "../../../generator/ir/model.js";
import { loadModel } from "../../../generator/load/index.js";
import {
  defaultLegacy,
  legacyCandidates,
  legacyChoice,
  NO_LEGACY,
} from "../../../generator/derive/legacy-default.js";
import { catalog } from "../../../generator/spec/catalog.js";
import { REVISIONS, SPEC_DIR, schemaFile } from "../../helpers/spec.js";

const CATALOG = [
  { revision: "2030-01-01", releaseDate: "2030-01-01" },
  { revision: "draft", releaseDate: null },
  { revision: "2028-01-01", releaseDate: "2028-01-01" },
  { revision: "2029-01-01", releaseDate: "2029-01-01" },
  { revision: "2031-01-01", releaseDate: "2031-01-01" },
];

/** Only what bridgeProblem reads: the lifecycle's kind and the protocol version. */
function stub(revision: string, kind: "stateful" | "stateless"): ProtocolModel {
  return { revision, protocolVersion: revision, lifecycle: { kind } } as unknown as ProtocolModel;
}

describe("legacyCandidates", () => {
  it("is every released revision dated before the generated one, oldest first", () => {
    expect(legacyCandidates("2030-01-01", true, CATALOG)).toEqual(["2028-01-01", "2029-01-01"]);
  });

  it("puts an unreleased revision (a draft) after every release", () => {
    expect(legacyCandidates("draft", true, CATALOG)).toEqual([
      "2028-01-01",
      "2029-01-01",
      "2030-01-01",
      "2031-01-01",
    ]);
  });

  it("never holds an unreleased revision, nor the generated one", () => {
    for (const revision of ["2028-01-01", "2031-01-01", "draft"])
      expect(legacyCandidates(revision, true, CATALOG)).not.toContain("draft");
    expect(legacyCandidates("2031-01-01", true, CATALOG)).not.toContain("2031-01-01");
  });

  it("is empty for the oldest release and for a revision that cannot serve initialize-era clients", () => {
    expect(legacyCandidates("2028-01-01", true, CATALOG)).toEqual([]);
    expect(legacyCandidates("2031-01-01", false, CATALOG)).toEqual([]);
  });

  it("treats a revision the catalog does not list as unreleased", () => {
    expect(legacyCandidates("mine", true, CATALOG)).toHaveLength(4);
  });
});

describe("defaultLegacy", () => {
  it("keeps the initialize-era candidates, as the models say, in the order given", () => {
    const modern = stub("2031-01-01", "stateless");
    const kept = defaultLegacy(modern, [
      stub("2028-01-01", "stateful"),
      stub("2029-01-01", "stateless"),
      stub("2030-01-01", "stateful"),
    ]);
    expect(kept.map((m) => m.revision)).toEqual(["2028-01-01", "2030-01-01"]);
  });

  it("is empty when the generated revision is itself initialize-era", () => {
    expect(defaultLegacy(stub("2030-01-01", "stateful"), [stub("2028-01-01", "stateful")])).toEqual(
      [],
    );
  });
});

describe("legacyChoice (--legacy as given)", () => {
  it("absent is the default; none (alone) or an empty list is none; a list is that list", () => {
    expect(legacyChoice(undefined)).toEqual({ kind: "default" });
    expect(legacyChoice([NO_LEGACY])).toEqual({ kind: "list", revisions: [] });
    expect(legacyChoice([])).toEqual({ kind: "list", revisions: [] });
    expect(legacyChoice(["a", "b", "a"])).toEqual({ kind: "list", revisions: ["a", "b"] });
  });

  it("none beside a revision is a mistake, said", () => {
    const choice = legacyChoice(["none", "2025-06-18"]);
    expect(choice).toMatchObject({ kind: "invalid" });
    expect((choice as { why: string }).why).toMatch(/--legacy none .*got none,2025-06-18/);
  });
});

const all = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"];
describe.skipIf(!all.every((r) => REVISIONS.includes(r)))(
  "the default over the real catalog and schemas",
  () => {
    const known = catalog({ specDir: SPEC_DIR, env: {}, cacheDir: SPEC_DIR });
    const models = new Map(all.map((r) => [r, loadModel(schemaFile(r), { revision: r })]));
    const defaultOf = (revision: string) => {
      const modern = models.get(revision)!;
      const candidates = legacyCandidates(
        revision,
        modern.lifecycle.kind === "stateless",
        known,
      ).map((r) => models.get(r)!);
      return defaultLegacy(modern, candidates).map((m) => m.revision);
    };

    it("2026-07-28 serves every earlier release, 2024-11-05 included", () => {
      expect(defaultOf("2026-07-28")).toEqual([
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
      ]);
    });

    it("draft serves the initialize-era releases, not the stateless 2026-07-28", () => {
      expect(defaultOf("draft")).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]);
    });

    it("an initialize-era revision serves none", () => {
      for (const revision of ["2024-11-05", "2025-11-25"]) expect(defaultOf(revision)).toEqual([]);
    });
  },
);
