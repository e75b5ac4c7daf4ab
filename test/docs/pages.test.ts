/**
 * The shape of the documentation: the README stays a five-minute page that opens with the two
 * commands CI and the team run on a fresh machine, and every link between the pages leads to a
 * file that exists.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { codeBlocks, docPages } from "../helpers/markdown.js";
import { ROOT } from "../helpers/spec.js";

const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** Every relative link target of a page (no scheme, no bare anchor), its `#anchor` dropped. */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target!.split("#")[0]!)
    .filter((target) => target !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe("the README", () => {
  it("opens with the two commands a newcomer runs: install and generate, then test", () => {
    const [first] = codeBlocks("README.md", README);
    expect(first!.line).toBe(3);
    expect(first!.lang).toBe("sh");
    expect(first!.code.split("\n")).toEqual([
      "npm ci && npm run generate -- --revision 2026-07-28",
      "npm test",
    ]);
  });

  it("is at most 250 lines", () => {
    expect(README.trimEnd().split("\n").length).toBeLessThanOrEqual(250);
  });

  it("maps every page under docs/", () => {
    const linked = new Set(relativeLinks(README));
    for (const page of docPages(ROOT).filter((p) => p !== "README.md"))
      expect(linked.has(page), `${page} is not in the README's map`).toBe(true);
  });
});

describe.each(docPages(ROOT))("%s", (page) => {
  it("links only to files that exist", () => {
    const text = readFileSync(join(ROOT, page), "utf8");
    const missing = relativeLinks(text)
      .map((target) => normalize(join(dirname(page), target)))
      .filter((target) => !existsSync(join(ROOT, target)));
    expect(missing).toEqual([]);
  });
});
