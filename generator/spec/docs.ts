import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * The spec docs beside a schema, where a checkout has them: `<root>/schema/<rev>/schema.ts` has
 * its docs at `<root>/docs/<rev>/` (the layout of a shared spec folder) or
 * `<root>/docs/specification/<rev>/` (the upstream repository's). The download cache holds
 * schemas only, so nothing generated may depend on what is read here: the registry's and the
 * diff's reports do.
 */
export function docsDirsOf(schemaFile: string): string[] {
  const revisionDir = dirname(schemaFile);
  const revision = basename(revisionDir);
  const root = dirname(dirname(revisionDir));
  return [join(root, "docs", revision), join(root, "docs", "specification", revision)];
}

/** The text of the revision's `changelog.mdx` beside its schema, or `null` when there is none. */
export function changelogText(schemaFile: string): string | null {
  for (const dir of docsDirsOf(schemaFile)) {
    try {
      return readFileSync(join(dir, "changelog.mdx"), "utf8");
    } catch {
      // Not in this layout: try the next.
    }
  }
  return null;
}
