import type { ProtocolModel, TypeNode } from "../ir/model.js";
import { ModelIndex, walkType } from "../ir/query.js";
import type { ChangelogDeprecation } from "./changelog.js";

/** What the registry knows of an entry when it looks for its migration in the changelog. */
export interface MigrationSubject {
  definition: string;
  path: string[];
  /** Wire methods the entry affects; `null` when it affects every method (a `_meta` key), which tells nothing. */
  methods: string[] | null;
  sep: string | null;
}

/**
 * The changelog's migration for one registry entry, or `null` when it names none (or it cannot be
 * told which of several applies). The item is the one citing the entry's SEP: the only one, or the
 * one quoting the entry's name. Within an item naming migrations per feature ("… instead of
 * Sampling"), the entry's feature is the one its own names speak of (`SamplingMessage`,
 * `ClientCapabilities.sampling`), else the one its methods belong to (`sampling/createMessage`),
 * else the one of the definitions its type refers to (a `_meta` key typed `LoggingLevel`);
 * exactly one must fit.
 */
export function changelogMigration(
  subject: MigrationSubject,
  items: readonly ChangelogDeprecation[],
  model: ProtocolModel,
): string | null {
  if (subject.sep === null) return null;
  const citing = items.filter((item) => item.seps.includes(subject.sep!));
  const names = [subject.definition, ...subject.path];
  const item =
    citing.length === 1 ? citing[0]! : citing.find((i) => i.quoted.some((q) => names.includes(q)));
  if (!item) return null;
  const whole = item.migrations.filter((m) => m.feature === null);
  const featured = item.migrations.filter((m) => m.feature !== null);
  if (featured.length === 0) return whole.length === 1 ? whole[0]!.text : null;

  const features = featured.map((m) => m.feature!);
  const fitting = (words: string[]) => features.filter((f) => words.some((w) => sameWord(w, f)));
  const own = fitting(names.flatMap(wordsOf));
  const byMethods = fitting((subject.methods ?? []).map((m) => m.split("/")[0]!));
  const byRefs = fitting(referencedNames(subject, model).flatMap(wordsOf));
  const feature = [own, byMethods, byRefs].find((list) => list.length > 0);
  if (feature?.length !== 1) return null;
  return featured.find((m) => m.feature === feature[0])!.text;
}

/** A name's words, lower case: `ListRootsRequest` → list, roots, request; `io.x/logLevel` → io, x, log, level. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** A word naming a feature, in the singular or plural (`root` for Roots). */
function sameWord(word: string, feature: string): boolean {
  const f = feature.toLowerCase();
  return word === f || `${word}s` === f || word === `${f}s`;
}

/** The definitions the deprecated definition's or property's type refers to directly. */
function referencedNames(subject: MigrationSubject, model: ProtocolModel): string[] {
  const index = new ModelIndex(model);
  let type: TypeNode | undefined = index.get(subject.definition)?.type;
  for (const name of subject.path) type = index.property(type, name)?.type;
  const names: string[] = [];
  if (type) walkType(type, (node) => node.kind === "ref" && names.push(node.name));
  return names;
}
